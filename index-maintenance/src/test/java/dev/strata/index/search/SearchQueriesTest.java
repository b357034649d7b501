package dev.strata.index.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.archive.ArchiveFormat;
import dev.strata.index.options.AnalyzerSettings;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.text.QueryGenerator;
import dev.strata.testing.text.TextCorpus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Paimon's JSON query DSL gives the same hits and scores as the equivalent Lucene classic query,
 * parsed by Lucene's own query parser, over one in-memory index.
 */
class SearchQueriesTest {

    private static final long SEED = TestSeeds.seed("SearchQueriesTest");
    private static final TextCorpus CORPUS = new TextCorpus(60);
    private static ByteBuffersDirectory dir;
    private static DirectoryReader reader;
    private static IndexSearcher searcher;
    private static Analyzer analyzer;
    private static final List<String> TEXTS = new ArrayList<>();

    @BeforeAll
    static void index() throws Exception {
        analyzer = AnalyzerSettings.defaults().newAnalyzer();
        dir = new ByteBuffersDirectory();
        Random random = new Random(SEED);
        try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
            for (int i = 0; i < 400; i++) {
                Document doc = new Document();
                String text = CORPUS.document(random, 3, 15);
                TEXTS.add(text);
                doc.add(new TextField(ArchiveFormat.TEXT_FIELD, text, Field.Store.NO));
                w.addDocument(doc);
            }
        }
        reader = DirectoryReader.open(dir);
        searcher = new IndexSearcher(reader);
        searcher.setSimilarity(new BM25Similarity());
    }

    @AfterAll
    static void close() throws Exception {
        reader.close();
        dir.close();
        analyzer.close();
    }

    private static Map<Integer, Float> hits(Query q) throws Exception {
        Map<Integer, Float> out = new HashMap<>();
        for (ScoreDoc sd : searcher.search(q, 1000).scoreDocs) {
            out.put(sd.doc, sd.score);
        }
        return out;
    }

    private static void same(String json, String classic) throws Exception {
        Map<Integer, Float> expected =
                hits(new QueryParser(ArchiveFormat.TEXT_FIELD, analyzer).parse(classic));
        Map<Integer, Float> actual = hits(SearchQueries.parse(analyzer, json));
        assertThat(actual.keySet()).as(json + " vs " + classic).isEqualTo(expected.keySet());
        for (Map.Entry<Integer, Float> e : expected.entrySet()) {
            assertThat(actual.get(e.getKey()))
                    .as(json)
                    .isCloseTo(e.getValue(), org.assertj.core.data.Offset.offset(1e-5f));
        }
    }

    @Test
    void eachQueryTypeEqualsItsClassicForm() throws Exception {
        Random random = new Random(SEED + 1);
        int matched = 0;
        for (int i = 0; i < 30; i++) {
            String a = CORPUS.vocabulary().get(random.nextInt(60));
            String b = CORPUS.vocabulary().get(random.nextInt(60));
            String c = CORPUS.vocabulary().get(random.nextInt(60));
            same("{\"match\":{\"query\":\"" + a + " " + b + "\"}}", a + " " + b);
            same(
                    "{\"match\":{\"column\":\"body\",\"terms\":\""
                            + a
                            + " "
                            + b
                            + "\",\"operator\":\"And\"}}",
                    "+" + a + " +" + b);
            same("{\"match\":{\"query\":\"" + a + "\",\"boost\":2.5}}", a + "^2.5");
            same(
                    "{\"match_phrase\":{\"query\":\"" + a + " " + b + "\",\"slop\":2}}",
                    "\"" + a + " " + b + "\"~2");
            same("{\"phrase\":{\"query\":\"" + a + " " + b + "\"}}", "\"" + a + " " + b + "\"");
            same(
                    "{\"boolean\":{\"must\":[{\"match\":{\"query\":\""
                            + a
                            + "\"}}],\"should\":[{\"match\":{\"query\":\""
                            + b
                            + "\"}}],\"must_not\":[{\"match\":{\"query\":\""
                            + c
                            + "\"}}]}}",
                    "+" + a + " " + b + " -" + c);
            same(
                    "{\"bool\":{\"queries\":[[\"Must\",{\"match\":{\"query\":\""
                            + a
                            + "\"}}],[\"MustNot\",{\"match\":{\"query\":\""
                            + c
                            + "\"}}]]}}",
                    "+" + a + " -" + c);
            same("{\"match\":{\"query\":\"" + a + "\",\"fuzziness\":1}}", a + "~1");
            same(
                    "{\"boolean\":{\"must_not\":[{\"match\":{\"query\":\"" + c + "\"}}]}}",
                    "*:* -" + c);
            matched +=
                    hits(new QueryParser(ArchiveFormat.TEXT_FIELD, analyzer).parse(a + " " + b))
                                    .isEmpty()
                            ? 0
                            : 1;
        }
        assertThat(matched).as("the words occur in the index").isGreaterThan(20);
    }

    @Test
    void aGroupOfOnlyNegatedClausesMatchesTheRowsWithoutThem() throws Exception {
        // Oracle: the documents' own texts, the term absent from them after the analyzer's
        // lower-casing.
        String c = CORPUS.vocabulary().get(3);
        String d = CORPUS.vocabulary().get(7);
        java.util.Set<Integer> withoutC = new java.util.HashSet<>();
        java.util.Set<Integer> withDWithoutC = new java.util.HashSet<>();
        for (int i = 0; i < TEXTS.size(); i++) {
            List<String> words =
                    List.of(TEXTS.get(i).toLowerCase(java.util.Locale.ROOT).split("\\W+"));
            if (!words.contains(c)) {
                withoutC.add(i);
                if (words.contains(d)) {
                    withDWithoutC.add(i);
                }
            }
        }
        assertThat(withoutC).isNotEmpty().hasSizeLessThan(TEXTS.size());
        for (String q : List.of("NOT " + c, "-" + c, "!" + c)) {
            assertThat(hits(SearchQueries.parse(analyzer, q)).keySet()).as(q).isEqualTo(withoutC);
        }
        assertThat(hits(SearchQueries.parse(analyzer, "(NOT " + c + ") AND " + d)).keySet())
                .isEqualTo(withDWithoutC);
        same("{\"boolean\":{\"must_not\":[{\"match\":{\"query\":\"" + c + "\"}}]}}", "*:* -" + c);
        assertThat(hits(SearchQueries.parse(analyzer, "NOT " + c)).keySet())
                .isEqualTo(
                        hits(SearchQueries.parse(
                                        analyzer,
                                        "{\"boolean\":{\"must_not\":[{\"match\":{\"query\":\""
                                                + c
                                                + "\"}}]}}"))
                                .keySet());
    }

    @Test
    void boostDemotionScalesRowsMatchingTheNegativeQuery() throws Exception {
        String a = CORPUS.vocabulary().get(0);
        String b = CORPUS.vocabulary().get(1);
        Map<Integer, Float> positive =
                hits(new QueryParser(ArchiveFormat.TEXT_FIELD, analyzer).parse(a));
        Map<Integer, Float> negative =
                hits(new QueryParser(ArchiveFormat.TEXT_FIELD, analyzer).parse(b));
        Map<Integer, Float> boosted =
                hits(
                        SearchQueries.parse(
                                analyzer,
                                "{\"boost\":{\"positive\":{\"match\":{\"query\":\""
                                        + a
                                        + "\"}},\"negative\":{\"match\":{\"query\":\""
                                        + b
                                        + "\"}},\"negative_boost\":0.3}}"));
        assertThat(boosted.keySet()).isEqualTo(positive.keySet());
        int demoted = 0;
        for (Map.Entry<Integer, Float> e : positive.entrySet()) {
            float expected = negative.containsKey(e.getKey()) ? e.getValue() * 0.3f : e.getValue();
            demoted += negative.containsKey(e.getKey()) ? 1 : 0;
            assertThat(boosted.get(e.getKey()))
                    .isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-5f));
        }
        assertThat(demoted).isPositive();
    }

    @Test
    void classicSyntaxStaysTheDefaultAndBadDslIsNamed() throws Exception {
        // A classic range query also starts with '{': it is not JSON, so it stays classic.
        same("{a TO c}", "{a TO c}");
        assertThatThrownBy(
                        () ->
                                SearchQueries.parse(
                                        analyzer,
                                        "{\"match\":{\"query\":\"x\",\"operator\":\"Xor\"}}"))
                .hasMessageContaining("Cannot parse full-text query")
                .hasMessageContaining("'match.operator' must be");
        assertThatThrownBy(() -> SearchQueries.parse(analyzer, "{\"match\":{\"text\":\"x\"}}"))
                .hasMessageContaining("'match' has no field 'text'");
        assertThatThrownBy(
                        () ->
                                SearchQueries.parse(
                                        analyzer,
                                        "{\"boolean\":{\"must\":{\"match\":{\"query\":\"x\"}}}}"))
                .hasMessageContaining("'boolean.must' must be an array");
        assertThatThrownBy(
                        () ->
                                SearchQueries.parse(
                                        analyzer,
                                        "{\"multi_match\":{\"query\":\"x\",\"columns\":[\"a\",\"b\"]}}"))
                .hasMessageContaining("multi_match over several columns is not supported");
        assertThatThrownBy(() -> SearchQueries.parse(analyzer, "body:(unbalanced"))
                .hasMessageContaining("Cannot parse full-text query 'body:(unbalanced'");
        // Lucene's parser appends every token it would have accepted, one a line; the message
        // keeps where it stopped and says what the syntax is instead.
        assertThatThrownBy(() -> SearchQueries.parse(analyzer, "disk AND"))
                .hasMessage(
                        "Cannot parse full-text query 'disk AND': the query ends where a term was"
                                + " expected (after column 8). Use Lucene classic query syntax: terms,"
                                + " AND/OR/NOT, \"phrases\", prefix*, fuzzy~ (or Paimon's JSON query"
                                + " DSL).");
        assertThatThrownBy(() -> SearchQueries.parse(analyzer, "disk AND )"))
                .hasMessageStartingWith("Cannot parse full-text query 'disk AND )': Encountered ")
                .hasMessageContaining("at line 1, column 9. Use Lucene classic query syntax")
                .hasMessageNotContaining("expecting")
                .hasMessageNotContaining("\n");
        // A JSON object of another engine's query type is named as such, not as a classic error.
        assertThatThrownBy(() -> SearchQueries.parse(analyzer, "{\"term\": {\"body\": \"disk\"}}"))
                .hasMessageContaining(
                        "its key 'term' is not a query type of Paimon's JSON query DSL")
                .hasMessageContaining("match");
    }

    @Test
    void perDocumentQueriesAreTermsPhrasesAndTheirCombinations() {
        String w = CORPUS.word(new Random(SEED + 1));
        for (String q :
                new String[] {
                    w,
                    w + " AND " + w + "s",
                    "\"" + w + " lake\"~2",
                    "NOT " + w,
                    "+" + w + " -lake^2",
                    "{\"match\":{\"query\":\"" + w + " lake\",\"operator\":\"And\"}}",
                    "{\"match_phrase\":{\"query\":\"" + w + " lake\",\"slop\":1}}",
                    "{\"boost\":{\"positive\":{\"match\":{\"query\":\""
                            + w
                            + "\"}},\"negative\":{\"match\":{\"query\":\"lake\"}}}}"
                }) {
            assertThat(TextMatcher.of(AnalyzerSettings.defaults(), q).exactInIndex())
                    .as(q)
                    .isTrue();
        }
        for (String q :
                new String[] {
                    w + "~1",
                    w.substring(0, 2) + "*",
                    "l?ke",
                    "/la.e/",
                    "[a TO c]",
                    w + " OR lak*",
                    "{\"match\":{\"query\":\"" + w + "\",\"fuzziness\":1}}"
                }) {
            assertThat(TextMatcher.of(AnalyzerSettings.defaults(), q).exactInIndex())
                    .as(q)
                    .isFalse();
        }
    }

    /**
     * The claim the scan relies on: for a per-document query the index's hits are the documents
     * matched one by one.
     */
    @Test
    void perDocumentQueriesMatchInTheIndexExactlyTheDocumentsTheyMatchAlone() throws Exception {
        QueryGenerator generator = new QueryGenerator(CORPUS);
        Random random = new Random(SEED + 2);
        int exact = 0;
        for (int n = 0; n < 80; n++) {
            String q = generator.next(random);
            TextMatcher matcher = TextMatcher.of(AnalyzerSettings.defaults(), q);
            if (!matcher.exactInIndex()) {
                continue;
            }
            exact++;
            java.util.Set<Integer> alone = new java.util.HashSet<>();
            for (int i = 0; i < TEXTS.size(); i++) {
                if (matcher.matches(TEXTS.get(i))) {
                    alone.add(i);
                }
            }
            assertThat(hits(SearchQueries.parse(analyzer, q)).keySet()).as(q).isEqualTo(alone);
        }
        assertThat(exact).isGreaterThan(30);
    }
}
