package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * The metrics a Strata scan with a pushed {@code text_match} declares besides {@link
 * ShreddedScanMetrics}: counted on the driver when the scan plans which rows of which files to
 * read.
 */
public final class TextMatchMetrics {

    private TextMatchMetrics() {}

    public static CustomMetric[] supported() {
        return new CustomMetric[] {
            new TextMatchRowsMetric(),
            new TextMatchFilesSkippedMetric(),
            new TextMatchFilesReadWholeMetric(),
            new RowsIndexedAtQueryTimeMetric()
        };
    }

    /** Driver metric values after planning. */
    public static CustomTaskMetric[] driverValues(
            long rowsMatched, long filesSkipped, long filesReadWhole, long rowsIndexedAtQueryTime) {
        return new CustomTaskMetric[] {
            new TaskMetricValue(TextMatchRowsMetric.NAME, rowsMatched),
            new TaskMetricValue(TextMatchFilesSkippedMetric.NAME, filesSkipped),
            new TaskMetricValue(TextMatchFilesReadWholeMetric.NAME, filesReadWhole),
            new TaskMetricValue(RowsIndexedAtQueryTimeMetric.NAME, rowsIndexedAtQueryTime)
        };
    }
}
