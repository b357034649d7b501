package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.testing.TestSeeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.paimon.Snapshot;
import org.apache.paimon.schema.Schema;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * {@code SHOW PARTITIONS} and {@code ALTER TABLE ... DROP PARTITION} on Strata tables, against the
 * same statements on a Spark parquet table partitioned the same way (the oracle); a drop racing
 * other sessions' inserts and a compaction.
 */
class PartitionCommandsTest extends StrataSparkTestBase {

    private static final String ROWS =
            "SELECT id, date_add(DATE '2026-11-01', CAST(id % 3 AS INT)) AS dt, CAST(id % 2 AS INT) AS h,"
                    + " CASE WHEN id % 5 = 0 THEN 'disk failure' ELSE 'all quiet' END AS body"
                    + " FROM range(0, 60)";

    @Test
    void showAndDropPartitionsAnswerLikeSparksOwnPartitionedTable() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pc");
        sql(
                "CREATE TABLE lake.pc.docs (id BIGINT NOT NULL, dt DATE NOT NULL, h INT NOT NULL, body STRING)"
                        + " PARTITIONED BY (dt, h) TBLPROPERTIES ('primary-key' = 'id,dt,h', 'bucket' = '2',"
                        + " 'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')");
        sql("INSERT INTO lake.pc.docs " + ROWS);
        sql(
                "CREATE TABLE pc_oracle (id BIGINT, body STRING, dt DATE, h INT) USING parquet"
                        + " PARTITIONED BY (dt, h)");
        sql("INSERT INTO pc_oracle SELECT id, body, dt, h FROM (" + ROWS + ")");

        assertThat(sql("SHOW PARTITIONS lake.pc.docs"))
                .hasSize(6)
                .containsExactlyInAnyOrderElementsOf(sql("SHOW PARTITIONS pc_oracle"));
        assertThat(sql("SHOW PARTITIONS lake.pc.docs PARTITION (dt = DATE '2026-11-02')"))
                .containsExactlyInAnyOrderElementsOf(
                        sql("SHOW PARTITIONS pc_oracle PARTITION (dt = DATE '2026-11-02')"));

        assertThat(sql("SELECT DISTINCT partition FROM lake.pc.`docs$fulltext`")).hasSize(6);
        long before = paimonTable("pc", "docs").latestSnapshot().get().id();
        String drop =
                "ALTER TABLE %s DROP PARTITION (dt = DATE '2026-11-01', h = 0),"
                        + " PARTITION (dt = DATE '2026-11-03', h = 1)";
        sql(drop, "lake.pc.docs");
        sql(drop, "pc_oracle");
        Snapshot dropped = paimonTable("pc", "docs").latestSnapshot().get();
        assertThat(dropped.id()).as("both partitions in one snapshot").isEqualTo(before + 1);
        assertThat(dropped.commitKind()).isEqualTo(Snapshot.CommitKind.OVERWRITE);
        assertThat(sql("SELECT id, body, dt, h FROM lake.pc.docs ORDER BY id"))
                .containsExactlyElementsOf(
                        sql("SELECT id, body, dt, h FROM pc_oracle ORDER BY id"));
        assertThat(sql("SHOW PARTITIONS lake.pc.docs"))
                .hasSize(4)
                .containsExactlyInAnyOrderElementsOf(sql("SHOW PARTITIONS pc_oracle"));
        // The full-text archives of the dropped partitions are gone with them.
        assertThat(sql("SELECT DISTINCT partition FROM lake.pc.`docs$fulltext`"))
                .extracting(r -> r.getString(0))
                .containsExactlyInAnyOrder(
                        "dt=2026-11-01/h=1",
                        "dt=2026-11-02/h=0",
                        "dt=2026-11-02/h=1",
                        "dt=2026-11-03/h=0");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.pc.docs DROP PARTITION (dt = DATE '2026-11-01', h = 0)"))
                .hasMessageContaining("PARTITIONS_NOT_FOUND");
        sql("ALTER TABLE lake.pc.docs DROP IF EXISTS PARTITION (dt = DATE '2026-11-01', h = 0)");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.pc.docs ADD PARTITION (dt = DATE '2026-12-01', h = 0)"))
                .hasMessageContaining(
                        "Cannot add a partition to lake.pc.docs: a Paimon partition exists only while it"
                                + " holds rows");
        assertThat(paimonTable("pc", "docs").latestSnapshot().get().id())
                .as("a refused or empty drop writes no snapshot")
                .isEqualTo(dropped.id());

