package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.plans.logical.Statistics;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.Test;

/**
 * Scans report rows and bytes from their planned splits, so Spark sizes joins with Strata tables as
 * it does with its own (a small table is broadcast instead of shuffling both sides).
 */
class ScanStatisticsTest extends StrataSparkTestBase {

    @Test
    void aSmallTableIsBroadcastInAJoinAndStatisticsCountTheRows() {
        spark.conf().set("spark.sql.adaptive.enabled", "false");
        sql("CREATE NAMESPACE IF NOT EXISTS lake.st");
        sql(
                "CREATE TABLE lake.st.dim (id BIGINT NOT NULL, name STRING)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
        sql("INSERT INTO lake.st.dim SELECT id, concat('n', CAST(id AS STRING)) FROM range(0, 50)");
        sql("CREATE TABLE lake.st.app (id BIGINT, v INT)");
        sql("INSERT INTO lake.st.app SELECT id, CAST(id AS INT) FROM range(0, 30)");
        sql("INSERT INTO lake.st.app SELECT id, CAST(id AS INT) FROM range(30, 70)");
        sql(
                "CREATE TABLE st_facts USING parquet AS SELECT id % 50 AS dim_id, id AS amount"
                        + " FROM range(0, 200000)");

        Statistics dim = df("SELECT * FROM lake.st.dim").queryExecution().optimizedPlan().stats();
        assertThat(dim.rowCount().get().longValue()).isEqualTo(50);
        assertThat(dim.sizeInBytes().longValue()).isBetween(50L, 10_000L);
        Statistics app = df("SELECT id FROM lake.st.app").queryExecution().optimizedPlan().stats();
        assertThat(app.rowCount().get().longValue()).isEqualTo(70);
        // An older snapshot and a partition filter count what the scan reads.
        assertThat(rows("SELECT id FROM lake.st.app VERSION AS OF 1")).isEqualTo(30);
        sql("CREATE TABLE lake.st.parted (id BIGINT, dt STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO lake.st.parted SELECT id, IF(id < 30, 'a', 'b') FROM range(0, 40)");
        assertThat(rows("SELECT id FROM lake.st.parted")).isEqualTo(40);
        assertThat(rows("SELECT id FROM lake.st.parted WHERE dt = 'b'")).isEqualTo(10);

        String join =
                "SELECT d.name, count(*) AS n, sum(f.amount) AS s FROM st_facts f"
                        + " JOIN lake.st.dim d ON f.dim_id = d.id GROUP BY d.name";
        String plan = df(join).queryExecution().executedPlan().toString();
        assertThat(plan).contains("BroadcastHashJoin").doesNotContain("SortMergeJoin");
        assertThat(sql("SELECT * FROM (%s) WHERE name = 'n7'", join))
                .containsExactly(
                        RowFactory.create("n7", 4000L, 4000L * 7 + 50L * (3999L * 4000L / 2)));
    }

    @Test
    void aJoinPrunesThePartitionsOfAStrataTableAtRunTime() {
        spark.conf().set("spark.sql.adaptive.enabled", "false");
        sql("CREATE NAMESPACE IF NOT EXISTS lake.st");
        sql(
                "CREATE TABLE lake.st.events (id BIGINT NOT NULL, dt STRING NOT NULL,"
                        + " m MAP<STRING, BIGINT>) PARTITIONED BY (dt)"
                        + " TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2',"
                        + " 'fields.m.map.storage-layout' = 'shared-shredding')");
        sql(
                "INSERT INTO lake.st.events SELECT id, concat('d', CAST(id % 6 AS STRING)),"
                        + " map('k', id, concat('r', CAST(id % 7 AS STRING)), 1L)"
                        + " FROM range(0, 6000)");
        sql("CREATE TABLE lake.st.days (dt STRING, region STRING)");
        sql("INSERT INTO lake.st.days VALUES ('d1', 'eu'), ('d2', 'us'), ('d4', 'eu')");
        String join =
                "SELECT f.dt, count(*), sum(f.m['k']) FROM lake.st.events f"
                        + " JOIN lake.st.days d ON f.dt = d.dt"
                        + " WHERE d.region = 'eu' AND f.m['r3'] = 1 GROUP BY f.dt ORDER BY f.dt";
        List<Row> expected = new ArrayList<>();
        for (int day : new int[] {1, 4}) {
            long count = 0;
            long sum = 0;
            for (long id = 0; id < 6000; id++) {
                if (id % 6 == day && id % 7 == 3) {
                    count++;
                    sum += id;
                }
            }
            expected.add(RowFactory.create("d" + day, count, sum));
        }

        Dataset<Row> pruned = df(join);
        assertThat(pruned.collectAsList()).isEqualTo(expected);
        BatchScanExec events = eventsScan(pruned);
        assertThat(events.runtimeFilters().isEmpty()).as(events.toString()).isFalse();
        // Two of six partitions, two buckets each.
        assertThat(events.metrics().apply("splitsPlanned").value()).isEqualTo(4);

        spark.conf().set("spark.sql.optimizer.dynamicPartitionPruning.enabled", "false");
        try {
            Dataset<Row> whole = df(join);
            assertThat(whole.collectAsList()).isEqualTo(expected);
            assertThat(eventsScan(whole).metrics().apply("splitsPlanned").value()).isEqualTo(12);
        } finally {
            spark.conf().unset("spark.sql.optimizer.dynamicPartitionPruning.enabled");
        }
    }

    @Test
    void countStarIsAnsweredFromPaimonsRowCountsWithoutReadingWhenNothingIsLeftToMerge() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.st");
        sql(
                "CREATE TABLE lake.st.dv (id BIGINT NOT NULL, dt STRING NOT NULL, v INT)"
                        + " PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'id,dt',"
                        + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
        sql(
                "INSERT INTO lake.st.dv SELECT id, IF(id < 600, 'a', 'b'), CAST(id AS INT)"
                        + " FROM range(0, 1000)");
        sql("DELETE FROM lake.st.dv WHERE id % 10 = 3");
        sql("UPDATE lake.st.dv SET v = -1 WHERE id % 10 = 4");
        sql("INSERT INTO lake.st.dv SELECT id, 'c', 0 FROM range(990, 1010)");
        assertCount("SELECT count(*) FROM lake.st.dv", 900 + 20, true);
        assertCount("SELECT count(*), count(*) AS again FROM lake.st.dv", 920, true);
        assertCount("SELECT count(*) FROM lake.st.dv VERSION AS OF 2", 1000, true);
        // Partition pruning is exact, so a filter on partitions only leaves nothing to Spark.
        assertCount("SELECT count(*) FROM lake.st.dv WHERE dt = 'a'", 540, true);
        assertCount("SELECT count(*) FROM lake.st.dv WHERE dt IN ('b', 'c')", 380, true);
        assertCount("SELECT count(*) FROM lake.st.dv WHERE NOT (dt > 'a')", 540, true);
        // Grouped by partition columns: a row per partition that has live rows.
        assertGroups(
                "SELECT dt, count(*) FROM lake.st.dv GROUP BY dt ORDER BY dt",
                List.of("[a,540]", "[b,360]", "[c,20]"),
                true);
        assertGroups(
                "SELECT count(*) AS n, dt FROM lake.st.dv WHERE dt <> 'a' GROUP BY dt"
                        + " HAVING n > 20 ORDER BY dt",
                List.of("[360,b]"),
                true);
        assertGroups(
                "SELECT v, count(*) FROM lake.st.dv WHERE dt = 'c' GROUP BY v",
                List.of("[0,20]"),
                false);
        // Any other filter stays above the scan: Spark counts what the scan returns.
        assertCount("SELECT count(*) FROM lake.st.dv WHERE dt = 'a' AND id < 600", 540, false);
        assertCount("SELECT count(v) FROM lake.st.dv WHERE v < 0", 100, false);

        sql("CREATE TABLE lake.st.log (id BIGINT, v INT)");
        sql("INSERT INTO lake.st.log SELECT id, 1 FROM range(0, 300)");
        sql("INSERT INTO lake.st.log SELECT id, 2 FROM range(0, 200)");
        assertCount("SELECT count(*) FROM lake.st.log", 500, true);

        // Without deletion vectors two uncompacted writes of the same keys still merge.
        sql(
                "CREATE TABLE lake.st.merging (id BIGINT NOT NULL, v INT)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
        sql("INSERT INTO lake.st.merging SELECT id, 1 FROM range(0, 300)");
        sql("INSERT INTO lake.st.merging SELECT id, 2 FROM range(200, 400)");
        assertCount("SELECT count(*) FROM lake.st.merging", 400, false);
        sql("CALL lake.sys.compact(table => 'st.merging')");
        assertCount("SELECT count(*) FROM lake.st.merging", 400, true);
    }

    @Test
    void tablesBucketedAlikeJoinOnTheirKeyWithoutAShuffle() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.st");
        sql(
                "CREATE TABLE lake.st.orders (id BIGINT NOT NULL, amount INT)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '4')");
        sql("INSERT INTO lake.st.orders SELECT id, CAST(id AS INT) FROM range(0, 1000)");
        // Partitioned: each bucket is a split per partition, and reading them in one task would
        // cost the scan its parallelism, so it reports no bucketing.
        sql(
                "CREATE TABLE lake.st.daily (id BIGINT NOT NULL, dt STRING NOT NULL, amount INT)"
                        + " PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'id,dt',"
                        + " 'bucket' = '4')");
        sql(
                "INSERT INTO lake.st.daily SELECT id, concat('d', CAST(id % 3 AS STRING)),"
                        + " CAST(id AS INT) FROM range(0, 1000)");
        for (int buckets : new int[] {4, 8}) {
            sql(
                    "CREATE TABLE lake.st.items%d (id BIGINT NOT NULL, n INT)"
                            + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '%d')",
                    buckets, buckets);
            sql("INSERT INTO lake.st.items%d SELECT id, 1 FROM range(0, 2000, 2)", buckets);
        }
        sql("CREATE TABLE st_items USING parquet AS SELECT id, 1 AS n FROM range(0, 2000, 2)");
        long expectedSum = 0;
        for (long id = 0; id < 1000; id += 2) {
            expectedSum += id;
        }
        Row expected = RowFactory.create(500L, expectedSum, 500L);
        spark.conf().set("spark.sql.adaptive.enabled", "false");
        // A task per split: the partitioned table's 12 splits are not grouped into 4 buckets.
        for (String[] table : new String[][] {{"lake.st.daily", "12"}, {"lake.st.orders", "4"}}) {
            Dataset<Row> scan = df("SELECT id, amount FROM %s", table[0]);
            scan.collectAsList();
            int tasks = 0;
            for (SparkPlan leaf :
                    scala.jdk.javaapi.CollectionConverters.asJava(
                            scan.queryExecution().executedPlan().collectLeaves())) {
                if (leaf instanceof BatchScanExec) {
                    tasks += ((BatchScanExec) leaf).inputRDD().getNumPartitions();
                }
            }
            assertThat(tasks).as(table[0]).isEqualTo(Integer.parseInt(table[1]));
        }
        spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
        try {
            for (boolean shuffleOneSide : new boolean[] {false, true}) {
                // With shuffle.enabled Spark shuffles only the other side, computing each row's
                // bucket with the catalog's bucket function: it must be Paimon's.
                spark.conf().set("spark.sql.sources.v2.bucketing.shuffle.enabled", shuffleOneSide);
                for (String left : List.of("lake.st.orders", "lake.st.daily")) {
                    for (String right : List.of("lake.st.items4", "lake.st.items8", "st_items")) {
                        Dataset<Row> join =
                                df(
                                        "SELECT count(*), sum(o.amount), sum(i.n) FROM %s o"
                                                + " JOIN %s i ON o.id = i.id",
                                        left, right);
                        String what = left + " JOIN " + right + ", one side " + shuffleOneSide;
                        assertThat(join.collectAsList()).as(what).containsExactly(expected);
                        String plan = join.queryExecution().executedPlan().toString();
                        assertThat(plan).as(what).contains("SortMergeJoin");
                        if (left.equals("lake.st.orders") && right.equals("lake.st.items4")) {
                            assertThat(plan).as(what).doesNotContain("Exchange hashpartitioning");
                        }
                        if (left.equals("lake.st.daily")) {
                            // Its rows are shuffled: by hash, or to the other side's buckets.
                            assertThat(plan)
                                    .as(what)
                                    .containsPattern(
                                            "(?s)Exchange (hashpartitioning|key[a-z]*partitioning)"
                                                    + "[^\\n]*\\n[^\\n]*Project[^\\n]*\\n"
                                                    + "[^\\n]*BatchScan lake.st.daily");
                        }
                    }
                }
            }
            spark.conf().set("spark.sql.sources.v2.bucketing.enabled", false);
            Dataset<Row> off =
                    df(
                            "SELECT count(*), sum(o.amount), sum(i.n) FROM lake.st.orders o"
                                    + " JOIN lake.st.items4 i ON o.id = i.id");
            assertThat(off.collectAsList()).containsExactly(expected);
            assertThat(off.queryExecution().executedPlan().toString())
                    .contains("Exchange hashpartitioning");
        } finally {
            spark.conf().unset("spark.sql.sources.v2.bucketing.enabled");
            spark.conf().unset("spark.sql.sources.v2.bucketing.shuffle.enabled");
            spark.conf().unset("spark.sql.autoBroadcastJoinThreshold");
        }
    }

