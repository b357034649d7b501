package dev.strata.spark.read;

import java.io.Serializable;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code text_match(column, 'query')} conjuncts the optimizer pushed into one scan of a full-text
 * indexed Strata table (module spark-catalyst-rules decides them). The scan reads only the rows that
 * match all of the queries, found in the bucket's archives and, with {@link #fresh()}, in files no current
 * archive covers, indexed at query time. Advisory like {@link MapPushdown}: Spark keeps its Filter above the
 * scan and evaluates every {@code text_match} per row, so answers never depend on how much the scan skips.
 * Immutable and serializable.
 */
public final class TextMatchPushdown implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String column;
    private final List<String> queries;
    private final boolean fresh;

    /**
     * @param column the table's full-text indexed column
     * @param queries full-text queries (Lucene classic syntax or Paimon's JSON DSL), all of which a row matches
     * @param fresh whether files no current archive covers are indexed at query time (else read whole)
     */
    public TextMatchPushdown(String column, List<String> queries, boolean fresh) {
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("Cannot push text_match into a scan of column " + column
                    + ": no query was given. Push at least one query.");
        }
        this.column = column;
        this.queries = List.copyOf(queries);
        this.fresh = fresh;
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

    /** EXPLAIN text, e.g. {@code [body: disk AND failure]}. */
    String describe() {
        return queries.stream().map(q -> column + ": " + q).collect(Collectors.joining(", ", "[", "]"));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TextMatchPushdown && ((TextMatchPushdown) o).column.equals(column)
                && ((TextMatchPushdown) o).queries.equals(queries) && ((TextMatchPushdown) o).fresh == fresh;
    }

    @Override
    public int hashCode() {
        return (column.hashCode() * 31 + queries.hashCode()) * 31 + Boolean.hashCode(fresh);
    }

    @Override
    public String toString() {
        return "TextMatchPushdown" + describe();
    }
}
