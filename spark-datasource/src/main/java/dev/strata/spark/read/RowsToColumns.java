package dev.strata.spark.read;

import dev.strata.shredding.ShreddedReadMetrics;
import java.io.IOException;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * Paimon's row reader for one split, packed into column batches: the columnar scan's path for
 * splits the vectorized shredded reader does not handle (e.g. files in Paimon's default format).
 */
final class RowsToColumns extends ColumnBatchReader {

    private final RecordReaderIterator<org.apache.paimon.data.InternalRow> rows;
    private final RowType outputType;
    private final KeyColumns.Projector output;

    RowsToColumns(
            RecordReader<org.apache.paimon.data.InternalRow> reader,
            KeyColumns columns,
            int capacity,
            ShreddedReadMetrics.Scope metrics) {
        super(columns.outputType(), capacity, metrics);
        this.rows = new RecordReaderIterator<>(reader);
        this.outputType = columns.outputType();
        this.output = columns.projector();
    }

    @Override
    int fill(WritableColumnVector[] vectors, int offset, int max) {
        int n = 0;
        while (n < max && rows.hasNext()) {
            org.apache.paimon.data.InternalRow row = output.project(rows.next());
            for (int i = 0; i < vectors.length; i++) {
                ColumnWriter.write(row, i, outputType.getTypeAt(i), vectors[i], offset + n);
            }
            n++;
        }
        return n;
    }

    @Override
    void closeSource() throws IOException {
        close(rows);
    }
}
