package dev.strata.spark.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.PkFullTextIndex;
import dev.strata.spark.StrataSparkTestBase;
import dev.strata.testing.DefaultSparkOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * {@code t$fulltext} against an independent reading of the latest snapshot: its data files by level
 * through Paimon's snapshot reader, its archives through Paimon's index manifest, and the archive
 * files in the table directory, after a write-only INSERT (level 0, not indexed), a compaction
 * (current), more write-only rows (level 0 again) and a compaction by another Paimon writer that
 * does not maintain archives (stale).
 */
@DefaultSparkOnly
class FullTextSystemTableTest extends StrataSparkTestBase {

    /** One (partition, bucket, level) as the snapshot's files say it should be reported. */
    private record Level(int files, long rows) {}

    /** "partition/bucket/level" to the files and rows of that level in the latest snapshot. */
    private Map<String, Level> levelsInSnapshot(FileStoreTable table) {
        Map<String, Level> out = new TreeMap<>();
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        for (DataSplit split :
                table.newSnapshotReader().withSnapshot(snapshot.id()).read().dataSplits()) {
            for (DataFileMeta f : split.dataFiles()) {
                String partition =
                        split.partition().getFieldCount() == 0
                                ? ""
                                : "dt=" + split.partition().getString(0);
                String key = partition + "/" + split.bucket() + "/" + f.level();
                Level l = out.getOrDefault(key, new Level(0, 0));
                out.put(key, new Level(l.files + 1, l.rows + f.rowCount()));
            }
        }
        return out;
    }

    /** "partition/bucket/level" to the names of that level's data files in the latest snapshot. */
    private static Map<String, List<String>> filesByLevel(FileStoreTable table) {
        Map<String, List<String>> out = new TreeMap<>();
        for (DataSplit split : table.newSnapshotReader().read().dataSplits()) {
            for (DataFileMeta f : split.dataFiles()) {
                out.computeIfAbsent(
                                "dt="
                                        + split.partition().getString(0)
                                        + "/"
                                        + split.bucket()
                                        + "/"
                                        + f.level(),
                                k -> new ArrayList<>())
                        .add(f.fileName());
            }
        }
        return out;
    }

    /**
     * Archive file name to its (partition/bucket) as the latest snapshot's index manifest lists it.
     */
    private static Map<String, String> archivesInManifest(FileStoreTable table) {
        Map<String, String> out = new HashMap<>();
        IndexFileHandler handler = table.store().newIndexFileHandler();
        for (IndexManifestEntry e :
                handler.scan(
                        table.snapshotManager().latestSnapshot(), PkFullTextIndex.INDEX_TYPE)) {
            String partition =
                    e.partition().getFieldCount() == 0 ? "" : "dt=" + e.partition().getString(0);
            out.put(e.indexFile().fileName(), partition + "/" + e.bucket());
        }
        return out;
    }

    /** Archive files (not manifests) under the table's index directory, name to size. */
    private Map<String, Long> archivesOnDisk(String name) throws IOException {
        Path dir = warehouse.resolve("ft_sys.db").resolve(name).resolve("index");
        Map<String, Long> out = new HashMap<>();
        if (!Files.exists(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                out.put(p.getFileName().toString(), Files.size(p));
            }
        }
        return out;
    }

    private List<Row> fulltext(String name) {
        return sql(
                "SELECT partition, bucket, level, archive, state, source_files, rows, archive_bytes, rows_not_covered "
                        + "FROM lake.ft_sys.`%s$fulltext` ORDER BY partition, bucket, level, archive",
                name);
    }

    private static String key(Row r) {
        return r.getString(0) + "/" + r.getInt(1) + "/" + r.getInt(2);
    }

    @Test
    void reportsEveryLevelAsTheSnapshotAndTheArchivesOnDiskSayAfterEachWrite() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ft_sys");
        sql(
                "CREATE TABLE lake.ft_sys.docs (id BIGINT, dt STRING, body STRING) PARTITIONED BY (dt) TBLPROPERTIES ("
                        + "'primary-key' = 'id,dt', 'bucket' = '2', 'deletion-vectors.enabled' = 'true', 'write-only' = 'true', "
                        + "'strata-full-text.index.columns' = 'body')");
        StringBuilder values = new StringBuilder();
        for (int id = 0; id < 40; id++) {
            values.append(id == 0 ? "" : ", ")
                    .append(String.format("(%d, 'd%d', 'text number %d')", id, id % 2, id));
        }
        sql("INSERT INTO lake.ft_sys.docs VALUES " + values);

