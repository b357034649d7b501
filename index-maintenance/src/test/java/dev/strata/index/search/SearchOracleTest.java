package dev.strata.index.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.PkFullTextWriteHook;
import dev.strata.index.archive.ArchiveFormat;
import dev.strata.index.fixtures.PkTable;
import dev.strata.index.options.AnalyzerSettings;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.text.QueryGenerator;
import dev.strata.testing.text.TextCorpus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Search results equal a brute-force in-memory Lucene index over the same live rows. */
class SearchOracleTest {

    @TempDir Path dir;

    /** A hit as an id and a score. */
    static final class Ranked {
        final long id;
        final float score;

        Ranked(long id, float score) {
            this.id = id;
            this.score = score;
        }

        @Override
        public String toString() {
            return id + ":" + score;
        }
    }

    /**
     * Brute force: all live rows in one in-memory index, inserted in id order (= physical order).
     */
    static final class Oracle implements AutoCloseable {
        final ByteBuffersDirectory dir = new ByteBuffersDirectory();
        final Analyzer analyzer = AnalyzerSettings.defaults().newAnalyzer();
        final DirectoryReader reader;

        Oracle(Map<Long, String> live) throws Exception {
            try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
                for (Map.Entry<Long, String> e : live.entrySet()) {
                    if (e.getValue() == null) {
                        continue;
                    }
                    Document doc = new Document();
                    doc.add(new TextField(ArchiveFormat.TEXT_FIELD, e.getValue(), Field.Store.NO));
                    doc.add(new StoredField("id", e.getKey()));
                    doc.add(new NumericDocValuesField("id_dv", e.getKey()));
                    w.addDocument(doc);
                }
                w.forceMerge(1);
            }
            reader = DirectoryReader.open(dir);
        }

        List<Ranked> search(String query, int k) throws Exception {
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setSimilarity(new BM25Similarity());
            TopDocs top =
                    searcher.search(
                            new QueryParser(ArchiveFormat.TEXT_FIELD, analyzer).parse(query), k);
            List<Ranked> out = new ArrayList<>();
            for (ScoreDoc sd : top.scoreDocs) {
                out.add(
                        new Ranked(
                                searcher.storedFields()
                                        .document(sd.doc)
                                        .getField("id")
                                        .numericValue()
                                        .longValue(),
                                sd.score));
            }
            return out;
        }

