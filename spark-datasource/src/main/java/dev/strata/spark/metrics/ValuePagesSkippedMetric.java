package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/**
 * Pages of shredded value columns a key lookup passed without decoding, because the row group's
 * {@code __field_mapping} places the looked-up keys in none of their rows.
 */
public final class ValuePagesSkippedMetric extends CustomSumMetric {

    public static final String NAME = "shreddedValuePagesSkipped";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "shredded value pages skipped";
    }
}
