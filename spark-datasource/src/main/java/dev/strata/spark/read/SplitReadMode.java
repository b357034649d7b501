package dev.strata.spark.read;

import org.apache.paimon.CoreOptions;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;

/**
 * How much of a {@link MapPushdown} one split may use. Pruning by value is only sound where every
 * row a file holds is final: a row group skipped in a newer file of a primary-key table could let
 * an older version of the same key win the merge and reappear (e.g. key 1 with usage 50 in a
 * compacted file and usage 10 in a newer level-0 file: {@code usage > 30} must not return the old
 * version). So value predicates are used for append tables and for primary-key splits Paimon itself
 * reads without merging ({@link DataSplit#rawConvertible()}: deletion vectors on, or all files in
 * one non-overlapping run), the same condition under which Paimon pushes value filters into files.
 * Selected keys do not change which version wins, so they also apply to merged splits of
 * deduplicate and first-row tables; merge engines that combine values (partial-update, aggregation)
 * read whole maps there.
 */
enum SplitReadMode {
    /** Whole maps, no pruning. */
    PLAIN,
    /** Selected keys only. */
    SELECTED_KEYS,
    /** Selected keys and value pruning. */
    PRUNING;

    static SplitReadMode of(FileStoreTable table, Split split, MapPushdown pushdown) {
        if (pushdown.isEmpty()) {
            return PLAIN;
        }
        boolean rowsFinal =
                table.primaryKeys().isEmpty()
                        || (split instanceof DataSplit && ((DataSplit) split).rawConvertible());
        if (rowsFinal) {
            return PRUNING;
        }
        CoreOptions.MergeEngine engine = CoreOptions.fromMap(table.options()).mergeEngine();
        boolean keepsWholeRows =
                engine == CoreOptions.MergeEngine.DEDUPLICATE
                        || engine == CoreOptions.MergeEngine.FIRST_ROW;
        return keepsWholeRows && !pushdown.selectedKeys().isEmpty() ? SELECTED_KEYS : PLAIN;
    }
}
