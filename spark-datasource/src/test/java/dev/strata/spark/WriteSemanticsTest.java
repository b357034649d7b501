package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.testing.TestSeeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
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
 * What a write means: upserts and deletes of primary-key tables under their merge rules, one writer
 * per bucket, partition overwrites, time travel, interop with Paimon's own reader, and clean
 * aborts.
 */
class WriteSemanticsTest extends StrataSparkTestBase {

    private static final StructType EVENTS =
            StructType.fromDDL("id BIGINT, dt STRING, v STRING, n INT, batch INT");

    @Test
    void upsertsReturnTheLatestRowPerKeyLikeTheOracle() throws Exception {
        long seed = TestSeeds.seed("upserts");
        Random random = new Random(seed);
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        sql(
                "CREATE TABLE lake.w.upserts (id BIGINT, dt STRING, v STRING, n INT, batch INT) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '4')");
        List<Row> history = new ArrayList<>();
        for (int batch = 0; batch < 5; batch++) {
            Set<String> keys = new HashSet<>();
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                long id = random.nextInt(300);
                String dt = "d" + random.nextInt(3);
                if (keys.add(id + "/" + dt)) {
                    rows.add(
                            RowFactory.create(
                                    id, dt, "v" + random.nextInt(1000), random.nextInt(50), batch));
                }
            }
            history.addAll(rows);
            spark.createDataFrame(rows, EVENTS).writeTo("lake.w.upserts").append();
        }
        spark.createDataFrame(history, EVENTS).createOrReplaceTempView("upsert_history");
        List<Row> expected =
                sql(
                        "SELECT id, dt, v, n, batch FROM (SELECT *, row_number() OVER "
                                + "(PARTITION BY id, dt ORDER BY batch DESC) AS rn FROM upsert_history) WHERE rn = 1 ORDER BY id, dt");
        assertThat(sql("SELECT * FROM lake.w.upserts ORDER BY id, dt"))
                .as(TestSeeds.describe("upserts", seed))
                .containsExactlyElementsOf(expected);
        assertThat(
                        sql(
                                "SELECT dt, count(*), sum(n) FROM lake.w.upserts WHERE n > 10 GROUP BY dt ORDER BY dt"))
                .containsExactlyElementsOf(
                        sql(
                                "SELECT dt, count(*), sum(n) FROM ("
                                        + "SELECT * FROM (SELECT *, "
                                        + "row_number() OVER (PARTITION BY id, dt ORDER BY batch DESC) AS rn FROM upsert_history) "
                                        + "WHERE rn = 1) WHERE n > 10 GROUP BY dt ORDER BY dt"));
    }

    /**
     * Key, partition and bucket columns whose names SQL must quote (a dash, a dot) reach Spark's
     * connector expressions quoted: writes, row-level changes, partition drops and joins work.
     */
    @Test
    void columnNamesThatNeedQuotingAreWrittenChangedAndJoined() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.odd");
        sql(
                "CREATE TABLE lake.odd.f (`my-id` BIGINT NOT NULL, `event-day` STRING NOT NULL,"
                        + " `a.b` INT) PARTITIONED BY (`event-day`) TBLPROPERTIES"
                        + " ('primary-key' = 'my-id,event-day', 'bucket' = '2')");
        sql(
                "INSERT INTO lake.odd.f SELECT id, concat('d', CAST(id % 4 AS STRING)),"
                        + " CAST(id AS INT) FROM range(0, 400)");
        sql("ALTER TABLE lake.odd.f DROP PARTITION (`event-day` = 'd3')");
        sql("DELETE FROM lake.odd.f WHERE `my-id` < 10");
        sql("UPDATE lake.odd.f SET `a.b` = -1 WHERE `my-id` = 12");
        long count = 0;
        long sum = 0;
        long above200 = 0;
        for (long id = 10; id < 400; id++) {
            if (id % 4 != 3) {
                count++;
                sum += id == 12 ? -1 : id;
                above200 += id > 200 ? 1 : 0;
            }
        }
        assertThat(sql("SELECT count(*), sum(`a.b`) FROM lake.odd.f"))
                .containsExactly(RowFactory.create(count, sum));
        // A filter on the dotted column is not pushed into Paimon's Parquet filters, which read
        // `a.b` as a nested path and skipped every row group.
        assertThat(sql("SELECT count(*), sum(`a.b`) FROM lake.odd.f WHERE `a.b` IS NOT NULL"))
                .containsExactly(RowFactory.create(count, sum));
        assertThat(sql("SELECT count(*) FROM lake.odd.f WHERE `a.b` > 200"))
                .containsExactly(RowFactory.create(above200));

        sql(
                "CREATE TABLE lake.odd.g (`my-id` BIGINT NOT NULL, x INT)"
                        + " TBLPROPERTIES ('primary-key' = 'my-id', 'bucket' = '2')");
        sql("INSERT INTO lake.odd.g SELECT id, 1 FROM range(0, 400, 2)");
        sql(
                "MERGE INTO lake.odd.g t USING (SELECT `my-id`, `a.b` FROM lake.odd.f) s"
                        + " ON t.`my-id` = s.`my-id` WHEN MATCHED THEN UPDATE SET x = 5");
        // A join on a partition column prunes at run time; on the bucket key it may skip the
        // shuffle: both name the columns to Spark.
        sql("CREATE TABLE lake.odd.days (`event-day` STRING, keep BOOLEAN)");
        sql("INSERT INTO lake.odd.days VALUES ('d1', true), ('d2', false)");
        long keptEven = 0;
        for (long id = 10; id < 400; id++) {
            if (id % 4 == 1) {
                keptEven++;
            }
        }
        assertThat(
                        sql(
                                "SELECT count(*) FROM lake.odd.f f JOIN lake.odd.days d"
                                        + " ON f.`event-day` = d.`event-day` WHERE d.keep"))
                .containsExactly(RowFactory.create(keptEven));
        long matched = 0;
        for (long id = 10; id < 400; id += 2) {
            if (id % 4 != 3) {
                matched++;
            }
        }
        assertThat(sql("SELECT count(*) FROM lake.odd.g WHERE x = 5"))
                .containsExactly(RowFactory.create(matched));
    }

    /**
     * Paimon applied a type change of a map's key to its values, which then failed to read: key
     * type changes are refused, from ALTER TABLE and from a MERGE WITH SCHEMA EVOLUTION whose
     * source has wider keys, and the table stays readable as it was.
     */
    @Test
    void aMapKeysTypeIsNeverChanged() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.evo");
        sql(
                "CREATE TABLE lake.evo.mk (id BIGINT NOT NULL, mk MAP<INT, STRING>,"
                        + " st STRUCT<m: MAP<INT, STRING>>) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1')");
        sql("INSERT INTO lake.evo.mk VALUES (1, map(1, 'one'), named_struct('m', map(2, 'two')))");
        String schema = spark.table("lake.evo.mk").schema().toDDL();
        assertThatThrownBy(() -> sql("ALTER TABLE lake.evo.mk ALTER COLUMN mk.key TYPE BIGINT"))
                .hasMessageContaining(
                        "Cannot change the type of map key mk.key of table lake.evo.mk from INT to"
                                + " BIGINT: Paimon changes the types of map values");
        assertThatThrownBy(() -> sql("ALTER TABLE lake.evo.mk ALTER COLUMN st.m.key TYPE BIGINT"))
                .hasMessageContaining("Cannot change the type of map key st.m.key");
        assertThatThrownBy(() -> sql("ALTER TABLE lake.evo.mk ALTER COLUMN mk.value COMMENT 'x'"))
                .hasMessageContaining(
                        "Cannot set the comment of mk.value of table lake.evo.mk: Paimon keeps"
                                + " comments on columns and struct fields")
                .hasMessageContaining("Comment mk instead.");
        assertThatThrownBy(
                () ->
                        sql(
                                "MERGE WITH SCHEMA EVOLUTION INTO lake.evo.mk t USING (SELECT 2L AS"
                                        + " id, map(5000000000L, 'two') AS mk) s ON t.id = s.id"
                                        + " WHEN NOT MATCHED THEN INSERT (id, mk) VALUES (s.id,"
                                        + " s.mk)"));
        assertThat(spark.table("lake.evo.mk").schema().toDDL()).isEqualTo(schema);
        assertThat(sql("SELECT id, mk[1], st.m[2] FROM lake.evo.mk"))
                .containsExactly(RowFactory.create(1L, "one", "two"));
    }

    @Test
    void mergeWithSchemaEvolutionAddsTheSourcesColumnsAndRefusesNarrowingTypes() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.evo");
        sql(
                "CREATE TABLE lake.evo.t (id INT NOT NULL, v BIGINT, w INT, st STRUCT<a: INT>)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
        sql(
                "INSERT INTO lake.evo.t VALUES (1, 10, 1, named_struct('a', 1)),"
                        + " (2, 20, 2, named_struct('a', 2))");
        // New top-level and nested columns are added, INT w widens to the source's BIGINT.
        sql(
                "MERGE WITH SCHEMA EVOLUTION INTO lake.evo.t t USING (SELECT * FROM VALUES"
                        + " (2, 7L, named_struct('a', 5, 'b', 'bb'), 'e2'),"
                        + " (3, 8L, named_struct('a', 6, 'b', 'cc'), 'e3') AS s(id, w, st, extra))"
                        + " s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *"
                        + " WHEN NOT MATCHED THEN INSERT *");
        assertThat(sql("SELECT * FROM lake.evo.t").get(0).schema().simpleString())
                .isEqualTo(
                        "struct<id:int,v:bigint,w:bigint,st:struct<a:int,b:string>,extra:string>");
        assertThat(values(sql("SELECT id, v, w, st.a, st.b, extra FROM lake.evo.t ORDER BY id")))
                .containsExactly(
                        Arrays.asList(1, 10L, 1L, 1, null, null),
                        Arrays.asList(2, 20L, 7L, 5, "bb", "e2"),
                        Arrays.asList(3, null, 8L, 6, "cc", "e3"));

        // A narrower source type would make the catalog cast the rows already written: refused,
        // and neither the schema nor the rows change.
        List<List<Object>> before = values(sql("SELECT * FROM lake.evo.t ORDER BY id"));
        assertThatThrownBy(
                        () ->
                                sql(
                                        "MERGE WITH SCHEMA EVOLUTION INTO lake.evo.t t USING"
                                                + " (SELECT 1 AS id, 5 AS v) s ON t.id = s.id"
                                                + " WHEN MATCHED THEN UPDATE SET *"))
                .hasMessageContaining(
                        "Cannot change the type of column v of table lake.evo.t from BIGINT to"
                                + " INT: a column's type only widens so that the rows already"
                                + " written keep their values")
                .hasMessageContaining("CAST the source column to BIGINT");
        // Spark's up-cast rule would let one string of the source turn the column into STRING.
        assertThatThrownBy(
                        () ->
                                sql(
                                        "MERGE WITH SCHEMA EVOLUTION INTO lake.evo.t t USING"
                                                + " (SELECT 1 AS id, 'str' AS w) s ON t.id = s.id"
                                                + " WHEN MATCHED THEN UPDATE SET *"))
                .hasMessageContaining("from BIGINT to STRING");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "MERGE WITH SCHEMA EVOLUTION INTO lake.evo.t t USING"
                                                + " (SELECT 1L AS id) s ON t.id = s.id"
                                                + " WHEN MATCHED THEN UPDATE SET *"))
                .hasMessageContaining(
                        "Cannot change the type of column id of table lake.evo.t from INT to"
                                + " BIGINT: it is a primary-key column");
        assertThat(values(sql("SELECT * FROM lake.evo.t ORDER BY id"))).isEqualTo(before);
        assertThat(sql("SELECT * FROM lake.evo.t").get(0).schema().simpleString())
                .isEqualTo(
                        "struct<id:int,v:bigint,w:bigint,st:struct<a:int,b:string>,extra:string>");
    }

    @Test
    void writesIntoAPartitionOfAnotherBucketCountAreRefusedUntilItIsRescaled() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.rescale");
        sql(
                "CREATE TABLE lake.rescale.b (id BIGINT NOT NULL, dt STRING NOT NULL, body STRING)"
                        + " PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'id,dt',"
                        + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
        sql("INSERT INTO lake.rescale.b SELECT id, 'd1', concat('old', id) FROM range(0, 20)");
        sql("ALTER TABLE lake.rescale.b SET TBLPROPERTIES ('bucket' = '4')");
        // A new partition takes the new count.
        sql("INSERT INTO lake.rescale.b VALUES (100, 'd2', 'new partition')");

        java.nio.file.Path dir = warehouse.resolve("rescale.db").resolve("b");
        Set<java.nio.file.Path> files;
        try (var walk = java.nio.file.Files.walk(dir)) {
            files =
                    walk.filter(java.nio.file.Files::isRegularFile)
                            .collect(java.util.stream.Collectors.toSet());
        }
        // Before: a one-row INSERT landed in another bucket than the key's earlier version, and
        // the key read twice.
        assertThatThrownBy(() -> sql("INSERT INTO lake.rescale.b VALUES (1, 'd1', 'new1')"))
                .hasMessageContaining(
                        "the files of partition dt=d1 are in 2 buckets, and the table now has"
                                + " 'bucket' = '4'")
                .hasMessageContaining("Nothing was committed");
        try (var walk = java.nio.file.Files.walk(dir)) {
            assertThat(
                            walk.filter(java.nio.file.Files::isRegularFile)
                                    .collect(java.util.stream.Collectors.toSet()))
                    .isEqualTo(files);
        }
        assertThat(sql("SELECT body FROM lake.rescale.b WHERE id = 1"))
                .containsExactly(RowFactory.create("old1"));
        // Rows of buckets that hold old files meet Paimon's writer, which told a Spark user to
        // "switch to batch mode"; DELETE and compact name the partition the same way.
        for (String statement :
                List.of(
                        "INSERT INTO lake.rescale.b SELECT id, 'd1', 'x' FROM range(0, 20)",
                        "DELETE FROM lake.rescale.b WHERE dt = 'd1' AND id < 10",
                        "CALL lake.sys.compact(table => 'rescale.b')")) {
            assertThatThrownBy(() -> sql(statement))
                    .as(statement)
                    .hasStackTraceContaining(
                            "the files of partition dt=d1 are in 2 buckets, and the table now has"
                                    + " 'bucket' = '4'")
                    .hasStackTraceContaining("Rescale the partition first")
                    .satisfies(
                            e -> {
                                java.io.StringWriter trace = new java.io.StringWriter();
                                e.printStackTrace(new java.io.PrintWriter(trace));
                                assertThat(trace.toString()).doesNotContain("switch to batch mode");
                            });
        }
        assertThat(sql("SELECT count(*), sum(length(body)) FROM lake.rescale.b WHERE dt = 'd1'"))
                .containsExactly(RowFactory.create(20L, 90L));

        sql(
                "INSERT OVERWRITE lake.rescale.b PARTITION (dt = 'd1')"
                        + " SELECT id, body FROM lake.rescale.b WHERE dt = 'd1'");
        sql("INSERT INTO lake.rescale.b VALUES (1, 'd1', 'new1')");
        sql("CALL lake.sys.compact(table => 'rescale.b')");
        assertThat(sql("SELECT body FROM lake.rescale.b WHERE id = 1"))
                .containsExactly(RowFactory.create("new1"));
        assertThat(sql("SELECT count(*), count(DISTINCT id, dt) FROM lake.rescale.b"))
                .containsExactly(RowFactory.create(21L, 21L));
    }

    /**
     * Before: a condition on another column got Spark's "Table does not support overwrite by
     * expression: StrataTable(...)", and rows outside the replaced partition Paimon's "changes in
     * dt=d1/ does not belong to this partition" with the advice to run the statement again.
     */
    @Test
    void replaceWhereRefusalsSayWhatToWrite() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.rw");
        sql("CREATE TABLE lake.rw.t (id BIGINT, v INT, dt STRING, d DATE) PARTITIONED BY (dt, d)");
        sql(
                "INSERT INTO lake.rw.t VALUES (1, 1, 'd1', DATE'2026-01-01'),"
                        + " (2, 2, 'd2', DATE'2026-01-01')");
        sql(
                "INSERT INTO lake.rw.t REPLACE WHERE dt = 'd2' AND d = DATE'2026-01-01'"
                        + " SELECT 3, 3, 'd2', DATE'2026-01-01'");
        List<List<Object>> rows = values(sql("SELECT id, v, dt FROM lake.rw.t ORDER BY id"));
        assertThat(rows).containsExactly(Arrays.asList(1L, 1, "d1"), Arrays.asList(3L, 3, "d2"));

        assertThatThrownBy(
                        () ->
                                sql(
                                        "INSERT INTO lake.rw.t REPLACE WHERE v > 1 SELECT 4, 4, 'd2', d"
                                                + " FROM lake.rw.t WHERE id = 3"))
                .hasMessageContaining("Cannot overwrite lake.rw.t where")
                .hasMessageContaining("Paimon overwrites whole partitions only")
                .hasMessageContaining(
                        "(REPLACE WHERE dt = ..., or IS NULL for the NULL partition)");
        sql("CREATE TABLE lake.rw.flat (id BIGINT, v INT)");
        assertThatThrownBy(() -> sql("INSERT INTO lake.rw.flat REPLACE WHERE v = 1 SELECT 1, 1"))
                .hasMessageContaining("Cannot overwrite lake.rw.flat where")
                .hasMessageContaining("the table has no partition columns")
                .hasMessageContaining("Use INSERT OVERWRITE lake.rw.flat")
                .hasMessageNotContaining("dt");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "INSERT INTO lake.rw.t REPLACE WHERE dt = 'd2' AND d ="
                                                + " DATE'2026-01-01' SELECT 5, 5, 'd1',"
                                                + " DATE'2026-01-01'"))
                .hasMessageContaining(
                        "it replaces partition dt=d2/d=2026-01-01, but writes rows of partition"
                                + " dt=d1/d=2026-01-01")
                .hasMessageContaining("Nothing was committed");
        assertThat(values(sql("SELECT id, v, dt FROM lake.rw.t ORDER BY id"))).isEqualTo(rows);
    }

    @Test
    void sequenceFieldDecidesWhichVersionWins() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        sql(
                "CREATE TABLE lake.w.seq (id BIGINT, ver INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '2', 'sequence.field' = 'ver')");
        sql("INSERT INTO lake.w.seq VALUES (1, 5, 'five'), (2, 1, 'one')");
        sql("INSERT INTO lake.w.seq VALUES (1, 3, 'three'), (2, 9, 'nine')");
        assertThat(values(sql("SELECT * FROM lake.w.seq ORDER BY id")))
                .containsExactly(list(1L, 5, "five"), list(2L, 9, "nine"));
    }

    @Test
    void rowKindFieldDeletesRowsWithAndWithoutDeletionVectors() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        for (String dv : List.of("true", "false")) {
            String table = "lake.w.deletes_" + dv;
            sql(
                    "CREATE TABLE %s (id BIGINT, op STRING, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '3', "
                            + "'rowkind.field' = 'op', 'deletion-vectors.enabled' = '%s')",
                    table, dv);
            sql("INSERT INTO %s SELECT id, '+I', concat('v', id) FROM range(0, 100)", table);
            sql("INSERT INTO %s SELECT id, '-D', null FROM range(0, 100) WHERE id %% 3 = 0", table);
            sql("INSERT INTO %s VALUES (3, '+U', 'back')", table);
            List<Row> expected =
                    sql(
                            "SELECT id, '+I' AS op, concat('v', id) AS v FROM range(0, 100) "
                                    + "WHERE id % 3 <> 0 UNION ALL SELECT 3, '+U', 'back' ORDER BY id");
            assertThat(sql("SELECT * FROM %s ORDER BY id", table))
                    .as("dv=%s", dv)
                    .containsExactlyElementsOf(expected);
        }
    }

    @Test
    void eachBucketIsWrittenByExactlyOneTask() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        sql(
                "CREATE TABLE lake.w.buckets (id BIGINT, dt STRING, v STRING) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '5')");
        // Many input partitions: without the required distribution every task would touch every
        // bucket.
        spark.range(0, 5000)
                .repartition(8)
                .selectExpr("id", "concat('d', id % 2) AS dt", "cast(id AS STRING) AS v")
                .writeTo("lake.w.buckets")
                .append();
        FileStoreTable table = paimonTable("w", "buckets");
        Map<String, List<DataFileMeta>> filesPerBucket = new HashMap<>();
        for (DataSplit split : table.newSnapshotReader().read().dataSplits()) {
            filesPerBucket
                    .computeIfAbsent(
                            split.partition().hashCode() + "/" + split.bucket(),
                            k -> new ArrayList<>())
                    .addAll(split.dataFiles());
        }
        assertThat(filesPerBucket).hasSize(10);
        assertThat(filesPerBucket.values()).allSatisfy(files -> assertThat(files).hasSize(1));
        assertThat(sql("SELECT count(*) FROM lake.w.buckets").get(0).getLong(0)).isEqualTo(5000L);
    }

    @Test
    void staticAndDynamicPartitionOverwrites() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        sql("CREATE TABLE lake.w.ow (id BIGINT, v STRING, dt STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO lake.w.ow VALUES (1, 'a', 'd1'), (2, 'b', 'd2'), (3, 'c', 'd3')");

        sql("INSERT OVERWRITE lake.w.ow PARTITION (dt = 'd1') VALUES (10, 'x')");
        assertThat(values(sql("SELECT * FROM lake.w.ow ORDER BY id")))
                .containsExactly(list(2L, "b", "d2"), list(3L, "c", "d3"), list(10L, "x", "d1"));

        spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
        try {
            sql("INSERT OVERWRITE lake.w.ow VALUES (20, 'y', 'd2')");
            assertThat(values(sql("SELECT * FROM lake.w.ow ORDER BY id")))
                    .containsExactly(
                            list(3L, "c", "d3"), list(10L, "x", "d1"), list(20L, "y", "d2"));
        } finally {
            spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
        }

        spark.sql("SELECT 30L AS id, 'z' AS v, 'd3' AS dt")
                .writeTo("lake.w.ow")
                .overwritePartitions();
        assertThat(values(sql("SELECT * FROM lake.w.ow ORDER BY id")))
                .containsExactly(list(10L, "x", "d1"), list(20L, "y", "d2"), list(30L, "z", "d3"));

        sql("INSERT OVERWRITE lake.w.ow SELECT 40L, 'w', 'd9'");
        assertThat(values(sql("SELECT * FROM lake.w.ow ORDER BY id")))
                .containsExactly(list(40L, "w", "d9"));
    }

    /**
     * Static overwrites of timestamp and decimal partitions: Paimon's commit reads the partition
     * spec as text, and a timestamp's value had been passed as its microseconds, which no commit
     * could parse. The session's time zone is not UTC, as a user's often is not.
     */
    @Test
    void staticOverwritesOfTimestampAndDecimalPartitionsReplaceThatPartitionOnly()
            throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        sql(
                "CREATE TABLE lake.w.typed (id INT, ts TIMESTAMP, ntz TIMESTAMP_NTZ, d DECIMAL(5, 2))"
                        + " PARTITIONED BY (ts, ntz, d)");
        spark.conf().set("spark.sql.session.timeZone", "America/Los_Angeles");
        try {
            sql(
                    "INSERT INTO lake.w.typed VALUES"
                            + " (1, TIMESTAMP'2026-01-01 10:00:00', TIMESTAMP_NTZ'2026-01-01 10:00:00', 1.50),"
                            + " (2, TIMESTAMP'2026-01-02 11:30:00.123456', TIMESTAMP_NTZ'2026-01-02 11:30:00', 2.25),"
                            + " (3, TIMESTAMP'2026-01-02 11:30:00.123456', TIMESTAMP_NTZ'2026-01-03 00:00:00', 1.50)");
            sql(
                    "INSERT OVERWRITE lake.w.typed PARTITION (ts = TIMESTAMP'2026-01-01 10:00:00')"
                            + " SELECT 10, TIMESTAMP_NTZ'2026-01-01 10:00:00', 1.50");
            assertThat(ids("lake.w.typed")).containsExactly(2, 3, 10);
            sql(
                    "INSERT INTO lake.w.typed REPLACE WHERE ntz = TIMESTAMP_NTZ'2026-01-03 00:00:00'"
                            + " SELECT 30, TIMESTAMP'2026-01-02 11:30:00.123456',"
                            + " TIMESTAMP_NTZ'2026-01-03 00:00:00', 1.50");
            assertThat(ids("lake.w.typed")).containsExactly(2, 10, 30);
            spark.sql(
                            "SELECT 20 AS id, TIMESTAMP'2026-01-02 11:30:00.123456' AS ts,"
                                    + " TIMESTAMP_NTZ'2026-01-02 11:30:00' AS ntz, 2.25BD AS d")
                    .writeTo("lake.w.typed")
                    .overwrite(
                            org.apache
                                    .spark
                                    .sql
                                    .functions
                                    .col("d")
                                    .equalTo(
                                            org.apache.spark.sql.functions.lit(
                                                    new java.math.BigDecimal("2.25"))));
            assertThat(
                            values(
                                    sql(
                                            "SELECT id, CAST(ts AS STRING), CAST(ntz AS STRING), d FROM lake.w.typed ORDER BY id")))
                    .containsExactly(
                            list(
                                    10,
                                    "2026-01-01 10:00:00",
                                    "2026-01-01 10:00:00",
                                    new java.math.BigDecimal("1.50")),
                            list(
                                    20,
                                    "2026-01-02 11:30:00.123456",
                                    "2026-01-02 11:30:00",
                                    new java.math.BigDecimal("2.25")),
                            list(
                                    30,
                                    "2026-01-02 11:30:00.123456",
                                    "2026-01-03 00:00:00",
                                    new java.math.BigDecimal("1.50")));
            sql(
                    "ALTER TABLE lake.w.typed DROP PARTITION (ts = TIMESTAMP'2026-01-02 11:30:00.123456',"
                            + " ntz = TIMESTAMP_NTZ'2026-01-03 00:00:00', d = 1.50)");
            assertThat(ids("lake.w.typed")).containsExactly(10, 20);
            sql("DELETE FROM lake.w.typed WHERE ntz = TIMESTAMP_NTZ'2026-01-01 10:00:00'");
            assertThat(ids("lake.w.typed")).containsExactly(20);
            sql("DELETE FROM lake.w.typed WHERE ts = TIMESTAMP'2026-01-02 11:30:00.123456'");
            assertThat(ids("lake.w.typed")).isEmpty();
        } finally {
            spark.conf().unset("spark.sql.session.timeZone");
        }
    }

    /**
     * {@code DataFrameWriter.saveAsTable} names a provider: {@code format("paimon")} (or {@code
     * strata}) creates, appends to and replaces a Strata table; without a format Spark passes its
     * default source, refused naming the DataFrame forms that work; a path is refused.
     */
    @Test
    void saveAsTableWithFormatPaimonCreatesAppendsAndReplaces() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        org.apache.spark.sql.Dataset<Row> two =
                spark.sql(
                        "SELECT id, concat('v', id) AS v, CAST(id % 2 AS STRING) AS dt FROM range(2)");
        two.write().format("paimon").partitionBy("dt").saveAsTable("lake.w.sat");
        two.write().format("strata").mode("append").saveAsTable("lake.w.sat");
        assertThat(values(sql("SELECT id, count(*) FROM lake.w.sat GROUP BY id ORDER BY id")))
                .containsExactly(list(0L, 2L), list(1L, 2L));
        assertThat(values(sql("SHOW PARTITIONS lake.w.sat")))
                .containsExactly(list("dt=0"), list("dt=1"));
        spark.sql("SELECT 7L AS id, 'seven' AS v")
                .write()
                .format("paimon")
                .mode("overwrite")
                .saveAsTable("lake.w.sat");
        assertThat(values(sql("SELECT * FROM lake.w.sat"))).containsExactly(list(7L, "seven"));

        assertThatThrownBy(() -> two.write().saveAsTable("lake.w.sat_default"))
                .hasMessageContaining(
                        "Cannot create table lake.w.sat_default USING parquet: catalog lake stores"
                                + " Paimon tables only.")
                .hasMessageContaining(
                        "df.write.format(\"paimon\").saveAsTable(\"lake.w.sat_default\")");
        assertThat(sql("SHOW TABLES IN lake.w LIKE 'sat_default'")).isEmpty();
        assertThatThrownBy(() -> spark.read().format("paimon").load("/tmp/somewhere").count())
                .hasMessageContaining(
                        "Cannot read or write '/tmp/somewhere' through format(\"paimon\"): Strata reads"
                                + " and writes Paimon tables through a catalog, not by path.");
    }

    /**
     * The NULL partition is replaced with {@code IS NULL}, which no equality filter can say; a
     * VARCHAR partition column's value is compared as Spark's STRING literal.
     */
    @Test
    void staticOverwriteOfTheNullPartition() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        sql("CREATE TABLE lake.w.np (id INT, dt VARCHAR(8)) PARTITIONED BY (dt)");
        sql("INSERT INTO lake.w.np VALUES (1, 'a'), (2, NULL)");
        spark.sql("SELECT 3 AS id, CAST(NULL AS STRING) AS dt")
                .writeTo("lake.w.np")
                .overwrite(org.apache.spark.sql.functions.col("dt").isNull());
        assertThat(ids("lake.w.np")).containsExactly(1, 3);
        sql("INSERT INTO lake.w.np REPLACE WHERE dt IS NULL SELECT 4, CAST(NULL AS STRING)");
        assertThat(values(sql("SELECT * FROM lake.w.np ORDER BY id")))
                .containsExactly(list(1, "a"), list(4, null));
        assertThatThrownBy(
                        () ->
                                sql(
                                        "INSERT INTO lake.w.np REPLACE WHERE dt IS NULL SELECT 5,"
                                                + " 'b'"))
                .hasMessageContaining("Cannot commit the write");
        assertThat(ids("lake.w.np")).containsExactly(1, 4);
        sql("INSERT OVERWRITE lake.w.np PARTITION (dt = 'a') SELECT 6");
        assertThat(values(sql("SELECT * FROM lake.w.np ORDER BY id")))
                .containsExactly(list(4, null), list(6, "a"));
    }

    private List<Integer> ids(String table) {
        List<Integer> ids = new ArrayList<>();
        for (Row r : sql("SELECT id FROM " + table + " ORDER BY id")) {
            ids.add(r.getInt(0));
        }
        return ids;
    }

    @Test
    void timeTravelReadsEarlierSnapshots() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        sql(
                "CREATE TABLE lake.w.tt (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
        sql("INSERT INTO lake.w.tt VALUES (1, 'first')");
        long first = paimonTable("w", "tt").latestSnapshot().get().id();
        sql("INSERT INTO lake.w.tt VALUES (1, 'second'), (2, 'new')");
        assertThat(values(sql("SELECT * FROM lake.w.tt VERSION AS OF %d ORDER BY id", first)))
                .containsExactly(list(1L, "first"));
        assertThat(values(sql("SELECT * FROM lake.w.tt ORDER BY id")))
                .containsExactly(list(1L, "second"), list(2L, "new"));
        assertThatThrownBy(() -> sql("SELECT * FROM lake.w.tt VERSION AS OF 999"))
                .hasMessageContaining("VERSION AS OF '999'");
        long firstCommitMillis =
                paimonTable("w", "tt").snapshotManager().snapshot(first).timeMillis();
        assertThat(
                        values(
                                sql(
                                        "SELECT * FROM lake.w.tt TIMESTAMP AS OF timestamp_millis(%d) ORDER BY id",
                                        firstCommitMillis)))
                .containsExactly(list(1L, "first"));
        assertThatThrownBy(
                        () ->
                                sql(
                                        "SELECT * FROM lake.w.tt TIMESTAMP AS OF timestamp_millis(%d)",
                                        firstCommitMillis - 1))
                .hasMessageContaining("Cannot time travel table lake.w.tt to TIMESTAMP AS OF ")
                .hasMessageContaining("its earliest snapshot (" + first + ") was committed at ")
                .hasMessageContaining("lake.w.`tt$snapshots`");
    }

    @Test
    void paimonsOwnReaderReadsWhatStrataWrote() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        sql(
                "CREATE TABLE lake.w.interop (id BIGINT, name STRING, score DOUBLE, dt STRING) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
        sql(
                "INSERT INTO lake.w.interop SELECT id, concat('n', id), id * 1.5, concat('d', id % 3) FROM range(0, 200)");
        sql(
                "INSERT INTO lake.w.interop SELECT id, 'updated', -1.0, concat('d', id % 3) FROM range(0, 200) WHERE id % 7 = 0");
        Set<String> expected = new HashSet<>();
        for (Row r : sql("SELECT * FROM lake.w.interop")) {
            expected.add(
                    r.getLong(0)
                            + "|"
                            + r.getString(1)
                            + "|"
                            + r.getDouble(2)
                            + "|"
                            + r.getString(3));
        }
        FileStoreTable table = paimonTable("w", "interop");
        ReadBuilder read = table.newReadBuilder();
        Set<String> actual = new HashSet<>();
        try (RecordReaderIterator<InternalRow> it =
                new RecordReaderIterator<>(read.newRead().createReader(read.newScan().plan()))) {
            while (it.hasNext()) {
                InternalRow row = it.next();
                actual.add(
                        row.getLong(0)
                                + "|"
                                + row.getString(1)
                                + "|"
                                + row.getDouble(2)
                                + "|"
                                + row.getString(3));
            }
        }
        assertThat(actual).hasSize(200).isEqualTo(expected);
    }

    @Test
    void aFailingTaskAbortsTheJobWithoutSnapshotOrFiles() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
        sql(
                "CREATE TABLE lake.w.fail (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '4')");
        sql("INSERT INTO lake.w.fail VALUES (-1, 'kept')");
        long snapshot = paimonTable("w", "fail").latestSnapshot().get().id();
        List<String> filesBefore = dataFilesOnDisk("w", "fail");

        assertThatThrownBy(
                        () ->
                                sql(
                                        "INSERT INTO lake.w.fail SELECT id, "
                                                + "CASE WHEN id = 4321 THEN raise_error('injected failure') ELSE cast(id AS STRING) END "
                                                + "FROM range(0, 5000)"))
                .hasStackTraceContaining("injected failure");

        assertThat(paimonTable("w", "fail").latestSnapshot().get().id()).isEqualTo(snapshot);
        assertThat(dataFilesOnDisk("w", "fail")).isEqualTo(filesBefore);
        assertThat(values(sql("SELECT * FROM lake.w.fail"))).containsExactly(list(-1L, "kept"));
    }
}
