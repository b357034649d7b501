package dev.strata.launcher.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance scenarios through {@code bin/strata-sql --warehouse hdfs://...} on a real HDFS
 * (Hadoop's MiniDFSCluster, a name node and a data node in this JVM, of the Hadoop version Spark
 * ships). Spark's distribution has the HDFS client, so the launcher needs no extra jar.
 */
class HdfsIT {

    @TempDir static Path dir;
    private static MiniDFSCluster hdfs;
    private static PackagedLauncher launcher;

    @BeforeAll
    static void startHdfs() throws Exception {
        launcher = new PackagedLauncher(dir);
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
    }

    @AfterAll
    static void stopHdfs() {
        if (hdfs != null) {
            hdfs.shutdown();
        }
    }

    @Test
    void theAcceptanceScenariosRunOnHdfs() throws Exception {
        String warehouse = "hdfs://127.0.0.1:" + hdfs.getNameNodePort() + "/lake/wh";
        FileSystem fs = hdfs.getFileSystem();
        fs.mkdirs(new org.apache.hadoop.fs.Path("/lake/wh"));
        PackagedLauncher.Result r =
                launcher.run(
                        AcceptanceScenarios.args(warehouse, "local[2]").toArray(String[]::new));
        AcceptanceScenarios.check(r);
        // The tables, snapshots and archives are in HDFS, not on a local disk.
        FileStatus[] snapshots =
                fs.listStatus(new org.apache.hadoop.fs.Path("/lake/wh/acc.db/docs/snapshot"));
        assertThat(snapshots).as("snapshot files on HDFS").hasSizeGreaterThan(3);
        assertThat(
                        AcceptanceScenarios.count(
                                listRecursively(fs, "/lake/wh/acc.db/docs"), "\\.parquet"))
                .isPositive();
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
}
