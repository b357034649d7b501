package dev.strata.spark.read;

import java.io.IOException;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.metrics.ShreddedScanMetrics;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Paimon's row reader for one split, packed into column batches: the columnar scan's path for splits the
 * vectorized shredded reader does not handle (e.g. files in Paimon's default format).
 */
final class RowsToColumns implements PartitionReader<ColumnarBatch> {

    private final RecordReaderIterator<org.apache.paimon.data.InternalRow> rows;
    private final RowType readType;
    private final WritableColumnVector[] vectors;
    private final ColumnarBatch batch;
    private final int capacity;
    private final ShreddedReadMetrics.Scope metrics;

    RowsToColumns(RecordReader<org.apache.paimon.data.InternalRow> reader, RowType readType, int capacity,
            ShreddedReadMetrics.Scope metrics) {
        this.rows = new RecordReaderIterator<>(reader);
        this.readType = readType;
        this.capacity = capacity;
        this.vectors = OnHeapColumnVector.allocateColumns(capacity, SparkTypes.toSpark(readType));
        this.batch = new ColumnarBatch(vectors);
        this.metrics = metrics;
    }

    @Override
    public boolean next() {
        for (WritableColumnVector v : vectors) {
            v.reset();
        }
        int n = 0;
        while (n < capacity && rows.hasNext()) {
            org.apache.paimon.data.InternalRow row = rows.next();
            for (int i = 0; i < vectors.length; i++) {
                ColumnWriter.write(row, i, readType.getTypeAt(i), vectors[i], n);
            }
            n++;
        }
        batch.setNumRows(n);
        return n > 0;
    }

    @Override
    public ColumnarBatch get() {
        return batch;
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues() {
        return ShreddedScanMetrics.taskValues(metrics.snapshot());
    }

    @Override
    public void close() throws IOException {
        try {
            rows.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        } finally {
            metrics.close();
            batch.close();
        }
    }

}