        // 1. write-only: every row is in level 0, never archived, so every row is not covered.
        List<Row> rows = fulltext("docs");
        Map<String, Level> expected = levelsInSnapshot(paimonTable("ft_sys", "docs"));
        assertThat(expected).isNotEmpty().allSatisfy((k, l) -> assertThat(k).endsWith("/0"));
        assertThat(rows)
                .extracting(FullTextSystemTableTest::key)
                .containsExactlyElementsOf(expected.keySet());
        for (Row r : rows) {
            Level l = expected.get(key(r));
            assertThat(r.isNullAt(3)).isTrue();
            assertThat(r.getString(4)).isEqualTo("not_indexed");
            assertThat(r.getInt(5)).isEqualTo(l.files);
            assertThat(r.getLong(6)).isEqualTo(l.rows);
            assertThat(r.isNullAt(7)).isTrue();
            assertThat(r.getLong(8)).isEqualTo(l.rows);
        }
        assertThat(rows.stream().mapToLong(r -> r.getLong(8)).sum()).isEqualTo(40);
        assertThat(archivesOnDisk("docs")).isEmpty();

        // 2. compaction: one current archive per (partition, bucket) at its top level, covering
        // every row. (A
        // write-only table cannot be compacted: Paimon's writer has no compaction manager then.)
        sql("ALTER TABLE lake.ft_sys.docs UNSET TBLPROPERTIES ('write-only')");
        sql("CALL lake.sys.compact(table => 'ft_sys.docs')");
        sql("ALTER TABLE lake.ft_sys.docs SET TBLPROPERTIES ('write-only' = 'true')");
        FileStoreTable table = paimonTable("ft_sys", "docs");
        rows = fulltext("docs");
        expected = levelsInSnapshot(table);
        Map<String, String> manifest = archivesInManifest(table);
        Map<String, Long> onDisk = archivesOnDisk("docs");
        assertThat(expected).allSatisfy((k, l) -> assertThat(k).doesNotEndWith("/0"));
        assertThat(rows)
                .extracting(FullTextSystemTableTest::key)
                .containsExactlyElementsOf(expected.keySet());
        assertThat(rows)
                .extracting(r -> r.getString(3))
                .containsExactlyInAnyOrderElementsOf(manifest.keySet());
        for (Row r : rows) {
            Level l = expected.get(key(r));
            assertThat(r.getString(4)).isEqualTo("current");
            assertThat(manifest.get(r.getString(3))).isEqualTo(r.getString(0) + "/" + r.getInt(1));
            assertThat(r.getLong(7)).isEqualTo(onDisk.get(r.getString(3)));
            assertThat(r.getInt(5)).isEqualTo(l.files);
            assertThat(r.getLong(6)).isEqualTo(l.rows);
            assertThat(r.getLong(8)).isZero();
        }
        assertThat(rows.stream().mapToLong(r -> r.getLong(6)).sum()).isEqualTo(40);

        // 3. more write-only rows: new level-0 rows are not covered, the archives above stay
        // current.
        sql(
                "INSERT INTO lake.ft_sys.docs VALUES (100, 'd0', 'late text'), (101, 'd1', 'later text')");
        rows = fulltext("docs");
        expected = levelsInSnapshot(paimonTable("ft_sys", "docs"));
        assertThat(rows)
                .extracting(FullTextSystemTableTest::key)
                .containsExactlyElementsOf(expected.keySet());
        for (Row r : rows) {
            Level l = expected.get(key(r));
            boolean level0 = r.getInt(2) == 0;
            assertThat(r.getString(4)).isEqualTo(level0 ? "not_indexed" : "current");
            assertThat(r.getLong(6)).isEqualTo(l.rows);
            assertThat(r.getLong(8)).isEqualTo(level0 ? l.rows : 0);
        }
        assertThat(rows.stream().mapToLong(r -> r.getLong(8)).sum()).isEqualTo(2);

