package dev.strata.shredding.io;

import java.io.IOException;
import java.util.List;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.FileRange;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.fs.VectoredReadable;

/**
 * Parquet files opened through a read buffer. Parquet parses footers, column and offset indexes
 * with Thrift, one byte per read call, and Paimon's local file system passes each call to the
 * operating system: thousands of system calls to open one file. Reads of at least {@value #BUFFER}
 * bytes (pages, column chunks) go straight to the stream, and a stream that reads ranges by
 * position (Paimon's vectored reads) keeps doing so.
 */
public final class BufferedReads {

    /** Bytes buffered: a few offset-index entries per call would not repay a larger one. */
    static final int BUFFER = 8192;

    private BufferedReads() {}

    /** {@code in} read through a buffer; closing the result closes {@code in}. */
    public static SeekableInputStream of(SeekableInputStream in) {
        if (in instanceof Buffered) {
            return in;
        }
        return in instanceof VectoredReadable
                ? new Vectored(in, (VectoredReadable) in)
                : new Buffered(in);
    }

    /** {@code fileIO} whose input streams are {@link #of buffered}; everything else delegated. */
    public static FileIO of(FileIO fileIO) {
        return fileIO instanceof BufferedFileIO ? fileIO : new BufferedFileIO(fileIO);
    }

    private static class Buffered extends SeekableInputStream {
        private final SeekableInputStream in;
        private final byte[] buffer = new byte[BUFFER];

        /** File position of {@code buffer[0]}; the stream itself is at {@code start + count}. */
        private long start;

        private int count;
        private int next;

        Buffered(SeekableInputStream in) {
            this.in = in;
        }

        @Override
        public void seek(long position) throws IOException {
            if (position >= start && position <= start + count) {
                next = (int) (position - start);
            } else {
                in.seek(position);
                start = position;
                count = 0;
                next = 0;
            }
        }

        @Override
        public long getPos() {
            return start + next;
        }

        @Override
        public int read() throws IOException {
            if (next == count && !fill()) {
                return -1;
            }
            return buffer[next++] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (next == count) {
                if (len >= BUFFER) {
                    int n = in.read(b, off, len);
                    if (n > 0) {
                        start += count + n;
                        count = 0;
                        next = 0;
                    }
                    return n;
                }
                if (!fill()) {
                    return -1;
                }
            }
            int n = Math.min(len, count - next);
            System.arraycopy(buffer, next, b, off, n);
            next += n;
            return n;
        }

        /** The next bytes of the stream into an emptied buffer; false at its end. */
        private boolean fill() throws IOException {
            start += count;
            count = 0;
            next = 0;
            int n = in.read(buffer, 0, BUFFER);
            if (n <= 0) {
                return false;
            }
            count = n;
            return true;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Reads by position are the stream's own: they neither use nor move the buffer. */
    private static final class Vectored extends Buffered implements VectoredReadable {
        private final VectoredReadable positional;

        Vectored(SeekableInputStream in, VectoredReadable positional) {
            super(in);
            this.positional = positional;
        }

        @Override
        public int pread(long position, byte[] b, int off, int len) throws IOException {
            return positional.pread(position, b, off, len);
        }

        @Override
        public void preadFully(long position, byte[] b, int off, int len) throws IOException {
            positional.preadFully(position, b, off, len);
        }

        @Override
        public int minSeekForVectorReads() {
            return positional.minSeekForVectorReads();
        }

        @Override
        public int batchSizeForVectorReads() {
            return positional.batchSizeForVectorReads();
        }

        @Override
        public int parallelismForVectorReads() {
            return positional.parallelismForVectorReads();
        }

        @Override
        public void readVectored(List<? extends FileRange> ranges) throws IOException {
            positional.readVectored(ranges);
        }
    }

    private static final class BufferedFileIO implements FileIO {
        private static final long serialVersionUID = 1L;

        private final FileIO fileIO;

        BufferedFileIO(FileIO fileIO) {
            this.fileIO = fileIO;
        }

        @Override
        public SeekableInputStream newInputStream(Path path) throws IOException {
            return of(fileIO.newInputStream(path));
        }

        @Override
        public boolean isObjectStore() {
            return fileIO.isObjectStore();
        }

        @Override
        public void configure(CatalogContext context) {
            fileIO.configure(context);
        }

        @Override
        public PositionOutputStream newOutputStream(Path path, boolean overwrite)
                throws IOException {
            return fileIO.newOutputStream(path, overwrite);
        }

        @Override
        public FileStatus getFileStatus(Path path) throws IOException {
            return fileIO.getFileStatus(path);
        }

        @Override
        public FileStatus[] listStatus(Path path) throws IOException {
            return fileIO.listStatus(path);
        }

        @Override
        public boolean exists(Path path) throws IOException {
            return fileIO.exists(path);
        }

        @Override
        public boolean delete(Path path, boolean recursive) throws IOException {
            return fileIO.delete(path, recursive);
        }

        @Override
        public boolean mkdirs(Path path) throws IOException {
            return fileIO.mkdirs(path);
        }

        @Override
        public boolean rename(Path src, Path dst) throws IOException {
            return fileIO.rename(src, dst);
        }
    }
}
