package dev.strata.launcher;

import dev.strata.spark.compat.SparkVersionApi;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The environment of the {@code bin/strata-sql} processes the launcher's tests start. */
public final class TestLaunches {

    private TestLaunches() {}

    /**
     * A JVM that spends its CPU on the session rather than on optimising it: C2 compiles cost about
     * half the CPU of a session of a few statements (the acceptance scenarios: 26 s of CPU with the
     * default JIT, 13 s with C1 alone and the serial collector), and on a 2-core machine the test
     * JVM waits for it. Answers do not depend on either setting.
     */
    public static final List<String> JVM_OPTIONS =
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    /** {@link #JVM_OPTIONS} and a 1 GB heap. */
    public static final Map<String, String> ENVIRONMENT =
            Map.of("STRATA_SQL_HEAP", "1g", "STRATA_SQL_JAVA_OPTS", String.join(" ", JVM_OPTIONS));

    /**
     * {@link #ENVIRONMENT} and no class-data-sharing archive: writing one takes ~45 s of CPU beside
     * the tests, once per classpath, and only {@code ClassDataSharingIT} is about it.
     */
    public static final Map<String, String> WITHOUT_ARCHIVE = with("STRATA_SQL_CDS", "off");

    /**
     * Whether the tests run on the Spark minor {@code bin/strata-sql} runs by default (its {@code
     * spark_minor=} line). Tests of what is the same code on every minor (the launcher script's
     * class-data sharing, the catalog's checks of an object store, Paimon's JDBC lock) run on that
     * one only; what depends on the minor's jars (its Hadoop client, its executors) runs on each.
     */
    public static boolean onTheLaunchersDefaultMinor() throws IOException {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path script = p.resolve("bin").resolve("strata-sql");
            if (Files.isRegularFile(script)) {
                for (String line : Files.readAllLines(script, StandardCharsets.UTF_8)) {
                    if (line.startsWith("spark_minor=")) {
                        return line.substring("spark_minor=".length())
                                .strip()
                                .equals(SparkVersionApi.SPARK_MINOR);
                    }
                }
                throw new AssertionError(script + " has no spark_minor= line");
            }
        }
        throw new AssertionError("bin/strata-sql not found above " + Path.of("").toAbsolutePath());
    }

    private static Map<String, String> with(String key, String value) {
        java.util.HashMap<String, String> env = new java.util.HashMap<>(ENVIRONMENT);
        env.put(key, value);
        return Map.copyOf(env);
    }
}
