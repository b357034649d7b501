package dev.strata.launcher.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Spark standalone cluster of one master and {@code workers} worker JVMs, started from Spark's
 * own classes (the jars {@code package} recorded in {@code spark-classpath.txt}). Workers start
 * executors from {@code SPARK_HOME/jars}, so SPARK_HOME is a directory of links to those jars;
 * nothing of Strata is on any of these classpaths: the driver must ship it.
 */
final class StandaloneCluster implements AutoCloseable {

    private final Path dir;
    private final List<Process> processes = new ArrayList<>();
    private final int port;
    private final int uiPort;
    private final int workers;

    private final List<String> jvmOptions;

    StandaloneCluster(Path dir, int workers) throws IOException, InterruptedException {
        this(dir, workers, List.of());
    }

    /**
     * A cluster whose master, workers and executors run with {@code jvmOptions} (executors get them
     * through {@code JAVA_TOOL_OPTIONS} in their worker's environment, which they inherit).
     */
    StandaloneCluster(Path dir, int workers, List<String> jvmOptions)
            throws IOException, InterruptedException {
        this.dir = dir;
        this.workers = workers;
        this.jvmOptions = List.copyOf(jvmOptions);
        Path sparkHome = Files.createDirectories(dir.resolve("spark-home"));
        Path jars = Files.createDirectories(sparkHome.resolve("jars"));
        List<Path> classpath = PackagedLauncher.sparkClasspath();
        for (Path jar : classpath) {
            Path link = jars.resolve(jar.getFileName());
            if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(link, jar);
            }
        }
        String cp = classpath.stream().map(Path::toString).collect(Collectors.joining(":"));
        this.port = freePort();
        this.uiPort = freePort();
        try {
            start(
                    sparkHome,
                    cp,
                    "master",
                    "org.apache.spark.deploy.master.Master",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    Integer.toString(port),
                    "--webui-port",
                    Integer.toString(uiPort));
            for (int i = 0; i < workers; i++) {
                Path work = Files.createDirectories(dir.resolve("worker-" + i));
                start(
                        sparkHome,
                        cp,
                        "worker-" + i,
                        "org.apache.spark.deploy.worker.Worker",
                        "--host",
                        "127.0.0.1",
                        "--cores",
                        "1",
                        "--memory",
                        "1200m",
                        "--webui-port",
                        Integer.toString(freePort()),
                        "--work-dir",
                        work.toString(),
                        masterUrl());
            }
            awaitWorkers(workers, 120);
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            close();
            throw e;
        }
    }

    String masterUrl() {
        return "spark://127.0.0.1:" + port;
    }

    /** The work directories where the workers keep their executors' stdout and stderr. */
    List<Path> workDirs() {
        List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            dirs.add(dir.resolve("worker-" + i));
        }
        return dirs;
    }

    /** The master's JSON status page. */
    JsonNode status() throws IOException {
        HttpURLConnection c =
                (HttpURLConnection)
                        URI.create("http://127.0.0.1:" + uiPort + "/json/")
                                .toURL()
                                .openConnection();
        c.setConnectTimeout(2000);
        c.setReadTimeout(5000);
        try (InputStream in = c.getInputStream()) {
            return new ObjectMapper().readTree(in);
        }
    }

    private void start(Path sparkHome, String classpath, String name, String... mainAndArgs)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath);
        command.addAll(List.of(mainAndArgs));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        builder.environment().put("SPARK_HOME", sparkHome.toString());
        builder.environment().put("SPARK_SCALA_VERSION", "2.13");
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        builder.environment().remove("SPARK_CONF_DIR");
        if (!jvmOptions.isEmpty()) {
            builder.environment().put("JAVA_TOOL_OPTIONS", String.join(" ", jvmOptions));
        }
        builder.redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile());
        processes.add(builder.start());
    }

    private void awaitWorkers(int workers, int seconds) throws IOException, InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String last = "no answer";
        while (System.nanoTime() < end) {
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new AssertionError(
                            "Cannot start the Spark standalone cluster: a JVM exited with "
                                    + p.exitValue()
                                    + ". Logs:\n"
                                    + logs());
                }
            }
            try {
                JsonNode status = status();
                last = status.toString();
                if (status.path("aliveworkers").asInt() >= workers) {
                    return;
                }
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(500);
        }
        throw new AssertionError(
                "Cannot start the Spark standalone cluster: "
                        + workers
                        + " workers did not register with "
                        + masterUrl()
                        + " within "
                        + seconds
                        + " s (master status: "
                        + last
                        + "). Logs:\n"
                        + logs());
    }

    String logs() throws IOException {
        StringBuilder b = new StringBuilder();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path log : files.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                b.append("--- ").append(log.getFileName()).append('\n');
                lines.subList(Math.max(0, lines.size() - 40), lines.size())
                        .forEach(l -> b.append(l).append('\n'));
            }
        }
        return b.toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        // Workers first (each stops its executors), then the master.
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).destroy();
            if (!processes.get(i).waitFor(30, TimeUnit.SECONDS)) {
                processes.get(i).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        processes.clear();
    }
}
