package dev.strata.index.archive;

import dev.strata.shredding.io.DamagedFileException;
import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.StandardDirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.StringHelper;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.index.IndexFileMeta;

/**
 * An open archive: its checked head and its Lucene index, read in place from the archive file.
 * Opening does not read the whole file; {@link ArchiveHeaders#verify} and {@link #diagnose} do.
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

    /**
     * Opens the archive {@code meta} records; throws {@link DamagedFileException} when the file
     * does not match its manifest entry, is of another format, or Lucene finds its index damaged.
     */
    public static ArchiveReader open(ArchiveFiles files, IndexFileMeta meta) throws IOException {
        Path path = files.path(meta);
        String file = path.toString();
        long length = ArchiveHeaders.checkedLength(files, meta, path);
        SeekableInputStream stream = files.fileIO().newInputStream(path);
        try {
            IndexInput input = StreamIndexInput.of(file, stream, length);
            ArchiveFormat.Head head = ArchiveFormat.readHead(file, input);
            if (head.header().rowCount() != meta.rowCount()) {
                throw new DamagedFileException(
                        file,
                        "row count recorded in the index manifest",
                        String.valueOf(meta.rowCount()),
                        String.valueOf(head.header().rowCount()),
                        ArchiveFormat.REBUILD,
                        null);
            }
            ArchiveDirectory dir = new ArchiveDirectory(file, input, head.files());
            DirectoryReader reader;
            try {
                reader = DirectoryReader.open(dir);
            } catch (IOException | RuntimeException e) {
                throw new DamagedFileException(
                        file,
                        "unreadable Lucene index (" + e + ")",
                        null,
                        null,
                        ArchiveFormat.REBUILD,
                        e);
            }
            try {
                byte[] commit = ((StandardDirectoryReader) reader).getSegmentInfos().getId();
                if (!Arrays.equals(commit, head.id())) {
                    throw new DamagedFileException(
                            file,
                            "id of the packed Lucene commit",
                            StringHelper.idToString(head.id()),
                            StringHelper.idToString(commit),
                            ArchiveFormat.REBUILD,
                            null);
                }
                if (reader.numDocs() != head.header().docCount()) {
                    throw new DamagedFileException(
                            file,
                            "document count",
                            String.valueOf(head.header().docCount()),
                            String.valueOf(reader.numDocs()),
                            ArchiveFormat.REBUILD,
                            null);
                }
            } catch (IOException | RuntimeException e) {
                reader.close();
                throw e;
            }
            return new ArchiveReader(meta, head.header(), stream, dir, reader);
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw e;
        }
    }

    /**
     * The error to report after {@code failure} reading {@code meta}'s archive: the damage a
     * whole-file check finds (Lucene trusts the bytes it reads, so damage can fail in any way),
     * else {@code failure}. An IllegalArgumentException is a refused query, rethrown without
     * reading.
     */
    public static IOException diagnose(ArchiveFiles files, IndexFileMeta meta, Exception failure) {
        if (failure instanceof DamagedFileException) {
            return (DamagedFileException) failure;
        }
        if (failure instanceof IllegalArgumentException) {
            throw (IllegalArgumentException) failure;
        }
        try {
            new ArchiveHeaders(true).verify(files, meta);
        } catch (DamagedFileException damage) {
            return new DamagedFileException(damage, failure);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
        if (failure instanceof RuntimeException) {
            throw (RuntimeException) failure;
        }
        return failure instanceof IOException ? (IOException) failure : new IOException(failure);
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
