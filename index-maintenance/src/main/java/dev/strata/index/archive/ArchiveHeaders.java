package dev.strata.index.archive;

import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.index.IndexFileMeta;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads archive headers, cached by file name (archives are immutable). A header read checks magic,
 * version, lengths, the header checksum, the footer and that the file has the size recorded in the
 * manifest; {@link #verify} additionally checks the CRC32 of the whole file, once per file name.
 * Failures are not cached (an I/O error may be transient). At most 4 096 headers are remembered, least
 * recently used first out, so a long-lived searcher does not grow without bound.
 */
public final class ArchiveHeaders {

    private static final int CAPACITY = 4096;

    private final Map<String, ArchiveHeader> headers = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ArchiveHeader> eldest) {
            return size() > CAPACITY;
        }
    });
    private final Set<String> verified = ConcurrentHashMap.newKeySet();
    private final boolean verifyContent;

    /**
     * @param verifyContent whether {@link #header} also checks the whole file's checksum (slower, catches
     *     corruption inside the packed index)
     */
    public ArchiveHeaders(boolean verifyContent) {
        this.verifyContent = verifyContent;
    }

    public ArchiveHeader header(ArchiveFiles files, IndexFileMeta meta) throws IOException {
        ArchiveHeader cached = headers.get(meta.fileName());
        if (cached != null && (!verifyContent || verified.contains(meta.fileName()))) {
            return cached;
        }
        Path path = files.path(meta);
        try (SeekableInputStream in = files.fileIO().newInputStream(path)) {
            long length = checkedLength(files, meta, path);
            ArchiveHeader header = ArchiveFormat.readHeader(path.toString(), in, length).header;
            if (verifyContent) {
                ArchiveFormat.verifyChecksum(path.toString(), in, length);
                rememberVerified(meta.fileName());
            }
            headers.put(meta.fileName(), header);
            return header;
        }
    }

    /** Checks the whole file's checksum (once per file name) and returns its header. */
    public ArchiveHeader verify(ArchiveFiles files, IndexFileMeta meta) throws IOException {
        ArchiveHeader cached = headers.get(meta.fileName());
        if (cached != null && verified.contains(meta.fileName())) {
            return cached;
        }
        Path path = files.path(meta);
        try (SeekableInputStream in = files.fileIO().newInputStream(path)) {
            long length = checkedLength(files, meta, path);
            ArchiveHeader header = ArchiveFormat.readHeader(path.toString(), in, length).header;
            ArchiveFormat.verifyChecksum(path.toString(), in, length);
            headers.put(meta.fileName(), header);
            rememberVerified(meta.fileName());
            return header;
        }
    }

    private void rememberVerified(String fileName) {
        if (verified.size() >= CAPACITY) {
            verified.clear();
        }
        verified.add(fileName);
    }

    static long checkedLength(ArchiveFiles files, IndexFileMeta meta, Path path) throws IOException {
        long length = files.fileIO().getFileSize(path);
        if (length != meta.fileSize()) {
            throw new CorruptArchiveException(path.toString(), "file size recorded in the index manifest", meta.fileSize(), length);
        }
        return length;
    }
}
