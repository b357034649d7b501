package dev.strata.index.archive;

import dev.strata.shredding.io.DamagedFileException;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.store.Directory;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.index.IndexFileMeta;

/**
 * An open archive: its checked header and its Lucene index, read in place from the archive file (no
 * copy to local disk). The whole file's checksum is verified before the index is opened.
 */
public final class ArchiveReader implements Closeable {

    private final IndexFileMeta meta;
    private final ArchiveHeader header;
    private final SeekableInputStream stream;
    private final Directory directory;
    private final DirectoryReader reader;

    private ArchiveReader(
            IndexFileMeta meta,
            ArchiveHeader header,
            SeekableInputStream stream,
            Directory directory,
            DirectoryReader reader) {
        this.meta = meta;
        this.header = header;
        this.stream = stream;
        this.directory = directory;
        this.reader = reader;
    }

    public static ArchiveReader open(ArchiveFiles files, IndexFileMeta meta, ArchiveHeaders headers)
            throws IOException {
        Path path = files.path(meta);
        headers.verify(files, meta);
        SeekableInputStream in = files.fileIO().newInputStream(path);
        try {
            long length = ArchiveHeaders.checkedLength(files, meta, path);
            ArchiveFormat.ParsedHeader parsed =
                    ArchiveFormat.readHeader(path.toString(), in, length);
            if (parsed.header.rowCount() != meta.rowCount()) {
                throw new DamagedFileException(
                        path.toString(),
                        "row count recorded in the index manifest",
                        meta.rowCount(),
                        parsed.header.rowCount());
            }
            Map<String, long[]> table =
                    ArchiveFormat.readFileTable(path.toString(), in, parsed.end, length);
            ArchiveDirectory dir = new ArchiveDirectory(path.toString(), in, table);
            DirectoryReader reader;
            try {
                reader = DirectoryReader.open(dir);
            } catch (IOException | RuntimeException e) {
                throw new DamagedFileException(path.toString(), "unreadable Lucene index", e);
            }
            if (reader.numDocs() != parsed.header.docCount()) {
                reader.close();
                throw new DamagedFileException(
                        path.toString(),
                        "document count",
                        parsed.header.docCount(),
                        reader.numDocs());
            }
            return new ArchiveReader(meta, parsed.header, in, dir, reader);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    public IndexFileMeta meta() {
        return meta;
    }

    public ArchiveHeader header() {
        return header;
    }

    public IndexReader indexReader() {
        return reader;
    }

    /** The read-only Lucene directory of the packed index (e.g. for {@code CheckIndex}). */
    public Directory directory() {
        return directory;
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            try {
                directory.close();
            } finally {
                stream.close();
            }
        }
    }
}
