package dev.strata.index.source;

import java.util.Objects;

/** A data file an archive was built from: its name and the number of physical rows it had. */
public final class SourceFile {

    private final String fileName;
    private final long rowCount;

    public SourceFile(String fileName, long rowCount) {
        if (fileName == null) {
            throw new IllegalArgumentException("Source file name must not be null.");
        }
        if (rowCount < 0) {
            throw new IllegalArgumentException(
                    "Source file row count must not be negative: "
                            + rowCount
                            + " for "
                            + fileName
                            + ".");
        }
        this.fileName = fileName;
        this.rowCount = rowCount;
    }

    public String fileName() {
        return fileName;
    }

    public long rowCount() {
        return rowCount;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SourceFile)) {
            return false;
        }
        SourceFile that = (SourceFile) o;
        return rowCount == that.rowCount && fileName.equals(that.fileName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fileName, rowCount);
    }

    @Override
    public String toString() {
        return fileName + ":" + rowCount;
    }
}
