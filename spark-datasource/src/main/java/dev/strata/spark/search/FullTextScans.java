package dev.strata.spark.search;

import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.internal.SQLConf;

/** Chooses where a search runs: on the driver for few buckets, as executor tasks otherwise. */
final class FullTextScans {

    /**
     * Spark SQL setting: searches of at most this many (partition, bucket)s run on the driver without a Spark
     * job; larger ones run one executor task per bucket. 0 always uses executor tasks.
     */
    static final String DRIVER_MAX_BUCKETS = "spark.sql.strata.search.driverMaxBuckets";

    static final int DEFAULT_DRIVER_MAX_BUCKETS = 16;

    private FullTextScans() {}

    static Scan create(SearchRequest request) {
        SearchPlan plan = SearchPlan.of(request.tableName, request.table, request.where);
        if (plan.buckets.size() <= driverMaxBuckets()) {
            return new LocalFullTextScan(request, plan);
        }
        return new FullTextScan(request, plan);
    }

    private static int driverMaxBuckets() {
        String value = SQLConf.get().getConfString(DRIVER_MAX_BUCKETS, String.valueOf(DEFAULT_DRIVER_MAX_BUCKETS));
        try {
            int max = Integer.parseInt(value.trim());
            if (max >= 0) {
                return max;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("Cannot plan full_text_search: " + DRIVER_MAX_BUCKETS
                + " must be a non-negative integer, found '" + value + "'. Set it to 0 to always search in executor tasks.");
    }
}
