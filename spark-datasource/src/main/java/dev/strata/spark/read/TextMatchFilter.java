package dev.strata.spark.read;

import dev.strata.index.search.TextMatcher;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/**
 * The rows of an exact text-match scan that it reads other than by position (files no index
 * searched, splits that merge rows): only those whose text matches every query, matched one by one
 * exactly as Spark's {@code text_match} would ({@link TextMatcher}, the index's analyzer), then cut
 * to the scan's columns when the text column was read only for matching.
 */
final class TextMatchFilter implements PartitionReader<InternalRow> {

    private final PartitionReader<InternalRow> rows;
    private final int textOrdinal;
    private final List<TextMatcher> matchers;
    private final int arity;
    private InternalRow current;

    /**
     * @param rows rows with the text at {@code textOrdinal}
     * @param arity the number of leading fields returned (the text column is dropped when it is
     *     beyond them)
     */
    TextMatchFilter(
            PartitionReader<InternalRow> rows,
            int textOrdinal,
            List<TextMatcher> matchers,
            int arity) {
        this.rows = rows;
        this.textOrdinal = textOrdinal;
        this.matchers = matchers;
        this.arity = arity;
    }

    @Override
    public boolean next() throws IOException {
        while (rows.next()) {
            InternalRow row = rows.get();
            String text =
                    row.isNullAt(textOrdinal) ? null : row.getUTF8String(textOrdinal).toString();
            if (matchesAll(text)) {
                current = textOrdinal < arity ? row : cut(row);
                return true;
            }
        }
        return false;
    }

    private boolean matchesAll(String text) {
        for (TextMatcher matcher : matchers) {
            if (!matcher.matches(text)) {
                return false;
            }
        }
        return true;
    }

    /** The row without its last field, the text column read for matching only. */
    private InternalRow cut(InternalRow row) {
        Object[] values = new Object[arity];
        for (int i = 0; i < arity; i++) {
            values[i] = row.isNullAt(i) ? null : ((GenericInternalRow) row).genericGet(i);
        }
        return new GenericInternalRow(values);
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues() {
        return rows.currentMetricsValues();
    }

    @Override
    public void close() throws IOException {
        rows.close();
    }
}
