package dev.strata.index.archive;

import dev.strata.shredding.cache.BoundedCache;
import dev.strata.shredding.io.DamagedFileException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.store.IndexInput;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.index.IndexFileMeta;

/**
 * Reads archive headers, cached by full path, length, modification time and the footer's whole-file
 * checksum (read on every call): a copied or restored table holds archives of the same name whose
 * bytes may differ, and a damaged copy must not be served because the original was. Failures are
 * not cached (an I/O error may be transient).
 */
public final class ArchiveHeaders {

    private static final int CAPACITY = 4096;

    /** Headers by identity of the archive's bytes, and whether the whole file was verified. */
    private final BoundedCache<String, Known> headers = BoundedCache.of(CAPACITY);

    private final boolean verifyContent;

    /** With {@code verifyContent}, {@link #header} also checks the whole file's checksum. */
    public ArchiveHeaders(boolean verifyContent) {
        this.verifyContent = verifyContent;
    }

    public ArchiveHeader header(ArchiveFiles files, IndexFileMeta meta) throws IOException {
        return read(files, meta, verifyContent);
    }

    /**
     * The archives of {@code files} as one statement sees them: each archive's identity (status and
     * footer) is checked once however often the statement's passes ask, which on object storage
     * saves two requests per archive and pass.
     */
    public Statement forStatement(ArchiveFiles files) {
        return new Statement(files);
    }

    /**
     * One bucket's archives for one statement: identities memoized, headers from the shared cache
     * by identity.
     */
    public final class Statement implements HeaderLookup {
        private final ArchiveFiles files;
        private final Map<String, String> identities = new ConcurrentHashMap<>();

        private Statement(ArchiveFiles files) {
            this.files = files;
        }

        public ArchiveFiles files() {
            return files;
        }

        /** What identifies the archive's bytes (see {@link ArchiveHeaders}), checked once. */
        public String identity(IndexFileMeta archive) throws IOException {
            String known = identities.get(archive.fileName());
            if (known == null) {
                known = ArchiveHeaders.identity(files, archive);
                identities.put(archive.fileName(), known);
            }
            return known;
        }

        @Override
        public ArchiveHeader header(IndexFileMeta archive) throws IOException {
            return read(files, archive, identity(archive), verifyContent);
        }
    }

    /** Checks the whole file's checksum (once per identity of its bytes) and returns its header. */
    public ArchiveHeader verify(ArchiveFiles files, IndexFileMeta meta) throws IOException {
        return read(files, meta, true);
    }

    private ArchiveHeader read(ArchiveFiles files, IndexFileMeta meta, boolean checkContent)
            throws IOException {
        return read(files, meta, identity(files, meta), checkContent);
    }

    /** The header of the archive whose bytes {@code key} identifies, cached. */
    private ArchiveHeader read(
            ArchiveFiles files, IndexFileMeta meta, String key, boolean checkContent)
            throws IOException {
        Known cached = headers.get(key);
        if (cached != null && (!checkContent || cached.verified())) {
            return cached.header();
        }
        Path path = files.path(meta);
        try (SeekableInputStream in = files.fileIO().newInputStream(path)) {
            IndexInput input = StreamIndexInput.of(path.toString(), in, meta.fileSize());
            ArchiveHeader header = ArchiveFormat.readHead(path.toString(), input).header();
            if (checkContent) {
                ArchiveFormat.checkIntegrity(path.toString(), input);
            }
            headers.put(key, new Known(header, checkContent));
            return header;
        }
    }

    /** {@link #identity(ArchiveFiles, IndexFileMeta, Path, SeekableInputStream)} of the file. */
    static String identity(ArchiveFiles files, IndexFileMeta meta) throws IOException {
        Path path = files.path(meta);
        try (SeekableInputStream in = files.fileIO().newInputStream(path)) {
            return identity(files, meta, path, in);
        }
    }

    /** {@code path|length|mtime|footer checksum}, after checking the manifest size and footer. */
    private static String identity(
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
