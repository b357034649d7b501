package dev.strata.spark.catalog;

import java.util.Map;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.schema.TableSchema;

/**
 * One task per bucket needs a row's bucket to be a function of its key. Dynamic buckets (-1 on a
 * primary-key table) need a hash index Strata does not maintain, so they are refused; postpone
 * buckets (-2) are accepted, {@code sys.compact} assigning real buckets.
 */
final class BucketModeCheck implements TableDefinitionCheck {

    static final int POSTPONE_BUCKET = -2;

    @Override
    public void check(String table, TableSchema proposed, TableSchema previous) {
        Map<String, String> options = proposed.options();
        String raw = options.get(CoreOptions.BUCKET.key());
        int bucket;
        try {
            bucket = raw == null ? CoreOptions.BUCKET.defaultValue() : Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot define table %s: option 'bucket' must be an integer, found '%s'. "
                                    + "Use a positive bucket count, -1 for an append table without buckets, "
                                    + "or -2 for a primary-key table with postpone buckets.",
                            table, raw));
        }
        boolean primaryKey = !proposed.primaryKeys().isEmpty();
        if (bucket == 0 || bucket < POSTPONE_BUCKET) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot define table %s: option 'bucket' = %d is not supported. "
                                    + "Use a positive bucket count, -1 for an append table without buckets, "
                                    + "or -2 for a primary-key table with postpone buckets.",
                            table, bucket));
        }
        if (bucket == POSTPONE_BUCKET) {
            if (!primaryKey) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot define table %s: option 'bucket' = -2 (postpone buckets) needs a primary-key table. "
                                        + "Add 'primary-key' to TBLPROPERTIES, or use 'bucket' = '-1' for an append table.",
                                table));
            }
            checkPostponeOptions(table, options);
            return;
        }
        if (primaryKey && bucket < 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot define primary-key table %s: option 'bucket' is %s, which means dynamic buckets; "
                                    + "Strata writes primary-key tables with a fixed bucket count or postpone buckets only. "
                                    + "Add 'bucket' = 'N' (N > 0), or 'bucket' = '-2' for postpone buckets, to TBLPROPERTIES.",
                            table, raw == null ? "not set" : "'" + raw + "'"));
        }
    }

    private static void checkPostponeOptions(String table, Map<String, String> options) {
        String defaultNum = options.get(CoreOptions.POSTPONE_DEFAULT_BUCKET_NUM.key());
        if (defaultNum != null) {
            int n;
            try {
                n = Integer.parseInt(defaultNum.trim());
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n <= 0) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot define table %s: option '%s' must be a positive integer, found '%s'. "
                                        + "Set the bucket count compaction gives a partition seen for the first time, e.g. '4'.",
                                table, CoreOptions.POSTPONE_DEFAULT_BUCKET_NUM.key(), defaultNum));
            }
        }
        String fixed = options.get(CoreOptions.POSTPONE_BATCH_WRITE_FIXED_BUCKET.key());
        if (fixed != null && Boolean.parseBoolean(fixed.trim())) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot define table %s: option '%s' = '%s' asks batch writes to go straight into real buckets, "
                                    + "which Strata does not do; Strata parks written rows in bucket -2 until CALL sys.compact. "
                                    + "Remove the option or set it to 'false'.",
                            table, CoreOptions.POSTPONE_BATCH_WRITE_FIXED_BUCKET.key(), fixed));
        }
    }
}