        // 4. another Paimon writer fully compacts partition d0 without maintaining archives: there
        // the top level
        // holds new files, so its archive (still in the index manifest) is stale and its rows are
        // not covered.
        table = paimonTable("ft_sys", "docs");
        List<String> before = new ArrayList<>(archivesInManifest(table).keySet());
        // Rewrites every file, also a lone top-level one (else a bucket without new rows would keep
        // its files).
        FileStoreTable writer =
                table.copy(
                        Map.of(
                                "write-only",
                                "false",
                                "compaction.force-rewrite-all-files",
                                "true"));
        Map<String, List<String>> filesBefore = filesByLevel(table);
        BinaryRow d0 = null;
        for (DataSplit split : writer.newSnapshotReader().read().dataSplits()) {
            if (split.partition().getString(0).toString().equals("d0")) {
                d0 = split.partition().copy();
            }
        }
        BatchWriteBuilder builder = writer.newBatchWriteBuilder();
        Files.createDirectories(root.resolve("paimon-io"));
        try (IOManager io = IOManager.create(root.resolve("paimon-io").toString());
                BatchTableWrite write = builder.newWrite();
                BatchTableCommit commit = builder.newCommit()) {
            write.withIOManager(io);
            write.write(
                    GenericRow.of(
                            200L,
                            BinaryString.fromString("d0"),
                            BinaryString.fromString("other engine")));
            write.compact(d0, 0, true);
            write.compact(d0, 1, true);
            commit.commit(write.prepareCommit());
        }
        table = paimonTable("ft_sys", "docs");
        rows = fulltext("docs");
        expected = levelsInSnapshot(table);
        manifest = archivesInManifest(table);
        assertThat(manifest.keySet()).containsExactlyInAnyOrderElementsOf(before);
        Map<String, List<String>> filesAfter = filesByLevel(table);
        assertThat(filesAfter)
                .allSatisfy(
                        (k, files) -> {
                            if (k.startsWith("dt=d0/")) {
                                assertThat(files)
                                        .as("files of %s", k)
                                        .doesNotContainAnyElementsOf(
                                                filesBefore.getOrDefault(k, List.of()));
                            }
                        });
        long d0Rows = 0;
        for (Row r : rows) {
            if (r.getString(0).equals("dt=d0")) {
                Level l = expected.get(key(r));
                assertThat(r.getString(4)).as("%s", key(r)).isEqualTo("stale");
                assertThat(manifest.get(r.getString(3))).isEqualTo("dt=d0/" + r.getInt(1));
                if (l != null) {
                    assertThat(r.getLong(6)).isEqualTo(l.rows);
                    assertThat(r.getLong(8)).isEqualTo(l.rows);
                    d0Rows += l.rows;
                } else {
                    // The archive's level holds no files any more: it covers nothing that is there.
                    assertThat(r.getLong(6)).isZero();
                    assertThat(r.getLong(8)).isZero();
                }
            } else {
                assertThat(r.getString(4)).isIn("current", "not_indexed");
            }
        }
        long d0Expected =
                expected.entrySet().stream()
                        .filter(e -> e.getKey().startsWith("dt=d0/"))
                        .mapToLong(e -> e.getValue().rows)
                        .sum();
        assertThat(d0Rows).isEqualTo(d0Expected).isEqualTo(22);
        // Every level with files is reported, and none twice unless two archives name it.
        assertThat(rows.stream().map(FullTextSystemTableTest::key).distinct().toList())
                .containsAll(expected.keySet());

