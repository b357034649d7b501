package dev.strata.index.archive;

import java.util.Map;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.index.IndexFileMeta;

/** Where the Lucene files packed in an archive lie, so a test can damage a chosen one. */
final class PackedFiles {

    private PackedFiles() {}

    /** The intact archive's head, read as {@link ArchiveReader#open} reads it. */
    static ArchiveFormat.Head head(ArchiveFiles files, IndexFileMeta archive) throws Exception {
        String file = files.path(archive).toString();
        try (SeekableInputStream in = files.fileIO().newInputStream(files.path(archive))) {
            return ArchiveFormat.readHead(file, StreamIndexInput.of(file, in, archive.fileSize()));
        }
    }

    /** {offset, length} of the packed file whose name contains {@code part}. */
    static long[] find(ArchiveFiles files, IndexFileMeta archive, String part) throws Exception {
        for (Map.Entry<String, long[]> e : head(files, archive).files().entrySet()) {
            if (e.getKey().contains(part)) {
                return e.getValue();
            }
        }
        throw new AssertionError("no packed file named *" + part + "* in " + archive.fileName());
    }
}
