package dev.strata.index.archive;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.lucene.store.BufferedIndexInput;
import org.apache.lucene.store.IndexInput;
import org.apache.paimon.fs.SeekableInputStream;

/**
 * A Lucene {@link IndexInput} over a range of Paimon's {@link SeekableInputStream}, so Lucene's own
 * readers ({@code CodecUtil}, {@code DirectoryReader}) read an archive in place, on any file system
 * Paimon reaches. Clones and slices share the stream; each buffer refill seeks under its lock.
 */
final class StreamIndexInput extends BufferedIndexInput {

    private static final int BUFFER_SIZE = 16 * 1024;

    private final SeekableInputStream stream;
    private final long start;
    private final long length;

    private StreamIndexInput(
            String description, SeekableInputStream stream, long start, long length) {
        super(description, BUFFER_SIZE);
        this.stream = stream;
        this.start = start;
        this.length = length;
    }

    /** The whole file of {@code length} bytes; closing the input does not close the stream. */
    static StreamIndexInput of(String file, SeekableInputStream stream, long length) {
        return new StreamIndexInput("archive(" + file + ")", stream, 0, length);
    }

    @Override
    protected void readInternal(ByteBuffer b) throws IOException {
        long pos = getFilePointer();
        int wanted = b.remaining();
        if (pos + wanted > length) {
            throw new EOFException("read past EOF: " + this + " pos=" + pos + " wanted=" + wanted);
        }
        synchronized (stream) {
            stream.seek(start + pos);
            byte[] array = b.array();
            int off = b.arrayOffset() + b.position();
            int done = 0;
            while (done < wanted) {
                int n = stream.read(array, off + done, wanted - done);
                if (n < 0) {
                    throw new EOFException("file ended early: " + this);
                }
                done += n;
            }
            b.position(b.position() + wanted);
        }
    }

    @Override
    protected void seekInternal(long pos) throws IOException {
        if (pos > length) {
            throw new EOFException("seek past EOF: " + this + " pos=" + pos);
        }
    }

    @Override
    public void close() {}

    @Override
    public long length() {
        return length;
    }

    @Override
    public IndexInput slice(String sliceDescription, long offset, long sliceLength) {
        if (offset < 0 || sliceLength < 0 || offset + sliceLength > length) {
            throw new IllegalArgumentException(
                    "slice(" + sliceDescription + ") out of bounds: " + this);
        }
        return new StreamIndexInput(
                getFullSliceDescription(sliceDescription), stream, start + offset, sliceLength);
    }
}
