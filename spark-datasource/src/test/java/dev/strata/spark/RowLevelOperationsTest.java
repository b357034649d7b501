package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.testing.TestSeeds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DELETE, UPDATE and MERGE INTO on Strata tables against an oracle: the same data as Spark parquet
 * files, to which the same logical changes are applied with plain Spark SQL (a filter for DELETE,
 * CASE WHEN for UPDATE, a full outer join for MERGE), independent of Strata's code. Partition-only
 * DELETEs drop partitions, append tables refuse what they cannot do, and failed statements leave no
 * snapshot and no file.
 */
class RowLevelOperationsTest extends StrataSparkTestBase {

    private static final StructType ROWS =
            StructType.fromDDL("id BIGINT, dt STRING, v STRING, n INT");
    private static final int KEYS = 300;

    private int oracleVersion;

    /** Each table: name, TBLPROPERTIES beyond the primary key, partitioned, statements. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "pk       | 'bucket' = '3'                                                        | false | 30",
                "pk_dv    | 'bucket' = '3', 'deletion-vectors.enabled' = 'true'                  | false | 30",
                "part     | 'bucket' = '2', 'deletion-vectors.enabled' = 'true'                  | true  | 30",
                "postpone | 'bucket' = '-2', 'postpone.default-bucket-num' = '2'                 | true  | 16",
            })
    void randomStatementsMatchTheParquetOracle(
            String name, String properties, boolean partitioned, int statements) throws Exception {
        String seedName = RandomShare.seedName("RowLevelOperationsTest." + name);
        long seed = TestSeeds.seed(seedName);
        String describe = TestSeeds.describe(seedName, seed);
        Random random = new Random(seed);
        boolean postpone = properties.contains("'-2'");
        String table = "lake.rl." + name;
        sql("CREATE NAMESPACE IF NOT EXISTS lake.rl");
        sql(
                "CREATE TABLE %s (id BIGINT NOT NULL, dt STRING NOT NULL, v STRING, n INT NOT NULL) %s "
                        + "TBLPROPERTIES ('primary-key' = '%s', %s)",
                table,
                partitioned ? "PARTITIONED BY (dt)" : "",
                partitioned ? "id,dt" : "id",
                properties);
        String initial =
                "SELECT id, concat('d', cast(id % 3 AS STRING)) AS dt, "
                        + "CASE WHEN id % 11 = 0 THEN NULL ELSE concat('v', cast(id % 13 AS STRING)) END AS v, "
                        + "cast((id * 37) % 100 AS INT) AS n FROM range(0, "
                        + KEYS
                        + ")";
        sql("INSERT INTO %s %s", table, initial);
        if (postpone) {
            compact(name);
        }
        oracle(name, initial);
        assertSameRows(table, name, describe + " after the initial insert");

        for (int i = 0; i < RandomShare.of(statements); i++) {
            String step = describe + " statement " + i;
            int kind = random.nextInt(3);
            Snapshot before = latest(name);
            String statement;
            if (kind == 0) {
                String cond =
                        partitioned && random.nextInt(8) == 0
                                ? "dt = 'd" + random.nextInt(3) + "'"
                                : condition(random, partitioned);
                statement = "DELETE FROM " + table + " WHERE " + cond;
                sql(statement);
                oracle(
                        name,
                        "SELECT * FROM " + view(name) + " WHERE NOT coalesce(" + cond + ", false)");
            } else if (kind == 1) {
                String cond = condition(random, partitioned);
                String v =
                        random.nextBoolean()
                                ? "concat('u', cast(n AS STRING))"
                                : random.nextInt(4) == 0 ? "NULL" : "concat(v, 'x')";
                String n = random.nextBoolean() ? "n + 1" : "cast((id * 7 + n) % 100 AS INT)";
                statement = "UPDATE " + table + " SET v = " + v + ", n = " + n + " WHERE " + cond;
                sql(statement);
                String hit = "coalesce(" + cond + ", false)";
                oracle(
                        name,
                        "SELECT id, dt, CASE WHEN "
                                + hit
                                + " THEN "
                                + v
                                + " ELSE v END AS v, CASE WHEN "
                                + hit
                                + " THEN "
                                + n
                                + " ELSE n END AS n FROM "
                                + view(name));
            } else {
                statement = merge(random, name, table, partitioned);
            }
            if (postpone) {
                compact(name);
            }
            assertOneSnapshotPerCommitKind(name, before, step + ": " + statement);
            if (postpone || i % 5 == 4) {
                assertSameRows(table, name, step + ": " + statement);
            }
        }
        assertSameRows(table, name, describe + " at the end");
        compact(name);
        assertSameRows(table, name, describe + " after compaction");
        assertThat(sql("SELECT count(*) FROM %s WHERE v IS NULL", table).get(0).getLong(0))
                .as(describe + " null values after compaction")
                .isEqualTo(
                        sql("SELECT count(*) FROM %s WHERE v IS NULL", view(name))
                                .get(0)
                                .getLong(0));
    }

    /**
     * A MERGE with random clauses over a random source; the oracle is a full outer join of the same
     * clauses.
     */
    private String merge(Random random, String name, String table, boolean partitioned) {
        List<Row> source = new ArrayList<>();
        Set<Long> ids = new HashSet<>();
        int size = 5 + random.nextInt(40);
        while (source.size() < size) {
            long id = random.nextInt(KEYS + KEYS / 3);
            if (ids.add(id)) {
                // For partitioned tables the key is (id, dt); the source's dt usually matches the
                // row's partition.
                String dt = "d" + (random.nextInt(4) == 0 ? random.nextInt(3) : id % 3);
                String v = random.nextInt(6) == 0 ? null : "m" + random.nextInt(50);
                source.add(RowFactory.create(id, dt, v, random.nextInt(100)));
            }
        }
        spark.createDataFrame(source, ROWS).createOrReplaceTempView("merge_source");
        String on = partitioned ? "T.id = S.id AND T.dt = S.dt" : "T.id = S.id";
        String deleteWhen = random.nextInt(3) == 0 ? null : "S.n < " + random.nextInt(40);
        String updateWhen = random.nextBoolean() ? null : "T.n % 2 = " + random.nextInt(2);
        boolean setAll = random.nextBoolean();
        boolean insert = random.nextInt(5) != 0;
        String insertWhen = random.nextBoolean() ? null : "S.n > " + random.nextInt(60);

        StringBuilder sql =
                new StringBuilder("MERGE INTO ")
                        .append(table)
                        .append(" t USING merge_source s ON ")
                        .append(strata(on));
        if (deleteWhen != null) {
            sql.append(" WHEN MATCHED AND ").append(strata(deleteWhen)).append(" THEN DELETE");
        }
        sql.append(" WHEN MATCHED")
                .append(updateWhen == null ? "" : " AND " + strata(updateWhen))
                .append(" THEN UPDATE SET ")
                .append(setAll ? "*" : "v = s.v, n = t.n + s.n");
        if (insert) {
            sql.append(" WHEN NOT MATCHED")
                    .append(insertWhen == null ? "" : " AND " + strata(insertWhen))
                    .append(" THEN INSERT *");
        }
        spark.sql(sql.toString()).collectAsList();

        String matchedOp =
                "CASE "
                        + (deleteWhen == null
                                ? ""
                                : "WHEN coalesce(" + oracle(deleteWhen) + ", false) THEN 'D' ")
                        + "WHEN "
                        + (updateWhen == null
                                ? "true"
                                : "coalesce(" + oracle(updateWhen) + ", false)")
                        + " THEN 'U' ELSE 'K' END";
        String notMatchedOp =
                !insert
                        ? "'X'"
                        : "CASE WHEN "
                                + (insertWhen == null
                                        ? "true"
                                        : "coalesce(" + oracle(insertWhen) + ", false)")
                                + " THEN 'I' ELSE 'X' END";
        String joined =
                "SELECT T.id AS T_id, T.dt AS T_dt, T.v AS T_v, T.n AS T_n, "
                        + "S.id AS S_id, S.dt AS S_dt, S.v AS S_v, S.n AS S_n FROM "
                        + view(name)
                        + " T FULL OUTER JOIN "
                        + "merge_source S ON "
                        + on;
        String ops =
                "SELECT *, CASE WHEN T_id IS NOT NULL AND S_id IS NOT NULL THEN "
                        + matchedOp
                        + " WHEN T_id IS NOT NULL THEN 'K' ELSE "
                        + notMatchedOp
                        + " END AS op FROM ("
                        + joined
                        + ")";
        String updatedDt = setAll ? "S_dt" : "T_dt";
        String updatedV = "S_v";
        String updatedN = setAll ? "S_n" : "T_n + S_n";
        oracle(
                name,
                "SELECT CASE op WHEN 'I' THEN S_id ELSE T_id END AS id, "
                        + "CASE op WHEN 'I' THEN S_dt WHEN 'U' THEN "
                        + updatedDt
                        + " ELSE T_dt END AS dt, "
                        + "CASE op WHEN 'I' THEN S_v WHEN 'U' THEN "
                        + updatedV
                        + " ELSE T_v END AS v, "
                        + "CASE op WHEN 'I' THEN S_n WHEN 'U' THEN "
                        + updatedN
                        + " ELSE T_n END AS n "
                        + "FROM ("
                        + ops
                        + ") WHERE op IN ('K', 'U', 'I')");
        return sql.toString();
    }

