package dev.strata.spark.read;

import dev.strata.index.search.TextMatcher;
import java.io.Serializable;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code text_match(column, 'query')} conjuncts the optimizer pushed into one scan of a
 * full-text indexed Strata table (module spark-catalyst-rules decides them). The scan reads only
 * the rows that match all of the queries, found in the bucket's archives and, with {@link
 * #fresh()}, in files no current archive covers, indexed at query time.
 *
 * <p>Without {@link #matchers()} it is advisory like {@link MapPushdown}: Spark keeps its Filter
 * above the scan and evaluates every {@code text_match} per row, so answers never depend on how
 * much the scan skips. With them the scan is exact: it returns only rows that match every query, so
 * the optimizer drops the conjuncts whose index answer is exact ({@code TextMatcher#exactInIndex})
 * from Spark's Filter. Rows the indexes answer are read by position; every other row the scan reads
 * (files no index searched, splits that merge rows) is matched by the scan itself with these
 * matchers, as Spark would have. Immutable and serializable.
 */
public final class TextMatchPushdown implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String column;
    private final List<String> queries;
    private final boolean fresh;
    private final List<TextMatcher> matchers;

    /** An advisory pushdown (Spark keeps evaluating every query); see the other constructor. */
    public TextMatchPushdown(String column, List<String> queries, boolean fresh) {
        this(column, queries, fresh, List.of());
    }

    /**
     * @param column the table's full-text indexed column
     * @param queries full-text queries (Lucene classic syntax or Paimon's JSON DSL), all of which a
     *     row matches
     * @param fresh whether files no current archive covers are indexed at query time (else read
     *     whole)
     * @param matchers empty (advisory), or one matcher per query, in order: the scan is then exact
     */
    public TextMatchPushdown(
            String column, List<String> queries, boolean fresh, List<TextMatcher> matchers) {
        if (queries.isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot push text_match into a scan of column "
                            + column
                            + ": no query was given. Push at least one query.");
        }
        this.column = column;
        this.queries = List.copyOf(queries);
        this.fresh = fresh;
        if (!matchers.isEmpty() && matchers.size() != queries.size()) {
            throw new IllegalArgumentException(
                    "Cannot push text_match into a scan of column "
                            + column
                            + ": "
                            + matchers.size()
                            + " matchers were given for "
                            + queries.size()
                            + " queries. Give one per query.");
        }
        this.matchers = List.copyOf(matchers);
    }

    public String column() {
        return column;
    }

    public List<String> queries() {
        return queries;
    }

    public boolean fresh() {
        return fresh;
    }

    /**
     * Whether the scan returns only rows matching every query (Spark does not re-evaluate them).
     */
    public boolean exact() {
        return !matchers.isEmpty();
    }

    /** One matcher per query when {@link #exact()}, else empty. */
    List<TextMatcher> matchers() {
        return matchers;
    }

    /** EXPLAIN text, e.g. {@code [body: disk AND failure]}. */
    String describe() {
        return queries.stream()
                .map(q -> column + ": " + q)
                .collect(Collectors.joining(", ", "[", "]"));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TextMatchPushdown
                && ((TextMatchPushdown) o).column.equals(column)
                && ((TextMatchPushdown) o).queries.equals(queries)
                && ((TextMatchPushdown) o).fresh == fresh
                && ((TextMatchPushdown) o).exact() == exact();
    }

    @Override
    public int hashCode() {
        return ((column.hashCode() * 31 + queries.hashCode()) * 31 + Boolean.hashCode(fresh)) * 31
                + Boolean.hashCode(exact());
    }

    @Override
    public String toString() {
        return "TextMatchPushdown" + describe();
    }
}
