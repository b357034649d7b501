package dev.strata.index.search;

import dev.strata.index.archive.ArchiveFormat;
import dev.strata.index.options.AnalyzerSettings;
import dev.strata.index.options.FullTextDefinition;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.memory.MemoryIndex;
import org.apache.lucene.search.Query;

/**
 * Whether one text matches a full-text query, decided exactly as an archive search decides it: the
 * text is analysed into a one-document {@link MemoryIndex} (positions kept, so phrases, prefixes
 * and fuzzy terms behave as in an archive) and the query is parsed by {@link SearchQueries} with
 * the same analyzer. A match counts whatever its score; a null text never matches.
 *
 * <p>Not thread-safe: one instance per thread (Spark gives each task its own copy).
 */
public final class TextMatcher implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String analyzerJson;
    private final boolean padded;
    private final SearchQuery query;
    private transient Analyzer analyzer;
    private transient Query parsed;

    private TextMatcher(String analyzerJson, boolean padded, SearchQuery query) {
        this.analyzerJson = analyzerJson;
        this.padded = padded;
        this.query = query;
    }

    /** A matcher for {@code query}; throws IllegalArgumentException for a blank or bad query. */
    public static TextMatcher of(AnalyzerSettings analyzer, String query) {
        return of(analyzer, false, new SearchQuery(query, null, null));
    }

    /**
     * A matcher for {@code query}, field qualifiers checked against its column; {@code padded}: the
     * texts are CHAR(n) values ({@link FullTextDefinition#indexedText}).
     */
    public static TextMatcher of(AnalyzerSettings analyzer, boolean padded, SearchQuery query) {
        if (query.text() == null || query.text().trim().isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot match full-text query: the query is blank. Give a Lucene query string such as 'disk AND failure'.");
        }
        TextMatcher matcher = new TextMatcher(analyzer.toJson(), padded, query);
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
     * Whether an index match equals this matcher's match for every row ({@link
     * SearchQueries#perDocument}); fuzzy, wildcard, prefix, regexp and range queries expand against
     * the index's terms, so their rows must be matched one by one.
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
        index.addField(
                ArchiveFormat.TEXT_FIELD, FullTextDefinition.indexedText(padded, text), analyzer);
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
