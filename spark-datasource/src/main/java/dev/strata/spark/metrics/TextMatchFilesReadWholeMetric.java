package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/**
 * Data files a scan with a pushed text_match reads whole: no archive or fresh index answered for
 * them, or more than half of their rows match (driver metric).
 */
public final class TextMatchFilesReadWholeMetric extends CustomSumMetric {

    public static final String NAME = "textMatchFilesReadWhole";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "data files read whole under text_match (not searched, or mostly matching)";
    }
}
