package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * Rows a full-text search indexed in memory at query time: level 0 and levels without a current
 * archive.
 */
public final class RowsIndexedAtQueryTimeMetric extends CustomSumMetric {

    public static final String NAME = "rowsIndexedAtQueryTime";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "rows indexed at query time (not yet compacted or archive stale)";
    }

    /** A task's value of this metric. */
    public static CustomTaskMetric value(long rows) {
        return new TaskMetricValue(NAME, rows);
    }
}
