package dev.strata.index.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.PkFullTextWriteHook;
import dev.strata.index.fixtures.PkTable;
import dev.strata.index.search.SearchOracleTest.Oracle;
import dev.strata.index.search.SearchOracleTest.Ranked;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.text.QueryGenerator;
import dev.strata.testing.text.TextCorpus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Searches over every committed row: rows in level 0 (not yet compacted, so no archive covers them)
 * are indexed at query time, newer level-0 versions hide archived ones, and one set of BM25
 * statistics scores archived and fresh rows alike. The oracle is one brute-force Lucene index over
 * a model of the table (every upsert and delete applied in order), not Paimon's reader, which on a
 * deletion-vector table does not return level-0 rows.
 */
class FreshSearchTest {

    @TempDir Path dir;

    private static List<GenericRow> docs(
            TextCorpus corpus, Random random, List<Long> ids, Map<Long, String> model) {
        List<GenericRow> rows = new ArrayList<>();
        for (long id : ids) {
            String body = random.nextInt(15) == 0 ? null : corpus.document(random, 3, 25);
            rows.add(PkTable.row(id, body));
            model.put(id, body);
        }
        return rows;
    }

    private static List<Long> range(long from, int count) {
        List<Long> ids = new ArrayList<>();
        for (long i = from; i < from + count; i++) {
            ids.add(i);
        }
        return ids;
    }

    /**
     * The search as one bucket of a search: statistics of the bucket first, then the scored search.
     */
    private static List<Ranked> fresh(
            PkFullTextSearcher searcher, long snapshot, String query, int k) throws Exception {
        CorpusStats stats = searcher.stats(snapshot, BinaryRow.EMPTY_ROW, 0, query, true);
        List<SearchHit> hits =
                searcher.search(snapshot, BinaryRow.EMPTY_ROW, 0, query, k, stats, true).hits();
        return SearchOracleTest.ranked(searcher, snapshot, hits);
    }

