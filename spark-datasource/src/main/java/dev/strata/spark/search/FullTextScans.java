package dev.strata.spark.search;

import dev.strata.spark.config.SessionSettings;
import org.apache.spark.sql.connector.read.Scan;

/** Chooses where a search runs: on the driver for few buckets, as executor tasks otherwise. */
public final class FullTextScans {

    public static boolean fresh() {
        return SessionSettings.get(SessionSettings.SEARCH_FRESH, "plan full_text_search");
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
        return SessionSettings.get(
                SessionSettings.SEARCH_DRIVER_MAX_BUCKETS, "plan full_text_search");
    }
}
