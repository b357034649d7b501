package dev.strata.spark.read;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.spark.data.PaimonToSpark;
import dev.strata.spark.metrics.ShreddedScanMetrics;
import java.io.IOException;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/**
 * Iterates the merged rows of one split (deletion vectors applied by Paimon) as Spark rows, and
 * reports what the shredded reader skipped as task metrics.
 */
final class StrataRowReader implements PartitionReader<InternalRow> {

    private final RecordReaderIterator<org.apache.paimon.data.InternalRow> rows;
    private final PaimonToSpark.RowView view;
    private final KeyColumns.Projector output;
    private final ShreddedReadMetrics.Scope metrics;
    private InternalRow current;

    StrataRowReader(
            RecordReader<org.apache.paimon.data.InternalRow> reader,
            KeyColumns columns,
            ShreddedReadMetrics.Scope metrics) {
        this.rows = new RecordReaderIterator<>(reader);
        // One view, pointed at each row in turn: Spark consumes a scan's row before asking for the
        // next (it projects it into its own format) and copies the rows it keeps.
        this.view = PaimonToSpark.forRowType(columns.outputType()).newView();
        this.output = columns.projector();
        this.metrics = metrics;
    }

    @Override
    public boolean next() {
        if (!rows.hasNext()) {
            return false;
        }
        current = view.of(output.project(rows.next()));
        return true;
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues() {
        return ShreddedScanMetrics.taskValues(metrics.snapshot());
    }

    @Override
    public void close() throws IOException {
        try {
            ColumnBatchReader.close(rows);
        } finally {
            metrics.close();
        }
    }
}