    @Test
    void newRowsInLevelZeroAreFoundAndScoredAsInOneIndex() throws Exception {
        long seed = TestSeeds.seed("FreshSearchTest.newRows");
        Random random = new Random(seed);
        TextCorpus corpus = new TextCorpus(300);
        QueryGenerator queries = new QueryGenerator(corpus);
        Map<Long, String> model = new TreeMap<>();
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(docs(corpus, random, range(0, 300), model), null);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            // New keys only, without compaction: they stay in level 0.
            t.setOption("write-only", "true");
            t.write(docs(corpus, random, range(300, 120), model), null);
            t.write(docs(corpus, random, range(420, 80), model), null);
            assertThat(t.dataFiles().stream().filter(f -> f.level() == 0).count())
                    .as("two level-0 files")
                    .isEqualTo(2);
            long snapshot = t.latestSnapshotId();
            PkFullTextSearcher searcher = PkFullTextSearcher.create(t.table());
            PkFullTextSearcher.BucketResult archiveOnly =
                    searcher.search(snapshot, BinaryRow.EMPTY_ROW, 0, "a", 1);
            assertThat(archiveOnly.unsearchableRows())
                    .as("archive-only mode leaves level 0 out")
                    .isEqualTo(200);
            int nonEmpty = 0;
            int withFresh = 0;
            try (Oracle oracle = new Oracle(model)) {
                for (int q = 0; q < 60; q++) {
                    String query = queries.next(random);
                    int k = 1 + random.nextInt(20);
                    List<Ranked> expectedPlus = oracle.search(query, k + 1);
                    List<Ranked> expected =
                            expectedPlus.subList(0, Math.min(k, expectedPlus.size()));
                    List<Ranked> actual = fresh(searcher, snapshot, query, k);
                    String what = TestSeeds.describe("query '" + query + "' k=" + k, seed);
                    assertThat(actual)
                            .as(what + " " + actual + " vs " + expected)
                            .hasSameSizeAs(expected);
                    for (int i = 0; i < expected.size(); i++) {
                        float e = expected.get(i).score;
                        assertThat((double) actual.get(i).score)
                                .as(what + " rank " + i)
                                .isCloseTo(
                                        e,
                                        org.assertj.core.data.Offset.offset(1e-5 * Math.max(1, e)));
                        // Rows with equal scores may come in another order (ties break by file,
                        // then position).
                        boolean tied = false;
                        for (int j = 0; j < expectedPlus.size(); j++) {
                            tied |= j != i && Math.abs(expectedPlus.get(j).score - e) <= 1e-4;
                        }
                        if (!tied) {
                            assertThat(actual.get(i).id)
                                    .as(what + " rank " + i + " " + actual + " vs " + expected)
                                    .isEqualTo(expected.get(i).id);
                        }
                    }
                    nonEmpty += expected.isEmpty() ? 0 : 1;
                    withFresh += expected.stream().anyMatch(r -> r.id >= 300) ? 1 : 0;
                }
            }
            assertThat(nonEmpty).as("most random queries match something").isGreaterThan(30);
            assertThat(withFresh).as("fresh rows are among the answers").isGreaterThan(10);
            assertThat(
                            searcher.search(snapshot, BinaryRow.EMPTY_ROW, 0, "a", 1, null, true)
                                    .rowsIndexedAtQueryTime())
                    .isEqualTo(200);
        }
    }

    @Test
    void upsertsAndDeletesInLevelZeroHideArchivedVersions() throws Exception {
        long seed = TestSeeds.seed("FreshSearchTest.upserts");
        Random random = new Random(seed);
        TextCorpus corpus = new TextCorpus(300);
        QueryGenerator queries = new QueryGenerator(corpus);
        Map<Long, String> model = new TreeMap<>();
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(docs(corpus, random, range(0, 400), model), null);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            for (int round = 0; round < 3; round++) {
                // Rounds 0 and 2 stay in level 0; round 1 lets the writer compact them into a level
                // no archive covers.
                t.setOption("write-only", round == 1 ? "false" : "true");
                List<Long> ids = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    ids.add((long) random.nextInt(450));
                }
                t.write(docs(corpus, random, ids, model), null);
                List<Long> deleted = new ArrayList<>();
                for (int i = 0; i < 15; i++) {
                    long id = random.nextInt(450);
                    deleted.add(id);
                    model.remove(id);
                }
                t.delete(deleted, null);
            }
            assertThat(t.dataFiles().stream().filter(f -> f.level() == 0).count())
                    .as("level-0 files")
                    .isGreaterThan(1);
            assertThat(t.dataFiles().stream().filter(f -> f.level() > 0).count())
                    .as("archived and unarchived levels")
                    .isGreaterThan(1);
            long snapshot = t.latestSnapshotId();
            PkFullTextSearcher searcher = PkFullTextSearcher.create(t.table());
            int changedAnswers = 0;
            try (Oracle oracle = new Oracle(model)) {
                for (int q = 0; q < 60; q++) {
                    String query = queries.next(random);
                    TreeSet<Long> expected = new TreeSet<>();
                    oracle.search(query, 10_000).forEach(r -> expected.add(r.id));
                    List<Ranked> actual = fresh(searcher, snapshot, query, 10_000);
                    TreeSet<Long> actualIds = new TreeSet<>();
                    actual.forEach(r -> actualIds.add(r.id));
                    assertThat(actualIds)
                            .as(TestSeeds.describe("query '" + query + "'", seed))
                            .isEqualTo(expected);
                    assertThat(actual).as("each key once").hasSameSizeAs(actualIds);
                    TreeSet<Long> archiveOnly = new TreeSet<>();
                    SearchOracleTest.ranked(
                                    searcher,
                                    snapshot,
                                    searcher.search(snapshot, BinaryRow.EMPTY_ROW, 0, query, 10_000)
                                            .hits())
                            .forEach(r -> archiveOnly.add(r.id));
                    changedAnswers += archiveOnly.equals(expected) ? 0 : 1;
                    // A small k still finds the best live rows although better archived versions
                    // are hidden.
                    List<Ranked> top = fresh(searcher, snapshot, query, 3);
                    List<Ranked> all = fresh(searcher, snapshot, query, 10_000);
                    assertThat(top).hasSize(Math.min(3, all.size()));
                    for (int i = 0; i < top.size(); i++) {
                        assertThat(top.get(i).score).isEqualTo(all.get(i).score);
                    }
                }
            }
            assertThat(changedAnswers)
                    .as("the level-0 changes matter to many queries")
                    .isGreaterThan(10);
        }
    }
}
