package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/**
 * Shredded data files skipped because the map predicate cannot match any row (e.g. the key never
 * occurs in the file).
 */
public final class FilesSkippedMetric extends CustomSumMetric {

    public static final String NAME = "shreddedFilesSkipped";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "shredded files skipped";
    }
}
