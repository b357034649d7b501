package dev.strata.launcher.storage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.launcher.TestLaunches;
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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/strata-sql --master spark://... --warehouse hdfs://...}, as Strata runs at scale: a
 * real standalone cluster (one master, two worker JVMs, executors started from Spark's jars only)
 * over a real HDFS (Hadoop's MiniDFSCluster, a name node and a data node in this JVM, of the Hadoop
 * version Spark ships). The launcher ships its runtime jar and needs no other option (Spark's
 * distribution has the HDFS client); the acceptance scenarios run with their tasks, the archive
 * builds among them, on the executors, and the tables, snapshots and archives are in HDFS. That the
 * driver stays within 1 GB on a million-row table is a measurement at scale, {@code
 * ClusterDriverMemoryBenchmark} in the benchmarks module.
 */
class ClusterOnHdfsIT {

    @TempDir static Path dir;
    private static MiniDFSCluster hdfs;
    private static StandaloneCluster cluster;
    private static PackagedLauncher launcher;

    @BeforeAll
    static void startHdfsAndCluster() throws Exception {
        launcher = new PackagedLauncher(dir, TestLaunches.WITHOUT_ARCHIVE);
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("hdfs").toString());
        conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
        conf.set("dfs.datanode.address", "127.0.0.1:0");
        conf.set("dfs.datanode.http.address", "127.0.0.1:0");
        conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
        conf.set("dfs.namenode.http-address", "127.0.0.1:0");
        try {
            hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
            hdfs.waitActive();
        } catch (Exception | LinkageError e) {
            throw new AssertionError(
                    "Cannot start HDFS (MiniDFSCluster of hadoop-client-minicluster "
                            + org.apache.hadoop.util.VersionInfo.getVersion()
                            + ") under "
                            + dir
                            + ": "
                            + e,
                    e);
        }
        cluster = new StandaloneCluster(dir.resolve("cluster"), 2, TestLaunches.JVM_OPTIONS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (hdfs != null) {
            hdfs.shutdown();
        }
    }

    @Test
    void theAcceptanceScenariosRunOnExecutorsOverHdfsWithNoOptionButTheMaster() throws Exception {
        // Before the launcher shipped its jar, every task failed with "cannot assign instance of
        // java.lang.invoke.SerializedLambda"; the settings below only write Spark's event log.
        FileSystem fs = hdfs.getFileSystem();
        fs.mkdirs(new org.apache.hadoop.fs.Path("/lake/wh"));
        String warehouse = "hdfs://127.0.0.1:" + hdfs.getNameNodePort() + "/lake/wh";
        Path events = Files.createDirectories(dir.resolve("events"));
        PackagedLauncher.Result r =
                launcher.run(
                        AcceptanceScenarios.args(
                                        warehouse,
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

        // The tables, snapshots and archives are in HDFS, not on a local disk.
        FileStatus[] snapshots =
                fs.listStatus(new org.apache.hadoop.fs.Path("/lake/wh/acc.db/docs/snapshot"));
        assertThat(snapshots).as("snapshot files on HDFS").hasSizeGreaterThan(3);
        assertThat(
                        AcceptanceScenarios.count(
                                listRecursively(fs, "/lake/wh/acc.db/docs"), "\\.parquet"))
                .isPositive();

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

    private static String listRecursively(FileSystem fs, String path) throws Exception {
        StringBuilder b = new StringBuilder();
        org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
                fs.listFiles(new org.apache.hadoop.fs.Path(path), true);
        while (files.hasNext()) {
            b.append(files.next().getPath()).append('\n');
        }
        return b.toString();
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
