package dev.strata.launcher.storage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/strata-sql --master spark://...} against a real standalone cluster (one master, two
 * worker JVMs, executors started from Spark's jars only): the launcher ships its runtime jar, and
 * the acceptance scenarios run with their tasks, the archive builds among them, on the executors.
 * That the driver stays within 1 GB on a million-row table is a measurement at scale, {@code
 * ClusterDriverMemoryBenchmark} in the benchmarks module.
 */
class StandaloneClusterIT {

    @TempDir static Path dir;
    private static StandaloneCluster cluster;
    private static PackagedLauncher launcher;

    @BeforeAll
    static void startCluster() throws Exception {
        launcher = new PackagedLauncher(dir);
        cluster = new StandaloneCluster(dir.resolve("cluster"), 2);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aSessionOnTheClusterNeedsNoOptionAndRunsTheAcceptanceScenariosOnExecutors()
            throws Exception {
        // No option beyond the master: before the launcher shipped its jar, every task failed
        // with "cannot assign instance of java.lang.invoke.SerializedLambda".
        Path plain = Files.createDirectories(dir.resolve("plain"));
        PackagedLauncher.Result first =
                launcher.run(
                        "--warehouse",
                        plain.toString(),
                        "--master",
                        cluster.masterUrl(),
                        "-e",
                        "CREATE NAMESPACE lake.c; CREATE TABLE lake.c.t (id BIGINT, s STRING);"
                                + " INSERT INTO lake.c.t SELECT id, CAST(id AS STRING) FROM range(0, 100, 1, 4);"
                                + " SELECT count(*) AS n, sum(id) AS total FROM lake.c.t");
        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(first.out())
                .as(first.toString())
                .contains("Inserted 100 rows into lake.c.t")
                .containsPattern("\\|\\s*100\\s*\\|\\s*4950\\s*\\|");

        Path events = Files.createDirectories(dir.resolve("events"));
        Path warehouse = Files.createDirectories(dir.resolve("wh"));
        PackagedLauncher.Result r =
                launcher.run(
                        AcceptanceScenarios.args(
                                        warehouse.toString(),
                                        cluster.masterUrl(),
                                        "--conf",
                                        "spark.eventLog.enabled=true",
                                        "--conf",
                                        "spark.eventLog.dir=" + events.toUri(),
                                        "--conf",
                                        "spark.eventLog.compress=false",
                                        "--conf",
                                        "spark.eventLog.rolling.enabled=false")
                                .toArray(String[]::new));
        AcceptanceScenarios.check(r);

        // Which executors ran the successful tasks of each job, by job description.
        Map<String, Set<String>> executorsByJob = executorsByJob(events);
        Set<String> allExecutors = new TreeSet<>();
        executorsByJob.values().forEach(allExecutors::addAll);
        assertThat(allExecutors).as(executorsByJob.toString()).hasSize(2).doesNotContain("driver");
        assertThat(executorsFor(executorsByJob, "Strata rebuild_pk_fulltext lake.acc.docs"))
                .as(executorsByJob.toString())
                .isNotEmpty()
                .doesNotContain("driver");
        assertThat(executorsFor(executorsByJob, "Strata compact lake.acc.docs"))
                .as(executorsByJob.toString())
                .isNotEmpty()
                .doesNotContain("driver");
        // The executors' own logs: Strata's classes came from the shipped jar.
        String executorLogs = executorLogs();
        assertThat(executorLogs)
                .as("executor logs")
                .contains("Fetching spark://")
                .contains(PackagedLauncher.runtimeJar().getFileName().toString());
    }

    private static Set<String> executorsFor(Map<String, Set<String>> byJob, String prefix) {
        Set<String> executors = new TreeSet<>();
        byJob.forEach(
                (description, ids) -> {
                    if (description.startsWith(prefix)) {
                        executors.addAll(ids);
                    }
                });
        return executors;
    }

    /** Job description to the executor ids of its successful tasks, from Spark's event log. */
    static Map<String, Set<String>> executorsByJob(Path eventDir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<Integer, String> stageToJob = new HashMap<>();
        Map<String, Set<String>> result = new HashMap<>();
        List<Path> logs;
        try (Stream<Path> files = Files.list(eventDir)) {
            logs = files.filter(Files::isRegularFile).toList();
        }
        assertThat(logs).as("event logs in " + eventDir).hasSize(1);
        for (String line : Files.readAllLines(logs.get(0), StandardCharsets.UTF_8)) {
            JsonNode event = json.readTree(line);
            String type = event.path("Event").asText();
            if (type.equals("SparkListenerJobStart")) {
                String description =
                        event.path("Properties").path("spark.job.description").asText("");
                for (JsonNode stage : event.path("Stage IDs")) {
                    stageToJob.put(stage.asInt(), description);
                }
            } else if (type.equals("SparkListenerTaskEnd")
                    && event.path("Task End Reason").path("Reason").asText().equals("Success")) {
                String description = stageToJob.getOrDefault(event.path("Stage ID").asInt(), "");
                result.computeIfAbsent(description, k -> new TreeSet<>())
                        .add(event.path("Task Info").path("Executor ID").asText());
            }
        }
        return result;
    }

    private static String executorLogs() throws IOException {
        StringBuilder b = new StringBuilder();
        for (Path work : cluster.workDirs()) {
            try (Stream<Path> files = Files.walk(work)) {
                for (Path f :
                        files.filter(p -> p.getFileName().toString().equals("stderr")).toList()) {
                    b.append(Files.readString(f, StandardCharsets.UTF_8));
                }
            }
        }
        return b.toString();
    }
}
