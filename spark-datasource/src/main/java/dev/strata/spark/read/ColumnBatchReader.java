package dev.strata.spark.read;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.metrics.ShreddedScanMetrics;
import java.io.IOException;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Base of column batch readers: vectors reused per batch, shredded-reader counters as DSv2 metrics,
 * and the metrics scope closed even when the source's close throws.
 */
abstract class ColumnBatchReader implements PartitionReader<ColumnarBatch> {

    private final WritableColumnVector[] vectors;
    private final ColumnarBatch batch;
    private final int capacity;
    private final ShreddedReadMetrics.Scope metrics;

    ColumnBatchReader(RowType readType, int capacity, ShreddedReadMetrics.Scope metrics) {
        this.vectors = OnHeapColumnVector.allocateColumns(capacity, SparkTypes.toSpark(readType));
        this.batch = new ColumnarBatch(vectors);
        this.capacity = capacity;
        this.metrics = metrics;
    }

    /** Returns how many rows were written, 0 at the end. */
    abstract int fill(WritableColumnVector[] vectors, int offset, int max) throws IOException;

    abstract void closeSource() throws IOException;

    @Override
    public final boolean next() throws IOException {
        for (WritableColumnVector v : vectors) {
            v.reset();
        }
        int n = 0;
        int read;
        while (n < capacity && (read = fill(vectors, n, capacity - n)) > 0) {
            n += read;
        }
        batch.setNumRows(n);
        return n > 0;
    }

    @Override
    public final ColumnarBatch get() {
        return batch;
    }

    @Override
    public final CustomTaskMetric[] currentMetricsValues() {
        return ShreddedScanMetrics.taskValues(metrics.snapshot());
    }

    @Override
    public final void close() throws IOException {
        try {
            closeSource();
        } finally {
            metrics.close();
            batch.close();
        }
    }

    /** Checked exceptions become IOException. */
    static void close(RecordReaderIterator<?> rows) throws IOException {
        try {
            rows.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
