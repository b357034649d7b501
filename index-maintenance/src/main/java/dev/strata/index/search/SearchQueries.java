package dev.strata.index.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.index.archive.ArchiveFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.queries.function.FunctionScoreQuery;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.MultiPhraseQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.SynonymQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.QueryBuilder;

/**
 * Turns a search's query text into a Lucene query over {@link ArchiveFormat#TEXT_FIELD}, analysed
 * with the index's analyzer. Two forms are accepted:
 *
 * <ul>
 *   <li>Lucene classic query syntax (the default).
 *   <li>Apache Paimon's JSON query DSL, when the text is a JSON object whose single key is a query
 *       type below, so a query written for Paimon runs unchanged:
 *       <pre>
 * Query    = {"match": Match} | {"match_phrase" | "phrase": Phrase} | {"boolean" | "bool": Boolean}
 *          | {"boost": Boosting} | {"multi_match": Match (with "columns", one column only)}
 * Match    = {"query" | "terms": text, "operator": "Or" (default) | "And", "boost": number,
 *             "fuzziness": int | "auto", "max_expansions" | "maxExpansions": int (default 50),
 *             "prefix_length" | "prefixLength": int (default 0), "column": ignored}
 * Phrase   = {"query" | "terms": text, "slop": int (default 0), "column": ignored}
 * Boolean  = {"must": [Query], "should": [Query], "must_not" | "mustNot": [Query],
 *             "queries": [["Must" | "Should" | "MustNot", Query]]}
 * Boosting = {"positive": Query, "negative": Query, "negative_boost": number (default 0.5)}
 *       </pre>
 *       {@code fuzziness: "auto"} is 0 for terms of up to 2 characters, 1 up to 5, else 2.
 * </ul>
 *
 * A field qualifier or JSON {@code column} may only name the searched column (any case): the
 * archives hold that one column. Invalid queries throw IllegalArgumentException naming the query.
 */
public final class SearchQueries {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TYPES =
            Set.of("match", "match_phrase", "phrase", "boolean", "bool", "boost", "multi_match");
    private static final int MAX_DEPTH = 32;

    private SearchQueries() {}

    /** The Lucene query for {@code query}, which may name no field. */
    public static Query parse(Analyzer analyzer, String query) {
        return parse(analyzer, new SearchQuery(query, null, null));
    }

