package dev.strata.index.archive;

import dev.strata.shredding.cache.BoundedCache;
import dev.strata.shredding.io.DamagedFileException;
import java.io.IOException;
import org.apache.lucene.store.IndexInput;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.index.IndexFileMeta;

/**
 * Reads archive headers, cached by what identifies an archive's bytes: its full path, length,
 * modification time and the whole-file checksum stored in its footer (read and checked on every
 * call, 16 bytes). A file name alone is not enough: a copied or restored table holds archives of
 * the same name whose bytes may differ, and a damaged copy must be checked, not served because the
 * original was.
 *
 * <p>A header read checks that the file has the size recorded in the manifest, and the archive's
 * header, footer structure and head ({@link ArchiveFormat#readHead}); {@link #verify} additionally
 * reads the whole file for its checksum, once per identity. Failures are not cached (an I/O error
 * may be transient). At most 4 096 headers are remembered ({@link BoundedCache}), so a long-lived
 * searcher does not grow without bound.
 */
public final class ArchiveHeaders {

    private static final int CAPACITY = 4096;

    /** Headers by identity of the archive's bytes, and whether the whole file was verified. */
    private final BoundedCache<String, Known> headers = BoundedCache.of(CAPACITY);

    private final boolean verifyContent;

    /**
     * @param verifyContent whether {@link #header} also checks the whole file's checksum (reads the
     *     whole file, catches damage inside the packed index)
     */
    public ArchiveHeaders(boolean verifyContent) {
        this.verifyContent = verifyContent;
    }

    public ArchiveHeader header(ArchiveFiles files, IndexFileMeta meta) throws IOException {
        return read(files, meta, verifyContent);
    }

    /** Checks the whole file's checksum (once per identity of its bytes) and returns its header. */
    public ArchiveHeader verify(ArchiveFiles files, IndexFileMeta meta) throws IOException {
        return read(files, meta, true);
    }

    private ArchiveHeader read(ArchiveFiles files, IndexFileMeta meta, boolean checkContent)
            throws IOException {
        Path path = files.path(meta);
        try (SeekableInputStream in = files.fileIO().newInputStream(path)) {
            String key = identity(files, meta, path, in);
            Known cached = headers.get(key);
            if (cached != null && (!checkContent || cached.verified())) {
                return cached.header();
            }
            IndexInput input = StreamIndexInput.of(path.toString(), in, meta.fileSize());
            ArchiveHeader header = ArchiveFormat.readHead(path.toString(), input).header();
            if (checkContent) {
                ArchiveFormat.checkIntegrity(path.toString(), input);
            }
            headers.put(key, new Known(header, checkContent));
            return header;
        }
    }

    /**
     * What identifies the archive's bytes: {@code path|length|modification time|footer checksum}.
     * Checks that the file has the size recorded in the index manifest and a well-formed footer.
     */
    static String identity(
            ArchiveFiles files, IndexFileMeta meta, Path path, SeekableInputStream in)
            throws IOException {
        FileStatus status = files.fileIO().getFileStatus(path);
        checkLength(meta, path, status.getLen());
        long checksum =
                ArchiveFormat.footerChecksum(
                        path.toString(), StreamIndexInput.of(path.toString(), in, status.getLen()));
        return path
                + "|"
                + status.getLen()
                + "|"
                + status.getModificationTime()
                + "|"
                + Long.toHexString(checksum);
    }

    static long checkedLength(ArchiveFiles files, IndexFileMeta meta, Path path)
            throws IOException {
        return checkLength(meta, path, files.fileIO().getFileSize(path));
    }

    private static long checkLength(IndexFileMeta meta, Path path, long length)
            throws DamagedFileException {
        if (length != meta.fileSize()) {
            throw new DamagedFileException(
                    path.toString(),
                    "file size recorded in the index manifest",
                    String.valueOf(meta.fileSize()),
                    String.valueOf(length),
                    ArchiveFormat.REBUILD,
                    null);
        }
        return length;
    }

    private record Known(ArchiveHeader header, boolean verified) {}
}
