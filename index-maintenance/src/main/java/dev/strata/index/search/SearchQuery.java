package dev.strata.index.search;

import java.io.Serializable;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.Query;

/**
 * A full-text query's text with the table and indexed column it searches, so a field qualifier in
 * the text can be read as the column or refused.
 */
public final class SearchQuery implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String text;
    private final String table;
    private final String column;

    /** {@code column} is null when unknown: then no qualifier is accepted. */
    public SearchQuery(String text, String table, String column) {
        this.text = text;
        this.table = table;
        this.column = column;
    }

    public String text() {
        return text;
    }

    public String table() {
        return table;
    }

    public String column() {
        return column;
    }

    /** The Lucene query over the archive's text field, analysed with {@code analyzer}. */
    public Query parse(Analyzer analyzer) {
        return SearchQueries.parse(analyzer, this);
    }

    @Override
    public String toString() {
        return text;
    }
}