        // 5. the next Strata compaction heals it: all current again.
        sql("ALTER TABLE lake.ft_sys.docs UNSET TBLPROPERTIES ('write-only')");
        sql("CALL lake.sys.compact(table => 'ft_sys.docs')");
        assertThat(fulltext("docs"))
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.getString(4)).isEqualTo("current"));
    }

    @Test
    void aDeletedArchiveLeavesItsLevelMissingAndTheUnreadableArchiveStaleUntilARebuild()
            throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ft_sys");
        sql(
                "CREATE TABLE lake.ft_sys.lost (id BIGINT, body STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '1', 'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')");
        sql("INSERT INTO lake.ft_sys.lost SELECT id, concat('text ', id) FROM range(0, 30)");

        // A deletion-vector table's INSERT compacts its level-0 files itself and archives them in
        // the same commit.
        List<Row> rows = fulltext("lost");
        assertThat(rows)
                .singleElement()
                .satisfies(
                        r -> {
                            assertThat(r.getString(4)).isEqualTo("current");
                            assertThat(r.getLong(6)).isEqualTo(30);
                            assertThat(r.getLong(8)).isZero();
                        });
        String archive = rows.get(0).getString(3);
        long bytes = rows.get(0).getLong(7);
        int level = rows.get(0).getInt(2);
        assertThat(archivesOnDisk("lost")).containsEntry(archive, bytes);
        Files.delete(
                warehouse.resolve("ft_sys.db").resolve("lost").resolve("index").resolve(archive));

        // Still in the index manifest, but its header cannot be read: stale at level -1; its level
        // has no archive.
        assertThat(archivesInManifest(paimonTable("ft_sys", "lost"))).containsOnlyKeys(archive);
        assertThat(values(fulltext("lost")))
                .containsExactly(
                        List.of("", 0, -1, archive, "stale", 0, 0L, bytes, 0L),
                        java.util.Arrays.asList("", 0, level, null, "missing", 1, 30L, null, 30L));

        sql("CALL lake.sys.rebuild_pk_fulltext(table => 'ft_sys.lost')");
        rows = fulltext("lost");
        assertThat(rows)
                .singleElement()
                .satisfies(
                        r -> {
                            assertThat(r.getString(4)).isEqualTo("current");
                            assertThat(r.getInt(2)).isEqualTo(level);
                            assertThat(archivesOnDisk("lost"))
                                    .containsEntry(r.getString(3), r.getLong(7));
                            assertThat(r.getLong(8)).isZero();
                        });
    }

    @Test
    void rowsParkedInAPostponeBucketAreNotCoveredUntilTheCompactionMovesThem() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ft_sys");
        sql(
                "CREATE TABLE lake.ft_sys.inbox (id BIGINT, body STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '-2', 'postpone.default-bucket-num' = '2', 'deletion-vectors.enabled' = 'true', "
                        + "'strata-full-text.index.columns' = 'body')");
        sql("INSERT INTO lake.ft_sys.inbox SELECT id, concat('text ', id) FROM range(0, 25)");
        Map<String, Level> parked = levelsInSnapshot(paimonTable("ft_sys", "inbox"));
        List<Row> rows = fulltext("inbox");
        assertThat(rows)
                .extracting(FullTextSystemTableTest::key)
                .containsExactlyElementsOf(parked.keySet());
        assertThat(rows)
                .allSatisfy(
                        r -> {
                            assertThat(r.getInt(1)).isEqualTo(-2);
                            assertThat(r.getString(4)).isEqualTo("not_indexed");
                        });
        assertThat(rows.stream().mapToLong(r -> r.getLong(8)).sum()).isEqualTo(25);

        sql("CALL lake.sys.compact(table => 'ft_sys.inbox')");
        rows = fulltext("inbox");
        assertThat(rows).extracting(r -> r.getInt(1)).containsExactlyInAnyOrder(0, 1);
        assertThat(rows).allSatisfy(r -> assertThat(r.getString(4)).isEqualTo("current"));
        assertThat(rows.stream().mapToLong(r -> r.getLong(6)).sum()).isEqualTo(25);
        assertThat(rows)
                .extracting(r -> r.getString(3))
                .containsExactlyInAnyOrderElementsOf(
                        archivesInManifest(paimonTable("ft_sys", "inbox")).keySet());
    }

    @Test
    void aTableWithoutFullTextIndexIsRefusedNamingTheOption() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ft_sys");
        sql(
                "CREATE TABLE lake.ft_sys.plain (id BIGINT, body STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
        assertThatThrownBy(() -> sql("SELECT * FROM lake.ft_sys.`plain$fulltext`"))
                .hasMessageContaining("Cannot read lake.ft_sys.`plain$fulltext`")
                .hasMessageContaining("lake.ft_sys.plain")
                .hasMessageContaining("'strata-full-text.index.columns'");
        assertThatThrownBy(() -> sql("SELECT * FROM lake.ft_sys.`missing$fulltext`"))
                .hasMessageContaining("missing");
    }
}