    private static String strata(String expression) {
        return expression.replace("T.", "t.").replace("S.", "s.");
    }

    private static String oracle(String expression) {
        return expression.replace("T.", "T_").replace("S.", "S_");
    }

    private static String condition(Random random, boolean partitioned) {
        switch (random.nextInt(6)) {
            case 0:
                {
                    int m = 3 + random.nextInt(7);
                    return "id % " + m + " = " + random.nextInt(m);
                }
            case 1:
                return "n < " + random.nextInt(40);
            case 2:
                {
                    int from = random.nextInt(KEYS);
                    return "id BETWEEN " + from + " AND " + (from + random.nextInt(40));
                }
            case 3:
                return "v LIKE 'v" + random.nextInt(10) + "%'";
            case 4:
                return "v IS NULL AND id % 2 = " + random.nextInt(2);
            default:
                return partitioned
                        ? "dt = 'd" + random.nextInt(3) + "' AND n % 4 = " + random.nextInt(4)
                        : "n % 5 = " + random.nextInt(5);
        }
    }

    /** The statements of the README's row-level section, as a user pastes them. */
    @Test
    void theReadmeExampleDoesWhatTheReadmeSays() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.shop");
        sql(
                "CREATE TABLE lake.shop.orders (id BIGINT NOT NULL, dt STRING NOT NULL, status STRING, amount INT) "
                        + "PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '4', 'deletion-vectors.enabled' = 'true')");
        sql(
                "INSERT INTO lake.shop.orders VALUES (1, '2026-11-01', 'open', 10), (2, '2026-11-01', 'open', 20), "
                        + "(3, '2026-11-02', 'open', 30), (4, '2026-11-02', 'open', 40)");
        sql("DELETE FROM lake.shop.orders WHERE id = 1");
        sql("UPDATE lake.shop.orders SET status = 'paid', amount = amount + 1 WHERE amount > 25");
        assertThat(values(sql("SELECT * FROM lake.shop.orders ORDER BY id")))
                .containsExactly(
                        list(2L, "2026-11-01", "open", 20),
                        list(3L, "2026-11-02", "paid", 31),
                        list(4L, "2026-11-02", "paid", 41));
        sql(
                "CREATE OR REPLACE TEMP VIEW changes AS SELECT * FROM VALUES (2, '2026-11-01', 'cancelled', 0), "
                        + "(3, '2026-11-02', 'shipped', 31), (5, '2026-11-03', 'open', 50) AS c(id, dt, status, amount)");
        sql(
                "MERGE INTO lake.shop.orders t USING changes s ON t.id = s.id AND t.dt = s.dt "
                        + "WHEN MATCHED AND s.status = 'cancelled' THEN DELETE "
                        + "WHEN MATCHED THEN UPDATE SET * "
                        + "WHEN NOT MATCHED THEN INSERT *");
        assertThat(values(sql("SELECT * FROM lake.shop.orders ORDER BY id")))
                .containsExactly(
                        list(3L, "2026-11-02", "shipped", 31),
                        list(4L, "2026-11-02", "paid", 41),
                        list(5L, "2026-11-03", "open", 50));
        sql("DELETE FROM lake.shop.orders WHERE dt = '2026-11-02'");
        assertThat(values(sql("SELECT * FROM lake.shop.orders ORDER BY id")))
                .containsExactly(list(5L, "2026-11-03", "open", 50));
        List<Snapshot.CommitKind> kinds = new ArrayList<>();
        for (Row r :
                sql("SELECT commit_kind FROM lake.shop.`orders$snapshots` ORDER BY snapshot_id")) {
            kinds.add(Snapshot.CommitKind.valueOf(r.getString(0)));
        }
        // With deletion vectors every write compacts level 0 in the same commit: APPEND, then
        // COMPACT.
        Snapshot.CommitKind a = Snapshot.CommitKind.APPEND;
        Snapshot.CommitKind c = Snapshot.CommitKind.COMPACT;
        assertThat(kinds).containsExactly(a, c, a, c, a, c, a, c, Snapshot.CommitKind.OVERWRITE);
    }

    @Test
    void partitionOnlyDeleteDropsPartitionsWithoutWritingFiles() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.rl");
        sql("CREATE TABLE lake.rl.app (id BIGINT, dt STRING, v STRING) PARTITIONED BY (dt)");
        sql(
                "INSERT INTO lake.rl.app SELECT id, concat('d', cast(id % 4 AS STRING)), cast(id AS STRING) "
                        + "FROM range(0, 400)");
        sql(
                "INSERT INTO lake.rl.app SELECT id, concat('d', cast(id % 4 AS STRING)), 'again' FROM range(0, 40)");
        List<String> filesBefore = dataFilesOnDisk("rl", "app");
        assertThat(filesBefore)
                .anyMatch(f -> f.startsWith("dt=d1/"))
                .anyMatch(f -> f.startsWith("dt=d3/"));

        sql("DELETE FROM lake.rl.app WHERE dt = 'd1' OR dt > 'd2'");

        FileStoreTable table = paimonTable("rl", "app");
        assertThat(table.latestSnapshot().get().commitKind())
                .isEqualTo(Snapshot.CommitKind.OVERWRITE);
        assertThat(dataFilesOnDisk("rl", "app")).as("no file was rewritten").isEqualTo(filesBefore);
        assertThat(table.newSnapshotReader().read().dataSplits())
                .allSatisfy(
                        split ->
                                assertThat(split.partition().getString(0).toString())
                                        .isIn("d0", "d2"));
        assertThat(values(sql("SELECT dt, count(*) FROM lake.rl.app GROUP BY dt ORDER BY dt")))
                .containsExactly(list("d0", 110L), list("d2", 110L));

        // The same on a primary-key table, and DELETE without condition empties a table.
        sql(
                "CREATE TABLE lake.rl.pkparts (id BIGINT, dt STRING, v STRING) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2')");
        sql(
                "INSERT INTO lake.rl.pkparts SELECT id, concat('d', cast(id % 3 AS STRING)), 'x' FROM range(0, 90)");
        List<String> pkFiles = dataFilesOnDisk("rl", "pkparts");
        sql("DELETE FROM lake.rl.pkparts WHERE dt IN ('d0', 'd2')");
        assertThat(paimonTable("rl", "pkparts").latestSnapshot().get().commitKind())
                .isEqualTo(Snapshot.CommitKind.OVERWRITE);
        assertThat(dataFilesOnDisk("rl", "pkparts")).isEqualTo(pkFiles);
        assertThat(values(sql("SELECT dt, count(*) FROM lake.rl.pkparts GROUP BY dt")))
                .containsExactly(list("d1", 30L));
        sql("DELETE FROM lake.rl.app");
        assertThat(sql("SELECT * FROM lake.rl.app")).isEmpty();
    }

    @Test
    void appendTablesRefuseRowLevelChangesSayingWhatToDo() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.rl");
        sql("CREATE TABLE lake.rl.log (id BIGINT, dt STRING, v STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO lake.rl.log VALUES (1, 'd1', 'a'), (2, 'd2', 'b')");
        long snapshot = paimonTable("rl", "log").latestSnapshot().get().id();
        List<String> files = dataFilesOnDisk("rl", "log");

        assertThatThrownBy(() -> sql("DELETE FROM lake.rl.log WHERE id = 1"))
                .hasMessageStartingWith(
                        "Cannot DELETE FROM lake.rl.log: it is an append table without a primary key")
                .hasMessageContaining("'primary-key'")
                .hasMessageContaining(
                        "DELETE FROM lake.rl.log WHERE <condition over partition columns dt only>");
        assertThatThrownBy(() -> sql("UPDATE lake.rl.log SET v = 'z' WHERE id = 1"))
                .hasMessageStartingWith(
                        "Cannot UPDATE lake.rl.log: it is an append table without a primary key");
        sql("CREATE OR REPLACE TEMP VIEW log_source AS SELECT 1L AS id, 'd1' AS dt, 'm' AS v");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "MERGE INTO lake.rl.log t USING log_source s ON t.id = s.id "
                                                + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"))
                .hasMessageStartingWith(
                        "Cannot MERGE INTO lake.rl.log: it is an append table without a primary key");

        assertThat(paimonTable("rl", "log").latestSnapshot().get().id()).isEqualTo(snapshot);
        assertThat(dataFilesOnDisk("rl", "log")).isEqualTo(files);
        assertThat(values(sql("SELECT id FROM lake.rl.log ORDER BY id")))
                .containsExactly(list(1L), list(2L));
    }

    @Test
    void tablesWhoseMergeRulesWouldChangeTheMeaningAreRefused() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.rl");
        sql(
                "CREATE TABLE lake.rl.partial (id BIGINT, a STRING, b STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '1', 'merge-engine' = 'partial-update')");
        assertThatThrownBy(() -> sql("UPDATE lake.rl.partial SET a = NULL WHERE id = 1"))
                .hasMessageContaining(
                        "Cannot UPDATE lake.rl.partial: its 'merge-engine' is 'partial-update'");
        sql(
                "CREATE TABLE lake.rl.seq (id BIGINT, ver INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '1', 'sequence.field' = 'ver')");
        assertThatThrownBy(() -> sql("DELETE FROM lake.rl.seq WHERE v = 'x'"))
                .hasMessageContaining(
                        "Cannot DELETE FROM lake.rl.seq: it has 'sequence.field' = 'ver'");
    }

    @Test
    void aFailingStatementLeavesNoSnapshotAndNoFiles() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.rl");
        sql(
                "CREATE TABLE lake.rl.fail (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '4', "
                        + "'deletion-vectors.enabled' = 'true')");
        sql("INSERT INTO lake.rl.fail SELECT id, cast(id AS STRING) FROM range(0, 3000)");
        long snapshot = paimonTable("rl", "fail").latestSnapshot().get().id();
        List<String> files = dataAndIndexFilesOnDisk(warehouse.resolve("rl.db").resolve("fail"));

        // A MERGE whose source fails in one task while other tasks already wrote their buckets.
        sql(
                "CREATE OR REPLACE TEMP VIEW failing_source AS SELECT id, CASE WHEN id = 2500 THEN "
                        + "raise_error('injected failure') ELSE 'merged' END AS v FROM range(0, 4000)");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "MERGE INTO lake.rl.fail t USING failing_source s ON t.id = s.id "
                                                + "WHEN MATCHED AND s.id % 3 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET * "
                                                + "WHEN NOT MATCHED THEN INSERT *"))
                .hasStackTraceContaining("injected failure");
        // An UPDATE of a primary-key column is refused by the writer task that gets it, while the
        // writers of the
        // other buckets write their updates: no snapshot, no changed row. (Files: a writer task
        // that Spark
        // cancels after it flushed its files, but before its result reached the driver, leaves them
        // behind, as
        // for INSERT; remove_orphan_files removes them. So this case checks snapshots and rows
        // only.)
        sql(
                "CREATE TABLE lake.rl.fail_keys (id BIGINT, v STRING) "
                        + "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '4')");
        sql("INSERT INTO lake.rl.fail_keys SELECT id, cast(id AS STRING) FROM range(0, 3000)");
        long keysSnapshot = paimonTable("rl", "fail_keys").latestSnapshot().get().id();
        for (long bad : new long[] {2999, 1}) {
            assertThatThrownBy(
                            () ->
                                    sql(
                                            "UPDATE lake.rl.fail_keys SET id = CASE WHEN id = %d THEN id + 10000 "
                                                    + "ELSE id END, v = 'updated' WHERE id %% 10 = 0 OR id = %d",
                                            bad, bad))
                    .hasStackTraceContaining(
                            String.format(
                                    "Cannot change primary-key column id of lake.rl.fail_keys from %d to %d",
                                    bad, bad + 10000))
                    .hasStackTraceContaining("DELETE FROM, then INSERT INTO");
        }
        assertThat(paimonTable("rl", "fail_keys").latestSnapshot().get().id())
                .isEqualTo(keysSnapshot);
        assertThat(
                        sql("SELECT count(*) FROM lake.rl.fail_keys WHERE v = 'updated'")
                                .get(0)
                                .getLong(0))
                .isZero();
        // A DELETE whose condition fails at run time.
        assertThatThrownBy(
                        () ->
                                sql(
                                        "DELETE FROM lake.rl.fail WHERE CASE WHEN id = 2999 THEN "
                                                + "raise_error('injected failure') ELSE id % 2 = 0 END"))
                .hasStackTraceContaining("injected failure");

        assertThat(paimonTable("rl", "fail").latestSnapshot().get().id()).isEqualTo(snapshot);
        assertThat(dataAndIndexFilesOnDisk(warehouse.resolve("rl.db").resolve("fail")))
                .isEqualTo(files);
        assertThat(sql("SELECT count(*), count(DISTINCT v) FROM lake.rl.fail").get(0).getLong(0))
                .isEqualTo(3000L);
    }

    // ---- helpers

    private Snapshot latest(String name) throws Exception {
        return paimonTable("rl", name).latestSnapshot().orElse(null);
    }

    private void compact(String name) {
        sql("CALL lake.sys.compact(table => 'rl.%s')", name);
    }

    /**
     * A statement adds at most one snapshot per Paimon commit kind (its rows, and the in-writer
     * compaction's COMPACT part), all from one commit; for postpone tables the compaction that
     * follows adds one more.
     */
    private void assertOneSnapshotPerCommitKind(String name, Snapshot before, String step)
            throws Exception {
        FileStoreTable table = paimonTable("rl", name);
        long from = before == null ? 1 : before.id() + 1;
        long to = table.snapshotManager().latestSnapshotId();
        List<Snapshot.CommitKind> kinds = new ArrayList<>();
        Set<String> users = new HashSet<>();
        for (long id = from; id <= to; id++) {
            Snapshot s = table.snapshotManager().snapshot(id);
            kinds.add(s.commitKind());
            users.add(s.commitUser());
        }
        boolean postpone = table.coreOptions().bucket() == -2;
        assertThat(kinds).as(step + ": snapshot kinds").doesNotHaveDuplicates();
        assertThat(users.size()).as(step + ": commits").isLessThanOrEqualTo(postpone ? 2 : 1);
    }

    /**
     * Replaces the oracle of {@code name} by the result of {@code select} (over the current
     * oracle), as parquet.
     */
    private void oracle(String name, String select) {
        String path = root.resolve("oracle").resolve(name + "-" + (++oracleVersion)).toString();
        df(select).write().parquet(path);
        spark.read().parquet(path).createOrReplaceTempView(view(name));
    }

    private static String view(String name) {
        return "oracle_" + name;
    }

    private void assertSameRows(String table, String name, String step) {
        List<Row> expected = sql("SELECT id, dt, v, n FROM %s ORDER BY id, dt", view(name));
        assertThat(sql("SELECT id, dt, v, n FROM %s ORDER BY id, dt", table))
                .as(step)
                .containsExactlyElementsOf(expected);
    }
}
