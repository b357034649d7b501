package dev.strata.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.PkFullTextIndex;
import dev.strata.spark.StrataSparkTestBase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * expire_snapshots, create_tag, delete_tag, rollback, the branch procedures and remove_orphan_files
 * on a primary-key table with full-text archives: every remaining snapshot stays readable and
 * searchable, and exactly the files nothing references any more are removed (archives included),
 * counted on disk.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TableMaintenanceProceduresTest extends StrataSparkTestBase {

    private FileStoreTable paimon(String name) throws Exception {
        Options options = new Options();
        options.set("warehouse", warehouse.toUri().toString());
        try (org.apache.paimon.catalog.Catalog c =
                CatalogFactory.createCatalog(CatalogContext.create(options))) {
            return (FileStoreTable)
                    c.getTable(org.apache.paimon.catalog.Identifier.create("maint", name));
        }
    }

    private void createDocs(String name) {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.maint");
        sql(
                "CREATE TABLE lake.maint.%s (id BIGINT NOT NULL, body STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '2', 'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')",
                name);
        for (int round = 0; round < 4; round++) {
            // Upserts of ids 0..99 and 20 new ids per round: every round replaces files and
            // archives.
            sql(
                    "INSERT INTO lake.maint.%s SELECT id, concat('round%d word', cast(id AS STRING)) FROM range(0, %d)",
                    name, round, 100 + 20 * round);
        }
    }

    private Path tableDir(String name) {
        return warehouse.resolve("maint.db").resolve(name);
    }

    private static Set<String> files(Path dir, String prefix) throws IOException {
        if (!Files.exists(dir)) {
            return new TreeSet<>();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(prefix))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /**
     * Data files, full-text archives and deletion-vector files some snapshot of the table (or a
     * tag) references.
     */
    private static Set<String> referenced(FileStoreTable table, List<Snapshot> snapshots) {
        Set<String> names = new TreeSet<>();
        for (Snapshot s : snapshots) {
            for (ManifestEntry e : table.store().newScan().withSnapshot(s).plan().files()) {
                names.add(e.file().fileName());
            }
            for (String type : List.of(PkFullTextIndex.INDEX_TYPE, "DELETION_VECTORS")) {
                for (org.apache.paimon.manifest.IndexManifestEntry m :
                        table.store().newIndexFileHandler().scan(s, type)) {
                    names.add(m.indexFile().fileName());
                }
            }
        }
        return names;
    }

    private List<Snapshot> liveSnapshots(FileStoreTable table) throws IOException {
        List<Snapshot> all = new ArrayList<>();
        table.snapshotManager().snapshots().forEachRemaining(all::add);
        all.addAll(table.tagManager().taggedSnapshots());
        return all;
    }

    private Set<String> onDisk(String name) throws IOException {
        // Full-text archives and deletion vectors are both Paimon index files in <table>/index.
        Set<String> names = files(tableDir(name), "data-");
        names.addAll(files(tableDir(name).resolve("index"), ""));
        return names;
    }

    private Map<Long, String> rows(String name, Long snapshot) {
        Map<Long, String> out = new TreeMap<>();
        for (Row r :
                sql(
                        "SELECT id, body FROM lake.maint.%s%s",
                        name, snapshot == null ? "" : " VERSION AS OF " + snapshot)) {
            out.put(r.getLong(0), r.getString(1));
        }
        return out;
    }

    /**
     * Ids of the rows the table's full-text search finds in the latest snapshot, over both buckets.
     */
    private Set<Long> search(String name, String query) throws Exception {
        FileStoreTable table = paimon(name);
        long snapshot = table.snapshotManager().latestSnapshotId();
        dev.strata.index.PkFullTextSearcher searcher =
                dev.strata.index.PkFullTextSearcher.create(table);
        Set<Long> ids = new TreeSet<>();
        for (int bucket = 0; bucket < 2; bucket++) {
            for (dev.strata.index.search.SearchHit h :
                    searcher.search(
                                    snapshot,
                                    org.apache.paimon.data.BinaryRow.EMPTY_ROW,
                                    bucket,
                                    query,
                                    1000,
                                    null,
                                    true)
                            .hits()) {
                ids.add(hitId(searcher, snapshot, h));
            }
        }
        return ids;
    }

    @Test
    void expireKeepsEveryRemainingSnapshotReadableAndDeletesExactlyTheUnreferencedFiles()
            throws Exception {
        createDocs("expire");
        FileStoreTable table = paimon("expire");
        long latest = table.snapshotManager().latestSnapshotId();
        assertThat(latest).isGreaterThan(4);
        long tagged = table.snapshotManager().earliestSnapshotId() + 1;
        Map<Long, String> taggedRows = rows("expire", tagged);
        assertThat(
                        values(
                                sql(
                                        "CALL lake.sys.create_tag(table => 'maint.expire', tag => 'keep', snapshot => %d)",
                                        tagged)))
                .containsExactly(List.of("keep", tagged));
        Set<String> before = onDisk("expire");
        assertThat(before).containsAll(referenced(table, liveSnapshots(table)));

        List<Row> expired =
                sql("CALL lake.sys.expire_snapshots(table => 'maint.expire', retain_max => 2)");
        table = paimon("expire");
        List<Snapshot> remaining = liveSnapshots(table);
        assertThat(expired.get(0).getInt(0)).isEqualTo((int) (latest - 2));
        assertThat(table.snapshotManager().snapshotCount()).isEqualTo(2);
        Set<String> after = onDisk("expire");
        assertThat(after)
                .as("every referenced data file and archive is on disk")
                .isEqualTo(referenced(table, remaining));
        assertThat(before.size()).as("expiry removed files").isGreaterThan(after.size());
        // Remaining snapshots and the tag read and search like before.
        assertThat(rows("expire", null)).hasSize(160);
        assertThat(values(sql("SELECT count(*) FROM lake.maint.expire VERSION AS OF 'keep'")))
                .containsExactly(List.of((long) taggedRows.size()));
        assertThat(search("expire", "round3")).hasSize(160);
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CALL lake.sys.expire_snapshots(table => 'maint.expire', retain_max => 0)"))
                .hasMessageContaining("retain_max must be at least 1");
    }

    @Test
    void aBranchFromATagIsWrittenOnItsOwnThenFastForwardedAndDeleted() throws Exception {
        createDocs("branched");
        Map<Long, String> tagged = rows("branched", null);
        sql("CALL lake.sys.create_tag(table => 'maint.branched', tag => 't1')");
        assertThat(
                        values(
                                sql(
                                        "CALL lake.sys.create_branch(table => 'maint.branched',"
                                                + " branch => 'dev', tag => 't1')")))
                .containsExactly(List.of("dev", "t1"));
        String dev = "lake.maint.`branched$branch_dev`";
        sql("INSERT INTO %s VALUES (1000, 'devonly word1000')", dev);
        sql("DELETE FROM %s WHERE id < 10", dev);
        sql("INSERT INTO lake.maint.branched VALUES (2000, 'mainonly word2000')");

        Map<Long, String> onDev = new TreeMap<>(tagged);
        onDev.keySet().removeIf(id -> id < 10);
        onDev.put(1000L, "devonly word1000");
        Map<Long, String> onMain = new TreeMap<>(tagged);
        onMain.put(2000L, "mainonly word2000");
        Map<Long, String> devRows = new TreeMap<>();
        for (Row r : sql("SELECT id, body FROM %s", dev)) {
            devRows.put(r.getLong(0), r.getString(1));
        }
        assertThat(devRows).isEqualTo(onDev);
        assertThat(rows("branched", null)).isEqualTo(onMain);
        assertThat(values(sql("SELECT branch_name FROM lake.maint.`branched$branches`")))
                .containsExactly(List.of("dev"));

        for (String[] bad :
                new String[][] {
                    {"branch => 'dev', tag => 't1'", "the branch exists"},
                    {"branch => 'other', tag => 'nope'", "no such tag"},
                    {"branch => 'a/b'", "'/'"},
                    {"branch => 'main'", "is not a branch name Paimon accepts"},
                }) {
            assertThatThrownBy(
                            () ->
                                    sql(
                                            "CALL lake.sys.create_branch(table => 'maint.branched', %s)",
                                            bad[0]))
                    .as(bad[0])
                    .hasMessageContaining(bad[1]);
        }
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CALL lake.sys.fast_forward(table =>"
                                                + " 'maint.`branched$branch_dev`', branch => 'dev')"))
                .hasMessageContaining("it names a branch");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CALL lake.sys.delete_branch(table => 'maint.branched',"
                                                + " branch => 'nope')"))
                .hasMessageContaining("no branch 'nope'");

        sql("CALL lake.sys.fast_forward(table => 'maint.branched', branch => 'dev')");
        assertThat(rows("branched", null)).isEqualTo(onDev);
        // The branch's archives came with its snapshots: the search finds its rows.
        assertThat(search("branched", "devonly")).containsExactly(1000L);
        assertThat(search("branched", "mainonly")).isEmpty();
        assertThat(
                        values(
                                sql(
                                        "CALL lake.sys.delete_branch(table => 'maint.branched', branch => 'dev')")))
                .containsExactly(List.of("dev"));
        assertThat(sql("SELECT * FROM lake.maint.`branched$branches`")).isEmpty();
        assertThat(rows("branched", null)).isEqualTo(onDev);
    }

    /**
     * Before: Paimon's fast-forward copied the branch's EARLIEST hint (3) over main's, so
     * $snapshots hid snapshots 1 and 2, and a rollback to 1 kept snapshot 2: the table read rows 1
     * and 2.
     */
    @Test
    void afterAFastForwardTheSnapshotsBeforeTheBranchPointAreListedAndRolledBackTo() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.maint");
        sql(
                "CREATE TABLE lake.maint.ff (id BIGINT NOT NULL, v STRING) TBLPROPERTIES"
                        + " ('primary-key' = 'id', 'bucket' = '1')");
        sql("INSERT INTO lake.maint.ff VALUES (1, 'a')");
        sql("INSERT INTO lake.maint.ff VALUES (2, 'b')");
        sql("INSERT INTO lake.maint.ff VALUES (3, 'c')");
        sql("CALL lake.sys.create_tag(table => 'maint.ff', tag => 'base')");
        // VERSION AS OF '1' and rollback(version => '1') read digits as a snapshot id.
        assertThatThrownBy(() -> sql("CALL lake.sys.create_tag(table => 'maint.ff', tag => '1')"))
                .hasMessageContaining("a name of digits only is read as a snapshot id");
        sql("CALL lake.sys.create_branch(table => 'maint.ff', branch => 'dev', tag => 'base')");
        sql("INSERT INTO lake.maint.`ff$branch_dev` VALUES (4, 'd')");
        sql("CALL lake.sys.fast_forward(table => 'maint.ff', branch => 'dev')");
        assertThat(values(sql("SELECT snapshot_id FROM lake.maint.`ff$snapshots` ORDER BY 1")))
                .containsExactly(List.of(1L), List.of(2L), List.of(3L), List.of(4L));
        assertThat(values(sql("SELECT id FROM lake.maint.ff ORDER BY id")))
                .containsExactly(List.of(1L), List.of(2L), List.of(3L), List.of(4L));
        sql("CALL lake.sys.rollback(table => 'maint.ff', snapshot => 1)");
        assertThat(values(sql("SELECT id, v FROM lake.maint.ff")))
                .containsExactly(List.of(1L, "a"));
        assertThat(values(sql("SELECT snapshot_id FROM lake.maint.`ff$snapshots`")))
                .containsExactly(List.of(1L));
    }

    /**
     * Before: the branch failed with the expired snapshot file's NoSuchFileException and stayed
     * behind, listed but unreadable, and a second create_branch said it exists.
     */
    @Test
    void aBranchIsCreatedFromATagWhoseSnapshotExpired() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.maint");
        sql(
                "CREATE TABLE lake.maint.exp (id BIGINT NOT NULL, body STRING) TBLPROPERTIES"
                        + " ('primary-key' = 'id', 'bucket' = '1')");
        sql("INSERT INTO lake.maint.exp VALUES (1, 'first'), (2, 'two')");
        sql("CALL lake.sys.create_tag(table => 'maint.exp', tag => 'keep')");
        sql("INSERT INTO lake.maint.exp VALUES (1, 'second')");
        sql("INSERT INTO lake.maint.exp VALUES (1, 'third')");
        sql("CALL lake.sys.expire_snapshots(table => 'maint.exp', retain_max => 1)");
        assertThat(values(sql("SELECT min(snapshot_id) FROM lake.maint.`exp$snapshots`")))
                .containsExactly(List.of(3L));

        sql("CALL lake.sys.create_branch(table => 'maint.exp', branch => 'b1', tag => 'keep')");
        assertThat(values(sql("SELECT id, body FROM lake.maint.`exp$branch_b1` ORDER BY id")))
                .containsExactly(List.of(1L, "first"), List.of(2L, "two"));
        sql("INSERT INTO lake.maint.`exp$branch_b1` VALUES (3, 'on b1')");
        assertThat(values(sql("SELECT id, body FROM lake.maint.`exp$branch_b1` ORDER BY id")))
                .containsExactly(List.of(1L, "first"), List.of(2L, "two"), List.of(3L, "on b1"));
        assertThat(values(sql("SELECT id, body FROM lake.maint.exp ORDER BY id")))
                .containsExactly(List.of(1L, "third"), List.of(2L, "two"));
    }

    @Test
    void rollbackToATagBringsBackItsRowsAndArchives() throws Exception {
        createDocs("roll");
        FileStoreTable table = paimon("roll");
        long target = table.snapshotManager().latestSnapshotId() - 2;
        Map<Long, String> expected = rows("roll", target);
        sql(
                "CALL lake.sys.create_tag(table => 'maint.roll', tag => 'before', snapshot => %d)",
                target);
        assertThat(values(sql("SELECT tag_name, snapshot_id FROM lake.maint.`roll$tags`")))
                .containsExactly(List.of("before", target));
        long latest = table.snapshotManager().latestSnapshotId();
        assertThat(values(sql("CALL lake.sys.rollback(table => 'maint.roll', tag => 'before')")))
                .containsExactly(List.of(latest, target));
        table = paimon("roll");
        assertThat(table.snapshotManager().latestSnapshotId()).isEqualTo(target);
        assertThat(rows("roll", null)).isEqualTo(expected);
        Set<Long> expectedHits =
                expected.entrySet().stream()
                        .filter(e -> e.getValue().startsWith("round2 "))
                        .map(Map.Entry::getKey)
                        .collect(Collectors.toCollection(TreeSet::new));
        assertThat(search("roll", "round2")).isEqualTo(expectedHits);
        assertThat(search("roll", "round3")).isEmpty();
        assertThat(values(sql("CALL lake.sys.delete_tag(table => 'maint.roll', tag => 'before')")))
                .containsExactly(List.of("before"));
        assertThat(sql("SELECT * FROM lake.maint.`roll$tags`")).isEmpty();
        assertThatThrownBy(
                        () -> sql("CALL lake.sys.rollback(table => 'maint.roll', snapshot => 999)"))
                .hasMessageContaining("no such snapshot");
        assertThatThrownBy(
                        () -> sql("CALL lake.sys.delete_tag(table => 'maint.roll', tag => 'nope')"))
                .hasMessageContaining("no such tag");
    }

    /**
     * Paimon's own rollback takes {@code version}: a snapshot id when all digits, else a tag; its
     * users' calls, named or by position, roll back the same way.
     */
    @Test
    void rollbackTakesPaimonsVersionArgumentAsASnapshotIdOrATag() throws Exception {
        createDocs("rollv");
        FileStoreTable table = paimon("rollv");
        long latest = table.snapshotManager().latestSnapshotId();
        long second = latest - 1;
        long first = latest - 2;
        Map<Long, String> atSecond = rows("rollv", second);
        Map<Long, String> atFirst = rows("rollv", first);
        sql("CALL lake.sys.create_tag(table => 'maint.rollv', tag => 'v1', snapshot => %d)", first);

        assertThat(
                        values(
                                sql(
                                        "CALL lake.sys.rollback(table => 'maint.rollv', version => '%d')",
                                        second)))
                .containsExactly(List.of(latest, second));
        assertThat(rows("rollv", null)).isEqualTo(atSecond);
        assertThat(values(sql("CALL lake.sys.rollback('maint.rollv', 'v1')")))
                .containsExactly(List.of(second, first));
        assertThat(paimon("rollv").snapshotManager().latestSnapshotId()).isEqualTo(first);
        assertThat(rows("rollv", null)).isEqualTo(atFirst);

        assertThatThrownBy(
                        () ->
                                sql(
                                        "CALL lake.sys.rollback(table => 'maint.rollv', version => 'v1',"
                                                + " snapshot => %d)",
                                        first))
                .hasMessageContaining("give exactly one of snapshot => <id>, tag => '<name>'");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CALL lake.sys.rollback(table => 'maint.rollv', version => 'nope')"))
                .hasMessageContaining(
                        "Cannot roll back lake.maint.rollv to tag 'nope': no such tag");
    }

    @Test
    void orphanRemovalDeletesOnlyUnreferencedOldFiles() throws Exception {
        createDocs("orphans");
        FileStoreTable table = paimon("orphans");
        Set<String> referenced = referenced(table, liveSnapshots(table));
        // Two orphans as a killed writer leaves them: a data file and an archive nothing
        // references, two days old.
        Path bucket = tableDir("orphans").resolve("bucket-0");
        Path dataOrphan =
                Files.copy(
                        Files.list(bucket)
                                .filter(p -> p.getFileName().toString().startsWith("data-"))
                                .findFirst()
                                .orElseThrow(),
                        bucket.resolve("data-00000000-dead-beef-0000-000000000000-0.parquet"));
        Path index = tableDir("orphans").resolve("index");
        Path anArchive =
                Files.list(index)
                        .filter(p -> referenced.contains(p.getFileName().toString()))
                        .findFirst()
                        .orElseThrow();
        Path archiveOrphan =
                Files.copy(
                        anArchive,
                        index.resolve(
                                anArchive
                                        .getFileName()
                                        .toString()
                                        .replaceAll("[0-9a-f]{8}-", "deadbeef-")));
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 2L * 24 * 3600 * 1000);
        Files.setLastModifiedTime(dataOrphan, old);
        Files.setLastModifiedTime(archiveOrphan, old);

        long orphanBytes = Files.size(dataOrphan) + Files.size(archiveOrphan);
        List<Row> dry =
                sql("CALL lake.sys.remove_orphan_files(table => 'maint.orphans', dry_run => true)");
        assertThat(dry.get(0).getLong(0)).isEqualTo(2);
        assertThat(dataOrphan).exists();
        assertThat(archiveOrphan).exists();
        List<Row> removed = sql("CALL lake.sys.remove_orphan_files(table => 'maint.orphans')");
        assertThat(removed.get(0).getLong(0)).isEqualTo(2);
        assertThat(removed.get(0).getLong(1)).isEqualTo(orphanBytes);
        assertThat(dataOrphan).doesNotExist();
        assertThat(archiveOrphan).doesNotExist();
        assertThat(onDisk("orphans")).containsAll(referenced);
        assertThat(search("orphans", "round3")).hasSize(160);
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CALL lake.sys.remove_orphan_files(table => 'maint.orphans', older_than => '%s')",
                                        java.time.LocalDateTime.now()
                                                .toString()
                                                .replace('T', ' ')
                                                .substring(0, 19)))
                .hasMessageContaining("may belong to a write that has not committed yet")
                .hasMessageContaining("less than 1 hour(s) ago");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CALL lake.sys.remove_orphan_files(table => 'maint.orphans',"
                                                + " older_than => '2099-01-01 00:00:00')"))
                .hasMessageContaining("'2099-01-01 00:00:00' is in the future");
    }
}
