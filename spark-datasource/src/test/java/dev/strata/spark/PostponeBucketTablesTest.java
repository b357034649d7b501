package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.testing.DefaultSparkOnly;
import dev.strata.testing.TestSeeds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * Postpone-bucket primary-key tables ({@code bucket = -2}): writes park rows in bucket -2,
 * invisible to batch reads as in Paimon, and {@code CALL sys.compact} moves them into real buckets
 * in write order. Answers are compared with Spark's own parquet table holding every written version
 * (latest batch per key wins).
 */
@DefaultSparkOnly
class PostponeBucketTablesTest extends StrataSparkTestBase {

    private static final StructType EVENTS =
            StructType.fromDDL("id BIGINT, dt STRING, v STRING, n INT, batch INT");
    private static final int POSTPONE = -2;

    private void createEvents(String name, String extraProperties) {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pp");
        sql(
                "CREATE TABLE lake.pp."
                        + name
                        + " (id BIGINT, dt STRING, v STRING, n INT, batch INT) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '-2'"
                        + extraProperties
                        + ")");
        sql(
                "CREATE TABLE IF NOT EXISTS spark_catalog.default.history_"
                        + name
                        + " (id BIGINT, dt STRING, v STRING, n INT, batch INT) USING parquet");
    }

    /**
     * Writes one batch of random upserts (unique keys within the batch) to the table and to its
     * oracle.
     */
    private void writeBatch(
            String name, Random random, int batch, int keys, List<String> partitions)
            throws Exception {
        Set<String> seen = new HashSet<>();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            long id = random.nextInt(keys);
            String dt = partitions.get(random.nextInt(partitions.size()));
            if (seen.add(id + "/" + dt)) {
                rows.add(
                        RowFactory.create(
                                id, dt, "v" + random.nextInt(1000), random.nextInt(50), batch));
            }
        }
        spark.createDataFrame(rows, EVENTS).repartition(3).writeTo("lake.pp." + name).append();
        spark.createDataFrame(rows, EVENTS)
                .write()
                .mode("append")
                .insertInto("spark_catalog.default.history_" + name);
    }

    private List<Row> expected(String name) {
        return sql(
                "SELECT id, dt, v, n, batch FROM (SELECT *, row_number() OVER (PARTITION BY id, dt ORDER BY batch DESC) "
                        + "AS rn FROM spark_catalog.default.history_"
                        + name
                        + ") WHERE rn = 1 ORDER BY id, dt");
    }

    private static List<DataFileMeta> postponeFiles(FileStoreTable table) {
        List<DataFileMeta> files = new ArrayList<>();
        table.newSnapshotReader()
                .withBucket(POSTPONE)
                .read()
                .dataSplits()
                .forEach(s -> files.addAll(s.dataFiles()));
        return files;
    }

    /** Bucket count of each partition's real-bucket files, and every real file's level. */
    private static Map<String, Integer> bucketCounts(FileStoreTable table, List<Integer> levels) {
        Map<String, Integer> counts = new HashMap<>();
        for (DataSplit split :
                table.newSnapshotReader().onlyReadRealBuckets().read().dataSplits()) {
            counts.merge(
                    split.partition().getString(0).toString(),
                    split.totalBuckets(),
                    (a, b) -> {
                        assertThat(a).isEqualTo(b);
                        return a;
                    });
            split.dataFiles().forEach(f -> levels.add(f.level()));
        }
        return counts;
    }

    @Test
    void definitionsArePostponeOnPrimaryKeyTablesOnly() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pp");
        sql(
                "CREATE TABLE lake.pp.ok (id BIGINT, body STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-2', "
                        + "'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')");
        assertThat(sql("SHOW TBLPROPERTIES lake.pp.ok ('bucket')").get(0).getString(1))
                .isEqualTo("-2");

        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.pp.append (id BIGINT) TBLPROPERTIES ('bucket' = '-2')"))
                .hasMessageContaining(
                        "Cannot define table lake.pp.append: option 'bucket' = -2 (postpone buckets) "
                                + "needs a primary-key table");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.pp.zero (id BIGINT) TBLPROPERTIES ('primary-key' = 'id', "
                                                + "'bucket' = '-2', 'postpone.default-bucket-num' = '0')"))
                .hasMessageContaining(
                        "option 'postpone.default-bucket-num' must be a positive integer, found '0'");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.pp.fixed (id BIGINT) TBLPROPERTIES ('primary-key' = 'id', "
                                                + "'bucket' = '-2', 'postpone.batch-write-fixed-bucket' = 'true')"))
                .hasMessageContaining("Remove the option or set it to 'false'");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.pp.three (id BIGINT) TBLPROPERTIES ('primary-key' = 'id', "
                                                + "'bucket' = '-3')"))
                .hasMessageContaining("option 'bucket' = -3 is not supported");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.pp.ok SET TBLPROPERTIES ('postpone.default-bucket-num' = 'x')"))
                .hasMessageContaining("'postpone.default-bucket-num' must be a positive integer");
    }

    @Test
    void writesParkRowsUntilCompactionAssignsBucketsInWriteOrder() throws Exception {
        long seed = TestSeeds.seed("postponeUpserts");
        Random random = new Random(seed);
        createEvents(
                "events",
                ", 'postpone.default-bucket-num' = '3', 'deletion-vectors.enabled' = 'true'");
        List<String> partitions = List.of("d0", "d1", "d2");
        for (int batch = 0; batch < 4; batch++) {
            writeBatch("events", random, batch, 300, partitions);
        }
        FileStoreTable written = paimonTable("pp", "events");
        assertThat(written.snapshotManager().latestSnapshotId()).isEqualTo(4L);
        assertThat(postponeFiles(written)).isNotEmpty();
        assertThat(dataFilesOnDisk("pp", "events"))
                .allSatisfy(f -> assertThat(f).contains("bucket-postpone"));
        // As in Paimon: a batch read of a postpone table sees no row that has not been compacted.
        assertThat(sql("SELECT count(*) FROM lake.pp.events").get(0).getLong(0)).isZero();

        List<Row> report = sql("CALL lake.sys.compact(table => 'pp.events')");

        FileStoreTable compacted = paimonTable("pp", "events");
        Snapshot snapshot = compacted.snapshotManager().latestSnapshot();
        assertThat(snapshot.id()).as("one snapshot").isEqualTo(5L);
        assertThat(snapshot.commitKind()).isEqualTo(Snapshot.CommitKind.COMPACT);
        assertThat(postponeFiles(compacted)).isEmpty();
        List<Integer> levels = new ArrayList<>();
        assertThat(bucketCounts(compacted, levels)).isEqualTo(Map.of("d0", 3, "d1", 3, "d2", 3));
        assertThat(levels).isNotEmpty().allSatisfy(l -> assertThat(l).isGreaterThan(0));
        assertThat(sql("SELECT * FROM lake.pp.events ORDER BY id, dt"))
                .as(TestSeeds.describe("postponeUpserts", seed))
                .containsExactlyElementsOf(expected("events"));

        long rows = sql("SELECT count(*) FROM lake.pp.events").get(0).getLong(0);
        assertThat(report.stream().filter(r -> r.getInt(1) >= 0).mapToLong(r -> r.getLong(4)).sum())
                .isEqualTo(rows);
        assertThat(report.stream().filter(r -> r.getInt(1) == POSTPONE))
                .hasSize(3)
                .allSatisfy(r -> assertThat(r.getInt(3)).isZero())
                .allSatisfy(r -> assertThat(r.getInt(2)).isPositive());
        assertThat(report.stream().filter(r -> r.getInt(1) >= 0).mapToInt(r -> r.getInt(2)).sum())
                .as("no real bucket had files before")
                .isZero();
    }

    @Test
    void sameKeyWrittenTwiceBeforeCompactionKeepsTheLatestAndDeletesWin() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pp");
        sql(
                "CREATE TABLE lake.pp.ops (id BIGINT, op STRING, v STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '-2', 'rowkind.field' = 'op', 'postpone.default-bucket-num' = '2')");
        sql("INSERT INTO lake.pp.ops SELECT id, '+I', concat('first', id) FROM range(0, 200)");
        sql(
                "INSERT INTO lake.pp.ops SELECT id, '+I', concat('second', id) FROM range(0, 200) WHERE id % 2 = 0");
        sql("INSERT INTO lake.pp.ops SELECT id, '-D', null FROM range(0, 200) WHERE id % 5 = 0");
        sql("INSERT INTO lake.pp.ops VALUES (10, '+I', 'back')");
        sql("CALL lake.sys.compact(table => 'pp.ops')");
        List<Row> expected =
                sql(
                        "SELECT id, '+I' AS op, CASE WHEN id % 2 = 0 THEN concat('second', id) "
                                + "ELSE concat('first', id) END AS v FROM range(0, 200) WHERE id % 5 <> 0 "
                                + "UNION ALL SELECT 10, '+I', 'back' ORDER BY id");
        assertThat(sql("SELECT * FROM lake.pp.ops ORDER BY id"))
                .containsExactlyElementsOf(expected);

        // Versions parked after the table already has buckets still win over the compacted ones.
        sql("INSERT INTO lake.pp.ops VALUES (1, '+I', 'third'), (10, '-D', null)");
        sql("INSERT INTO lake.pp.ops VALUES (1, '+I', 'fourth')");
        assertThat(sql("SELECT v FROM lake.pp.ops WHERE id = 1").get(0).getString(0))
                .isEqualTo("first1");
        sql("CALL lake.sys.compact(table => 'pp.ops')");
        assertThat(sql("SELECT v FROM lake.pp.ops WHERE id = 1").get(0).getString(0))
                .isEqualTo("fourth");
        assertThat(sql("SELECT * FROM lake.pp.ops WHERE id = 10")).isEmpty();
    }

    @Test
    void partialUpdateMergesParkedVersionsInWriteOrder() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pp");
        sql(
                "CREATE TABLE lake.pp.partial (id BIGINT, a STRING, b STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '-2', 'merge-engine' = 'partial-update')");
        sql("INSERT INTO lake.pp.partial VALUES (1, 'a1', null), (2, null, 'b2')");
        sql("INSERT INTO lake.pp.partial VALUES (1, null, 'b1'), (2, 'a2', 'b2new')");
        sql("INSERT INTO lake.pp.partial VALUES (1, 'a1new', null)");
        sql("CALL lake.sys.compact(table => 'pp.partial')");
        assertThat(values(sql("SELECT * FROM lake.pp.partial ORDER BY id")))
                .containsExactly(list(1L, "a1new", "b1"), list(2L, "a2", "b2new"));
    }

    @Test
    void laterCompactionsKeepAPartitionsBucketCountAndWhereSelectsPartitions() throws Exception {
        long seed = TestSeeds.seed("postponeKnownBuckets");
        Random random = new Random(seed);
        createEvents("known", ", 'postpone.default-bucket-num' = '2'");
        writeBatch("known", random, 0, 200, List.of("d0", "d1"));
        sql("CALL lake.sys.compact(table => 'pp.known', where => 'dt = ''d0''')");
        List<Integer> levels = new ArrayList<>();
        assertThat(bucketCounts(paimonTable("pp", "known"), levels)).isEqualTo(Map.of("d0", 2));
        assertThat(sql("SELECT DISTINCT dt FROM lake.pp.known").stream().map(r -> r.getString(0)))
                .containsExactly("d0");
        assertThat(postponeFiles(paimonTable("pp", "known"))).as("d1 stays parked").isNotEmpty();

        sql("ALTER TABLE lake.pp.known SET TBLPROPERTIES ('postpone.default-bucket-num' = '4')");
        writeBatch("known", random, 1, 200, List.of("d0", "d1", "d2"));
        writeBatch("known", random, 2, 200, List.of("d0", "d2"));
        sql("CALL lake.sys.compact(table => 'pp.known')");

        FileStoreTable table = paimonTable("pp", "known");
        levels.clear();
        assertThat(bucketCounts(table, levels)).isEqualTo(Map.of("d0", 2, "d1", 4, "d2", 4));
        assertThat(levels).allSatisfy(l -> assertThat(l).isGreaterThan(0));
        assertThat(postponeFiles(table)).isEmpty();
        assertThat(sql("SELECT * FROM lake.pp.known ORDER BY id, dt"))
                .as(TestSeeds.describe("postponeKnownBuckets", seed))
                .containsExactlyElementsOf(expected("known"));
    }

    @Test
    void overwriteReplacesPartitionsAndAbortedJobsLeaveNothing() throws Exception {
        createEvents("over", ", 'postpone.default-bucket-num' = '2'");
        sql(
                "INSERT INTO lake.pp.over SELECT id, concat('d', id % 2), 'old', 1, 0 FROM range(0, 100)");
        sql("CALL lake.sys.compact(table => 'pp.over')");
        sql(
                "INSERT OVERWRITE lake.pp.over PARTITION (dt = 'd1') SELECT id, 'new', 2, 1 FROM range(1000, 1010)");
        sql("CALL lake.sys.compact(table => 'pp.over')");
        List<Row> expected =
                sql(
                        "SELECT id, 'd0' AS dt, 'old' AS v, 1 AS n, 0 AS batch FROM range(0, 100) "
                                + "WHERE id % 2 = 0 UNION ALL SELECT id, 'd1', 'new', 2, 1 FROM range(1000, 1010) ORDER BY id, dt");
        assertThat(sql("SELECT * FROM lake.pp.over ORDER BY id, dt"))
                .containsExactlyElementsOf(expected);

        long snapshot = paimonTable("pp", "over").latestSnapshot().get().id();
        List<String> filesBefore = dataFilesOnDisk("pp", "over");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "INSERT INTO lake.pp.over SELECT id, 'd5', "
                                                + "CASE WHEN id = 4321 THEN raise_error('injected failure') ELSE 'x' END, 0, 9 FROM range(0, 5000)"))
                .hasStackTraceContaining("injected failure");
        assertThat(paimonTable("pp", "over").latestSnapshot().get().id()).isEqualTo(snapshot);
        assertThat(dataFilesOnDisk("pp", "over")).isEqualTo(filesBefore);
    }

    @Test
    void paimonsOwnReaderReadsTheCompactedTable() throws Exception {
        createEvents("interop", ", 'postpone.default-bucket-num' = '3'");
        sql(
                "INSERT INTO lake.pp.interop SELECT id, concat('d', id % 3), 'a', 1, 0 FROM range(0, 150)");
        sql(
                "INSERT INTO lake.pp.interop SELECT id, concat('d', id % 3), 'b', 2, 1 FROM range(100, 200)");
        sql("CALL lake.sys.compact(table => 'pp.interop')");
        Map<Long, String> expected = new HashMap<>();
        sql("SELECT id, v FROM lake.pp.interop")
                .forEach(r -> expected.put(r.getLong(0), r.getString(1)));
        FileStoreTable table = paimonTable("pp", "interop");
        ReadBuilder read = table.newReadBuilder();
        Map<Long, String> actual = new HashMap<>();
        try (RecordReaderIterator<InternalRow> it =
                new RecordReaderIterator<>(read.newRead().createReader(read.newScan().plan()))) {
            while (it.hasNext()) {
                InternalRow row = it.next();
                actual.put(row.getLong(0), row.getString(2).toString());
            }
        }
        assertThat(actual).hasSize(200).isEqualTo(expected);
        assertThat(actual.get(120L)).isEqualTo("b");
        assertThat(actual.get(20L)).isEqualTo("a");
    }

    @Test
    void fixedBucketCompactionIsUnchanged() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pp");
        sql(
                "CREATE TABLE lake.pp.fixed2 (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
        sql("INSERT INTO lake.pp.fixed2 SELECT id, 'a' FROM range(0, 50)");
        sql("INSERT INTO lake.pp.fixed2 SELECT id, 'b' FROM range(25, 75)");
        List<Row> report = sql("CALL lake.sys.compact(table => 'pp.fixed2')");
        assertThat(report).extracting(r -> r.getInt(1)).containsExactly(0, 1);
        assertThat(
                        sql("SELECT count(*), sum(CASE WHEN v = 'b' THEN 1 ELSE 0 END) FROM lake.pp.fixed2")
                                .get(0))
                .isEqualTo(RowFactory.create(75L, 50L));
    }
}
