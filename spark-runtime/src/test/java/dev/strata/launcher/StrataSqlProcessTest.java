package dev.strata.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real {@code bin/strata-sql} as a child process. The module's tests run before {@code
 * package}, so the script is pointed at this module's test classpath through {@code
 * STRATA_SQL_CLASSPATH} instead of the shaded jar; everything else (JVM flags, logging set-up,
 * argument handling) is the script's own.
 */
class StrataSqlProcessTest {

    @TempDir Path dir;

    /**
     * A relative warehouse is made absolute and created; EXPLAIN prints plain lines and statements
     * say what they did (one JVM for both: each launcher run starts Spark).
     */
    @Test
    void relativeWarehouseIsCreatedAndExplainAndStatementsSayWhatTheyDid() throws Exception {
        Result r =
                run(
                        dir,
                        "--warehouse",
                        "wh",
                        "--timing",
                        "-e",
                        String.join(
                                ";\n",
                                "CREATE NAMESPACE lake.a",
                                "CREATE NAMESPACE IF NOT EXISTS lake.a",
                                "CREATE NAMESPACE lake.s3",
                                "CREATE TABLE lake.s3.t (id BIGINT, s STRING)",
                                "INSERT INTO lake.s3.t SELECT id, CAST(id AS STRING) FROM range(100)",
                                "EXPLAIN SELECT * FROM lake.s3.t WHERE id > 5",
                                "CREATE TABLE lake.s3.c AS SELECT * FROM lake.s3.t WHERE id < 10",
                                "CREATE TABLE IF NOT EXISTS lake.s3.c AS SELECT * FROM lake.s3.t",
                                "INSERT OVERWRITE lake.s3.t SELECT * FROM lake.s3.c",
                                "SELECT count(*) AS n FROM lake.s3.t",
                                "DROP TABLE lake.s3.c"));
        assertThat(r.exit).as(r.toString()).isZero();
        assertThat(r.err).contains("Created new warehouse at " + dir.resolve("wh").toRealPath());
        assertThat(dir.resolve("wh").resolve("a.db")).isDirectory();

        List<String> lines = r.out.lines().toList();
        assertThat(lines)
                .contains(
                        "Namespace lake.a created",
                        "Namespace lake.a created if it did not exist",
                        "Namespace lake.s3 created",
                        "Table lake.s3.t created",
                        "Inserted 100 rows into lake.s3.t (snapshot 1)",
                        "Table lake.s3.c created with 10 rows",
                        // Before: "created with 0 rows" for a table that existed.
                        "Table lake.s3.c created if it did not exist (no rows written)",
                        "Overwrote lake.s3.t (snapshot 2)",
                        "Table lake.s3.c dropped",
                        "== Physical Plan ==");
        assertThat(lines).anyMatch(l -> l.contains("BatchScan") && l.contains("PushedPredicates"));
        assertThat(r.out).doesNotContain("\\n").doesNotContain("| == Physical Plan");
        assertThat(r.out).containsPattern("\\| 10 +\\|");
        assertThat(r.err.lines().filter(l -> l.startsWith("Time taken: "))).hasSize(11);
        // Spark 4.2 warns that an existing namespace "was created concurrently".
        assertThat(r.err).doesNotContain("WARN");
    }

