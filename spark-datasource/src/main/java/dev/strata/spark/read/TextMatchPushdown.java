package dev.strata.spark.read;

import dev.strata.index.search.TextMatcher;
import java.io.Serializable;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code text_match(column, 'query')} conjuncts pushed into one scan of a full-text indexed
 * table; the scan reads only rows matching all of them ({@link #fresh()}: also indexing uncovered
 * files at query time). Without {@link #matchers()} it is advisory: Spark keeps its Filter. With
 * them the scan is exact and matches rows the indexes do not answer itself, so the optimizer may
 * drop conjuncts whose index answer is exact.
 */
public final class TextMatchPushdown implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String column;
    private final List<String> queries;
    private final boolean fresh;
    private final List<TextMatcher> matchers;

    /** Advisory. */
    public TextMatchPushdown(String column, List<String> queries, boolean fresh) {
        this(column, queries, fresh, List.of());
    }

    /**
     * {@code queries}: Lucene classic syntax or Paimon's JSON DSL; {@code matchers}: empty
     * (advisory) or one per query, making the scan exact.
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

    /** Whether the scan returns only rows matching every query. */
    public boolean exact() {
        return !matchers.isEmpty();
    }

    List<TextMatcher> matchers() {
        return matchers;
    }

    /** EXPLAIN text. */
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
