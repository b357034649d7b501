package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;

/**
 * Spark's read options ({@code WITH (...)}, {@code spark.read.option(...)}) reach Paimon's planner
 * as dynamic options: a read at an older snapshot or tag answers from that snapshot, through every
 * Strata read path (plain scans, map-key lookups, text_match); what Strata cannot read is refused,
 * never ignored. Expected rows come from the statements written.
 */
class ReadOptionsTest extends StrataSparkTestBase {

    @Test
    void timeTravelAndIncrementalOptionsOfAnAppendTable() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ro");
        sql("CREATE TABLE lake.ro.a (id BIGINT, dt STRING, v INT) PARTITIONED BY (dt)");
        sql("INSERT INTO lake.ro.a VALUES (1, 'x', 10), (2, 'y', 20)");
        sql("CALL lake.sys.create_tag(table => 'ro.a', tag => 'first')");
        sql("INSERT INTO lake.ro.a VALUES (3, 'x', 30)");

        List<Row> first = List.of(RowFactory.create(1L, "x", 10), RowFactory.create(2L, "y", 20));
        assertThat(sql("SELECT * FROM lake.ro.a WITH ('scan.snapshot-id' = '1') ORDER BY id"))
                .containsExactlyElementsOf(first);
        assertThat(sql("SELECT * FROM lake.ro.a WITH ('scan.tag-name' = 'first') ORDER BY id"))
                .containsExactlyElementsOf(first);
        assertThat(
                        spark.read()
                                .option("scan.snapshot-id", "1")
                                .table("lake.ro.a")
                                .orderBy("id")
                                .collectAsList())
                .containsExactlyElementsOf(first);
        assertThat(sql("SELECT * FROM lake.ro.a WITH ('incremental-between' = '1,2')"))
                .containsExactly(RowFactory.create(3L, "x", 30));
        assertThat(sql("SELECT count(*) FROM lake.ro.a")).containsExactly(RowFactory.create(3L));

