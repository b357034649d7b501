package dev.strata.spark.fulltext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.PkFullTextIndex;
import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.options.AnalyzerSettings;
import dev.strata.index.search.SearchHit;
import dev.strata.spark.StrataSparkTestBase;
import dev.strata.testing.DefaultSparkOnly;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.text.QueryGenerator;
import dev.strata.testing.text.TextCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.BucketEntry;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * Full-text archives of postpone-bucket tables: the compaction that assigns real buckets builds the
 * archives of every bucket it writes in its own snapshot, searches over them match a brute-force
 * Lucene oracle over the live rows (upserts and deletes parked before compaction resolved), and
 * later compactions into bucketed partitions and {@code rebuild_pk_fulltext} keep them current.
 */
@DefaultSparkOnly
class PostponeFullTextTest extends StrataSparkTestBase {

    private static final StructType DOCS =
            StructType.fromDDL("id BIGINT, dt STRING, op STRING, body STRING, batch INT");
    private static final int POSTPONE = -2;

    private final TextCorpus corpus = new TextCorpus(300);

    private void createDocs(String name) {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pf");
        sql(
                "CREATE TABLE lake.pf."
                        + name
                        + " (id BIGINT, dt STRING, op STRING, body STRING, batch INT) "
                        + "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '-2', "
                        + "'rowkind.field' = 'op', 'postpone.default-bucket-num' = '3', "
                        + "'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')");
        sql(
                "CREATE TABLE spark_catalog.default.pf_"
                        + name
                        + " (id BIGINT, dt STRING, op STRING, body STRING, batch INT) USING parquet");
    }