        String truncate = "TRUNCATE TABLE %s PARTITION (dt = DATE '2026-11-02', h = 1)";
        sql(truncate, "lake.pc.docs");
        sql(truncate, "pc_oracle");
        assertThat(sql("SELECT id, body, dt, h FROM lake.pc.docs ORDER BY id"))
                .containsExactlyElementsOf(
                        sql("SELECT id, body, dt, h FROM pc_oracle ORDER BY id"));
        // A partition that does not exist is refused, as Spark's own tables refuse it (it
        // succeeded silently).
        String missing = "TRUNCATE TABLE %s PARTITION (dt = DATE '2030-01-01', h = 9)";
        assertThatThrownBy(() -> sql(missing, "pc_oracle")).hasMessageContaining("cannot be found");
        assertThatThrownBy(() -> sql(missing, "lake.pc.docs"))
                .hasMessageContaining(
                        "Cannot truncate partition (dt = DATE '2030-01-01', h = 9) of lake.pc.docs:"
                                + " the partition does not exist");
    }

    /**
     * Paimon names a partition whose string value is blank ('' or spaces) like the NULL partition
     * ({@code __DEFAULT_PARTITION__}) and reads that name back as NULL: dropping a blank partition
     * by its name dropped the NULL partition instead, and a DELETE over a blank value deleted
     * nothing.
     */
    @Test
    void blankStringPartitionsAreDroppedAsThemselvesNotAsTheNullPartition() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pb");
        sql("CREATE TABLE lake.pb.t (id BIGINT, dt STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO lake.pb.t VALUES (1, 'a'), (2, NULL), (3, ''), (4, ' '), (5, '  ')");
        assertThat(sql("SHOW PARTITIONS lake.pb.t")).hasSize(5);

        sql("ALTER TABLE lake.pb.t DROP PARTITION (dt = '')");
        assertThat(ids("lake.pb.t")).containsExactly(1L, 2L, 4L, 5L);
        sql("DELETE FROM lake.pb.t WHERE dt = ' '");
        assertThat(ids("lake.pb.t")).containsExactly(1L, 2L, 5L);
        sql("ALTER TABLE lake.pb.t DROP PARTITION (dt = NULL)");
        assertThat(ids("lake.pb.t")).containsExactly(1L, 5L);
        sql("DELETE FROM lake.pb.t WHERE dt IN ('  ', 'a')");
        assertThat(ids("lake.pb.t")).isEmpty();
    }

    /**
     * Paimon names a BINARY partition's directory after the byte array's identity, so each write
     * went to a directory no reader found again: the INSERT succeeded and every later read of the
     * table failed. Refused where the table is defined, and where a table defined elsewhere (by
     * Paimon's own API here) is written, before any file is.
     */
    @Test
    void binaryPartitionColumnsAreRefusedBeforeAnyRowIsWritten() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pbin");
        assertThatThrownBy(
                        () -> sql("CREATE TABLE lake.pbin.t (id INT, b BINARY) PARTITIONED BY (b)"))
                .hasMessageContaining(
                        "Cannot define table lake.pbin.t: partition column b is BINARY, whose values"
                                + " Paimon cannot name as partition directories")
                .hasMessageContaining("Partition by a STRING column instead, for example hex(b)");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.pbin.c PARTITIONED BY (b) AS SELECT 1 AS id, X'FF' AS b"))
                .hasMessageContaining("partition column b is BINARY");
        assertThat(sql("SHOW TABLES IN lake.pbin")).isEmpty();

        createPaimonTable(
                "pbin",
                "p",
                Schema.newBuilder()
                        .column("id", org.apache.paimon.types.DataTypes.INT())
                        .column("b", org.apache.paimon.types.DataTypes.BYTES())
                        .partitionKeys("b")
                        .build());
        assertThatThrownBy(() -> sql("INSERT INTO lake.pbin.p VALUES (1, X'0102')"))
                .hasMessageContaining("Cannot write to lake.pbin.p: partition column b is BINARY");
        assertThat(paimonTable("pbin", "p").latestSnapshot()).isEmpty();
        assertThat(sql("SELECT * FROM lake.pbin.p")).isEmpty();
    }

    private List<Long> ids(String table) {
        List<Long> ids = new ArrayList<>();
        for (Row r : sql("SELECT id FROM %s ORDER BY id", table)) {
            ids.add(r.getLong(0));
        }
        return ids;
    }

    /**
     * One session drops a partition while two others insert into the other partitions and one
     * compacts: nobody writes the dropped partition after the first insert, so whatever the order
     * of the commits, the table holds every row of every statement that succeeded and none of the
     * dropped partition.
     */
    @Test
    void aDropRacingInsertsAndACompactionLosesNoOtherRow() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pr");
        for (int round = 0; round < RandomShare.of(4); round++) {
            String table = "lake.pr.t" + round;
            String seedName = RandomShare.seedName("PartitionCommandsTest.race" + round);
            long seed = TestSeeds.seed(seedName);
            Random random = new Random(seed);
            sql(
                    "CREATE TABLE %s (id BIGINT NOT NULL, p INT NOT NULL, v STRING) PARTITIONED BY (p)"
                            + " TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2',"
                            + " 'deletion-vectors.enabled' = 'true')",
                    table);
            sql(
                    "INSERT INTO %s SELECT id, CAST(id %% 3 AS INT), 'initial' FROM range(0, 90)",
                    table);
            List<Long> expected = new ArrayList<>();
            for (long id = 0; id < 90; id++) {
                if (id % 3 != 0) {
                    expected.add(id);
                }
            }
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<List<Long>>> inserts = new ArrayList<>();
            try {
                for (int w = 0; w < 2; w++) {
                    int writer = w;
                    long pause = random.nextInt(300);
                    inserts.add(
                            pool.submit(
                                    () -> {
                                        SparkSession s = newSession();
                                        List<Long> committed = new ArrayList<>();
                                        for (int i = 0; i < 3; i++) {
                                            long from = 1000 + (writer * 3 + i) * 10L;
                                            Thread.sleep(pause);
                                            try {
                                                s.sql(
                                                                String.format(
                                                                        "INSERT INTO %s SELECT id, 1 + CAST(id %% 2 AS INT), 'w%d'"
                                                                                + " FROM range(%d, %d)",
                                                                        table, writer, from,
                                                                        from + 10))
                                                        .collectAsList();
                                                for (long id = from; id < from + 10; id++) {
                                                    committed.add(id);
                                                }
                                            } catch (RuntimeException conflict) {
                                                assertThat(conflict)
                                                        .hasMessageContaining("Cannot commit");
                                            }
                                        }
                                        return committed;
                                    }));
                }
                long compactPause = random.nextInt(300);
                Future<?> compaction =
                        pool.submit(
                                () -> {
                                    Thread.sleep(compactPause);
                                    SparkSession s = newSession();
                                    try {
                                        s.sql(
                                                        "CALL lake.sys.compact(table => '"
                                                                + table.substring("lake.".length())
                                                                + "')")
                                                .collectAsList();
                                    } catch (RuntimeException conflict) {
                                        assertThat(conflict).hasMessageContaining("Cannot commit");
                                    }
                                    return null;
                                });
                long dropPause = random.nextInt(300);
                Future<?> drop =
                        pool.submit(
                                () -> {
                                    Thread.sleep(dropPause);
                                    newSession()
                                            .sql("ALTER TABLE " + table + " DROP PARTITION (p = 0)")
                                            .collectAsList();
                                    return null;
                                });
                drop.get();
                compaction.get();
                for (Future<List<Long>> insert : inserts) {
                    expected.addAll(insert.get());
                }
            } finally {
                pool.shutdownNow();
            }
            List<Long> actual = new ArrayList<>();
            for (Row r : sql("SELECT id FROM %s ORDER BY id", table)) {
                actual.add(r.getLong(0));
            }
            assertThat(actual)
                    .as(TestSeeds.describe(seedName, seed))
                    .containsExactlyElementsOf(expected.stream().sorted().toList());
            assertThat(sql("SELECT count(*) FROM %s WHERE p = 0", table).get(0).getLong(0))
                    .isZero();
        }
    }
}
