package dev.strata.launcher.storage;

import dev.strata.testing.TempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A full-text table of {@code -Dstrata.bench.docs} rows (default 1 000 000) on a standalone cluster
 * of two one-core workers, through {@code bin/strata-sql --driver-memory 1g}: one INSERT, {@code
 * CALL compact}, {@code CALL rebuild_pk_fulltext}, searches on the driver and on the executors,
 * {@code text_match} and a full count. The driver plans, commits and collects; rows, compaction and
 * archive builds stay on the executors, so a driver that gathered the table fails with {@code
 * OutOfMemoryError}. Prints the session's time and fails unless every answer equals what the
 * generated rows imply. Needs the packaged runtime jar ({@code mvn -B -DskipTests package}); run as
 * {@code bash benchmarks/target/run dev.strata.launcher.storage.ClusterDriverMemoryBenchmark} from
 * the repository root.
 */
final class ClusterDriverMemoryBenchmark {

    private ClusterDriverMemoryBenchmark() {}

    public static void main(String[] args) throws Exception {
        long docs = Long.getLong("strata.bench.docs", 1_000_000L);
        if (docs < 100_000 || docs > 2_000_000 || docs % 100_000 != 0) {
            throw new IllegalArgumentException(
                    "Cannot run the cluster benchmark for strata.bench.docs="
                            + docs
                            + ": the planted term is in every 100 000th row and the searches ask for 20 hits."
                            + " Use a multiple of 100000 up to 2000000.");
        }
        Path dir = Files.createTempDirectory("strata-cluster-bench-");
        PackagedLauncher launcher = new PackagedLauncher(dir);
        int exit = 0;
        try (StandaloneCluster cluster = new StandaloneCluster(dir.resolve("cluster"), 2)) {
            Path warehouse = Files.createDirectories(dir.resolve("wh"));
            String script =
                    String.join(
                            "\n",
                            "CREATE NAMESPACE lake.big;",
                            "CREATE TABLE lake.big.docs (id BIGINT NOT NULL, dt STRING NOT NULL,"
                                    + " body STRING) PARTITIONED BY (dt)",
                            "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '4',"
                                    + " 'deletion-vectors.enabled' = 'true',"
                                    + " 'strata-full-text.index.columns' = 'body');",
                            "INSERT INTO lake.big.docs SELECT id, IF(id % 2 = 0, 'a', 'b'),",
                            "  concat('document ', CAST(id AS STRING), ' about ',"
                                    + " element_at(array('disks', 'networks', 'queues',"
                                    + " 'caches', 'lakes'), CAST(id % 5 AS INT) + 1),"
                                    + " ' and the words around them, written by host ',"
                                    + " CAST(id % 97 AS STRING),"
                                    + " IF(id % 100000 = 3, ' zzplanted', ''))",
                            "FROM range(0, " + docs + ", 1, 8);",
                            "CALL lake.sys.compact(table => 'big.docs');",
                            "CALL lake.sys.rebuild_pk_fulltext(table => 'big.docs');",
                            "SELECT concat_ws(',', sort_array(collect_list(id))) AS planted"
                                    + " FROM full_text_search('lake.big.docs', 'body', 'zzplanted', 20);",
                            "SET spark.sql.strata.search.driverMaxBuckets = 0;",
                            "SELECT count(*) AS planted_on_executors"
                                    + " FROM full_text_search('lake.big.docs', 'body', 'zzplanted', 20);",
                            "SELECT count(*) AS lakes FROM lake.big.docs WHERE text_match(body, 'lakes');",
                            "SELECT count(*) AS all_docs, sum(id) AS total FROM lake.big.docs;");
            long start = System.nanoTime();
            PackagedLauncher.Result r =
                    launcher.run(
                            "--warehouse",
                            warehouse.toString(),
                            "--master",
                            cluster.masterUrl(),
                            "--driver-memory",
                            "1g",
                            "-e",
                            script);
            double seconds = (System.nanoTime() - start) / 1e9;

            long planted = docs / 100_000;
            List<String> plantedIds = new ArrayList<>();
            for (long i = 0; i < planted; i++) {
                plantedIds.add(Long.toString(i * 100_000 + 3));
            }
            List<String> wrong = new ArrayList<>();
            if (r.exit() != 0) {
                wrong.add("exit code " + r.exit());
            }
            if (r.err().contains("OutOfMemoryError")) {
                wrong.add("the driver ran out of memory");
            }
            expect(wrong, r.out(), "Inserted " + docs + " rows into lake.big.docs");
            expect(wrong, r.out(), String.join(",", plantedIds));
            expectPattern(wrong, r.out(), "\\|\\s*" + planted + "\\s*\\|");
            expectPattern(wrong, r.out(), "\\|\\s*" + docs / 5 + "\\s*\\|");
            expectPattern(
                    wrong,
                    r.out(),
                    "\\|\\s*" + docs + "\\s*\\|\\s*" + docs * (docs - 1) / 2 + "\\s*\\|");
            System.out.printf(
                    Locale.ROOT,
                    "cluster (2 workers x 1 core), driver -Xmx1g, %d rows: insert, compact, rebuild,"
                            + " 4 queries in %.1f s; %s%n",
                    docs,
                    seconds,
                    wrong.isEmpty() ? "every answer as expected" : "WRONG: " + wrong);
            if (!wrong.isEmpty()) {
                System.out.println(r);
                exit = 1;
            }
        } finally {
            TempDirs.delete(dir);
        }
        System.exit(exit);
    }

    private static void expect(List<String> wrong, String out, String text) {
        if (!out.contains(text)) {
            wrong.add("no '" + text + "' in the output");
        }
    }

    private static void expectPattern(List<String> wrong, String out, String regex) {
        if (!Pattern.compile(regex).matcher(out).find()) {
            wrong.add("no match of /" + regex + "/ in the output");
        }
    }
}
