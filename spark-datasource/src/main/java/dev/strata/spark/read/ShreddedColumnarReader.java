package dev.strata.spark.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.metrics.ShreddedScanMetrics;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.table.source.RawFile;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Reads the shredded files of one append split, in order, as column batches ({@link ShreddedFileColumns}). */
final class ShreddedColumnarReader implements PartitionReader<ColumnarBatch> {

    private final List<ShreddedFileColumns> files;
    private final WritableColumnVector[] vectors;
    private final ColumnarBatch batch;
    private final int capacity;
    private final ShreddedReadMetrics.Scope metrics;
    private int current;

    private ShreddedColumnarReader(List<ShreddedFileColumns> files, RowType readType, int capacity,
            ShreddedReadMetrics.Scope metrics) {
        this.files = files;
        this.capacity = capacity;
        this.vectors = OnHeapColumnVector.allocateColumns(capacity, SparkTypes.toSpark(readType));
        this.batch = new ColumnarBatch(vectors);
        this.metrics = metrics;
    }

    /**
     * A reader over the files, or null (all files closed again) when one of them cannot be decoded here,
     * e.g. a map column not shredded in that file.
     */
    static ShreddedColumnarReader open(FileIO fileIO, List<RawFile> rawFiles, RowType readType,
            Map<String, List<String>> selectedKeys, MapPredicate pruning, int capacity, ShreddedReadMetrics.Scope metrics)
            throws IOException {
        List<ShreddedFileColumns> files = new ArrayList<>();
        boolean ok = false;
        try {
            for (RawFile f : rawFiles) {
                ShreddedFileColumns columns =
                        new ShreddedFileColumns(fileIO, f.path(), f.fileSize(), readType, selectedKeys, pruning);
                files.add(columns);
                if (!columns.readable()) {
                    return null;
                }
            }
            ok = true;
            return new ShreddedColumnarReader(files, readType, capacity, metrics);
        } finally {
            if (!ok) {
                for (ShreddedFileColumns c : files) {
                    c.close();
                }
            }
        }
    }

    @Override
    public boolean next() throws IOException {
        for (WritableColumnVector v : vectors) {
            v.reset();
        }
        int n = 0;
        while (n < capacity && current < files.size()) {
            int read = files.get(current).read(vectors, n, capacity - n);
            if (read == 0) {
                files.get(current).close();
                current++;
            }
            n += read;
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
            for (int i = current; i < files.size(); i++) {
                files.get(i).close();
            }
        } finally {
            metrics.close();
            batch.close();
        }
    }
}
