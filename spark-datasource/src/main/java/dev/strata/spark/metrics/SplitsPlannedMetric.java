package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Paimon splits planned by the scan (driver metric). */
public final class SplitsPlannedMetric extends CustomSumMetric {

    public static final String NAME = "splitsPlanned";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "splits planned";
    }
}
