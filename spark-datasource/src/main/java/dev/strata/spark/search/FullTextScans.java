package dev.strata.spark.search;

import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.internal.SQLConf;

/** Chooses where a search runs: on the driver for few buckets, as executor tasks otherwise. */
public final class FullTextScans {

    /**
     * Spark SQL setting: searches of at most this many (partition, bucket)s run on the driver
     * without a Spark job; larger ones run one executor task per bucket. 0 always uses executor
     * tasks.
     */
    static final String DRIVER_MAX_BUCKETS = "spark.sql.strata.search.driverMaxBuckets";

    static final int DEFAULT_DRIVER_MAX_BUCKETS = 16;

    /**
     * Spark SQL setting: {@code true} (default) searches every live row of the snapshot, indexing
     * rows that no current archive covers (level 0, levels whose archive is missing or stale) in
     * memory at query time; {@code false} searches the archives only, the fastest answer, leaving
     * those rows out.
     */
    public static final String FRESH = "spark.sql.strata.search.fresh";

    public static boolean fresh() {
        String value = SQLConf.get().getConfString(FRESH, "true").trim();
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException(
                "Cannot plan full_text_search: "
                        + FRESH
                        + " must be true or false, found '"
                        + value
                        + "'. Set it to false to search only archived rows.");
    }

    private FullTextScans() {}

    static Scan create(SearchRequest request) {
        SearchPlan plan =
                SearchPlan.of(
                        request.tableName,
                        request.table,
                        request.where,
                        request.query,
                        request.fresh);
        if (plan.buckets.size() <= driverMaxBuckets()) {
            return new LocalFullTextScan(request, plan);
        }
        return new FullTextScan(request, plan);
    }

    private static int driverMaxBuckets() {
        String value =
                SQLConf.get()
                        .getConfString(
                                DRIVER_MAX_BUCKETS, String.valueOf(DEFAULT_DRIVER_MAX_BUCKETS));
        try {
            int max = Integer.parseInt(value.trim());
            if (max >= 0) {
                return max;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                "Cannot plan full_text_search: "
                        + DRIVER_MAX_BUCKETS
                        + " must be a non-negative integer, found '"
                        + value
                        + "'. Set it to 0 to always search in executor tasks.");
    }
}
