package dev.strata.index.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The data level and ordered source files of one archive; the binary form is byte-for-byte Paimon's
 * primary-key index source metadata ({@code _SOURCE_META}).
 *
 * <p>Grammar (big-endian, {@link java.io.DataOutput} conventions):
 *
 * <pre>
 * SourceMeta --&gt; Version(int32 = 1), DataLevel(int32 &gt; 0), SourceCount(int32 &gt; 0),
 *                 &lt;Name(uint16 length + modified UTF-8 bytes), RowCount(int64 &gt;= 0)&gt;^SourceCount
 * </pre>
 *
 * There are no trailing bytes.
 */
public final class SourceMeta {

    public static final int VERSION = 1;

    /** The smallest encoded entry: a 2-byte name length and an 8-byte row count. */
    private static final int MIN_ENTRY_BYTES = 10;

    private final int dataLevel;
    private final List<SourceFile> sourceFiles;

    public SourceMeta(int dataLevel, List<SourceFile> sourceFiles) {
        if (dataLevel <= 0) {
            throw new IllegalArgumentException(
                    "Primary-key index data level must be positive, but was " + dataLevel + ".");
        }
        if (sourceFiles == null || sourceFiles.isEmpty()) {
            throw new IllegalArgumentException("An index must reference source files.");
        }
        for (SourceFile file : sourceFiles) {
            Objects.requireNonNull(file, "source file");
        }
        this.dataLevel = dataLevel;
        this.sourceFiles = Collections.unmodifiableList(new ArrayList<>(sourceFiles));
    }

    public int dataLevel() {
        return dataLevel;
    }

    public List<SourceFile> sourceFiles() {
        return sourceFiles;
    }

    /** The only source file; fails unless there is exactly one. */
    public SourceFile sourceFile() {
        if (sourceFiles.size() != 1) {
            throw new IllegalStateException(
                    "Expected exactly one source file, but found " + sourceFiles.size() + ".");
        }
        return sourceFiles.get(0);
    }

    /** The sum of the source row counts, failing on overflow. */
    public long totalRowCount() {
        long total = 0;
        for (SourceFile file : sourceFiles) {
            total = Math.addExact(total, file.rowCount());
        }
        return total;
    }

    public byte[] serialize() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(12 + sourceFiles.size() * 64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(VERSION);
            out.writeInt(dataLevel);
            out.writeInt(sourceFiles.size());
            for (SourceFile file : sourceFiles) {
                out.writeUTF(file.fileName());
                out.writeLong(file.rowCount());
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("Failed to serialize index source metadata.", e);
        }
        return bytes.toByteArray();
    }

    public static SourceMeta deserialize(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException(
                    "Failed to deserialize index source metadata: no bytes.");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        try {
            int version = in.readInt();
            if (version != VERSION) {
                throw new IllegalArgumentException(
                        "Unsupported index source version: " + version + ".");
            }
            int level = in.readInt();
            int count = in.readInt();
            if (count <= 0) {
                throw new IllegalArgumentException("An index must reference source files.");
            }
            int remaining = in.available();
            if (count > remaining / MIN_ENTRY_BYTES) {
                throw new IllegalArgumentException(
                        "Index source file count "
                                + count
                                + " exceeds the maximum "
                                + remaining / MIN_ENTRY_BYTES
                                + " that the remaining "
                                + remaining
                                + " bytes can hold.");
            }
            List<SourceFile> files = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String name = in.readUTF();
                long rows = in.readLong();
                files.add(new SourceFile(name, rows));
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException(
                        "Unexpected trailing bytes in index source metadata.");
            }
            return new SourceMeta(level, files);
        } catch (IOException e) {
            throw new IllegalArgumentException("Failed to deserialize index source metadata.", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SourceMeta)) {
            return false;
        }
        SourceMeta that = (SourceMeta) o;
        return dataLevel == that.dataLevel && sourceFiles.equals(that.sourceFiles);
    }

    @Override
    public int hashCode() {
        return Objects.hash(dataLevel, sourceFiles);
    }

    @Override
    public String toString() {
        return "SourceMeta{level=" + dataLevel + ", sources=" + sourceFiles + "}";
    }
}
