package dev.strata.launcher;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * What {@code bin/strata-sql} adds to a statement, side by side in one JVM: each distinct statement
 * of a file is run {@code rounds} times as Spark's own {@code spark.sql(q).collectAsList()} and as
 * the launcher runs it (parse, collect, print into a discarded stream), alternating which goes
 * first, in the launcher's own session (UI, progress bar, catalog {@code lake}). Prints best and
 * median wall time of each, the launcher's median minus Spark's, and the median CPU time of the
 * calling thread (comparable on a loaded machine, where wall time is mostly waiting for a core).
 *
 * <p>Arguments: warehouse, statements file, rounds (default 7), then Spark settings {@code
 * KEY=VALUE}. It needs the JVM options and classpath of {@code bin/strata-sql}; the README's
 * section on the launcher's per-statement cost shows how to run it.
 */
final class LauncherOverheadBenchmark {

    private LauncherOverheadBenchmark() {}

    public static void main(String[] args) throws Exception {
        String warehouse = Path.of(args[0]).toAbsolutePath().toUri().toString();
        String script = Files.readString(Path.of(args[1]), StandardCharsets.UTF_8);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        Map<String, String> conf = new LinkedHashMap<>();
        for (int i = 3; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            conf.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        List<String> statements = new ArrayList<>();
        for (String statement : SqlScript.split(script)) {
            if (!statements.contains(statement)) {
                statements.add(statement);
            }
        }
        SparkSession spark =
                StrataSql.session(warehouse, System.getProperty("strata.master", "local[*]"), conf);
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream(), true);
        Map<String, double[][]> times = new LinkedHashMap<>();
        Map<String, double[][]> cpu = new LinkedHashMap<>();
        java.lang.management.ThreadMXBean threads =
                java.lang.management.ManagementFactory.getThreadMXBean();
        // One cold pass of each, then the measured rounds.
        for (String statement : statements) {
            spark.sql(statement).collectAsList();
            StrataSql.run(spark, statement, discard, discard);
            times.put(statement, new double[2][rounds]);
            cpu.put(statement, new double[2][rounds]);
        }
        for (int round = 0; round < rounds; round++) {
            for (String statement : statements) {
                double[][] t = times.get(statement);
                for (int k = 0; k < 2; k++) {
                    boolean launcher = (k + round) % 2 == 1;
                    long cpuStart = threads.getCurrentThreadCpuTime();
                    long start = System.nanoTime();
                    if (launcher) {
                        StrataSql.run(spark, statement, discard, discard);
                    } else {
                        spark.sql(statement).collectAsList();
                    }
                    t[launcher ? 1 : 0][round] = (System.nanoTime() - start) / 1e6;
                    cpu.get(statement)[launcher ? 1 : 0][round] =
                            (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6;
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%-90s | %17s | %17s | %-12s | %s%n",
                "statement (" + rounds + " warm rounds, ms)",
                "spark best/median",
                "launcher best/med",
                "launcher - spark",
                "CPU ms of the calling thread, median: spark / launcher");
        for (Map.Entry<String, double[][]> e : times.entrySet()) {
            double[] spark0 = e.getValue()[0].clone();
            double[] launcher = e.getValue()[1].clone();
            Arrays.sort(spark0);
            Arrays.sort(launcher);
            double[] sparkCpu = cpu.get(e.getKey())[0].clone();
            double[] launcherCpu = cpu.get(e.getKey())[1].clone();
            Arrays.sort(sparkCpu);
            Arrays.sort(launcherCpu);
            System.out.printf(
                    Locale.ROOT,
                    "%-90s | %7.1f / %7.1f | %7.1f / %7.1f | %+12.1f | %.1f / %.1f%n",
                    e.getKey().length() > 90 ? e.getKey().substring(0, 87) + "..." : e.getKey(),
                    spark0[0],
                    spark0[rounds / 2],
                    launcher[0],
                    launcher[rounds / 2],
                    launcher[rounds / 2] - spark0[rounds / 2],
                    sparkCpu[rounds / 2],
                    launcherCpu[rounds / 2]);
        }
        spark.stop();
    }
}
