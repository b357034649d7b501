package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Data files skipped by text_match (driver metric). */
public final class TextMatchFilesSkippedMetric extends CustomSumMetric {

    public static final String NAME = "textMatchFilesSkipped";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "data files skipped by text_match";
    }
}