        @Override
        public void close() throws Exception {
            reader.close();
            dir.close();
        }
    }

    private static List<Ranked> ours(
            PkFullTextSearcher searcher, long snapshot, String query, int k) throws Exception {
        return ranked(
                searcher,
                snapshot,
                searcher.search(snapshot, BinaryRow.EMPTY_ROW, 0, query, k).hits());
    }

    /**
     * The hits of bucket 0 as (id, score), reading each hit's id by its file position; every hit
     * row must be live.
     */
    static List<Ranked> ranked(PkFullTextSearcher searcher, long snapshot, List<SearchHit> hits)
            throws Exception {
        Map<String, List<SearchHit>> byFile = new LinkedHashMap<>();
        for (SearchHit h : hits) {
            byFile.computeIfAbsent(h.fileName(), f -> new ArrayList<>()).add(h);
        }
        Map<SearchHit, Long> ids = new java.util.HashMap<>();
        for (Map.Entry<String, List<SearchHit>> e : byFile.entrySet()) {
            long[] positions = e.getValue().stream().mapToLong(SearchHit::position).toArray();
            List<InternalRow> rows =
                    searcher.readRows(
                            snapshot,
                            BinaryRow.EMPTY_ROW,
                            0,
                            e.getKey(),
                            positions,
                            Collections.singletonList("id"));
            for (int i = 0; i < positions.length; i++) {
                assertThat(rows.get(i)).as("hit row is live").isNotNull();
                ids.put(e.getValue().get(i), rows.get(i).getLong(0));
            }
        }
        List<Ranked> out = new ArrayList<>();
        for (SearchHit h : hits) {
            out.add(new Ranked(ids.get(h), h.score()));
        }
        return out;
    }

    private static List<GenericRow> docs(TextCorpus corpus, Random random, int from, int count) {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            rows.add(
                    PkTable.row(
                            i, random.nextInt(15) == 0 ? null : corpus.document(random, 3, 25)));
        }
        return rows;
    }

    @Test
    void topKAndScoresEqualTheOracleWhenOneArchiveCoversTheBucket() throws Exception {
        long seed = TestSeeds.seed("SearchOracleTest.oneArchive");
        Random random = new Random(seed);
        TextCorpus corpus = new TextCorpus(300);
        QueryGenerator queries = new QueryGenerator(corpus);
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(docs(corpus, random, 0, 300), null);
            t.write(docs(corpus, random, 200, 300), null);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            assertThat(t.archives()).hasSize(1);
            long snapshot = t.latestSnapshotId();
            PkFullTextSearcher searcher = PkFullTextSearcher.create(t.table());
            int nonEmpty = 0;
            try (Oracle oracle = new Oracle(t.liveRows())) {
                for (int q = 0; q < 60; q++) {
                    String query = queries.next(random);
                    int k = 1 + random.nextInt(20);
                    List<Ranked> expected = oracle.search(query, k);
                    List<Ranked> actual = ours(searcher, snapshot, query, k);
                    String what = TestSeeds.describe("query '" + query + "' k=" + k, seed);
                    assertThat(actual).as(what).hasSameSizeAs(expected);
                    for (int i = 0; i < expected.size(); i++) {
                        assertThat(actual.get(i).id)
                                .as(what + " rank " + i + " " + actual + " vs " + expected)
                                .isEqualTo(expected.get(i).id);
                        assertThat((double) actual.get(i).score)
                                .as(what)
                                .isCloseTo(
                                        expected.get(i).score,
                                        org.assertj.core.data.Offset.offset(1e-5));
                    }
                    nonEmpty += expected.isEmpty() ? 0 : 1;
                }
            }
            assertThat(nonEmpty).as("most random queries match something").isGreaterThan(30);
        }
    }

    @Test
    void hitsEqualTheOracleOverLiveRowsAfterUpdatesAndDeletes() throws Exception {
        long seed = TestSeeds.seed("SearchOracleTest.liveRows");
        Random random = new Random(seed);
        TextCorpus corpus = new TextCorpus(300);
        QueryGenerator queries = new QueryGenerator(corpus);
        Map<String, String> options = PkTable.defaultOptions();
        try (PkTable t = PkTable.create(dir, options)) {
            t.write(docs(corpus, random, 0, 400), null);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            // Updates and deletes after the compaction: rows in the archived file get shadowed by
            // deletion vectors.
            for (int round = 0; round < 2; round++) {
                try (PkFullTextWriteHook hook =
                        PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                    t.writeBlocking(docs(corpus, random, random.nextInt(350), 40), hook);
                }
                List<Long> deleted = new ArrayList<>();
                for (int i = 0; i < 15; i++) {
                    deleted.add((long) random.nextInt(400));
                }
                try (PkFullTextWriteHook hook =
                        PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                    t.delete(deleted, hook);
                }
            }
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.writeBlocking(new ArrayList<>(), hook);
            }
            long snapshot = t.latestSnapshotId();
            PkFullTextSearcher searcher = PkFullTextSearcher.create(t.table());
            PkFullTextSearcher.BucketResult probe =
                    searcher.search(snapshot, BinaryRow.EMPTY_ROW, 0, "lake", 1);
            StringBuilder layout = new StringBuilder();
            t.dataFiles()
                    .forEach(
                            f ->
                                    layout.append(f.fileName())
                                            .append(" L")
                                            .append(f.level())
                                            .append(' ')
                                            .append(f.fileSource())
                                            .append(' ')
                                            .append(f.rowCount())
                                            .append('\n'));
            assertThat(probe.unsearchableRows())
                    .as("every live level is archived: %s archives %s", layout, t.archives())
                    .isZero();
            assertThat(
                            t.table()
                                    .store()
                                    .newIndexFileHandler()
                                    .scan(
                                            t.table().snapshotManager().snapshot(snapshot),
                                            "DELETION_VECTORS",
                                            BinaryRow.EMPTY_ROW,
                                            0))
                    .as("deletion vectors shadow archived rows")
                    .isNotEmpty();
            assertThat(t.archives().size()).as("several levels archived").isGreaterThan(1);
            Map<Long, String> live = t.liveRows();
            try (Oracle oracle = new Oracle(live)) {
                for (int q = 0; q < 60; q++) {
                    String query = queries.next(random);
                    List<Ranked> expected = oracle.search(query, 10_000);
                    List<Ranked> actual = ours(searcher, snapshot, query, 10_000);
                    TreeSet<Long> expectedIds = new TreeSet<>();
                    expected.forEach(r -> expectedIds.add(r.id));
                    TreeSet<Long> actualIds = new TreeSet<>();
                    actual.forEach(r -> actualIds.add(r.id));
                    assertThat(actualIds)
                            .as(TestSeeds.describe("query '" + query + "'", seed))
                            .isEqualTo(expectedIds);
                    assertThat(actual).hasSameSizeAs(actualIds);
                }
            }
        }
    }
}
