package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Rows the archives and fresh indexes matched for a pushed text_match (driver metric). */
public final class TextMatchRowsMetric extends CustomSumMetric {

    public static final String NAME = "textMatchRows";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "rows matched by text_match in the full-text index";
    }
}
