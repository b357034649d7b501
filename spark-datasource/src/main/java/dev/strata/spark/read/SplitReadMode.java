package dev.strata.spark.read;

import org.apache.paimon.CoreOptions;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;

/**
 * How much of a {@link MapPushdown} one split may use. Value pruning is only sound where every row
 * is final: skipping a row group of a newer file could let an older version of the key win the
 * merge. So it applies to append tables and raw-convertible splits ({@link
 * DataSplit#rawConvertible()}), as Paimon's own value filter pushdown. Selected keys do not change
 * which version wins, so they also apply to merged deduplicate and first-row splits; merge engines
 * that combine values read whole maps.
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