    @Test
    void countsGroupedByPartitionsLeaveOutPartitionsWhoseRowsAreAllDeleted() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.st");
        sql(
                "CREATE TABLE lake.st.gone (id BIGINT NOT NULL, dt STRING NOT NULL, h INT NOT NULL)"
                        + " PARTITIONED BY (dt, h) TBLPROPERTIES ('primary-key' = 'id,dt,h',"
                        + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
        sql(
                "INSERT INTO lake.st.gone SELECT id, IF(id < 50, 'a', 'b'), CAST(id % 3 AS INT)"
                        + " FROM range(0, 100)");
        // every row of (b, 1) deleted row by row: the partition stays, with no live row
        sql("DELETE FROM lake.st.gone WHERE dt = 'b' AND h = 1 AND id >= 0");
        sql(
                "CREATE TABLE st_gone USING parquet AS SELECT id, IF(id < 50, 'a', 'b') AS dt,"
                        + " CAST(id % 3 AS INT) AS h FROM range(0, 100)"
                        + " WHERE NOT (id >= 50 AND id % 3 = 1)");
        for (String query :
                List.of(
                        "SELECT dt, h, count(*) FROM %s GROUP BY dt, h ORDER BY dt, h",
                        "SELECT h, count(*), count(1) FROM %s GROUP BY h ORDER BY h",
                        "SELECT dt, count(*) FROM %s WHERE h = 1 GROUP BY dt ORDER BY dt",
                        "SELECT DISTINCT dt, h FROM %s ORDER BY dt, h",
                        "SELECT h FROM %s WHERE dt = 'b' GROUP BY h ORDER BY h",
                        "SELECT max(dt), min(dt), max(h), min(h), count(*) FROM %s",
                        "SELECT max(h), min(h) FROM %s WHERE dt = 'b' AND h <> 2",
                        "SELECT max(h) FROM %s WHERE dt = 'zz'",
                        "SELECT dt, max(h), count(*), min(h) FROM %s GROUP BY dt ORDER BY dt")) {
            List<String> expected = new ArrayList<>();
            for (Row row : sql(query, "st_gone")) {
                expected.add(row.toString());
            }
            assertGroups(String.format(query, "lake.st.gone"), expected, true);
        }
    }