    /** The Lucene query for {@code query}; a field qualifier must name the searched column. */
    public static Query parse(Analyzer analyzer, SearchQuery query) {
        String text = query.text();
        JsonNode dsl = dsl(text);
        if (dsl != null) {
            try {
                return parseDsl(analyzer, dsl, 0, query);
            } catch (FieldRefused e) {
                throw e;
            } catch (IndexSearcher.TooManyClauses e) {
                throw tooManyClauses(text, e);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Cannot parse full-text query "
                                + shown(text)
                                + ": "
                                + e.getMessage()
                                + ". Use Paimon's JSON query DSL (match, match_phrase, boolean, boost) or Lucene classic syntax.",
                        e);
            }
        }
        QueryParser parser = new ColumnQueryParser(analyzer, query);
        try {
            return parser.parse(text);
        } catch (FieldRefused e) {
            throw e;
        } catch (ParseException | RuntimeException e) {
            if (e.getCause() instanceof IndexSearcher.TooManyClauses
                    || e instanceof IndexSearcher.TooManyClauses) {
                throw tooManyClauses(text, e);
            }
            // Lucene's message repeats the whole query; keep only what it says about it
            String why = String.valueOf(e.getMessage());
            String echo = "Cannot parse '" + text + "': ";
            if (why.startsWith(echo)) {
                why = why.substring(echo.length());
            }
            why = luceneReason(why);
            JsonNode object = jsonObject(text);
            if (object != null) {
                throw new IllegalArgumentException(
                        "Cannot parse full-text query "
                                + shown(text)
                                + ": it is a JSON object, but "
                                + (object.size() == 1
                                        ? "its key '" + object.fieldNames().next() + "' is not"
                                        : "not a single key naming")
                                + " a query type of Paimon's JSON query DSL "
                                + TYPES
                                + ", so it was read as Lucene classic syntax, which failed ("
                                + shortened(why)
                                + "). Write one of those query types, e.g. {\"match\": {\"query\": \"disk\"}}.",
                        e);
            }
            throw new IllegalArgumentException(
                    "Cannot parse full-text query "
                            + shown(text)
                            + ": "
                            + shortened(why)
                            + ". Use Lucene classic query syntax: terms, AND/OR/NOT, \"phrases\", prefix*, fuzzy~"
                            + " (or Paimon's JSON query DSL).",
                    e);
        }
    }

    private static final Pattern QUERY_ENDS =
            Pattern.compile("Encountered \"<EOF>\" at line \\d+, column (\\d+)");

    /**
     * The classic parser's reason on one line, without the list of every token it would have
     * accepted next (a dozen lines of grammar names) and without a closing period.
     */
    static String luceneReason(String why) {
        int expected = why.indexOf("Was expecting");
        String reason =
                (expected >= 0 ? why.substring(0, expected) : why)
                        .strip()
                        .replaceAll("\\s*\\R\\s*", " ");
        if (reason.endsWith(".")) {
            reason = reason.substring(0, reason.length() - 1);
        }
        Matcher end = QUERY_ENDS.matcher(reason);
        return end.matches()
                ? "the query ends where a term was expected (after column " + end.group(1) + ")"
                : reason;
    }

    /** Queries longer than this are shown cut in messages. */
    private static final int SHOWN_CHARS = 200;

    /** {@code query} quoted for a message, cut after {@link #SHOWN_CHARS} characters. */
    static String shown(String query) {
        return "'" + shortened(query) + "'";
    }

    /** {@code text} cut after {@link #SHOWN_CHARS} characters, for messages. */
    public static String shortened(String text) {
        return text.length() <= SHOWN_CHARS
                ? text
                : text.substring(0, SHOWN_CHARS) + "... (" + text.length() + " characters in all)";
    }

    private static IllegalArgumentException tooManyClauses(String text, Exception e) {
        return new IllegalArgumentException(
                "Cannot parse full-text query "
                        + shown(text)
                        + ": it expands to more than "
                        + IndexSearcher.getMaxClauseCount()
                        + " Lucene clauses (terms, and pieces of terms longer than the analyzer's"
                        + " maximum token length), Lucene's limit per query. Search with fewer or"
                        + " shorter terms, or split the search into several queries.",
                e);
    }

    /** A field qualifier that is not the searched column. */
    private static final class FieldRefused extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        FieldRefused(String message) {
            super(message);
        }
    }

    private static FieldRefused fieldRefused(SearchQuery query, String field) {
        if (query.column() == null) {
            return new FieldRefused(
                    "Cannot parse full-text query "
                            + shown(query.text())
                            + ": it names field '"
                            + field
                            + "', but a full-text query searches the one indexed column. Leave the field out.");
        }
        return new FieldRefused(
                "Cannot search column "
                        + query.column()
                        + " of "
                        + query.table()
                        + " for "
                        + shown(query.text())
                        + ": the query names field '"
                        + field
                        + "', but the table's full-text index holds column "
                        + query.column()
                        + " only, so it would match no row. Write "
                        + query.column()
                        + ":term or leave the field out, and filter other columns in WHERE.");
    }

    /** The field qualifier Lucene's parser sees for unqualified terms; no query can name it. */
    private static final String UNQUALIFIED = "\u0000";

    /**
     * Lucene's classic parser with field qualifiers checked. Only the methods that receive a field
     * from the query text are overridden (the phrase-with-slop form calls the quoted form).
     */
    private static final class ColumnQueryParser extends QueryParser {
        private final SearchQuery query;

        ColumnQueryParser(Analyzer analyzer, SearchQuery query) {
            super(UNQUALIFIED, analyzer);
            this.query = query;
        }

        private String field(String field) {
            if (field.equals(UNQUALIFIED)
                    || (query.column() != null && field.equalsIgnoreCase(query.column()))) {
                return ArchiveFormat.TEXT_FIELD;
            }
            throw fieldRefused(query, field);
        }

        @Override
        protected Query getFieldQuery(String field, String queryText, boolean quoted)
                throws ParseException {
            return super.getFieldQuery(field(field), queryText, quoted);
        }

        @Override
        protected Query getRangeQuery(
                String field,
                String part1,
                String part2,
                boolean startInclusive,
                boolean endInclusive)
                throws ParseException {
            return super.getRangeQuery(field(field), part1, part2, startInclusive, endInclusive);
        }

        /**
         * A group of only negated clauses ({@code NOT disk}, {@code -disk}, {@code (NOT a) AND b})
         * matches the rows without them, as the JSON form's {@code must_not} alone does; Lucene's
         * own reading matches no row.
         */
        @Override
        protected Query getBooleanQuery(List<BooleanClause> clauses) throws ParseException {
            Query q = super.getBooleanQuery(clauses);
            if (!(q instanceof BooleanQuery) || ((BooleanQuery) q).clauses().isEmpty()) {
                return q;
            }
            for (BooleanClause c : ((BooleanQuery) q).clauses()) {
                if (c.getOccur() != BooleanClause.Occur.MUST_NOT) {
                    return q;
                }
            }
            BooleanQuery.Builder b = new BooleanQuery.Builder();
            b.add(new MatchAllDocsQuery(), BooleanClause.Occur.MUST);
            for (BooleanClause c : ((BooleanQuery) q).clauses()) {
                b.add(c);
            }
            return b.build();
        }

        @Override
        protected Query getPrefixQuery(String field, String termStr) throws ParseException {
            return super.getPrefixQuery(field(field), termStr);
        }

        @Override
        protected Query getWildcardQuery(String field, String termStr) throws ParseException {
            if ("*".equals(field) && "*".equals(termStr)) {
                return super.getWildcardQuery(field, termStr); // *:* matches every row
            }
            return super.getWildcardQuery(field(field), termStr);
        }

        @Override
        protected Query getFuzzyQuery(String field, String termStr, float minSimilarity)
                throws ParseException {
            return super.getFuzzyQuery(field(field), termStr, minSimilarity);
        }

        @Override
        protected Query getRegexpQuery(String field, String termStr) throws ParseException {
            return super.getRegexpQuery(field(field), termStr);
        }
    }

    /** Refuses a JSON query's {@code column} / {@code columns} naming another column. */
    private static void checkColumn(JsonNode body, SearchQuery query) {
        for (String name : new String[] {"column", "columns"}) {
            JsonNode v = body.get(name);
            if (v == null) {
                continue;
            }
            Iterable<JsonNode> named = v.isArray() ? v : List.of(v);
            for (JsonNode c : named) {
                if (!c.isTextual()) {
                    throw new IllegalArgumentException(
                            "'" + name + "' must name the searched column, found " + c);
                }
                if (query.column() != null && !c.asText().equalsIgnoreCase(query.column())) {
                    throw fieldRefused(query, c.asText());
                }
            }
        }
    }

    /**
     * Whether a document matches {@code query} in an index iff it matches in an index holding only
     * that document: true for terms, phrases, synonyms, match-all/none and boolean, boost,
     * constant-score and boosting combinations of those; false for queries that expand against the
     * term dictionary (fuzzy, wildcard, prefix, regexp, range) and any other type.
     */
    public static boolean perDocument(Query query) {
        if (query instanceof TermQuery
                || query instanceof PhraseQuery
                || query instanceof MultiPhraseQuery
                || query instanceof SynonymQuery
                || query instanceof MatchAllDocsQuery
                || query instanceof MatchNoDocsQuery) {
            return true;
        }
        if (query instanceof BooleanQuery) {
            for (BooleanClause clause : ((BooleanQuery) query).clauses()) {
                if (!perDocument(clause.getQuery())) {
                    return false;
                }
            }
            return true;
        }
        if (query instanceof BoostQuery) {
            return perDocument(((BoostQuery) query).getQuery());
        }
        if (query instanceof ConstantScoreQuery) {
            return perDocument(((ConstantScoreQuery) query).getQuery());
        }
        if (query instanceof FunctionScoreQuery) {
            return perDocument(((FunctionScoreQuery) query).getWrappedQuery());
        }
        if (query instanceof DisjunctionMaxQuery) {
            for (Query q : ((DisjunctionMaxQuery) query).getDisjuncts()) {
                if (!perDocument(q)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** {@code query} as a JSON object, or null when it is not one. */
    private static JsonNode jsonObject(String query) {
        String t = query.trim();
        if (!t.startsWith("{") || !t.endsWith("}")) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(t);
            return node != null && node.isObject() ? node : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The JSON object when {@code query} has the DSL's shape (one known type), else null. */
    private static JsonNode dsl(String query) {
        JsonNode node = jsonObject(query); // null for text such as a classic range query {a TO b}
        return node != null && node.size() == 1 && TYPES.contains(node.fieldNames().next())
                ? node
                : null;
    }

    private static Query parseDsl(Analyzer analyzer, JsonNode node, int depth, SearchQuery query) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("queries nest deeper than " + MAX_DEPTH + " levels");
        }
        if (node == null || !node.isObject() || node.size() != 1) {
            throw new IllegalArgumentException(
                    "expected an object with exactly one query type of "
                            + TYPES
                            + " but found "
                            + node);
        }
        String type = node.fieldNames().next();
        JsonNode body = node.get(type);
        if (!body.isObject()) {
            throw new IllegalArgumentException("'" + type + "' must be an object, found " + body);
        }
        switch (type) {
            case "match":
                checkColumn(body, query);
                return match(analyzer, body, withMatchFields("column"));
            case "multi_match":
                JsonNode columns = body.get("columns");
                if (columns != null && (!columns.isArray() || columns.size() > 1)) {
                    throw new IllegalArgumentException(
                            "multi_match over several columns is not supported: a table's"
                                    + " full-text index covers one column; search each column and combine the results");
                }
                checkColumn(body, query);
                return match(analyzer, body, withMatchFields("columns", "boosts"));
            case "match_phrase":
            case "phrase":
                checkColumn(body, query);
                return phrase(analyzer, body);
            case "boolean":
            case "bool":
                return bool(analyzer, body, depth, query);
            case "boost":
                return boosting(analyzer, body, depth, query);
            default:
                throw new IllegalArgumentException(
                        "unknown query type '" + type + "'; use one of " + TYPES);
        }
    }

    private static void only(JsonNode body, String what, Set<String> allowed) {
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new IllegalArgumentException(
                        "'" + what + "' has no field '" + f + "'; its fields are " + allowed);
            }
        }
    }

    private static String text(JsonNode body, String what) {
        JsonNode q = body.has("query") ? body.get("query") : body.get("terms");
        if (q == null || !q.isTextual()) {
            throw new IllegalArgumentException(
                    "'" + what + "' needs the text to search as \"query\" (a string)");
        }
        return q.asText();
    }

    private static int intField(JsonNode body, String what, int fallback, String... names) {
        for (String n : names) {
            JsonNode v = body.get(n);
            if (v != null) {
                if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 0) {
                    throw new IllegalArgumentException(
                            "'" + what + "." + n + "' must be a non-negative integer, found " + v);
                }
                return v.asInt();
            }
        }
        return fallback;
    }

    private static float floatField(JsonNode body, String what, String name, float fallback) {
        JsonNode v = body.get(name);
        if (v == null) {
            return fallback;
        }
        if (!v.isNumber() || !(v.floatValue() >= 0)) {
            throw new IllegalArgumentException(
                    "'" + what + "." + name + "' must be a non-negative number, found " + v);
        }
        return v.floatValue();
    }

    private static Query match(Analyzer analyzer, JsonNode body, Set<String> allowed) {
        only(body, "match", allowed);
        String text = text(body, "match");
        String operator =
                body.has("operator")
                        ? body.get("operator").asText().toLowerCase(Locale.ROOT)
                        : "or";
        if (!operator.equals("or") && !operator.equals("and")) {
            throw new IllegalArgumentException(
                    "'match.operator' must be \"Or\" or \"And\", found " + body.get("operator"));
        }
        BooleanClause.Occur occur =
                operator.equals("and") ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD;
        JsonNode fuzzy = body.get("fuzziness");
        Query q;
        if (fuzzy == null || (fuzzy.isIntegralNumber() && fuzzy.asInt() == 0)) {
            q =
                    new QueryBuilder(analyzer)
                            .createBooleanQuery(ArchiveFormat.TEXT_FIELD, text, occur);
        } else {
            boolean auto = fuzzy.isTextual() && fuzzy.asText().equalsIgnoreCase("auto");
            if (!auto
                    && !(fuzzy.isIntegralNumber()
                            && fuzzy.asInt() > 0
                            && fuzzy.asInt() <= FuzzyQuery.defaultMaxEdits)) {
                throw new IllegalArgumentException(
                        "'match.fuzziness' must be 0, 1, 2 or \"auto\", found " + fuzzy);
            }
            int expansions =
                    intField(
                            body,
                            "match",
                            FuzzyQuery.defaultMaxExpansions,
                            "max_expansions",
                            "maxExpansions");
            int prefix = intField(body, "match", 0, "prefix_length", "prefixLength");
            BooleanQuery.Builder b = new BooleanQuery.Builder();
            for (String term : tokens(analyzer, text)) {
                int edits =
                        auto
                                ? (term.length() <= 2 ? 0 : term.length() <= 5 ? 1 : 2)
                                : fuzzy.asInt();
                Term t = new Term(ArchiveFormat.TEXT_FIELD, term);
                b.add(
                        edits == 0
                                ? new TermQuery(t)
                                : new FuzzyQuery(t, edits, prefix, Math.max(1, expansions), true),
                        occur);
            }
            q = b.build();
        }
        if (q == null) {
            q = new MatchNoDocsQuery("no terms in '" + text + "'");
        }
        float boost = floatField(body, "match", "boost", 1f);
        return boost == 1f ? q : new BoostQuery(q, boost);
    }

    private static Query phrase(Analyzer analyzer, JsonNode body) {
        only(body, "match_phrase", Set.of("query", "terms", "slop", "column"));
        String text = text(body, "match_phrase");
        int slop = intField(body, "match_phrase", 0, "slop");
        Query q =
                new QueryBuilder(analyzer).createPhraseQuery(ArchiveFormat.TEXT_FIELD, text, slop);
        return q == null ? new MatchNoDocsQuery("no terms in '" + text + "'") : q;
    }

    private static Query bool(Analyzer analyzer, JsonNode body, int depth, SearchQuery query) {
        only(body, "boolean", Set.of("must", "should", "must_not", "mustNot", "queries"));
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        int positive = 0;
        int clauses = 0;
        for (String name : new String[] {"must", "should", "must_not", "mustNot"}) {
            JsonNode list = body.get(name);
            if (list == null) {
                continue;
            }
            if (!list.isArray()) {
                throw new IllegalArgumentException(
                        "'boolean." + name + "' must be an array of queries, found " + list);
            }
            BooleanClause.Occur occur =
                    name.equals("must")
                            ? BooleanClause.Occur.MUST
                            : name.equals("should")
                                    ? BooleanClause.Occur.SHOULD
                                    : BooleanClause.Occur.MUST_NOT;
            for (JsonNode q : list) {
                b.add(parseDsl(analyzer, q, depth + 1, query), occur);
                positive += occur == BooleanClause.Occur.MUST_NOT ? 0 : 1;
                clauses++;
            }
        }
        JsonNode pairs = body.get("queries");
        if (pairs != null) {
            if (!pairs.isArray()) {
                throw new IllegalArgumentException(
                        "'boolean.queries' must be an array of [occur, query] pairs, found "
                                + pairs);
            }
            for (JsonNode pair : pairs) {
                if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isTextual()) {
                    throw new IllegalArgumentException(
                            "each of 'boolean.queries' must be [\"Must\" | \"Should\" | "
                                    + "\"MustNot\", query], found "
                                    + pair);
                }
                String o = pair.get(0).asText().toLowerCase(Locale.ROOT).replace("_", "");
                BooleanClause.Occur occur =
                        o.equals("must")
                                ? BooleanClause.Occur.MUST
                                : o.equals("should")
                                        ? BooleanClause.Occur.SHOULD
                                        : o.equals("mustnot") ? BooleanClause.Occur.MUST_NOT : null;
                if (occur == null) {
                    throw new IllegalArgumentException(
                            "unknown occur '"
                                    + pair.get(0).asText()
                                    + "'; use Must, Should or MustNot");
                }
                b.add(parseDsl(analyzer, pair.get(1), depth + 1, query), occur);
                positive += occur == BooleanClause.Occur.MUST_NOT ? 0 : 1;
                clauses++;
            }
        }
        if (clauses == 0) {
            throw new IllegalArgumentException("'boolean' needs at least one clause");
        }
        if (positive == 0) {
            b.add(new MatchAllDocsQuery(), BooleanClause.Occur.MUST);
        }
        return b.build();
    }

    private static Query boosting(Analyzer analyzer, JsonNode body, int depth, SearchQuery query) {
        only(body, "boost", Set.of("positive", "negative", "negative_boost", "negativeBoost"));
        if (!body.has("positive") || !body.has("negative")) {
            throw new IllegalArgumentException(
                    "'boost' needs both \"positive\" and \"negative\" queries");
        }
        float factor =
                body.has("negative_boost")
                        ? floatField(body, "boost", "negative_boost", 0.5f)
                        : floatField(body, "boost", "negativeBoost", 0.5f);
        return FunctionScoreQuery.boostByQuery(
                parseDsl(analyzer, body.get("positive"), depth + 1, query),
                parseDsl(analyzer, body.get("negative"), depth + 1, query),
                factor);
    }

    private static List<String> tokens(Analyzer analyzer, String text) {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream(ArchiveFormat.TEXT_FIELD, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot analyse '" + text + "': " + e.getMessage(), e);
        }
        return out;
    }

    /** The fields a match query body may have, besides {@code extra}. */
    private static final List<String> MATCH_FIELDS =
            List.of(
                    "query",
                    "terms",
                    "operator",
                    "boost",
                    "fuzziness",
                    "max_expansions",
                    "maxExpansions",
                    "prefix_length",
                    "prefixLength");

    private static Set<String> withMatchFields(String... extra) {
        Set<String> fields = new java.util.HashSet<>(MATCH_FIELDS);
        fields.addAll(List.of(extra));
        return fields;
    }
}
