package dev.strata.spark.search;

import java.util.List;

import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;

/** Chooses where a search runs: on the driver for few buckets, as executor tasks otherwise. */
final class FullTextScans {

    /**
     * Spark SQL setting: searches of at most this many (partition, bucket)s run on the driver without a Spark
     * job; larger ones run one executor task per bucket. 0 always uses executor tasks.
     */
    static final String DRIVER_MAX_BUCKETS = "spark.sql.strata.search.driverMaxBuckets";

    static final int DEFAULT_DRIVER_MAX_BUCKETS = 16;

    private FullTextScans() {}

    static Scan create(String tableName, FileStoreTable table, String query, int k, String where, List<String> columns,
            boolean score, StructType readSchema) {
        SearchPlan plan = SearchPlan.of(tableName, table, where);
        if (plan.buckets.size() <= driverMaxBuckets()) {
            return new LocalFullTextScan(tableName, table, plan, query, k, where, columns, score, readSchema);
        }
        return new FullTextScan(tableName, table, plan, query, k, where, columns, score, readSchema);
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

    static String describe(String tableName, String query, int k, String where, SearchPlan plan, String runsOn) {
        return "full_text_search " + tableName + " [query: " + query + ", k: " + k
                + (where == null ? "" : ", where: " + where) + ", buckets: " + plan.buckets.size()
                + ", snapshot: " + plan.snapshotId + ", on: " + runsOn + "]";
    }
}
