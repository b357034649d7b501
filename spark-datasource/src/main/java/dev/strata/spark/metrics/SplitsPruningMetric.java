package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/**
 * Planned splits whose readers may skip data by the map predicate: append tables, and primary-key
 * splits Paimon reads without merging (driver metric).
 */
public final class SplitsPruningMetric extends CustomSumMetric {

    public static final String NAME = "splitsPruningByMapPredicate";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "splits pruning by map predicate";
    }
}
