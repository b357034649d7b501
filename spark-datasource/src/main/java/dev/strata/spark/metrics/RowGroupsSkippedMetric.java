package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Row groups of opened shredded files skipped by statistics. */
public final class RowGroupsSkippedMetric extends CustomSumMetric {

    public static final String NAME = "shreddedRowGroupsSkipped";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "shredded row groups skipped";
    }
}
