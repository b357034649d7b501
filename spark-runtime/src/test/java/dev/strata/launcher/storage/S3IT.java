package dev.strata.launcher.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.launcher.TestLaunches;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/strata-sql --warehouse s3a://...} against an S3 API server in this JVM (S3Proxy with
 * its in-memory blob store), through Hadoop's s3a with exactly the jars the README tells users to
 * add. Object stores have no atomic rename, so a filesystem catalog there is refused; Paimon's JDBC
 * catalog with its lock (here on SQLite) makes concurrent commits safe, which two concurrent
 * writers show.
 */
class S3IT {

    private static final String ACCESS_KEY = "strata-access";
    private static final String SECRET_KEY = "strata-secret";
    private static final String BUCKET = "lake";

    @TempDir static Path dir;
    private static S3Proxy s3;
    private static BlobStoreContext blobs;
    private static PackagedLauncher launcher;

    @BeforeAll
    static void startS3() throws Exception {
        launcher = new PackagedLauncher(dir, TestLaunches.WITHOUT_ARCHIVE);
        try {
            blobs =
                    ContextBuilder.newBuilder("transient")
                            .credentials(ACCESS_KEY, SECRET_KEY)
                            .build(BlobStoreContext.class);
            s3 =
                    S3Proxy.builder()
                            .blobStore(blobs.getBlobStore())
                            .endpoint(URI.create("http://127.0.0.1:0"))
                            .awsAuthentication(
                                    AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                            .build();
            s3.start();
            long end = System.nanoTime() + 30_000_000_000L;
            while (!"STARTED".equals(s3.getState()) && System.nanoTime() < end) {
                Thread.sleep(100);
            }
            if (!"STARTED".equals(s3.getState())) {
                throw new IllegalStateException("state " + s3.getState() + " after 30 s");
            }
            blobs.getBlobStore().createContainerInLocation(null, BUCKET);
        } catch (Exception | LinkageError e) {
            throw new AssertionError(
                    "Cannot start the S3 server (org.gaul:s3proxy, transient blob store) on 127.0.0.1: "
                            + e,
                    e);
        }
    }

    @AfterAll
    static void stopS3() throws Exception {
        if (s3 != null) {
            s3.stop();
        }
        if (blobs != null) {
            blobs.close();
        }
    }

    /** The jars a user adds for s3a (README), from the test classpath. */
    private static String s3aJars() {
        return String.join(
                ",",
                PackagedLauncher.testClasspathJar("hadoop-aws-").toString(),
                PackagedLauncher.testClasspathJar("bundle-").toString(),
                PackagedLauncher.testClasspathJar("analyticsaccelerator-s3-").toString(),
                PackagedLauncher.testClasspathJar("sqlite-jdbc-").toString());
    }

    private static List<String> s3Args(String warehouse, String... more) {
        List<String> args = new ArrayList<>();
        args.addAll(List.of("--warehouse", warehouse, "--jars", s3aJars()));
        for (String conf :
                List.of(
                        "spark.hadoop.fs.s3a.endpoint=http://127.0.0.1:" + s3.getPort(),
                        "spark.hadoop.fs.s3a.endpoint.region=us-east-1",
                        "spark.hadoop.fs.s3a.path.style.access=true",
                        "spark.hadoop.fs.s3a.connection.ssl.enabled=false",
                        "spark.hadoop.fs.s3a.access.key=" + ACCESS_KEY,
                        "spark.hadoop.fs.s3a.secret.key=" + SECRET_KEY)) {
            args.add("--conf");
            args.add(conf);
        }
        args.addAll(List.of(more));
        return args;
    }

    /** Paimon's JDBC catalog over an SQLite file, with its commit lock. */
    private static String[] lockedCatalog(String name) {
        String db = dir.resolve(name + ".sqlite").toAbsolutePath().toString();
        return new String[] {
            "--conf",
            "spark.sql.catalog.lake.metastore=jdbc",
            "--conf",
            "spark.sql.catalog.lake.uri=jdbc:sqlite:" + db,
            "--conf",
            "spark.sql.catalog.lake.catalog-key=" + name,
            // Without these SQLite answered the other process's lock writes with SQLITE_BUSY, and
            // Paimon failed the commit after 10 retries: wait for the database, and let readers
            // and the writer work at once.
            "--conf",
            "spark.sql.catalog.lake.jdbc.busy_timeout=60000",
            "--conf",
            "spark.sql.catalog.lake.jdbc.journal_mode=WAL",
            "--conf",
            "spark.sql.catalog.lake.lock.enabled=true"
        };
    }

    private static String[] withScript(List<String> args, String sql) {
        List<String> all = new ArrayList<>(args);
        all.add("-e");
        all.add(sql);
        return all.toArray(String[]::new);
    }

    @Test
    void theAcceptanceScenariosRunOnS3WithALockedCatalog() throws Exception {
        String warehouse = "s3a://" + BUCKET + "/acceptance";
        PackagedLauncher.Result r =
                launcher.run(
                        withScript(
                                s3Args(warehouse, lockedCatalog("acceptance")),
                                AcceptanceScenarios.SCRIPT));
        AcceptanceScenarios.check(r);
        List<String> keys = new ArrayList<>();
        for (StorageMetadata m :
                blobs.getBlobStore()
                        .list(
                                BUCKET,
                                ListContainerOptions.Builder.prefix("acceptance/").recursive())) {
            keys.add(m.getName());
        }
        assertThat(keys)
                .as("objects in the bucket")
                .anyMatch(k -> k.startsWith("acceptance/acc.db/docs/snapshot/snapshot-"))
                .anyMatch(k -> k.endsWith(".parquet"));
    }

    @Test
    @EnabledIf("dev.strata.launcher.TestLaunches#onTheLaunchersDefaultMinor")
    void aFilesystemCatalogOnS3IsRefusedAtCreateTableAndAtTheFirstCommit() throws Exception {
        String warehouse = "s3a://" + BUCKET + "/unlocked";
        PackagedLauncher.Result refused =
                launcher.run(
                        withScript(
                                s3Args(warehouse),
                                "CREATE NAMESPACE lake.u; CREATE TABLE lake.u.t (id BIGINT)"));
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err())
                .as(refused.toString())
                .contains("Cannot create table lake.u.t at " + warehouse)
                .contains("object store, which has no atomic rename")
                .contains("spark.sql.catalog.lake.lock.enabled=true");

        // A single writer may say so; a table created that way is still refused at its first
        // commit by a session that did not.
        PackagedLauncher.Result single =
                launcher.run(
                        withScript(
                                s3Args(
                                        warehouse,
                                        "--conf",
                                        "spark.sql.catalog.lake.lock.enabled=false"),
                                "CREATE TABLE lake.u.t (id BIGINT); INSERT INTO lake.u.t VALUES (1)"));
        assertThat(single.exit()).as(single.toString()).isZero();
        assertThat(single.out()).contains("Inserted 1 row into lake.u.t");
        PackagedLauncher.Result commit =
                launcher.run(withScript(s3Args(warehouse), "INSERT INTO lake.u.t VALUES (2)"));
        assertThat(commit.exit()).as(commit.toString()).isEqualTo(1);
        assertThat(commit.err())
                .as(commit.toString())
                .contains("Cannot commit the write (append) to lake.u.t")
                .contains("no atomic rename")
                .contains("spark.sql.catalog.lake.lock.enabled=true");
    }

