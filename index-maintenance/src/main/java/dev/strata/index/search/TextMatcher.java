package dev.strata.index.search;

import dev.strata.index.archive.ArchiveFormat;
import dev.strata.index.options.AnalyzerSettings;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.memory.MemoryIndex;
import org.apache.lucene.search.Query;

/**
 * Whether one text matches a full-text query, decided exactly as a search of the archives decides
 * it: the text is analysed with the index's analyzer into the archive's text field of a
 * one-document in-memory index (Lucene's {@link MemoryIndex}, positions kept, so phrases, prefixes
 * and fuzzy terms behave as in an archive), and the query is parsed by {@link SearchQueries} with
 * the same analyzer. A row matches when the query matches its document, whatever the score (a
 * demoted {@code boost} match still matches). A null text never matches: archives and fresh indexes
 * hold no document for it.
 *
 * <p>Serializable (the analyzer settings as their JSON and the query text); the analyzer and the
 * parsed query are built once per deserialized copy. Not thread-safe: use one instance per thread
 * (Spark evaluates each task's own copy of an expression).
 */
public final class TextMatcher implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String analyzerJson;
    private final SearchQuery query;
    private transient Analyzer analyzer;
    private transient Query parsed;

    private TextMatcher(String analyzerJson, SearchQuery query) {
        this.analyzerJson = analyzerJson;
        this.query = query;
    }

    /**
     * A matcher for {@code query} under {@code analyzer}.
     *
     * @throws IllegalArgumentException for a blank or unparsable query, naming the query
     */
    public static TextMatcher of(AnalyzerSettings analyzer, String query) {
        return of(analyzer, new SearchQuery(query, null, null));
    }

    /**
     * A matcher for {@code query} under {@code analyzer}, field qualifiers checked against the
     * query's column.
     *
     * @throws IllegalArgumentException for a blank or unparsable query, naming the query
     */
    public static TextMatcher of(AnalyzerSettings analyzer, SearchQuery query) {
        if (query.text() == null || query.text().trim().isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot match full-text query: the query is blank. Give a Lucene query string such as 'disk AND failure'.");
        }
        TextMatcher matcher = new TextMatcher(analyzer.toJson(), query);
        matcher.query(); // parse now, so a bad query is reported where the matcher is made
        return matcher;
    }

    public String query() {
        if (parsed == null) {
            analyzer = AnalyzerSettings.fromJson(analyzerJson).newAnalyzer();
            parsed = SearchQueries.parse(analyzer, query);
        }
        return query.text();
    }

    /**
     * Whether an archive or fresh index matches a row iff this matcher matches the row's text: the
     * query's match of a document does not depend on the other documents ({@link
     * SearchQueries#perDocument}). A scan that answers such a query from the index answers it
     * exactly; fuzzy, wildcard, prefix, regexp and range queries expand against the index's terms,
     * so their rows must still be matched one by one.
     */
    public boolean exactInIndex() {
        query();
        return SearchQueries.perDocument(parsed);
    }

    /** Whether {@code text} (null: never) matches the query. */
    public boolean matches(String text) {
        if (text == null) {
            return false;
        }
        query();
        MemoryIndex index = new MemoryIndex(false, false);
        index.addField(ArchiveFormat.TEXT_FIELD, text, analyzer);
        try {
            return index.createSearcher().count(parsed) > 0;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot match full-text query "
                            + SearchQueries.shown(query.text())
                            + " in memory: "
                            + e.getMessage(),
                    e);
        }
    }
}
