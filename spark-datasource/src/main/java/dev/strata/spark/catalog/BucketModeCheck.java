package dev.strata.spark.catalog;

import java.util.Map;

import org.apache.paimon.CoreOptions;
import org.apache.paimon.schema.TableSchema;

/**
 * Strata writes a primary-key table with one Spark task per (partition, bucket), which needs the bucket of
 * a row to be a pure function of its bucket key: a fixed bucket count. Paimon's dynamic buckets (-1 on a
 * primary-key table) assign buckets through a per-partition hash index, and postpone buckets (-2) park rows
 * until a dedicated compaction; Strata writes neither, so such definitions are refused up front.
 */
final class BucketModeCheck implements TableDefinitionCheck {

    @Override
    public void check(String table, TableSchema proposed, TableSchema previous) {
        Map<String, String> options = proposed.options();
        String raw = options.get(CoreOptions.BUCKET.key());
        int bucket;
        try {
            bucket = raw == null ? CoreOptions.BUCKET.defaultValue() : Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(String.format(
                    "Cannot define table %s: option 'bucket' must be an integer, found '%s'. "
                            + "Use a positive bucket count, or -1 for an append table without buckets.",
                    table, raw));
        }
        if (bucket == 0 || bucket < -1) {
            throw new IllegalArgumentException(String.format(
                    "Cannot define table %s: option 'bucket' = %d is not supported. "
                            + "Use a positive bucket count, or -1 for an append table without buckets.",
                    table, bucket));
        }
        if (!proposed.primaryKeys().isEmpty() && bucket < 0) {
            throw new IllegalArgumentException(String.format(
                    "Cannot define primary-key table %s: option 'bucket' is %s, which means dynamic buckets; "
                            + "Strata writes primary-key tables with a fixed bucket count only. "
                            + "Add 'bucket' = 'N' (N > 0) to TBLPROPERTIES.",
                    table, raw == null ? "not set" : "'" + raw + "'"));
        }
    }
}
