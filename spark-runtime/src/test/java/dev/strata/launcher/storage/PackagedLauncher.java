package dev.strata.launcher.storage;

import dev.strata.spark.compat.SparkVersionApi;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs the real {@code bin/strata-sql} on the packaged runtime jar, as a user runs it after {@code
 * mvn package}: the integration tests run in {@code integration-test}, after the shaded jar and
 * {@code spark-classpath.txt} exist, and without {@code STRATA_SQL_CLASSPATH}, so the jar the
 * launcher ships to executors is the real one.
 */
final class PackagedLauncher {

    record Result(int exit, String out, String err, String args) {
        @Override
        public String toString() {
            // Stack frames elided and the arguments last: a CI log keeps a failure's head and
            // tail, and the error lines are what tell why the launcher failed.
            return "strata-sql exited "
                    + exit
                    + "\n--- stderr (stack frames elided)\n"
                    + withoutFrames(err)
                    + "\n--- stdout\n"
                    + out
                    + "\n--- arguments\n"
                    + args;
        }

        private static String withoutFrames(String text) {
            StringBuilder shown = new StringBuilder();
            int elided = 0;
            for (String line : text.split("\n", -1)) {
                if (line.startsWith("\tat ") || line.startsWith("\t... ")) {
                    elided++;
                    continue;
                }
                if (elided > 0) {
                    shown.append("\t(").append(elided).append(" frames)\n");
                    elided = 0;
                }
                shown.append(line).append('\n');
            }
            return shown.toString();
        }
    }

    private final Path workDir;
    private final Map<String, String> environment;

    /** The launcher as a user runs it, with a 1 GB heap. */
    PackagedLauncher(Path workDir) {
        this(workDir, Map.of("STRATA_SQL_HEAP", "1g"));
    }

    /** The launcher with these environment variables set for its processes. */
    PackagedLauncher(Path workDir, Map<String, String> environment) {
        this.workDir = workDir;
        this.environment = Map.copyOf(environment);
        runtimeJar(); // fail early, naming what is missing
    }

    /**
     * The runtime module of the Spark minor these tests run on ({@code
     * spark-runtime/spark-<minor>}, whose {@code target/} holds the packaged jar).
     */
    static Path moduleDir() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path leaf = p.resolve("spark-runtime").resolve("spark-" + SparkVersionApi.SPARK_MINOR);
            if (Files.isRegularFile(leaf.resolve("pom.xml"))) {
                return leaf;
            }
        }
        throw new AssertionError("spark-runtime not found above " + Path.of("").toAbsolutePath());
    }

    static Path runtimeJar() {
        Path target = moduleDir().resolve("target");
        try (Stream<Path> files = Files.list(target)) {
            Path jar =
                    files.filter(
                                    p -> {
                                        String n = p.getFileName().toString();
                                        return n.startsWith("strata-spark-runtime-")
                                                && n.endsWith(".jar")
                                                && !n.contains("original")
                                                && !n.contains("sources")
                                                && !n.contains("tests");
                                    })
                            .findFirst()
                            .orElse(null);
            if (jar == null || !Files.isRegularFile(target.resolve("spark-classpath.txt"))) {
                throw new AssertionError(
                        "Cannot run bin/strata-sql on the packaged runtime: "
                                + target
                                + " has no strata-spark-runtime jar or spark-classpath.txt. These tests"
                                + " run after package (mvn verify, or mvn package then failsafe:integration-test).");
            }
            return jar;
        } catch (IOException e) {
            throw new AssertionError("Cannot list " + target + ": " + e.getMessage(), e);
        }
    }

    /** Spark's own jars (the launcher's classpath without Strata), as package recorded them. */
    static List<Path> sparkClasspath() throws IOException {
        String text =
                Files.readString(
                                moduleDir().resolve("target").resolve("spark-classpath.txt"),
                                StandardCharsets.UTF_8)
                        .strip();
        List<Path> jars = new ArrayList<>();
        for (String entry : text.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                jars.add(Path.of(entry));
            }
        }
        return jars;
    }

    /** A jar of the test classpath whose file name starts with {@code prefix}. */
    static Path testClasspathJar(String prefix) {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (p.getFileName() != null
                    && p.getFileName().toString().startsWith(prefix)
                    && entry.endsWith(".jar")) {
                return p;
            }
        }
        throw new AssertionError(
                "Cannot find "
                        + prefix
                        + "*.jar on the test classpath: spark-runtime/pom.xml declares it as a test dependency;"
                        + " run mvn once online to download it.");
    }

    Result run(String... args) throws IOException, InterruptedException {
        return run(900, args);
    }

    Result run(int timeoutSeconds, String... args) throws IOException, InterruptedException {
        Process process = start(args);
        return finish(process, timeoutSeconds, args);
    }

    Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(
                moduleDir()
                        .getParent()
                        .getParent()
                        .resolve("bin")
                        .resolve("strata-sql")
                        .toString());
        command.add("--spark");
        command.add(SparkVersionApi.SPARK_MINOR);
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
        builder.environment().remove("STRATA_SQL_CLASSPATH");
        builder.environment().putAll(environment);
        long id = System.nanoTime();
        builder.redirectOutput(workDir.resolve("stdout-" + id + ".txt").toFile())
                .redirectError(workDir.resolve("stderr-" + id + ".txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process process = builder.start();
        outputs.put(process, id);
        return process;
    }

    private final java.util.Map<Process, Long> outputs =
            new java.util.concurrent.ConcurrentHashMap<>();

    Result finish(Process process, int timeoutSeconds, String... args)
            throws IOException, InterruptedException {
        long id = outputs.remove(process);
        String shown = String.join(" ", args);
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(
                    "strata-sql "
                            + shown
                            + " did not finish within "
                            + timeoutSeconds
                            + " s; its stderr:\n"
                            + Files.readString(workDir.resolve("stderr-" + id + ".txt")));
        }
        return new Result(
                process.exitValue(),
                Files.readString(workDir.resolve("stdout-" + id + ".txt"), StandardCharsets.UTF_8),
                Files.readString(workDir.resolve("stderr-" + id + ".txt"), StandardCharsets.UTF_8),
                shown);
    }
}
