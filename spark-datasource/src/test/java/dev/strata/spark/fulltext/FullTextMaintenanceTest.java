package dev.strata.spark.fulltext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.PkFullTextIndex;
import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.search.SearchHit;
import dev.strata.spark.StrataSparkTestBase;
import dev.strata.testing.DefaultSparkOnly;
import dev.strata.testing.Fixtures;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.text.TextCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * Full-text archives maintained by Strata's Spark writes, compactions and {@code
 * rebuild_pk_fulltext}: the archives in each snapshot are exactly the current ones for the active
 * data files, failures leave nothing behind, and Paimon's own reader still reads the table.
 */
@DefaultSparkOnly
class FullTextMaintenanceTest extends StrataSparkTestBase {

    private static final StructType DOCS =
            StructType.fromDDL("id BIGINT, dt STRING, title STRING, body STRING");

    private void createDocs(String name, int buckets) {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.kb");
        sql(
                "CREATE TABLE lake.kb.%s (id BIGINT, dt STRING, title STRING, body STRING) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '%d', 'deletion-vectors.enabled' = 'true', "
                        + "'strata-full-text.index.columns' = 'body')",
                name, buckets);
    }

    private void insertDocs(String name, long from, long to, long seed) throws Exception {
        Random random = new Random(seed);
        TextCorpus corpus = new TextCorpus(400);
        List<Row> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            String body =
                    random.nextInt(20) == 0 ? null : corpus.document(random, 5, 30) + " token" + id;
            rows.add(RowFactory.create(id, "d" + (id % 2), "title " + id, body));
        }
        spark.createDataFrame(rows, DOCS).writeTo("lake.kb." + name).append();
    }

    /**
     * Every pk-full-text entry of the latest snapshot is current, and every level > 0 of every
     * bucket has one.
     */
    private void assertArchivesCurrent(String name) throws Exception {
        FileStoreTable table = paimonTable("kb", name);
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        Map<String, Set<Integer>> levels = new HashMap<>();
        Map<String, BinaryRow> partitions = new HashMap<>();
        for (DataSplit split :
                table.newSnapshotReader().withSnapshot(snapshot.id()).read().dataSplits()) {
            String key = split.partition().getString(0) + "/" + split.bucket();
            partitions.put(key, split.partition().copy());
            for (DataFileMeta file : split.dataFiles()) {
                if (file.level() > 0) {
                    levels.computeIfAbsent(key, k -> new HashSet<>()).add(file.level());
                }
            }
        }
        List<IndexManifestEntry> entries =
                table.store().newIndexFileHandler().scan(snapshot, PkFullTextIndex.INDEX_TYPE);
        int current = 0;
        for (Map.Entry<String, BinaryRow> bucket : partitions.entrySet()) {
            int b = Integer.parseInt(bucket.getKey().substring(bucket.getKey().indexOf('/') + 1));
            List<IndexFileMeta> archives =
                    searcher.currentArchives(snapshot.id(), bucket.getValue(), b);
            assertThat(archives)
                    .as("current archives of %s", bucket.getKey())
                    .hasSize(levels.getOrDefault(bucket.getKey(), Set.of()).size());
            current += archives.size();
        }
        assertThat(entries).as("every archive in the manifest is current").hasSize(current);
    }

    private List<Long> search(String name, String query, int k) throws Exception {
        FileStoreTable table = paimonTable("kb", name);
        long snapshot = table.snapshotManager().latestSnapshotId();
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        List<SearchHit> hits = new ArrayList<>();
        Map<String, BinaryRow> partitions = new HashMap<>();
        for (DataSplit split :
                table.newSnapshotReader().withSnapshot(snapshot).read().dataSplits()) {
            partitions.putIfAbsent(
                    split.partition().getString(0) + "/" + split.bucket(),
                    split.partition().copy());
        }
        for (Map.Entry<String, BinaryRow> e : partitions.entrySet()) {
            int bucket = Integer.parseInt(e.getKey().substring(e.getKey().indexOf('/') + 1));
            hits.addAll(searcher.search(snapshot, e.getValue(), bucket, query, k).hits());
        }
        List<Long> ids = new ArrayList<>();
        for (SearchHit hit : PkFullTextSearcher.topK(hits, k)) {
            ids.add(hitId(searcher, snapshot, hit));
        }
        return ids;
    }

    /**
     * The archives the latest snapshot references (earlier snapshots' archives stay on disk until
     * expiry).
     */
    private List<String> currentArchiveFiles(String name) throws Exception {
        FileStoreTable table = paimonTable("kb", name);
        org.apache.paimon.index.IndexFileHandler handler = table.store().newIndexFileHandler();
        return handler
                .scan(
                        table.snapshotManager().latestSnapshot(),
                        dev.strata.index.PkFullTextIndex.INDEX_TYPE)
                .stream()
                .map(e -> handler.filePath(e).toUri().getPath())
                .sorted()
                .toList();
    }

    private List<String> archiveFilesOnDisk(String name) throws IOException {
        Path dir = warehouse.resolve("kb.db").resolve(name);
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(
                            p ->
                                    p.getFileName().toString().startsWith("index-")
                                            && !p.toString().contains("/manifest/"))
                    .map(Path::toString)
                    .sorted()
                    .toList();
        }
    }

    @Test
    void compactionBuildsCurrentArchivesInItsOwnSnapshot() throws Exception {
        long seed = TestSeeds.seed("compactionBuildsCurrentArchives");
        createDocs("docs", 2);
        insertDocs("docs", 0, 300, seed);
        insertDocs("docs", 200, 400, seed + 1);
        FileStoreTable before = paimonTable("kb", "docs");
        long snapshotBefore = before.snapshotManager().latestSnapshotId();

        sql("CALL lake.sys.compact(table => 'kb.docs')");

        FileStoreTable after = paimonTable("kb", "docs");
        Snapshot compact = after.snapshotManager().latestSnapshot();
        assertThat(compact.id()).isEqualTo(snapshotBefore + 1);
        assertThat(compact.commitKind()).isEqualTo(Snapshot.CommitKind.COMPACT);
        assertArchivesCurrent("docs");
        // Every live row with a body is found by its own token (the seed decides which bodies are
        // null).
        List<Row> live = spark.sql("SELECT id, body FROM lake.kb.docs").collectAsList();
        assertThat(live).hasSize(400);
        for (Row r : live) {
            long id = r.getLong(0);
            if (id % 37 == 0 || id >= 395) {
                assertThat(search("docs", "token" + id, 10))
                        .as(
                                "token%d (%s)",
                                id, TestSeeds.describe("compactionBuildsCurrentArchives", seed))
                        .isEqualTo(r.isNullAt(1) ? List.of() : List.of(id));
            }
        }
    }

    @Test
    void replacedAndDeletedRowsAreNeverReturned() throws Exception {
        createDocs("updates", 2);
        insertDocs("updates", 0, 200, 7);
        sql("CALL lake.sys.compact(table => 'kb.updates')");
        assertThat(search("updates", "token42", 5)).containsExactly(42L);
        // A new version of row 42 without its token: the archived old version is deleted by a
        // deletion vector.
        sql("INSERT INTO lake.kb.updates VALUES (42, 'd0', 'replaced', 'nothing to see')");
        assertThat(search("updates", "token42", 5)).isEmpty();
        sql("CALL lake.sys.compact(table => 'kb.updates')");
        assertArchivesCurrent("updates");
        assertThat(search("updates", "token42", 5)).isEmpty();
        assertThat(search("updates", "nothing AND see", 5)).containsExactly(42L);
    }

    @Test
    void anOverwriteLandsWithCurrentArchivesForItsRows() throws Exception {
        // Paimon's writer starts an overwritten bucket empty; the archives must too, or the
        // overwrite's archive describes the replaced files and its rows go unindexed.
        createDocs("over", 2);
        insertDocs("over", 0, 120, 11);
        List<Long> even = idsWithBody("over", "d0");
        List<Long> odd = idsWithBody("over", "d1");
        sql(
                "INSERT OVERWRITE lake.kb.over PARTITION (dt = 'd0') "
                        + "VALUES (1000, 'first', 'static overwrite zzstatic')");
        assertArchivesCurrent("over");
        assertThat(search("over", "zzstatic", 5)).containsExactly(1000L);
        assertThat(search("over", "token" + even.get(0), 5)).as("an overwritten row").isEmpty();
        assertThat(search("over", "token" + odd.get(0) + " OR token" + odd.get(1), 5))
                .as("rows of the other partition")
                .containsExactlyInAnyOrderElementsOf(odd.subList(0, 2));
        spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
        try {
            sql(
                    "INSERT OVERWRITE lake.kb.over VALUES "
                            + "(1001, 'd1', 'second', 'dynamic overwrite zzdynamic')");
        } finally {
            spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
        }
        assertArchivesCurrent("over");
        assertThat(search("over", "zzdynamic OR zzstatic OR token" + odd.get(0), 5))
                .containsExactlyInAnyOrder(1000L, 1001L);
    }

    private List<Long> idsWithBody(String name, String dt) {
        return spark
                .sql(
                        String.format(
                                "SELECT id FROM lake.kb.%s WHERE dt = '%s' AND body IS NOT NULL "
                                        + "ORDER BY id LIMIT 2",
                                name, dt))
                .collectAsList()
                .stream()
                .map(r -> r.getLong(0))
                .toList();
    }

    @Test
    void rebuildHealsDeletedAndCorruptArchivesAndForceRebuildsAll() throws Exception {
        createDocs("heal", 2);
        insertDocs("heal", 0, 200, 11);
        sql("CALL lake.sys.compact(table => 'kb.heal')");
        List<String> archives = currentArchiveFiles("heal");
        assertThat(archives).hasSizeGreaterThanOrEqualTo(2);
        Files.delete(Path.of(archives.get(0)));
        byte[] bytes = Files.readAllBytes(Path.of(archives.get(1)));
        bytes[bytes.length / 2] ^= 0x5a;
        Files.write(Path.of(archives.get(1)), bytes);

        List<Row> report = sql("CALL lake.sys.rebuild_pk_fulltext(table => 'kb.heal')");
        assertThat(report.stream().filter(r -> r.getString(3).equals("built")).count())
                .isEqualTo(2);
        // The deleted archive's header cannot be read: it is retired at level -1. The corrupt one
        // has a readable
        // header, so its level reports the replacement as built.
        assertThat(report.stream().filter(r -> r.getString(3).equals("retired")))
                .singleElement()
                .satisfies(r -> assertThat(r.getInt(2)).isEqualTo(-1));
        assertThat(report).allSatisfy(r -> assertThat(r.getString(0)).matches("dt=d[01]"));
        assertArchivesCurrent("heal");
        assertThat(search("heal", "token150", 3)).containsExactly(150L);
        long built =
                report.stream()
                        .filter(r -> r.getString(3).equals("built"))
                        .mapToLong(r -> r.getLong(5))
                        .sum();
        long keptRows =
                report.stream()
                        .filter(r -> r.getString(3).equals("kept"))
                        .mapToLong(r -> r.getLong(5))
                        .sum();
        assertThat(built + keptRows).isEqualTo(200L);

        List<Row> again = sql("CALL lake.sys.rebuild_pk_fulltext(table => 'kb.heal')");
        assertThat(again)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.getString(3)).isEqualTo("kept"));
        List<Row> forced =
                sql(
                        "CALL lake.sys.rebuild_pk_fulltext(table => 'kb.heal', where => 'dt = ''d1''', force => true)");
        assertThat(forced)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.getString(0)).isEqualTo("dt=d1"));
        assertThat(forced.stream().filter(r -> r.getString(3).equals("built")).count())
                .isGreaterThanOrEqualTo(1);
        assertArchivesCurrent("heal");
    }

    @Test
    void aFailingRebuildTaskLeavesNoSnapshotAndNoArchive() throws Exception {
        createDocs("broken", 2);
        insertDocs("broken", 0, 120, 5);
        sql("CALL lake.sys.compact(table => 'kb.broken')");
        for (String archive : archiveFilesOnDisk("broken")) {
            Files.delete(Path.of(archive));
        }
        // Remove the data file of one bucket: its rebuild task cannot read its sources.
        FileStoreTable table = paimonTable("kb", "broken");
        DataSplit victim = table.newSnapshotReader().read().dataSplits().get(0);
        Path bucketDir =
                warehouse
                        .resolve("kb.db")
                        .resolve("broken")
                        .resolve("dt=" + victim.partition().getString(0))
                        .resolve("bucket-" + victim.bucket());
        Files.delete(bucketDir.resolve(victim.dataFiles().get(0).fileName()));
        long snapshot = table.snapshotManager().latestSnapshotId();

        assertThatThrownBy(() -> sql("CALL lake.sys.rebuild_pk_fulltext(table => 'kb.broken')"))
                .hasMessageContaining("Cannot rebuild full-text archives of lake.kb.broken")
                .hasMessageContaining("No snapshot was created");
        assertThat(paimonTable("kb", "broken").snapshotManager().latestSnapshotId())
                .isEqualTo(snapshot);
        assertThat(archiveFilesOnDisk("broken")).isEmpty();
    }

    @Test
    void aFailingCompactionTaskLeavesNoSnapshotNoDataFileAndNoArchive() throws Exception {
        createDocs("cbroken", 2);
        insertDocs("cbroken", 0, 160, 9);
        insertDocs("cbroken", 100, 220, 10);
        // Remove one level-0 file of one bucket: that bucket's compaction task cannot read it, the
        // others succeed.
        FileStoreTable table = paimonTable("kb", "cbroken");
        List<DataSplit> splits = table.newSnapshotReader().read().dataSplits();
        assertThat(splits).hasSizeGreaterThan(1);
        DataSplit victim = splits.get(0);
        Path bucketDir =
                warehouse
                        .resolve("kb.db")
                        .resolve("cbroken")
                        .resolve("dt=" + victim.partition().getString(0))
                        .resolve("bucket-" + victim.bucket());
        Files.delete(bucketDir.resolve(victim.dataFiles().get(0).fileName()));
        long snapshot = table.snapshotManager().latestSnapshotId();
        Path cbrokenDir = warehouse.resolve("kb.db").resolve("cbroken");
        List<String> before = dataAndIndexFilesOnDisk(cbrokenDir);

        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 'kb.cbroken')"))
                .hasMessageContaining("Cannot compact lake.kb.cbroken")
                .hasMessageContaining("No snapshot was created");
        assertThat(paimonTable("kb", "cbroken").snapshotManager().latestSnapshotId())
                .isEqualTo(snapshot);
        assertThat(dataAndIndexFilesOnDisk(cbrokenDir))
                .as("files written by the tasks that succeeded are gone")
                .isEqualTo(before);
    }

    @Test
    void staleArchivesWrittenByAnotherWriterAreRetiredAndRebuiltByCompaction() throws Exception {
        Path copy = Fixtures.copy("fulltext", "stale-archives", root.resolve("fixtures"));
        spark.conf().set("spark.sql.catalog.stale", dev.strata.spark.StrataCatalog.class.getName());
        spark.conf().set("spark.sql.catalog.stale.warehouse", copy.toUri().toString());
        List<Row> before = sql("SELECT * FROM stale.fx.docs ORDER BY id");
        sql("INSERT INTO stale.fx.docs VALUES (1000, 'fresh text to compact')");
        sql("CALL stale.sys.compact(table => 'fx.docs')");
        FileStoreTable table =
                (FileStoreTable)
                        org.apache.paimon.catalog.CatalogFactory.createCatalog(
                                        org.apache.paimon.catalog.CatalogContext.create(
                                                org.apache.paimon.options.Options.fromMap(
                                                        Map.of(
                                                                "warehouse",
                                                                copy.toUri().toString()))))
                                .getTable(
                                        org.apache.paimon.catalog.Identifier.create("fx", "docs"));
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        List<IndexManifestEntry> entries =
                table.store().newIndexFileHandler().scan(snapshot, PkFullTextIndex.INDEX_TYPE);
        assertThat(entries).hasSize(2);
        for (IndexManifestEntry entry : entries) {
            assertThat(searcher.currentArchives(snapshot.id(), entry.partition(), entry.bucket()))
                    .contains(entry.indexFile());
        }
        assertThat(sql("SELECT count(*) FROM stale.fx.docs").get(0).getLong(0))
                .isEqualTo(before.size() + 1L);
    }

    @Test
    void aTextColumnRenamedByAnotherEngineIsRefusedUntilTheOptionNamesIt() throws Exception {
        long seed = TestSeeds.seed("aTextColumnRenamedByAnotherEngine");
        createDocs("renamed", 2);
        insertDocs("renamed", 0, 200, seed);
        // Another Paimon engine renames the column: Paimon knows nothing of Strata's option.
        try (org.apache.paimon.catalog.Catalog catalog = paimonCatalog()) {
            catalog.alterTable(
                    org.apache.paimon.catalog.Identifier.create("kb", "renamed"),
                    org.apache.paimon.schema.SchemaChange.renameColumn("body", "content"),
                    false);
        }
        long before = paimonTable("kb", "renamed").snapshotManager().latestSnapshotId();
        assertThat(sql("SELECT count(*) FROM lake.kb.renamed").get(0).getLong(0)).isEqualTo(200);
        assertThatThrownBy(() -> sql("INSERT INTO lake.kb.renamed VALUES (900, 'd0', 't', 'late')"))
                .hasMessageContaining("full-text index of table lake.kb.renamed")
                .hasMessageContaining("entry 'body' must reference an existing column")
                .hasMessageContaining("[id, dt, title, content]")
                .hasMessageContaining(
                        "SET TBLPROPERTIES ('strata-full-text.index.columns' = '<column>')");
        for (String call :
                List.of(
                        "CALL lake.sys.compact(table => 'kb.renamed')",
                        "CALL lake.sys.rebuild_pk_fulltext(table => 'kb.renamed')")) {
            assertThatThrownBy(() -> sql(call))
                    .as(call)
                    .hasMessageStartingWith(
                            "Cannot use the primary-key full-text index of table lake.kb.renamed");
        }
        assertThat(paimonTable("kb", "renamed").snapshotManager().latestSnapshotId())
                .as("nothing committed")
                .isEqualTo(before);

        sql(
                "ALTER TABLE lake.kb.renamed SET TBLPROPERTIES"
                        + " ('strata-full-text.index.columns' = 'content')");
        assertArchivesCurrent("renamed");
        sql("INSERT INTO lake.kb.renamed VALUES (900, 'd0', 't', 'late token900')");
        assertArchivesCurrent("renamed");
        assertThat(search("renamed", "token900", 10)).containsExactly(900L);
        List<Row> live = spark.sql("SELECT id, content FROM lake.kb.renamed").collectAsList();
        for (Row r : live) {
            long id = r.getLong(0);
            if (id % 41 == 0) {
                assertThat(search("renamed", "token" + id, 10))
                        .isEqualTo(r.isNullAt(1) ? List.of() : List.of(id));
            }
        }
    }

    @Test
    void paimonsOwnReaderReadsATableWithArchives() throws Exception {
        createDocs("interop", 2);
        insertDocs("interop", 0, 100, 3);
        sql("CALL lake.sys.compact(table => 'kb.interop')");
        sql("INSERT INTO lake.kb.interop VALUES (5, 'd1', 'updated', 'changed body')");
        Set<Long> expected = new HashSet<>();
        sql("SELECT id FROM lake.kb.interop").forEach(r -> expected.add(r.getLong(0)));
        FileStoreTable table = paimonTable("kb", "interop");
        ReadBuilder read = table.newReadBuilder();
        Set<Long> actual = new HashSet<>();
        try (RecordReaderIterator<InternalRow> it =
                new RecordReaderIterator<>(read.newRead().createReader(read.newScan().plan()))) {
            while (it.hasNext()) {
                actual.add(it.next().getLong(0));
            }
        }
        assertThat(actual).hasSize(100).isEqualTo(expected);
    }

    /**
     * Strata writes an indexed table's files (INSERT and compaction) with 128 KB pages, so a search
     * inflates little to read a hit's row; a table that sets {@code parquet.page.size}, and a table
     * without the index, keep their own page size. Measured on the files: each text page's
     * uncompressed bytes, from the page index Parquet writes.
     */
    @Test
    void indexedTablesGetSmallPagesUnlessTheTableSetsAPageSize() throws Exception {
        createDocs("paged", 1);
        sql(
                "CREATE TABLE lake.kb.paged_set (id BIGINT, dt STRING, title STRING, body STRING) "
                        + "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '1', "
                        + "'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body', "
                        + "'parquet.page.size' = '1048576')");
        sql(
                "CREATE TABLE lake.kb.paged_plain (id BIGINT, dt STRING, title STRING, body STRING) "
                        + "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '1')");
        Random random = TestSeeds.random("indexedTablesGetSmallPagesUnlessTheTableSetsAPageSize");
        TextCorpus corpus = new TextCorpus(400);
        List<Row> rows = new ArrayList<>();
        // ~1.5 MB of text per partition: one or two pages at Parquet's 1 MB, about ten at 128 KB (a
        // page is closed when a size check, every 100 rows or more, finds it over the limit)
        for (long id = 0; id < 3000; id++) {
            rows.add(
                    RowFactory.create(
                            id, "d" + (id % 2), "title " + id, corpus.document(random, 120, 200)));
        }
        for (String t : List.of("paged", "paged_set", "paged_plain")) {
            spark.createDataFrame(rows, DOCS).writeTo("lake.kb." + t).append();
            sql("CALL lake.sys.compact(table => 'kb.%s')", t);
        }
        assertThat(averageTextPageBytes("paged")).isBetween(64L << 10, 256L << 10);
        assertThat(averageTextPageBytes("paged_set")).isGreaterThan(512L << 10);
        assertThat(averageTextPageBytes("paged_plain")).isGreaterThan(512L << 10);
    }

    /** Uncompressed bytes per page of {@code body} over every data file of the table. */
    private long averageTextPageBytes(String name) throws Exception {
        Path root = Path.of(paimonTable("kb", name).location().toUri());
        long bytes = 0;
        long pages = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(f -> f.getFileName().toString().startsWith("data-")).toList();
        }
        assertThat(files).isNotEmpty();
        for (Path f : files) {
            try (ParquetFileReader reader =
                    ParquetFileReader.open(
                            HadoopInputFile.fromPath(
                                    new org.apache.hadoop.fs.Path(f.toUri()),
                                    new Configuration()))) {
                for (BlockMetaData block : reader.getFooter().getBlocks()) {
                    for (ColumnChunkMetaData chunk : block.getColumns()) {
                        if (chunk.getPath().toDotString().equals("body")) {
                            bytes += chunk.getTotalUncompressedSize();
                            pages += reader.readOffsetIndex(chunk).getPageCount();
                        }
                    }
                }
            }
        }
        return bytes / pages;
    }
}
