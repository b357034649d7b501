package dev.strata.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.spark.StrataCatalog;
import dev.strata.spark.compat.SparkVersionApi;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.QueryPlanningTracker;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.util.QueryExecutionListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's session and statement runner on a real embedded Spark. */
class StrataSqlTest {

    private static SparkSession spark;
    @TempDir static Path warehouse;

    @BeforeAll
    static void start() throws Exception {
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
    void runsOnTheSparkMinorItWasBuiltForAndRefusesAnother() {
        assertThat(spark.version()).startsWith(SparkVersionApi.SPARK_MINOR + ".");
        String other = SparkVersionApi.SPARK_MINOR.equals("4.1") ? "4.2" : "4.1";
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(
                        StrataSql.Options.parse(
                                new String[] {"--spark", SparkVersionApi.SPARK_MINOR}, errStream))
                .isNotNull();
        assertThat(StrataSql.Options.parse(new String[] {"--spark", other}, errStream)).isNull();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("Cannot run with --spark " + other)
                .contains("built for Spark " + SparkVersionApi.SPARK_MINOR);
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

    /** A tab or line break inside a value would break the table's columns: they print escaped. */
    @Test
    void tabsAndLineBreaksInValuesPrintEscapedInTheTable() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThat(
                        StrataSql.run(
                                spark,
                                "SELECT concat('a', char(9), 'b', char(13), char(10), 'c') AS v",
                                o,
                                e))
                .isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        String.join(
                                "\n",
                                "+-----------+",
                                "| v         |",
                                "+-----------+",
                                "| a\\tb\\r\\nc |",
                                "+-----------+",
                                "1 row",
                                ""));
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

    /**
     * csv/json are always data: one multi-line string column, fractional seconds, a map of arrays
     * and EXPLAIN's plan each print as values (formerly a process test; the launcher script only
     * passes {@code --output} on).
     */
    @Test
    void csvAndJsonAreDataEvenForOneMultiLineStringAndKeepFractionalSeconds() {
        List<String> statements =
                List.of(
                        "SELECT concat('line1', char(10), 'line2') AS note",
                        "SELECT TIMESTAMP_NTZ '2026-01-01 00:00:00.123456' AS ts, DATE '2026-11-01' AS d, "
                                + "map('k', array(1, 2)) AS m",
                        "EXPLAIN SELECT 1");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        for (String statement : statements) {
            assertThat(StrataSql.run(spark, statement, o, e, StrataSql.Output.CSV, false)).isTrue();
        }
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith(
                        String.join(
                                "\n",
                                "note",
                                "\"line1",
                                "line2\"",
                                "ts,d,m",
                                "2026-01-01 00:00:00.123456,2026-11-01,\"{\"\"k\"\":[1,2]}\"",
                                "plan",
                                "\"== Physical Plan =="));
        out.reset();
        for (String statement : statements) {
            assertThat(StrataSql.run(spark, statement, o, e, StrataSql.Output.JSON, false))
                    .isTrue();
        }
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith(
                        String.join(
                                "\n",
                                "{\"note\":\"line1\\nline2\"}",
                                "{\"ts\":\"2026-01-01 00:00:00.123456\",\"d\":\"2026-11-01\",\"m\":{\"k\":[1,2]}}",
                                "{\"plan\":\"== Physical Plan ==\\n"));
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

    /**
     * A result that cannot exceed the printed rows is collected from the statement's own plan (no
     * second Dataset to analyse, optimize and plan); a larger one is still cut at MAX_PRINTED_ROWS
     * and says so. Oracle: Spark's own collect of the same statements, and the logical plans
     * Spark's listener reports for what the launcher collected.
     */
    @Test
    void boundedResultsAreCollectedAsPlannedAndLargerOnesAreTruncated() throws Exception {
        BlockingQueue<String> collected = new LinkedBlockingQueue<>();
        QueryExecutionListener listener =
                new QueryExecutionListener() {
                    @Override
                    public void onSuccess(String funcName, QueryExecution qe, long durationNs) {
                        collected.add(qe.logical().toString());
                    }

                    @Override
                    public void onFailure(String funcName, QueryExecution qe, Exception e) {}
                };
        // A text_match count over archived rows is answered from the archives by a plan that
        // states no row bound; its analysed plan (an aggregate without grouping) does.
        assertThat(StrataSql.run(spark, "CREATE NAMESPACE lake.bounded", System.out, System.err))
                .isTrue();
        StrataSql.run(
                spark,
                "CREATE TABLE lake.bounded.docs (id BIGINT NOT NULL, body STRING) TBLPROPERTIES "
                        + "('primary-key' = 'id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true', "
                        + "'strata-full-text.index.columns' = 'body')",
                System.out,
                System.err);
        StrataSql.run(
                spark,
                "INSERT INTO lake.bounded.docs VALUES (1, 'disk failure'), (2, 'network ok'), "
                        + "(3, 'disk full')",
                System.out,
                System.err);
        StrataSql.run(
                spark, "CALL lake.sys.compact(table => 'bounded.docs')", System.out, System.err);
        String[] bounded = {
            "SELECT 1 AS one",
            "SELECT count(*) AS n FROM lake.bounded.docs WHERE text_match(body, 'disk')",
            "SELECT count(*) AS n FROM range(20000)",
            "SELECT id FROM range(20000) ORDER BY id DESC LIMIT 3"
        };
        String[] expected = {
            String.join("\n", "+-----+", "| one |", "+-----+", "| 1   |", "+-----+", "1 row"),
            String.join("\n", "+---+", "| n |", "+---+", "| 2 |", "+---+", "1 row"),
            String.join(
                    "\n", "+-------+", "| n     |", "+-------+", "| 20000 |", "+-------+", "1 row"),
            String.join(
                    "\n",
                    "+-------+",
                    "| id    |",
                    "+-------+",
                    "| 19999 |",
                    "| 19998 |",
                    "| 19997 |",
                    "+-------+",
                    "3 rows")
        };
        List<String> plans = new ArrayList<>();
        spark.listenerManager().register(listener);
        try {
            // The listener bus is asynchronous: events of the statements above may arrive after the
            // registration. It delivers in order, so once a marker statement's event is in, every
            // earlier one is too and can be dropped.
            spark.sql("SELECT 'listener marker' AS marker").collectAsList();
            for (String event = ""; !event.contains("listener marker"); ) {
                event = collected.poll(60, TimeUnit.SECONDS);
                assertThat(event).as("the marker statement's listener event").isNotNull();
            }
            for (int i = 0; i < bounded.length; i++) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                assertThat(StrataSql.run(spark, bounded[i], o, o)).isTrue();
                assertThat(out.toString(StandardCharsets.UTF_8).strip()).isEqualTo(expected[i]);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
            String large = "SELECT id FROM range(" + (StrataSql.MAX_PRINTED_ROWS + 5) + ")";
            assertThat(StrataSql.run(spark, large, o, o)).isTrue();
            String printed = out.toString(StandardCharsets.UTF_8);
            assertThat(printed)
                    .contains("| " + (StrataSql.MAX_PRINTED_ROWS - 1) + " ")
                    .doesNotContain("| " + StrataSql.MAX_PRINTED_ROWS + " ")
                    .endsWith(StrataSql.MAX_PRINTED_ROWS + " rows (truncated)\n");
            for (int i = 0; i < bounded.length + 1; i++) {
                String event = collected.poll(60, TimeUnit.SECONDS);
                assertThat(event).as("listener event of statement %d", i).isNotNull();
                plans.add(event);
            }
        } finally {
            spark.listenerManager().unregister(listener);
        }
        String limit = "GlobalLimit " + (StrataSql.MAX_PRINTED_ROWS + 1);
        assertThat(collected).as("no other statement's event").isEmpty();
        for (int i = 0; i < bounded.length; i++) {
            assertThat(plans.get(i)).as(bounded[i]).doesNotContain(limit);
        }
        assertThat(plans.get(bounded.length)).contains(limit);
    }

    /**
     * A result that may exceed the printed rows is optimized once, under the limit: asking the
     * statement's own optimized plan for a bound first optimized every such statement twice.
     */
    @Test
    void aStatementThatMayExceedThePrintedRowsIsOptimizedOnlyUnderTheLimit() {
        Dataset<Row> statement = spark.sql("SELECT id FROM range(20000) WHERE id % 7 = 0");
        Dataset<Row> collected = StrataSql.printable(statement);
        assertThat(collected.queryExecution().logical().toString())
                .contains("GlobalLimit " + (StrataSql.MAX_PRINTED_ROWS + 1));
        assertThat(collected.count()).isEqualTo(2858);
        assertThat(
                        statement
                                .queryExecution()
                                .tracker()
                                .phases()
                                .contains(QueryPlanningTracker.OPTIMIZATION()))
                .as("the statement's own plan optimized")
                .isFalse();
    }

    @Test
    void statusLinesNameTheStatementsOwnSnapshotWhileAnotherSessionCommits() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream quiet = new PrintStream(sink, true, StandardCharsets.UTF_8);
        assertThat(StrataSql.run(spark, "CREATE NAMESPACE lake.own", quiet, quiet)).isTrue();
        assertThat(StrataSql.run(spark, "CREATE TABLE lake.own.t (id BIGINT, w INT)", quiet, quiet))
                .isTrue();
        FileStoreTable table =
                ((StrataCatalog) SparkVersionApi.catalog(spark, "lake"))
                        .loadPaimonTable(
                                org.apache.spark.sql.connector.catalog.Identifier.of(
                                        new String[] {"own"}, "t"));
        java.util.concurrent.atomic.AtomicBoolean done =
                new java.util.concurrent.atomic.AtomicBoolean();
        // Another session's writer: inserts of 3 rows, as fast as it can, all the time.
        Thread other =
                new Thread(
                        () -> {
                            while (!done.get()) {
                                spark.sql("INSERT INTO lake.own.t SELECT id, 2 FROM range(0, 3)")
                                        .collect();
                            }
                        });
        other.start();
        List<String> reports = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                assertThat(
                                StrataSql.run(
                                        spark,
                                        "INSERT INTO lake.own.t SELECT id, 1 FROM range(0, 7)",
                                        o,
                                        o))
                        .isTrue();
                reports.add(out.toString(StandardCharsets.UTF_8).strip());
            }
        } finally {
            done.set(true);
            other.join(120_000);
        }
        java.util.regex.Pattern line =
                java.util.regex.Pattern.compile(
                        "Inserted (\\d+) rows into lake\\.own\\.t \\(snapshot (\\d+)\\)");
        for (String report : reports) {
            java.util.regex.Matcher m = line.matcher(report);
            assertThat(m.matches()).as(report).isTrue();
            assertThat(m.group(1)).as(report).isEqualTo("7");
            assertThat(
                            table.snapshotManager()
                                    .snapshot(Long.parseLong(m.group(2)))
                                    .deltaRecordCount())
                    .as("the snapshot named by " + report)
                    .isEqualTo(7L);
        }
    }
}
