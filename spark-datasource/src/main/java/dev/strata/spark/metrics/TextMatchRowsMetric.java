package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Rows that match a pushed text_match and are read by their position (driver metric). */
public final class TextMatchRowsMetric extends CustomSumMetric {

    public static final String NAME = "textMatchRows";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "rows matched by text_match (read by position)";
    }
}
