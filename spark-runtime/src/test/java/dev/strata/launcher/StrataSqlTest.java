package dev.strata.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The launcher's session and statement runner on a real embedded Spark. */
class StrataSqlTest {

    private static SparkSession spark;
    private static Path warehouse;

    @BeforeAll
    static void start() throws Exception {
        warehouse = Files.createTempDirectory("strata-sql-test");
        System.setProperty("strata.master", "local[2]");
        spark = StrataSql.session(warehouse.toUri().toString());
    }

    @AfterAll
    static void stop() {
        spark.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
    }

    @Test
    void printsAlignedResultsAndOkForStatementsWithoutOutput() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(StrataSql.run(spark, "CREATE NAMESPACE lake.launcher", o, e)).isTrue();
        assertThat(
                        StrataSql.run(
                                spark,
                                "CREATE TABLE lake.launcher.t (id BIGINT, name STRING)",
                                o,
                                e))
                .isTrue();
        assertThat(
                        StrataSql.run(
                                spark,
                                "INSERT INTO lake.launcher.t VALUES (1, 'a'), (22, NULL)",
                                o,
                                e))
                .isTrue();
        assertThat(StrataSql.run(spark, "SELECT * FROM lake.launcher.t ORDER BY id", o, e))
                .isTrue();
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed)
                .contains("Namespace lake.launcher created")
                .contains("Table lake.launcher.t created")
                .contains("Inserted 2 rows into lake.launcher.t (snapshot 1)")
                .contains(
                        String.join(
                                "\n",
                                "+----+------+",
                                "| id | name |",
                                "+----+------+",
                                "| 1  | a    |",
                                "| 22 | NULL |",
                                "+----+------+",
                                "2 rows"));
        assertThat(Files.exists(warehouse.resolve("launcher.db").resolve("t"))).isTrue();
    }

    @Test
    void rowLevelStatementsSayWhatTheyChanged() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(StrataSql.run(spark, "CREATE NAMESPACE IF NOT EXISTS lake.dml", o, e)).isTrue();
        assertThat(
                        StrataSql.run(
                                spark,
                                "CREATE TABLE lake.dml.t (id BIGINT, dt STRING, v STRING) PARTITIONED BY (dt) "
                                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2')",
                                o,
                                e))
                .isTrue();
        assertThat(
                        StrataSql.run(
                                spark,
                                "INSERT INTO lake.dml.t VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'b', 'z')",
                                o,
                                e))
                .isTrue();
        assertThat(StrataSql.run(spark, "DELETE FROM lake.dml.t WHERE id = 1", o, e)).isTrue();
        assertThat(StrataSql.run(spark, "UPDATE lake.dml.t SET v = 'w' WHERE id = 2", o, e))
                .isTrue();
        assertThat(
                        StrataSql.run(
                                spark,
                                "MERGE INTO lake.dml.t t USING (SELECT 4L AS id, 'b' AS dt, 'n' AS v) s "
                                        + "ON t.id = s.id AND t.dt = s.dt WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT *",
                                o,
                                e))
                .isTrue();
        assertThat(StrataSql.run(spark, "DELETE FROM lake.dml.t WHERE dt = 'b'", o, e)).isTrue();
        assertThat(StrataSql.run(spark, "DELETE FROM lake.dml.t WHERE id = 99", o, e)).isTrue();
        assertThat(StrataSql.run(spark, "DELETE FROM lake.dml.t", o, e)).isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains(
                        "Deleted from lake.dml.t (snapshot 2)", "Updated lake.dml.t (snapshot 3)",
                        "Merged into lake.dml.t (snapshot 4)",
                                "Deleted from lake.dml.t (snapshot 5)",
                        "Deleted from lake.dml.t (no new snapshot)",
                                "Deleted from lake.dml.t (snapshot 6)");
    }

    @Test
    void csvAndJsonOutputForScripts() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        String query =
                "SELECT * FROM VALUES (1, 'a,b', CAST(NULL AS STRING)), (2, 'say \"hi\"', 'x\ny') AS v(id, s, t)";
        assertThat(StrataSql.run(spark, query, o, e, StrataSql.Output.CSV, false)).isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        String.join(
                                "\n",
                                "id,s,t",
                                "1,\"a,b\",",
                                "2,\"say \"\"hi\"\"\",\"x",
                                "y\"",
                                ""));
        out.reset();
        assertThat(StrataSql.run(spark, query, o, e, StrataSql.Output.JSON, false)).isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        String.join(
                                "\n",
                                "{\"id\":1,\"s\":\"a,b\",\"t\":null}",
                                "{\"id\":2,\"s\":\"say \\\"hi\\\"\",\"t\":\"x\\ny\"}",
                                ""));
        out.reset();
        assertThat(
                        StrataSql.run(
                                spark,
                                "CREATE NAMESPACE IF NOT EXISTS lake.csv",
                                o,
                                e,
                                StrataSql.Output.CSV,
                                false))
                .isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Namespace lake.csv created");
    }

    @Test
    void aFailingStatementStopsTheScriptWithExitCodeOne() {
        assertThat(
                        StrataSql.runScript(
                                spark,
                                "CREATE NAMESPACE IF NOT EXISTS lake.s; SELECT * FROM lake.s.missing; "
                                        + "CREATE NAMESPACE lake.never_created"))
                .isEqualTo(1);
        assertThat(spark.sql("SHOW NAMESPACES IN lake").collectAsList().toString())
                .doesNotContain("never_created");
        assertThat(StrataSql.runScript(spark, "SELECT 1; SELECT 2")).isZero();
    }
}