    /**
     * A URI warehouse is passed on unchanged and created, --verbose logs Spark at INFO and a
     * failing statement's stack trace (one JVM for both); a warehouse whose parent directory is
     * missing is refused.
     */
    @Test
    void uriWarehouseIsKeptWithVerboseLogsAndAMissingParentIsRefused() throws Exception {
        Path uriWarehouse = dir.resolve("wh2");
        Result uri =
                run(
                        dir,
                        "--warehouse",
                        "file:" + uriWarehouse,
                        "--verbose",
                        "-e",
                        "CREATE NAMESPACE lake.b; SELECT 1; SELECT 1 / (id - id) AS x FROM range(3)");
        // The failing statement prints its stack trace only because of --verbose.
        assertThat(uri.exit).as(uri.toString()).isEqualTo(1);
        assertThat(uri.err)
                .contains("Error in statement: SELECT 1 / (id - id) AS x FROM range(3)")
                .contains("\tat org.apache.spark.");
        assertThat(uri.err).contains("Created new warehouse at " + uriWarehouse);
        assertThat(uriWarehouse.resolve("b.db")).isDirectory();
        assertThat(dir.resolve("file:")).doesNotExist();
        assertThat(uri.err)
                .contains(" INFO  SparkContext: ")
                .contains("strata-sql: Spark ")
                .contains(", master local[*], catalog lake at file:");

        Path missing = dir.resolve("no-such-parent").resolve("wh");
        Result refused =
                run(dir, "--warehouse", missing.toString(), "-e", "CREATE NAMESPACE lake.c");
        assertThat(refused.exit).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err)
                .contains("Cannot create warehouse " + missing)
                .contains("parent directory " + missing.getParent() + " does not exist");
        assertThat(missing.getParent()).doesNotExist();
    }

    /**
     * -i, then -f, then -e, with --conf, --master and --driver-memory; by default the run is quiet
     * (no log line on stderr) even when Lucene runs (the init file builds and searches an archive).
     * Bad arguments are refused (a failing statement stopping the run: {@link StrataSqlShellTest}).
     */
    @Test
    void initFileThenFileThenInlineQuietByDefaultAndRefusedArguments() throws Exception {
        Files.createDirectory(dir.resolve("wh"));
        Path init =
                Files.writeString(
                        dir.resolve("init.sql"),
                        String.join(
                                ";\n",
                                "CREATE NAMESPACE lake.s2",
                                "CREATE TABLE lake.s2.t (id INT)",
                                "CREATE NAMESPACE lake.s4",
                                "CREATE TABLE lake.s4.t (id BIGINT, body STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1', "
                                        + "'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')",
                                "INSERT INTO lake.s4.t VALUES (1, 'disk failure'), (2, 'all fine')",
                                "CALL lake.sys.compact(table => 's4.t')",
                                "SELECT id FROM full_text_search('lake.s4.t', 'body', 'disk', 10);\n"));
        Path file =
                Files.writeString(
                        dir.resolve("main.sql"),
                        "INSERT INTO lake.s2.t VALUES (1);\nSELECT 'from-f';\n");
        Result ok =
                run(
                        dir,
                        "--warehouse",
                        "wh",
                        "--master",
                        "local[2]",
                        "--driver-memory",
                        "1g",
                        "--conf",
                        "spark.sql.shuffle.partitions=7",
                        "--conf=spark.strata.test.key=a=b",
                        "-e",
                        "SELECT 'from-e', count(*) AS n FROM lake.s2.t; SET spark.sql.shuffle.partitions; "
                                + "SET spark.strata.test.key; SET spark.master",
                        "-f",
                        file.toString(),
                        "-i",
                        init.toString());
        assertThat(ok.exit).as(ok.toString()).isZero();
        assertThat(ok.out)
                .containsPattern("\\| spark\\.sql\\.shuffle\\.partitions +\\| 7 +\\|")
                .containsPattern("\\| spark\\.strata\\.test\\.key +\\| a=b +\\|")
                .containsPattern("\\| spark\\.master +\\| local\\[2\\] +\\|")
                .containsPattern("\\| from-e +\\| 1 +\\|");
        assertThat(ok.out.indexOf("from-f")).isPositive().isLessThan(ok.out.indexOf("from-e"));
        assertThat(ok.out).containsPattern("\\| 1 +\\|\\n\\+-+\\+\\n1 row");
        // Not even Spark's progress bar: stderr is a file, not a terminal.
        assertThat(ok.err).as(ok.toString()).isEmpty();

        Result unknown = run(dir, "--warehouse", "wh", "--bogus", "-e", "SELECT 1");
        assertThat(unknown.exit).as(unknown.toString()).isEqualTo(2);
        assertThat(unknown.err).contains("'--bogus'").contains("usage: strata-sql");
        Result badConf = run(dir, "--conf", "spark.sql.shuffle.partitions");
        assertThat(badConf.exit).as(badConf.toString()).isEqualTo(2);
        assertThat(badConf.err).contains("expected key=value");
    }

    /**
     * The prompt through a pseudo-terminal ({@code script}): Ctrl-C during a long query cancels it
     * and the session answers the next statement; Ctrl-D on a half-typed statement warns, a second
     * Ctrl-D leaves.
     */
    @Test
    void promptCtrlCCancelsTheRunningStatementAndTheSessionAnswersTheNext() throws Exception {
        Files.createDirectory(dir.resolve("wh"));
        String command = "stty cols 160 rows 50; exec '" + script() + "' --warehouse wh";
        ProcessBuilder builder =
                new ProcessBuilder("script", "-qec", command, "/dev/null")
                        .directory(dir.toFile())
                        .redirectErrorStream(true);
        builder.environment().put("STRATA_SQL_CLASSPATH", System.getProperty("java.class.path"));
        builder.environment().putAll(TestLaunches.ENVIRONMENT);
        // Keeps the prompt's history file inside the test directory.
        builder.environment().put("JAVA_TOOL_OPTIONS", "-Duser.home=" + dir);
        Process process = builder.start();
        StringBuffer screen = new StringBuffer();
        Thread reader =
                new Thread(
                        () -> {
                            byte[] buffer = new byte[8192];
                            try (var in = process.getInputStream()) {
                                for (int n; (n = in.read(buffer)) > 0; ) {
                                    synchronized (screen) {
                                        screen.append(
                                                new String(buffer, 0, n, StandardCharsets.UTF_8));
                                        screen.notifyAll();
                                    }
                                }
                            } catch (IOException e) {
                                screen.append("\n[read failed: ").append(e).append(']');
                            }
                        });
        reader.start();
        var keys = process.getOutputStream();
        try {
            awaitScreen(screen, "Catalog: lake", 120);
            // Runs until cancelled: sum(id) over a range this long overflowed a long after a few
            // seconds on a fast machine, before the Ctrl-C arrived.
            keys.write(
                    "SELECT sum(id % 7) FROM range(0, 9000000000000000000, 1, 2);\r"
                            .getBytes(StandardCharsets.UTF_8));
            keys.flush();
            awaitScreen(screen, "[Stage 0:", 60);
            keys.write(3); // Ctrl-C
            keys.flush();
            awaitScreen(screen, "SPARK_JOB_CANCELLED", 60);
            keys.write("SELECT 'still' ||\r'alive';\r".getBytes(StandardCharsets.UTF_8));
            keys.flush();
            awaitScreen(screen, "| stillalive", 60);
            // Typed backslashes reach Spark as typed: '\\b' is a backslash and a 'b'.
            keys.write("SELECT hex('\\\\b') AS typed;\r".getBytes(StandardCharsets.UTF_8));
            keys.flush();
            awaitScreen(screen, "| 5C62", 60);
            keys.write("SELECT 'never' || 'run'\r".getBytes(StandardCharsets.UTF_8));
            keys.flush();
            // Keys typed while the last statement ran are echoed by the terminal itself; the line
            // editor has them (and reads Ctrl-D as a key, not as the terminal's end of input) once
            // it redraws them after its prompt.
            awaitScreen(screen, "strata> SELECT 'never' || 'run'", 60);
            keys.write(4); // Ctrl-D on a half-typed statement
            keys.flush();
            awaitScreen(screen, "The statement is not finished", 30);
            keys.write(4);
            keys.flush();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(screen.toString()).isTrue();
        } finally {
            process.destroyForcibly();
            reader.join(10_000);
        }
        assertThat(screen.toString()).doesNotContain("neverrun");
    }

    /** Waits until the terminal shows {@code text}; the reader thread notifies on every read. */
    private static void awaitScreen(StringBuffer screen, String text, int seconds)
            throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        synchronized (screen) {
            while (screen.indexOf(text) < 0) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError(
                            "'"
                                    + text
                                    + "' did not appear within "
                                    + seconds
                                    + " s; the terminal shows:\n"
                                    + screen);
                }
                TimeUnit.NANOSECONDS.timedWait(screen, left);
            }
        }
    }

    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    static Result run(Path workDir, String... args) throws IOException, InterruptedException {
        return runWithStdin(workDir, new File("/dev/null"), args);
    }

    /** The script with stdin read from {@code stdin} and stdout and stderr to files. */
    static Result runWithStdin(Path workDir, File stdin, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(script().toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
        builder.environment().put("STRATA_SQL_CLASSPATH", System.getProperty("java.class.path"));
        builder.environment().putAll(TestLaunches.ENVIRONMENT);
        File out = workDir.resolve("stdout-" + System.nanoTime() + ".txt").toFile();
        File err = workDir.resolve("stderr-" + System.nanoTime() + ".txt").toFile();
        builder.redirectOutput(out)
                .redirectError(err)
                .redirectInput(ProcessBuilder.Redirect.from(stdin));
        Process process = builder.start();
        // Generous: the machines that run the suite are often shared and loaded.
        if (!process.waitFor(300, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(
                    "strata-sql " + String.join(" ", args) + " did not finish within 300 s");
        }
        return new Result(
                process.exitValue(),
                Files.readString(out.toPath(), StandardCharsets.UTF_8),
                Files.readString(err.toPath(), StandardCharsets.UTF_8));
    }

    static Path script() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("bin").resolve("strata-sql");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("bin/strata-sql not found above " + Path.of("").toAbsolutePath());
    }
}
