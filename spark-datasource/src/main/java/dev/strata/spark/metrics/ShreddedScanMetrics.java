package dev.strata.spark.metrics;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.ShreddedReadMetrics.Counter;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * The custom metrics a Strata scan declares (shown on the scan node of the SQL UI) and how the
 * shredded reader's counters and the planner's counts become their values.
 */
public final class ShreddedScanMetrics {

    private ShreddedScanMetrics() {}

    /** Every metric of a Strata scan, task-side then driver-side. */
    public static CustomMetric[] supported() {
        return new CustomMetric[] {
            new FilesReadMetric(), new FilesSkippedMetric(), new RowGroupsTotalMetric(),
                    new RowGroupsSkippedMetric(),
            new SubColumnsReadMetric(), new PageRowsSkippedMetric(), new ValuePagesSkippedMetric(),
                    new SplitsPlannedMetric(),
            new SplitsPruningMetric()
        };
    }

    /** Task metric values from the shredded reader's counters of one partition reader. */
    public static CustomTaskMetric[] taskValues(ShreddedReadMetrics.Snapshot s) {
        return new CustomTaskMetric[] {
            new TaskMetricValue(FilesReadMetric.NAME, s.get(Counter.FILES_READ)),
            new TaskMetricValue(FilesSkippedMetric.NAME, s.get(Counter.FILES_SKIPPED)),
            new TaskMetricValue(RowGroupsTotalMetric.NAME, s.get(Counter.ROW_GROUPS_TOTAL)),
            new TaskMetricValue(RowGroupsSkippedMetric.NAME, s.get(Counter.ROW_GROUPS_SKIPPED)),
            new TaskMetricValue(SubColumnsReadMetric.NAME, s.get(Counter.SUB_COLUMNS_READ)),
            new TaskMetricValue(
                    PageRowsSkippedMetric.NAME, s.get(Counter.ROWS_SKIPPED_BY_PAGE_INDEX)),
            new TaskMetricValue(ValuePagesSkippedMetric.NAME, s.get(Counter.VALUE_PAGES_SKIPPED))
        };
    }

    /** Driver metric values after split planning. */
    public static CustomTaskMetric[] driverValues(long splitsPlanned, long splitsPruning) {
        return new CustomTaskMetric[] {
            new TaskMetricValue(SplitsPlannedMetric.NAME, splitsPlanned),
            new TaskMetricValue(SplitsPruningMetric.NAME, splitsPruning)
        };
    }
}