    private void assertGroups(String query, List<String> expected, boolean onDriver) {
        Dataset<Row> df = df(query);
        List<String> rows = new ArrayList<>();
        for (Row row : df.collectAsList()) {
            rows.add(row.toString());
        }
        assertThat(rows).as(query).isEqualTo(expected);
        String plan = df.queryExecution().executedPlan().toString();
        if (onDriver) {
            assertThat(plan).as(query).contains("LocalTableScan").doesNotContain("BatchScan");
        } else {
            assertThat(plan).as(query).contains("BatchScan");
        }
    }

    private void assertCount(String query, long expected, boolean onDriver) {
        Dataset<Row> df = df(query);
        for (Row row : df.collectAsList()) {
            for (int i = 0; i < row.size(); i++) {
                assertThat(row.getLong(i)).as(query).isEqualTo(expected);
            }
        }
        String plan = df.queryExecution().executedPlan().toString();
        if (onDriver) {
            assertThat(plan).as(query).contains("LocalTableScan").doesNotContain("BatchScan");
        } else {
            assertThat(plan).as(query).contains("BatchScan");
        }
    }

    private static BatchScanExec eventsScan(Dataset<Row> df) {
        for (SparkPlan leaf :
                scala.jdk.javaapi.CollectionConverters.asJava(
                        df.queryExecution().executedPlan().collectLeaves())) {
            if (leaf instanceof BatchScanExec
                    && ((BatchScanExec) leaf).scan().description().startsWith("lake.st.events")) {
                return (BatchScanExec) leaf;
            }
        }
        throw new AssertionError("no scan of lake.st.events in " + df.queryExecution());
    }

    private long rows(String query) {
        // The scan's own statistics: Spark keeps its filters above the scan, and without CBO a
        // filter's statistics carry no row count.
        return df(query)
                .queryExecution()
                .optimizedPlan()
                .collectLeaves()
                .head()
                .stats()
                .rowCount()
                .get()
                .longValue();
    }
}