    @Test
    @EnabledIf("dev.strata.launcher.TestLaunches#onTheLaunchersDefaultMinor")
    void twoConcurrentWritersWithTheJdbcLockLoseNoCommitSilently() throws Exception {
        String warehouse = "s3a://" + BUCKET + "/concurrent";
        String[] catalog = lockedCatalog("concurrent");
        PackagedLauncher.Result setup =
                launcher.run(
                        withScript(
                                s3Args(warehouse, catalog),
                                "CREATE NAMESPACE lake.cc; CREATE TABLE lake.cc.events (id BIGINT, writer STRING)"));
        assertThat(setup.exit()).as(setup.toString()).isZero();

        int statements = 3;
        String[][] writerArgs = new String[2][];
        Process[] writers = new Process[2];
        for (int w = 0; w < 2; w++) {
            StringBuilder sql = new StringBuilder();
            for (int s = 0; s < statements; s++) {
                long from = (w * statements + s) * 100L;
                sql.append(
                        String.format(
                                "INSERT INTO lake.cc.events SELECT id, 'w%d' FROM range(%d, %d);\n",
                                w, from, from + 100));
            }
            writerArgs[w] = withScript(s3Args(warehouse, catalog), sql.toString());
            writers[w] = launcher.start(writerArgs[w]);
        }
        // A statement either prints its snapshot or fails with an error; its rows must be in the
        // table exactly when it said it committed them, in a snapshot of its own.
        Set<Long> snapshots = new TreeSet<>();
        long expectedRows = 0;
        long expectedSum = 0;
        StringBuilder outputs = new StringBuilder();
        for (int w = 0; w < 2; w++) {
            PackagedLauncher.Result r = launcher.finish(writers[w], 900, writerArgs[w]);
            outputs.append(r).append('\n');
            Matcher m =
                    Pattern.compile("Inserted 100 rows into lake.cc.events \\(snapshot (\\d+)\\)")
                            .matcher(r.out());
            int committed = 0;
            while (m.find()) {
                snapshots.add(Long.parseLong(m.group(1)));
                long from = (w * statements + committed) * 100L;
                expectedRows += 100;
                expectedSum += (from + from + 99) * 100 / 2;
                committed++;
            }
            if (committed < statements) {
                assertThat(r.exit()).as(r.toString()).isEqualTo(1);
                assertThat(r.err()).as(r.toString()).contains("Cannot commit the write");
            } else {
                assertThat(r.exit()).as(r.toString()).isZero();
            }
        }
        assertThat(expectedRows).as(outputs.toString()).isPositive();
        assertThat(snapshots).as(outputs.toString()).hasSize((int) (expectedRows / 100));
        PackagedLauncher.Result check =
                launcher.run(
                        withScript(
                                s3Args(warehouse, catalog),
                                "SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(id) AS total FROM lake.cc.events;"
                                        + " SELECT count(*) AS commits FROM lake.cc.`events$snapshots`"));
        assertThat(check.exit()).as(check.toString()).isZero();
        assertThat(check.out())
                .as(outputs + "\n" + check)
                .containsPattern(
                        "\\|\\s*"
                                + expectedRows
                                + "\\s*\\|\\s*"
                                + expectedRows
                                + "\\s*\\|\\s*"
                                + expectedSum
                                + "\\s*\\|")
                .containsPattern("\\|\\s*" + snapshots.size() + "\\s*\\|");
    }
}
