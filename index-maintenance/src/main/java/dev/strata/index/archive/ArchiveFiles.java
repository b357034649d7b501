package dev.strata.index.archive;

import java.io.IOException;
import java.util.Objects;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.index.IndexPathFactory;
import org.apache.paimon.table.FileStoreTable;

/** The archives of one (partition, bucket): the table's {@link FileIO} and index path factory. */
public final class ArchiveFiles {

    /** The index type of archive entries in Paimon's index manifest. */
    public static final String INDEX_TYPE = "pk-full-text";

    private final FileIO fileIO;
    private final IndexPathFactory pathFactory;

    public ArchiveFiles(FileIO fileIO, IndexPathFactory pathFactory) {
        this.fileIO = Objects.requireNonNull(fileIO);
        this.pathFactory = Objects.requireNonNull(pathFactory);
    }

    public static ArchiveFiles of(FileStoreTable table, BinaryRow partition, int bucket) {
        return new ArchiveFiles(
                table.fileIO(), table.store().pathFactory().indexFileFactory(partition, bucket));
    }

    public FileIO fileIO() {
        return fileIO;
    }

    /** A new, unused archive path ({@code index-<uuid>-<n>}). */
    public Path newPath() {
        return pathFactory.newPath();
    }

    public boolean isExternal() {
        return pathFactory.isExternalPath();
    }

    /** The path of a recorded archive (its external path when set). */
    public Path path(IndexFileMeta meta) {
        return pathFactory.toPath(meta);
    }

    /** Deletes a recorded archive's file; a missing file is not an error. */
    public void delete(IndexFileMeta meta) throws IOException {
        Path path = path(meta);
        if (!fileIO.delete(path, false) && fileIO.exists(path)) {
            throw new IOException(
                    "Cannot delete full-text archive " + path + ": the file system refused.");
        }
    }
}