        assertThatThrownBy(() -> sql("SELECT * FROM lake.ro.a WITH ('scan.snapshot-id' = '9')"))
                .hasMessageContaining(
                        "Cannot read lake.ro.a at scan.snapshot-id = 9: no such snapshot. Use a"
                                + " snapshot id from lake.ro.`a$snapshots`.");
        assertThatThrownBy(() -> sql("SELECT * FROM lake.ro.a WITH ('scan.tag-name' = 'nope')"))
                .hasMessageContaining(
                        "Cannot read lake.ro.a at scan.tag-name = 'nope': no such tag");
        assertThatThrownBy(() -> sql("SELECT * FROM lake.ro.a WITH ('bucket' = '4')"))
                .hasMessageContaining(
                        "Cannot read lake.ro.a with the option 'bucket' = '4': a statement may set only"
                                + " options that choose what it reads or how it writes files");
    }

    /**
     * Spark's own time-travel read options ({@code versionAsOf}, {@code timestampAsOf}, as Delta
     * and Iceberg users write them): Spark loads the table at that version, then passes the same
     * keys to the scan, which had refused them as table options.
     */
    @Test
    void sparksTimeTravelOptionsReadThatVersion() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ro");
        sql(
                "CREATE TABLE lake.ro.tt (id BIGINT, m MAP<STRING, INT>) TBLPROPERTIES"
                        + " ('fields.m.map.storage-layout' = 'shared-shredding')");
        sql("INSERT INTO lake.ro.tt VALUES (1, map('k', 1)), (2, map('k', 2))");
        sql("CALL lake.sys.create_tag(table => 'ro.tt', tag => 'first')");
        String firstCommit =
                sql("SELECT CAST(commit_time AS STRING) FROM lake.ro.`tt$snapshots` WHERE snapshot_id = 1")
                        .get(0)
                        .getString(0);
        sql("INSERT INTO lake.ro.tt VALUES (3, map('k', 3))");

        List<Row> first = List.of(RowFactory.create(1L), RowFactory.create(2L));
        for (String[] option :
                List.of(
                        new String[] {"versionAsOf", "1"},
                        new String[] {"versionAsOf", "first"},
                        new String[] {"timestampAsOf", firstCommit})) {
            assertThat(
                            spark.read()
                                    .option(option[0], option[1])
                                    .table("lake.ro.tt")
                                    .where("m['k'] >= 1")
                                    .select("id")
                                    .orderBy("id")
                                    .collectAsList())
                    .as(option[0] + " = " + option[1])
                    .containsExactlyElementsOf(first);
        }
        assertThatThrownBy(
                        () ->
                                spark.read()
                                        .option("versionAsOf", "1")
                                        .option("scan.snapshot-id", "2")
                                        .table("lake.ro.tt")
                                        .collectAsList())
                .hasMessageContaining(
                        "Cannot read lake.ro.tt with the options 'versionAsOf' = '1' and"
                                + " 'scan.snapshot-id' = '2'");
        // Paimon's engines take a branch as a read option; Strata names it as a table.
        assertThatThrownBy(
                        () ->
                                spark.read()
                                        .option("branch", "dev")
                                        .table("lake.ro.tt")
                                        .collectAsList())
                .hasMessageContaining(
                        "Cannot read lake.ro.tt with the option 'branch' = 'dev': Strata reads and"
                                + " writes a branch as a table of its own. Name it instead:"
                                + " `tt$branch_dev` in the same namespace.");
    }

    @Test
    void anOlderSnapshotOfAPrimaryKeyTableAnswersEveryReadPathFromThatSnapshot() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ro");
        sql(
                "CREATE TABLE lake.ro.k (id BIGINT NOT NULL, body STRING, m MAP<STRING, INT>)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2',"
                        + " 'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body',"
                        + " 'fields.m.map.storage-layout' = 'shared-shredding')");
        sql(
                "INSERT INTO lake.ro.k VALUES (1, 'red apple', map('a', 1)), (2, 'green apple', map('a', 2)),"
                        + " (3, 'blue sky', map('b', 3))");
        long before = paimonSnapshot("k");
        sql("UPDATE lake.ro.k SET body = 'red sky', m = map('a', 9) WHERE id = 1");
        sql("DELETE FROM lake.ro.k WHERE id = 2");
        sql("INSERT INTO lake.ro.k VALUES (4, 'apple pie', map('a', 4))");

        String at = "lake.ro.k WITH ('scan.snapshot-id' = '" + before + "')";
        assertThat(sql("SELECT id, body FROM %s ORDER BY id", at))
                .containsExactly(
                        RowFactory.create(1L, "red apple"),
                        RowFactory.create(2L, "green apple"),
                        RowFactory.create(3L, "blue sky"));
        assertThat(sql("SELECT id, m['a'] FROM %s WHERE m['a'] > 0 ORDER BY id", at))
                .containsExactly(RowFactory.create(1L, 1), RowFactory.create(2L, 2));
        assertThat(sql("SELECT id, m['a'] FROM lake.ro.k WHERE m['a'] > 0 ORDER BY id"))
                .containsExactly(RowFactory.create(1L, 9), RowFactory.create(4L, 4));

        assertThatThrownBy(
                        () ->
                                sql(
                                        "SELECT * FROM lake.ro.k WITH ('incremental-between' = '%d,%d')",
                                        before, paimonSnapshot("k")))
                .hasMessageContaining(
                        "Cannot read primary-key table lake.ro.k with the options {incremental-between=")
                .hasMessageContaining("VERSION AS OF <new> EXCEPT");
    }

    @Test
    void writeOptionsAreDynamicOptionsOfThatWrite() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ro");
        sql(
                "CREATE TABLE lake.ro.w (id BIGINT NOT NULL, body STRING)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1',"
                        + " 'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')");
        sql("INSERT INTO lake.ro.w VALUES (1, 'a')");
        // Without options the writer compacts, so the rows are archived at once.
        assertThat(commitKinds()).containsExactly("APPEND", "COMPACT");
        spark.sql("SELECT 2L AS id, 'b' AS body")
                .writeTo("lake.ro.w")
                .option("write-only", "true")
                .append();
        assertThat(commitKinds()).containsExactly("APPEND", "COMPACT", "APPEND");
        assertThat(paimonTable("ro", "w").options()).doesNotContainKey("write-only");
        // A deletion-vector table shows level-0 rows once compacted (Paimon's semantics).
        assertThat(sql("SELECT * FROM lake.ro.w ORDER BY id"))
                .containsExactly(RowFactory.create(1L, "a"));
        sql("CALL lake.sys.compact(table => 'ro.w')");
        assertThat(sql("SELECT * FROM lake.ro.w ORDER BY id"))
                .containsExactly(RowFactory.create(1L, "a"), RowFactory.create(2L, "b"));

        assertThatThrownBy(
                        () ->
                                spark.sql("SELECT 3L AS id, 'c' AS body")
                                        .writeTo("lake.ro.w")
                                        .option("bucket", "4")
                                        .append())
                .hasMessageContaining("Cannot write to lake.ro.w with the option 'bucket' = '4':")
                .hasMessageContaining("changes how the table stores or merges its rows");
        assertThatThrownBy(
                        () ->
                                spark.sql("SELECT 3L AS id, 'c' AS body")
                                        .writeTo("lake.ro.w")
                                        .option("deletion-vectors.enabled", "false")
                                        .append())
                .hasMessageContaining(
                        "Cannot write to lake.ro.w with the option 'deletion-vectors.enabled' = 'false'");
        assertThat(commitKinds()).hasSize(4);

        // Spark's V1 writer API adds no options of its own that a write would refuse.
        spark.sql("SELECT 3L AS id, 'c' AS body").write().mode("append").saveAsTable("lake.ro.w");
        spark.sql("SELECT 4L AS id, 'd' AS body").write().insertInto("lake.ro.w");
        assertThat(sql("SELECT id FROM lake.ro.w ORDER BY id"))
                .containsExactly(
                        RowFactory.create(1L),
                        RowFactory.create(2L),
                        RowFactory.create(3L),
                        RowFactory.create(4L));
    }

    /**
     * After columns named by options are renamed (a shredded map, the full-text column, the
     * sequence field) and a column with per-column options is added, every way of reading the
     * earlier snapshot answers with that snapshot's columns and rows; Paimon checks the current
     * options against the old schema and refused every such read.
     */
    @Test
    void anEarlierSnapshotIsReadAfterColumnsNamedByOptionsWereRenamedOrAdded() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ro");
        sql(
                "CREATE TABLE lake.ro.r (id BIGINT NOT NULL, body STRING, m MAP<STRING, INT>, s BIGINT)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1',"
                        + " 'deletion-vectors.enabled' = 'true', 'sequence.field' = 's',"
                        + " 'strata-full-text.index.columns' = 'body',"
                        + " 'fields.m.map.storage-layout' = 'shared-shredding')");
        sql(
                "INSERT INTO lake.ro.r VALUES (1, 'red apple', map('a', 1), 1),"
                        + " (2, 'blue sky', map('a', 2, 'b', 5), 1)");
        sql("CALL lake.sys.create_tag(table => 'ro.r', tag => 'before')");
        long before = paimonSnapshot("r");
        sql("ALTER TABLE lake.ro.r RENAME COLUMN m TO attrs");
        sql("ALTER TABLE lake.ro.r RENAME COLUMN body TO text");
        sql("ALTER TABLE lake.ro.r RENAME COLUMN s TO seq");
        sql("ALTER TABLE lake.ro.r ADD COLUMN n MAP<STRING, INT>");
        sql(
                "ALTER TABLE lake.ro.r SET TBLPROPERTIES ('fields.n.map.storage-layout' = 'shared-shredding')");
        sql("INSERT INTO lake.ro.r VALUES (3, 'red sky', map('a', 3), 1, map('x', 1))");

        List<Row> then =
                List.of(
                        RowFactory.create(1L, "red apple", 1, 1L),
                        RowFactory.create(2L, "blue sky", 2, 1L));
        // VERSION AS OF and TIMESTAMP AS OF read the snapshot's columns, as they were named then.
        long beforeMillis = paimonTable("ro", "r").snapshotManager().snapshot(before).timeMillis();
        for (String at :
                List.of(
                        "lake.ro.r VERSION AS OF " + before,
                        "lake.ro.r VERSION AS OF 'before'",
                        "lake.ro.r TIMESTAMP AS OF timestamp_millis(" + beforeMillis + ")")) {
            assertThat(sql("SELECT id, body, m['a'], s FROM %s ORDER BY id", at))
                    .as(at)
                    .containsExactlyElementsOf(then);
            assertThat(sql("SELECT id FROM %s WHERE m['b'] > 1", at))
                    .as(at)
                    .containsExactly(RowFactory.create(2L));
        }
        // Read options keep the table's columns (Spark resolves them before the options apply): the
        // snapshot's rows under today's names, NULL in the column added since.
        List<Row> thenNow =
                List.of(
                        RowFactory.create(1L, "red apple", 1, 1L, null),
                        RowFactory.create(2L, "blue sky", 2, 1L, null));
        for (String at :
                List.of(
                        "lake.ro.r WITH ('scan.snapshot-id' = '" + before + "')",
                        "lake.ro.r WITH ('scan.tag-name' = 'before')")) {
            assertThat(sql("SELECT id, text, attrs['a'], seq, n['x'] FROM %s ORDER BY id", at))
                    .as(at)
                    .containsExactlyElementsOf(thenNow);
            assertThat(sql("SELECT id FROM %s WHERE attrs['b'] > 1", at))
                    .as(at)
                    .containsExactly(RowFactory.create(2L));
        }
        assertThat(
                        spark.read()
                                .option("scan.snapshot-id", Long.toString(before))
                                .table("lake.ro.r")
                                .selectExpr("id", "text", "attrs['a']", "seq", "n['x']")
                                .orderBy("id")
                                .collectAsList())
                .containsExactlyElementsOf(thenNow);
        assertThat(
                        sql(
                                "SELECT id, text, attrs['a'], seq, n['x'] FROM lake.ro.r WHERE attrs['a'] > 2"))
                .containsExactly(RowFactory.create(3L, "red sky", 3, 1L, 1));
    }

    /**
     * Spark's cache finds a cached table again by comparing relations, and its refresh replaces the
     * table a cache entry holds with a new load: two loads of one table must compare equal, or
     * {@code unpersist()} after {@code refreshTable} leaves the entry behind. A load at another
     * snapshot must not, or a time-travel read would answer from the cache of the latest.
     */
    @Test
    void aCachedTableIsFoundAgainAfterARefreshAndNotByATimeTravelRead() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ro");
        sql("CREATE TABLE lake.ro.c (id BIGINT, dt STRING)");
        sql("INSERT INTO lake.ro.c VALUES (1, 'a'), (2, 'a')");
        Dataset<Row> cached = spark.table("lake.ro.c").cache();
        assertThat(cached.count()).isEqualTo(2);
        assertThat(spark.catalog().isCached("lake.ro.c")).isTrue();
        assertThat(spark.table("lake.ro.c").queryExecution().optimizedPlan().toString())
                .contains("InMemoryRelation");

        sql("INSERT INTO lake.ro.c VALUES (3, 'b')");
        assertThat(sql("SELECT count(*) FROM lake.ro.c")).containsExactly(RowFactory.create(3L));
        assertThat(sql("SELECT count(*) FROM lake.ro.c VERSION AS OF 1"))
                .containsExactly(RowFactory.create(2L));
        assertThat(
                        spark.read()
                                .option("scan.snapshot-id", "1")
                                .table("lake.ro.c")
                                .queryExecution()
                                .optimizedPlan()
                                .toString())
                .doesNotContain("InMemoryRelation");

        spark.catalog().refreshTable("lake.ro.c");
        assertThat(cached.count()).isEqualTo(3);
        cached.unpersist(true);
        assertThat(spark.catalog().isCached("lake.ro.c")).isFalse();
        assertThat(spark.table("lake.ro.c").queryExecution().optimizedPlan().toString())
                .doesNotContain("InMemoryRelation");
    }

    /**
     * A DataFrame analyzed before ALTER TABLE and run after rows were written in the new schema:
     * added columns are left out, but a dropped or retyped column would read old values or wrap
     * (3000000000 as the INT -1294967296), matching no snapshot; refused instead.
     */
    @Test
    void aDataFrameAnalyzedBeforeAColumnChangedIsRefusedAfterRowsOfTheNewSchema() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ro");
        sql("CREATE TABLE lake.ro.h (id INT NOT NULL, s STRING, v INT)");
        sql("INSERT INTO lake.ro.h VALUES (1, 'a', 1), (2, 'b', 2)");
        Dataset<Row> held = spark.table("lake.ro.h");
        Dataset<Row> heldSum = spark.table("lake.ro.h").groupBy().sum("v");
        sql("ALTER TABLE lake.ro.h ADD COLUMN x INT");
        sql("INSERT INTO lake.ro.h VALUES (3, 'c', 3, 30)");
        assertThat(heldSum.collectAsList()).containsExactly(RowFactory.create(6L));

        Dataset<Row> again = spark.table("lake.ro.h");
        sql("ALTER TABLE lake.ro.h DROP COLUMN s");
        sql("ALTER TABLE lake.ro.h ADD COLUMN s STRING");
        sql("ALTER TABLE lake.ro.h ALTER COLUMN v TYPE BIGINT");
        sql("INSERT INTO lake.ro.h VALUES (4, 3000000000, 40, 'new')");
        assertThatThrownBy(held::collectAsList)
                .hasMessageContaining(
                        "Cannot read lake.ro.h: column s was dropped (ALTER TABLE) after this query"
                                + " was analyzed");
        assertThatThrownBy(again::collectAsList).hasMessageContaining("Cannot read lake.ro.h");
        assertThat(sql("SELECT id, s, v FROM lake.ro.h ORDER BY id"))
                .containsExactly(
                        RowFactory.create(1, null, 1L),
                        RowFactory.create(2, null, 2L),
                        RowFactory.create(3, null, 3L),
                        RowFactory.create(4, "new", 3000000000L));
    }

    private List<String> commitKinds() {
        return sql("SELECT commit_kind FROM lake.ro.`w$snapshots` ORDER BY snapshot_id").stream()
                .map(r -> r.getString(0))
                .toList();
    }

    private long paimonSnapshot(String name) {
        try {
            return paimonTable("ro", name).latestSnapshot().get().id();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
