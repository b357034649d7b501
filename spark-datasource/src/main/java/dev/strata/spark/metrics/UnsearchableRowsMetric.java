package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/** Rows a full-text search could not look at: level 0 or levels without a current archive. */
public final class UnsearchableRowsMetric extends CustomSumMetric {

    public static final String NAME = "unsearchableRows";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "rows not searchable (not yet compacted or archive stale)";
    }

    /** A task's value of this metric. */
    public static CustomTaskMetric value(long rows) {
        return new TaskMetricValue(NAME, rows);
    }
}
