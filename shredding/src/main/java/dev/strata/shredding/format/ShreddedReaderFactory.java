package dev.strata.shredding.format;

import dev.strata.shredding.ShreddedReadHandover;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedParquetReader;
import java.io.IOException;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FormatReaderFactory;
import org.apache.paimon.fs.Path;
import org.apache.paimon.reader.FileRecordIterator;
import org.apache.paimon.reader.FileRecordReader;
import org.apache.paimon.types.RowType;

/** Opens shredded files for Paimon; batches carry absolute row positions (deletion vectors need them). */
final class ShreddedReaderFactory implements FormatReaderFactory {

    private final RowType readType;
    private final ShreddedReadHandover.ReadRequest request;
    private final int batchSize;

    ShreddedReaderFactory(RowType readType, ShreddedReadHandover.ReadRequest request, int batchSize) {
        this.readType = readType;
        this.request = request;
        this.batchSize = batchSize;
    }

    @Override
    public FileRecordReader<InternalRow> createReader(Context context) throws IOException {
        Path path = context.filePath();
        ShreddedParquetReader reader = new ShreddedParquetReader(
                PaimonFiles.inputFile(context.fileIO(), path, context.fileSize()), path.toString(), readType,
                request.selectedKeys(), request.pruningPredicate(), context.selection());
        return new FileRecordReader<InternalRow>() {
            private boolean done;

            @Override
            public FileRecordIterator<InternalRow> readBatch() throws IOException {
                if (done) {
                    return null;
                }
                InternalRow first = reader.next();
                if (first == null) {
                    done = true;
                    return null;
                }
                return new FileRecordIterator<InternalRow>() {
                    private InternalRow pending = first;
                    private long pendingPosition = reader.position();
                    private long returned = -1;
                    private int count;

                    @Override
                    public InternalRow next() throws IOException {
                        if (pending != null) {
                            InternalRow r = pending;
                            returned = pendingPosition;
                            pending = null;
                            count++;
                            return r;
                        }
                        if (count >= batchSize || done) {
                            return null;
                        }
                        InternalRow r = reader.next();
                        if (r == null) {
                            done = true;
                            return null;
                        }
                        returned = reader.position();
                        count++;
                        return r;
                    }

                    @Override
                    public long returnedPosition() {
                        return returned;
                    }

                    @Override
                    public Path filePath() {
                        return path;
                    }

                    @Override
                    public void releaseBatch() {}
                };
            }

            @Override
            public void close() throws IOException {
                reader.close();
            }
        };
    }
}
