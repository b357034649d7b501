package dev.strata.shredding.parquet;

import dev.strata.shredding.io.BufferedReads;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** Adapters between Paimon's streams and parquet-hadoop's {@link OutputFile}/{@link InputFile}. */
public final class PaimonFiles {

    private PaimonFiles() {}

    /** Whether a file of Paimon format {@code fileFormat} is Parquet, which Strata opens. */
    public static boolean isParquet(String fileFormat) {
        return CoreOptions.FILE_FORMAT_PARQUET.equalsIgnoreCase(fileFormat);
    }

    /** An {@link OutputFile} on a stream Paimon owns: closing only flushes. */
    public static final class StreamOutputFile implements OutputFile {
        private final org.apache.paimon.fs.PositionOutputStream out;
        private final String path;
        private long bytesWritten;

        public StreamOutputFile(org.apache.paimon.fs.PositionOutputStream out, String path) {
            this.out = out;
            this.path = path;
        }

        /** Bytes written so far, without a call into the stream (cheap per row). */
        public long position() {
            return bytesWritten;
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) {
            return new PositionOutputStream() {
                @Override
                public long getPos() throws IOException {
                    return out.getPos();
                }

                @Override
                public void write(int b) throws IOException {
                    out.write(new byte[] {(byte) b}, 0, 1);
                    bytesWritten++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    bytesWritten += len;
                }

                @Override
                public void flush() throws IOException {
                    out.flush();
                }

                @Override
                public void close() throws IOException {
                    out.flush();
                }
            };
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            return create(blockSizeHint);
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }

        @Override
        public String getPath() {
            return path;
        }
    }

    /** Hadoop defaults only: no {@code *-default.xml} / {@code *-site.xml} parsing. */
    private static final Configuration READ_CONF = new Configuration(false);

    /**
     * Read options with every parquet-mr filter off (Strata prunes with its own footer) and page
     * checksums verified. Not {@code ParquetReadOptions.builder()}: that builds a fresh Hadoop
     * {@code Configuration}, parsing Hadoop's XML resources for every opened file.
     */
    public static ParquetReadOptions readOptions() {
        return readOptions(true);
    }

    /** As {@link #readOptions()}; {@code verifyPages}: check page CRCs ({@link PageChecksums}). */
    public static ParquetReadOptions readOptions(boolean verifyPages) {
        return ParquetReadOptions.builder(new HadoopParquetConfiguration(READ_CONF))
                .useColumnIndexFilter(false)
                .useStatsFilter(false)
                .useDictionaryFilter(false)
                .useRecordFilter(false)
                .useBloomFilter(false)
                .usePageChecksumVerification(verifyPages)
                .build();
    }

    public static InputFile inputFile(FileIO fileIO, Path path, long length) {
        return new InputFile() {
            @Override
            public long getLength() {
                return length;
            }

            @Override
            public org.apache.parquet.io.SeekableInputStream newStream() throws IOException {
                SeekableInputStream in = BufferedReads.of(fileIO.newInputStream(path));
                return new DelegatingSeekableInputStream(in) {
                    @Override
                    public long getPos() throws IOException {
                        return in.getPos();
                    }

                    @Override
                    public void seek(long newPos) throws IOException {
                        in.seek(newPos);
                    }
                };
            }

            @Override
            public String toString() {
                return path.toString();
            }
        };
    }
}
