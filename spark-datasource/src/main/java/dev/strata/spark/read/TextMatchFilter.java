package dev.strata.spark.read;

import dev.strata.index.search.TextMatcher;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/**
 * Filters rows an exact text-match scan reads other than by position, exactly as Spark's {@code
 * text_match} would, dropping a text column read only for matching.
 */
final class TextMatchFilter implements PartitionReader<InternalRow> {

    private final PartitionReader<InternalRow> rows;
    private final int textOrdinal;
    private final List<TextMatcher> matchers;
    private final int arity;
    private InternalRow current;

    /** {@code arity}: leading fields returned. */
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
