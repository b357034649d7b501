package dev.strata.launcher;

import static dev.strata.launcher.StrataSqlProcessTest.run;
import static dev.strata.launcher.StrataSqlProcessTest.runWithStdin;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.launcher.StrataSqlProcessTest.Result;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell as a daily tool, through the real {@code bin/strata-sql} (see {@link
 * StrataSqlProcessTest} for how it runs): the same statement means the same typed, piped or in a
 * file; csv/json are always data; values print as spark-sql prints them; batches stop or go on as
 * asked; redirected stderr gets no progress bar, port warnings or task stack traces.
 */
class StrataSqlShellTest {

    @TempDir Path dir;

    @Test
    void pipedStdinIsTheSameScriptAsDashFAndStopsAtAFailureUnlessContinueOnError()
            throws Exception {
        // In the file: hex('\\b') is the two characters '\' 'b', and '\u00e9' is one character.
        Path file =
                Files.writeString(
                        dir.resolve("script.sql"),
                        String.join(
                                "\n",
                                "SELECT hex('\\\\b') AS h, length('\\\\b') AS n, hex('\\u00e9') AS e,",
                                "  TIMESTAMP_NTZ '2026-01-01 00:00:00.123456' AS ts, TIMESTAMP '2026-11-01 00:00:00' AS t0;",
                                "SELECT * FROM lake.nowhere.missing;",
                                "SELECT 'after' AS a;",
                                ""));
        // A failing statement stops the run: neither the rest of the file nor -e after it runs.
        Result fromFile =
                run(
                        dir,
                        "--warehouse",
                        "wh",
                        "-f",
                        file.toString(),
                        "-e",
                        "SELECT 'after-failure'");
        assertThat(fromFile.exit()).as(fromFile.toString()).isEqualTo(1);
        assertThat(fromFile.out())
                .containsPattern(
                        "\\| 5C62 +\\| 2 +\\| C3A9 +\\| 2026-01-01 00:00:00\\.123456 +\\| 2026-11-01 00:00:00 +\\|")
                .doesNotContain("after");
        assertThat(fromFile.err())
                .contains("Error in statement: SELECT * FROM lake.nowhere.missing");

        Result piped = runWithStdin(dir, file.toFile(), "--warehouse", "wh");
        assertThat(piped.exit()).as(piped.toString()).isEqualTo(1);
        assertThat(piped.out()).as(piped.toString()).isEqualTo(fromFile.out());

        Result goingOn =
                run(
                        dir,
                        "--warehouse",
                        "wh",
                        "--continue-on-error",
                        "-f",
                        file.toString(),
                        "-e",
                        "SELECT 'inline' AS i");
        assertThat(goingOn.exit()).as(goingOn.toString()).isEqualTo(1);
        assertThat(goingOn.out()).contains("| after |").contains("| inline |");
        assertThat(goingOn.err())
                .contains("Error in statement: SELECT * FROM lake.nowhere.missing");
    }

    /**
     * With stderr redirected to a file, and port 4040 taken as by another Spark session: no
     * progress bar, no port warning, and a task's failure is its message without log lines or stack
     * frames. In the same session (each launcher run starts Spark): tables in Spark's session
     * catalog say what happened and that they last for the session.
     */
    @Test
    void redirectedStderrGetsNoProgressBarPortWarningOrTaskStackTraceAndSessionTablesSaySo()
            throws Exception {
        ServerSocket ui = null;
        try {
            ui = new ServerSocket(4040);
        } catch (IOException taken) {
            // Another Spark session holds it: the situation this test is about.
        }
        Result r;
        try {
            r =
                    run(
                            dir,
                            "--warehouse",
                            "wh",
                            "--continue-on-error",
                            "-e",
                            // Two tasks of 1.5 s: a stage long enough for Spark's progress bar.
                            "SELECT count(*) AS n FROM range(0, 2, 1, 2) "
                                    + "WHERE java_method('java.lang.Thread', 'sleep', 1500L) IS NOT NULL; "
                                    + "SELECT 1 / (id - id) AS x FROM range(3); "
                                    + "CREATE TABLE pq (id BIGINT) USING parquet; "
                                    + "INSERT INTO pq SELECT CAST(concat('x', id) AS BIGINT) FROM range(3); "
                                    + String.join(
                                            "; ",
                                            "CREATE TABLE plain_t (id BIGINT) USING parquet",
                                            "CREATE TABLE plain_c USING parquet AS SELECT id FROM range(3)",
                                            "INSERT INTO plain_c SELECT id FROM range(5)",
                                            "CREATE NAMESPACE lake.m",
                                            "CREATE TABLE lake.m.t (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')",
                                            "INSERT INTO lake.m.t VALUES (1, 'a'), (2, 'b')",
                                            "MERGE INTO lake.m.t t USING (SELECT 2L AS id, 'c' AS v) s ON t.id = s.id "
                                                    + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED BY SOURCE THEN DELETE",
                                            // Failing row-level writes: a task refuses the row, and
                                            // Spark kills the shuffle tasks of a MERGE whose source
                                            // matches a row twice.
                                            "UPDATE lake.m.t SET id = 5 WHERE id = 2",
                                            "MERGE INTO lake.m.t t USING (SELECT 2L AS id, 'p' AS v UNION ALL "
                                                    + "SELECT 2L, 'q') s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v"));
        } finally {
            if (ui != null) {
                ui.close();
            }
        }
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).containsPattern("\\| 2 +\\|");
        assertThat(r.err())
                .as(r.toString())
                .doesNotContain("\r")
                .doesNotContain("[Stage")
                .doesNotContain("could not bind")
                .doesNotContain("\tat ")
                .doesNotContain(" ERROR ")
                .contains("Error in statement: SELECT 1 / (id - id) AS x FROM range(3)")
                .contains("[DIVIDE_BY_ZERO]")
                .contains("Error in statement: INSERT INTO pq SELECT")
                .contains("[CAST_INVALID_INPUT]")
                .contains("Cannot change primary-key column id of lake.m.t from 2 to 5")
                .contains("[MERGE_CARDINALITY_VIOLATION]")
                .doesNotContain("Aborting commit")
                .doesNotContain("is aborting")
                .doesNotContain("Error deleting");
        String warehouse = dir.resolve("wh").resolve("spark-warehouse").toRealPath().toString();
        assertThat(r.out().lines().toList())
                .as(r.toString())
                .containsSubsequence(
                        "Table spark_catalog.default.plain_t created",
                        "Note: spark_catalog.default.plain_t is in Spark's session catalog, which strata-sql "
                                + "keeps in memory: it is gone at exit, while its files stay in file:"
                                + warehouse
                                + "/plain_t. Create tables in lake to keep them.",
                        "Table spark_catalog.default.plain_c created with 3 rows",
                        "Note: spark_catalog.default.plain_c is in Spark's session catalog, which strata-sql "
                                + "keeps in memory: it is gone at exit, while its files stay in file:"
                                + warehouse
                                + "/plain_c. Create tables in lake to keep them.",
                        "Inserted 5 rows into spark_catalog.default.plain_c",
                        "Merged into lake.m.t (snapshot 2)");
    }
}