    /**
     * Upserts ids in [from, to) (some null bodies) and deletes a few ids written by earlier batches
     * (never one of this batch: two versions of a key in one job have no order), in the table and
     * in its oracle.
     */
    private void writeBatch(
            String name, Random random, int batch, long from, long to, List<Long> deletes)
            throws Exception {
        List<Row> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            String body =
                    random.nextInt(15) == 0
                            ? null
                            : corpus.document(random, 4, 25) + " token" + id + "v" + batch;
            rows.add(RowFactory.create(id, "d" + (id % 2), "+I", body, batch));
        }
        for (long id : deletes) {
            rows.add(RowFactory.create(id, "d" + (id % 2), "-D", null, batch));
        }
        spark.createDataFrame(rows, DOCS).repartition(2).writeTo("lake.pf." + name).append();
        spark.createDataFrame(rows, DOCS)
                .write()
                .mode("append")
                .insertInto("spark_catalog.default.pf_" + name);
    }

    /** id -> body of the rows the oracle says are live (latest version per key is not a delete). */
    private Map<Long, String> liveRows(String name) {
        Map<Long, String> live = new HashMap<>();
        for (Row r :
                sql(
                        "SELECT id, body FROM (SELECT *, row_number() OVER (PARTITION BY id, dt ORDER BY batch DESC) "
                                + "AS rn FROM spark_catalog.default.pf_"
                                + name
                                + ") WHERE rn = 1 AND op <> '-D'")) {
            live.put(r.getLong(0), r.getString(1));
        }
        return live;
    }

    /**
     * Ids whose live body matches {@code query}, by Lucene over an in-memory index of the oracle's
     * rows.
     */
    private static Set<Long> oracleMatches(Map<Long, String> live, String query) throws Exception {
        Analyzer analyzer = AnalyzerSettings.defaults().newAnalyzer();
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
                for (Map.Entry<Long, String> e : live.entrySet()) {
                    if (e.getValue() != null) {
                        Document doc = new Document();
                        doc.add(new TextField("text", e.getValue(), Field.Store.NO));
                        doc.add(new StoredField("id", e.getKey()));
                        w.addDocument(doc);
                    }
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                Set<Long> ids = new TreeSet<>();
                for (ScoreDoc sd :
                        searcher.search(new QueryParser("text", analyzer).parse(query), 100_000)
                                .scoreDocs) {
                    ids.add(
                            searcher.storedFields()
                                    .document(sd.doc)
                                    .getField("id")
                                    .numericValue()
                                    .longValue());
                }
                return ids;
            }
        }
    }

    /** Every id the archives of the latest snapshot match, over all real buckets. */
    private Set<Long> archiveMatches(String name, String query) throws Exception {
        FileStoreTable table = paimonTable("pf", name);
        long snapshot = table.snapshotManager().latestSnapshotId();
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        Set<Long> ids = new TreeSet<>();
        for (DataSplit split :
                table.newSnapshotReader()
                        .withSnapshot(snapshot)
                        .onlyReadRealBuckets()
                        .read()
                        .dataSplits()) {
            List<SearchHit> hits =
                    searcher.search(snapshot, split.partition(), split.bucket(), query, 100_000)
                            .hits();
            for (SearchHit hit : hits) {
                ids.add(hitId(searcher, snapshot, hit));
            }
        }
        return ids;
    }

    /**
     * Every id a fresh search of the latest snapshot matches, over all buckets of every partition,
     * the parked bucket -2 included (what {@code full_text_search} reads).
     */
    private Set<Long> freshMatches(String name, String query) throws Exception {
        FileStoreTable table = paimonTable("pf", name);
        long snapshot = table.snapshotManager().latestSnapshotId();
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        Set<Long> ids = new TreeSet<>();
        for (BucketEntry e : table.store().newScan().withSnapshot(snapshot).readBucketEntries()) {
            for (SearchHit hit :
                    searcher.search(snapshot, e.partition(), e.bucket(), query, 100_000, null, true)
                            .hits()) {
                assertThat(ids.add(hitId(searcher, snapshot, hit)))
                        .as("one live version per key for %s", query)
                        .isTrue();
            }
        }
        return ids;
    }

    /**
     * Each real bucket has exactly one current archive per level > 0, and the manifest holds
     * nothing else.
     */
    private void assertArchivesCurrent(String name) throws Exception {
        FileStoreTable table = paimonTable("pf", name);
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        int current = 0;
        int buckets = 0;
        for (DataSplit split :
                table.newSnapshotReader()
                        .withSnapshot(snapshot.id())
                        .onlyReadRealBuckets()
                        .read()
                        .dataSplits()) {
            Set<Integer> levels = new HashSet<>();
            for (DataFileMeta file : split.dataFiles()) {
                assertThat(file.level()).as("compacted data leaves level 0").isGreaterThan(0);
                levels.add(file.level());
            }
            List<IndexFileMeta> archives =
                    searcher.currentArchives(snapshot.id(), split.partition(), split.bucket());
            assertThat(archives)
                    .as("archives of %s bucket %d", split.partition().getString(0), split.bucket())
                    .hasSize(levels.size());
            current += archives.size();
            buckets++;
        }
        assertThat(buckets).isPositive();
        List<IndexManifestEntry> entries =
                table.store().newIndexFileHandler().scan(snapshot, PkFullTextIndex.INDEX_TYPE);
        assertThat(entries).as("every archive in the manifest is current").hasSize(current);
        assertThat(entries).allSatisfy(e -> assertThat(e.bucket()).isNotEqualTo(POSTPONE));
    }

    private void assertSearchesMatchOracle(String name, Random random, long seed) throws Exception {
        Map<Long, String> live = liveRows(name);
        QueryGenerator queries = new QueryGenerator(corpus);
        int nonEmpty = 0;
        for (int i = 0; i < 25; i++) {
            String query = queries.next(random);
            Set<Long> expected = oracleMatches(live, query);
            assertThat(archiveMatches(name, query))
                    .as(TestSeeds.describe("postpone full text " + query, seed))
                    .isEqualTo(expected);
            nonEmpty += expected.isEmpty() ? 0 : 1;
        }
        assertThat(nonEmpty).as("queries that match something").isGreaterThan(5);
    }

    @Test
    void compactionBuildsArchivesOfEveryWrittenBucketInItsSnapshot() throws Exception {
        long seed = TestSeeds.seed("postponeFullText");
        Random random = new Random(seed);
        createDocs("docs");
        writeBatch("docs", random, 0, 0, 300, List.of());
        writeBatch("docs", random, 1, 200, 400, List.of(5L, 6L, 150L));
        writeBatch("docs", random, 2, 390, 420, List.of(7L, 385L));
        FileStoreTable parked = paimonTable("pf", "docs");
        long before = parked.snapshotManager().latestSnapshotId();
        assertThat(
                        parked.store()
                                .newIndexFileHandler()
                                .scan(
                                        parked.snapshotManager().latestSnapshot(),
                                        PkFullTextIndex.INDEX_TYPE))
                .as("parked rows have no archives")
                .isEmpty();

        sql("CALL lake.sys.compact(table => 'pf.docs')");

        FileStoreTable table = paimonTable("pf", "docs");
        Snapshot compact = table.snapshotManager().latestSnapshot();
        assertThat(compact.id()).isEqualTo(before + 1);
        assertThat(compact.commitKind()).isEqualTo(Snapshot.CommitKind.COMPACT);
        assertThat(table.newSnapshotReader().withBucket(POSTPONE).read().dataSplits()).isEmpty();
        assertThat(table.newSnapshotReader().onlyReadRealBuckets().read().dataSplits())
                .extracting(DataSplit::totalBuckets)
                .containsOnly(3);
        assertArchivesCurrent("docs");
        assertSearchesMatchOracle("docs", random, seed);
        // A replaced version and a deleted row are never found; the latest version is.
        assertThat(archiveMatches("docs", "token250v0")).isEmpty();
        assertThat(archiveMatches("docs", "token5v0")).isEmpty();
        assertThat(archiveMatches("docs", "token150v0")).isEmpty();
        Map<Long, String> live = liveRows("docs");
        if (live.get(260L) != null) {
            assertThat(archiveMatches("docs", "token260v1")).containsExactly(260L);
            assertThat(archiveMatches("docs", "token260v0")).isEmpty();
        }
        assertThat(sql("SELECT count(*) FROM lake.pf.docs").get(0).getLong(0))
                .isEqualTo(live.size());
    }

    @Test
    void parkedRowsAreSearchableBeforeTheirCompaction() throws Exception {
        long seed = TestSeeds.seed("postponeFullTextParked");
        Random random = new Random(seed);
        createDocs("parked");
        writeBatch("parked", random, 0, 0, 200, List.of());
        Map<Long, String> before = liveRows("parked");
        QueryGenerator queries = new QueryGenerator(corpus);
        for (int i = 0; i < 10; i++) {
            String query = queries.next(random);
            assertThat(freshMatches("parked", query))
                    .as(TestSeeds.describe("parked only " + query, seed))
                    .isEqualTo(oracleMatches(before, query));
        }
        sql("CALL lake.sys.compact(table => 'pf.parked')");
        // Upserts and deletes of archived keys, parked again: the parked versions win over the
        // buckets' ones.
        writeBatch("parked", random, 1, 150, 260, List.of(3L, 4L, 120L));
        writeBatch("parked", random, 2, 255, 270, List.of(151L, 152L));
        assertThat(
                        paimonTable("pf", "parked")
                                .newSnapshotReader()
                                .withBucket(POSTPONE)
                                .read()
                                .dataSplits())
                .as("rows are parked")
                .isNotEmpty();
        Map<Long, String> live = liveRows("parked");
        int nonEmpty = 0;
        for (int i = 0; i < 25; i++) {
            String query = queries.next(random);
            Set<Long> expected = oracleMatches(live, query);
            assertThat(freshMatches("parked", query))
                    .as(TestSeeds.describe("parked over buckets " + query, seed))
                    .isEqualTo(expected);
            nonEmpty += expected.isEmpty() ? 0 : 1;
        }
        assertThat(nonEmpty).as("queries that match something").isGreaterThan(5);
        assertThat(freshMatches("parked", "token3v0"))
                .as("a parked delete hides the archived row")
                .isEmpty();
        assertThat(freshMatches("parked", "token160v0"))
                .as("a parked upsert hides the archived version")
                .isEmpty();
        if (live.get(160L) != null) {
            assertThat(freshMatches("parked", "token160v1")).containsExactly(160L);
        }
        assertThat(freshMatches("parked", "token151v1")).as("deleted while parked").isEmpty();
    }

    @Test
    void laterCompactionsAndRebuildKeepArchivesCurrent() throws Exception {
        long seed = TestSeeds.seed("postponeFullTextAgain");
        Random random = new Random(seed);
        createDocs("again");
        writeBatch("again", random, 0, 0, 200, List.of());
        sql("CALL lake.sys.compact(table => 'pf.again')");
        sql("ALTER TABLE lake.pf.again SET TBLPROPERTIES ('postpone.default-bucket-num' = '5')");
        writeBatch("again", random, 1, 150, 260, List.of(3L, 4L));
        writeBatch("again", random, 2, 255, 270, List.of(151L));

        List<Row> pending = sql("CALL lake.sys.rebuild_pk_fulltext(table => 'pf.again')");
        assertThat(pending).allSatisfy(r -> assertThat(r.getInt(1)).isNotEqualTo(POSTPONE));
        assertThat(pending).allSatisfy(r -> assertThat(r.getString(3)).isEqualTo("kept"));

        sql("CALL lake.sys.compact(table => 'pf.again')");
        FileStoreTable table = paimonTable("pf", "again");
        assertThat(table.newSnapshotReader().onlyReadRealBuckets().read().dataSplits())
                .as("known bucket count kept")
                .extracting(DataSplit::totalBuckets)
                .containsOnly(3);
        assertArchivesCurrent("again");
        assertSearchesMatchOracle("again", random, seed);

        List<Row> kept = sql("CALL lake.sys.rebuild_pk_fulltext(table => 'pf.again')");
        assertThat(kept).isNotEmpty().allSatisfy(r -> assertThat(r.getString(3)).isEqualTo("kept"));
        List<Row> forced =
                sql("CALL lake.sys.rebuild_pk_fulltext(table => 'pf.again', force => true)");
        assertThat(forced.stream().filter(r -> r.getString(3).equals("built")).count())
                .isEqualTo(kept.size());
        assertArchivesCurrent("again");
        assertSearchesMatchOracle("again", random, seed + 1);

        Set<Long> expected = new TreeSet<>(liveRows("again").keySet());
        ReadBuilder read = table.newReadBuilder();
        Set<Long> actual = new TreeSet<>();
        try (RecordReaderIterator<InternalRow> it =
                new RecordReaderIterator<>(read.newRead().createReader(read.newScan().plan()))) {
            while (it.hasNext()) {
                actual.add(it.next().getLong(0));
            }
        }
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void aFailingBucketOfAPostponeCompactionLeavesNoSnapshotNoDataFileAndNoArchive()
            throws Exception {
        createDocs("broken");
        Random random = new Random(TestSeeds.seed("postponeBroken"));
        writeBatch("broken", random, 1, 0, 120, List.of());
        sql("CALL lake.sys.compact(table => 'pf.broken')");
        writeBatch("broken", random, 2, 100, 200, List.of());
        // Remove one compacted file of a real bucket: that bucket's write task fails when it
        // compacts, the
        // other buckets' tasks write files and archives that must not survive.
        FileStoreTable table = paimonTable("pf", "broken");
        DataSplit victim =
                table.newSnapshotReader().onlyReadRealBuckets().read().dataSplits().get(0);
        Path tableDir = warehouse.resolve("pf.db").resolve("broken");
        Files.delete(
                tableDir.resolve("dt=" + victim.partition().getString(0))
                        .resolve("bucket-" + victim.bucket())
                        .resolve(victim.dataFiles().get(0).fileName()));
        long snapshot = table.snapshotManager().latestSnapshotId();
        List<String> before = dataAndIndexFilesOnDisk(tableDir);

        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 'pf.broken')"))
                .hasMessageContaining("Cannot compact lake.pf.broken")
                .hasMessageContaining("No snapshot was created");
        assertThat(paimonTable("pf", "broken").snapshotManager().latestSnapshotId())
                .isEqualTo(snapshot);
        assertThat(dataAndIndexFilesOnDisk(tableDir))
                .as("nothing written by the buckets that succeeded is left")
                .isEqualTo(before);
    }
}
