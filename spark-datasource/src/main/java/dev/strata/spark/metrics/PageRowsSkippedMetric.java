package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Rows of read row groups dropped by page-level (column index) filtering. */
public final class PageRowsSkippedMetric extends CustomSumMetric {

    public static final String NAME = "shreddedRowsSkippedByPageIndex";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "rows skipped by page index";
    }
}
