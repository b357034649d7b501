package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/**
 * Parquet leaf columns of shredded map columns read, summed over files (fewer with selected keys).
 */
public final class SubColumnsReadMetric extends CustomSumMetric {

    public static final String NAME = "shreddedSubColumnsRead";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "shredded sub-columns read";
    }
}
