package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Shredded data files opened by the scan's readers. */
public final class FilesReadMetric extends CustomSumMetric {

    public static final String NAME = "shreddedFilesRead";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "shredded files read";
    }
}
