package dev.strata.index.archive;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.store.BaseDirectory;
import org.apache.lucene.store.BufferedIndexInput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.NoLockFactory;
import org.apache.paimon.fs.SeekableInputStream;

/**
 * A read-only Lucene directory over the files packed in one archive, read in place from Paimon's
 * {@link SeekableInputStream}. All inputs share the one stream; each buffer refill seeks under its
 * lock.
 */
final class ArchiveDirectory extends BaseDirectory {

    private static final int BUFFER_SIZE = 16 * 1024;

    private final String file;
    private final SeekableInputStream stream;
    private final Map<String, long[]> files;

    ArchiveDirectory(String file, SeekableInputStream stream, Map<String, long[]> files) {
        super(NoLockFactory.INSTANCE);
        this.file = file;
        this.stream = stream;
        this.files = files;
    }

    @Override
    public String[] listAll() {
        ensureOpen();
        return files.keySet().stream().sorted().toArray(String[]::new);
    }

    @Override
    public long fileLength(String name) throws IOException {
        return entry(name)[1];
    }

    @Override
    public IndexInput openInput(String name, IOContext context) throws IOException {
        long[] e = entry(name);
        return new SliceInput("archive(" + file + ")/" + name, e[0], e[1]);
    }

    private long[] entry(String name) throws IOException {
        ensureOpen();
        long[] e = files.get(name);
        if (e == null) {
            throw new java.nio.file.NoSuchFileException(name + " in archive " + file);
        }
        return e;
    }

    @Override
    public void deleteFile(String name) {
        throw readOnly();
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) {
        throw readOnly();
    }

    @Override
    public IndexOutput createTempOutput(String prefix, String suffix, IOContext context) {
        throw readOnly();
    }

    @Override
    public void sync(Collection<String> names) {}

    @Override
    public void syncMetaData() {}

    @Override
    public void rename(String source, String dest) {
        throw readOnly();
    }

    @Override
    public Set<String> getPendingDeletions() {
        return Collections.emptySet();
    }

    @Override
    public void close() {
        isOpen = false;
    }

    private UnsupportedOperationException readOnly() {
        return new UnsupportedOperationException("Full-text archive " + file + " is read-only.");
    }

    private final class SliceInput extends BufferedIndexInput {
        private final long start;
        private final long length;

        SliceInput(String description, long start, long length) {
            super(description, BUFFER_SIZE);
            this.start = start;
            this.length = length;
        }

        @Override
        protected void readInternal(ByteBuffer b) throws IOException {
            long pos = getFilePointer();
            int wanted = b.remaining();
            if (pos + wanted > length) {
                throw new EOFException(
                        "read past EOF: "
                                + this
                                + " pos="
                                + pos
                                + " wanted="
                                + wanted
                                + " length="
                                + length);
            }
            synchronized (stream) {
                stream.seek(start + pos);
                byte[] array = b.array();
                int off = b.arrayOffset() + b.position();
                int done = 0;
                while (done < wanted) {
                    int n = stream.read(array, off + done, wanted - done);
                    if (n < 0) {
                        throw new EOFException("archive " + file + " ended early: " + this);
                    }
                    done += n;
                }
                b.position(b.position() + wanted);
            }
        }

        @Override
        protected void seekInternal(long pos) throws IOException {
            if (pos > length) {
                throw new EOFException(
                        "seek past EOF: " + this + " pos=" + pos + " length=" + length);
            }
        }

        @Override
        public void close() {}

        @Override
        public long length() {
            return length;
        }

        @Override
        public IndexInput slice(String sliceDescription, long offset, long sliceLength)
                throws IOException {
            if (offset < 0 || sliceLength < 0 || offset + sliceLength > length) {
                throw new IllegalArgumentException(
                        "slice(" + sliceDescription + ") out of bounds: " + this);
            }
            return new SliceInput(sliceDescription, start + offset, sliceLength);
        }
    }
}
