package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Row groups of the shredded files opened. */
public final class RowGroupsTotalMetric extends CustomSumMetric {

    public static final String NAME = "shreddedRowGroupsTotal";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "shredded row groups total";
    }
}
