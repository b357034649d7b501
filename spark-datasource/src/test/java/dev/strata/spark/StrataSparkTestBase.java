package dev.strata.spark;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.search.SearchHit;
import dev.strata.testing.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * A real local Spark session per test class, over the test JVM's one Spark context ({@link
 * SharedSpark}), with a Strata catalog {@code lake} over a fresh temporary Paimon warehouse and
 * Spark's own session catalog (parquet tables, the usual oracle; dropped after the class).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StrataSparkTestBase {

    protected SparkSession spark;
    protected Path root;
    protected Path warehouse;
    private Map<String, String> sessionConf;

    /** Extra session (SQL) configuration of a test class. */
    protected Map<String, String> extraConf() {
        return Map.of();
    }

    @BeforeAll
    void startSpark() throws IOException {
        root = Files.createTempDirectory("strata-test-");
        warehouse = root.resolve("warehouse");
        Map<String, String> conf = new HashMap<>();
        conf.put("spark.sql.shuffle.partitions", "4");
        conf.put("spark.sql.session.timeZone", "UTC");
        conf.put("spark.sql.catalog.lake", StrataCatalog.class.getName());
        conf.put("spark.sql.catalog.lake.warehouse", warehouse.toUri().toString());
        conf.putAll(extraConf());
        sessionConf = Map.copyOf(conf);
        spark = SharedSpark.newSession(Map.of(), conf);
    }

    @AfterAll
    void stopSpark() throws IOException {
        SharedSpark.release(spark);
        TempDirs.delete(root);
    }

    /**
     * Another session of the shared context with this class's session settings (catalog {@code
     * lake} included): they are the class session's own, not the context's.
     */
    protected SparkSession newSession() {
        SparkSession other = spark.newSession();
        sessionConf.forEach((k, v) -> other.conf().set(k, v));
        return other;
    }

    /** Runs SQL and collects the rows. */
    protected List<Row> sql(String query, Object... args) {
        return spark.sql(args.length == 0 ? query : String.format(query, args)).collectAsList();
    }

    protected Dataset<Row> df(String query, Object... args) {
        return spark.sql(args.length == 0 ? query : String.format(query, args));
    }

    /** The rows as lists of values, for readable comparisons. */
    protected static List<List<Object>> values(List<Row> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (Row row : rows) {
            List<Object> cells = new ArrayList<>();
            for (int i = 0; i < row.length(); i++) {
                cells.add(row.get(i));
            }
            out.add(cells);
        }
        return out;
    }

    /**
     * The Paimon table behind {@code lake.<db>.<name>}, opened with Paimon's own API (no Spark).
     */
    protected FileStoreTable paimonTable(String db, String name) throws Exception {
        try (org.apache.paimon.catalog.Catalog catalog = paimonCatalog()) {
            return (FileStoreTable)
                    catalog.getTable(org.apache.paimon.catalog.Identifier.create(db, name));
        }
    }

    /**
     * Creates {@code <db>.<name>} (the database must exist) with Paimon's own API, as another
     * Paimon engine would define it.
     */
    protected void createPaimonTable(String db, String name, org.apache.paimon.schema.Schema schema)
            throws Exception {
        try (org.apache.paimon.catalog.Catalog catalog = paimonCatalog()) {
            catalog.createTable(
                    org.apache.paimon.catalog.Identifier.create(db, name), schema, false);
        }
    }

    protected org.apache.paimon.catalog.Catalog paimonCatalog() {
        Options options = new Options();
        options.set("warehouse", warehouse.toUri().toString());
        return CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    /**
     * The {@code id} column (BIGINT) of the row a full-text hit points at, read through the
     * searcher at {@code snapshot}.
     */
    protected static long hitId(PkFullTextSearcher searcher, long snapshot, SearchHit hit)
            throws IOException {
        return searcher.readRows(
                        snapshot,
                        hit.partition(),
                        hit.bucket(),
                        hit.fileName(),
                        new long[] {hit.position()},
                        List.of("id"))
                .get(0)
                .getLong(0);
    }

    /** Names of all data files under a table's directory. */
    protected List<String> dataFilesOnDisk(String db, String name) throws IOException {
        Path dir = warehouse.resolve(db + ".db").resolve(name);
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .map(p -> dir.relativize(p).toString())
                    .filter(p -> p.contains("bucket-") && p.contains("data-"))
                    .sorted()
                    .toList();
        }
    }

    protected static List<Object> list(Object... values) {
        return Arrays.asList(values);
    }

    /**
     * The data, postpone and index files under a table directory, relative to it (not snapshots,
     * manifests, schemas or checksum sidecars): what a failed job must leave exactly as it found
     * it.
     */
    protected static List<String> dataAndIndexFilesOnDisk(Path tableDir) throws IOException {
        try (Stream<Path> files = Files.walk(tableDir)) {
            return files.filter(Files::isRegularFile)
                    .map(p -> tableDir.relativize(p).toString())
                    .filter(
                            p ->
                                    !p.startsWith("snapshot")
                                            && !p.startsWith("manifest")
                                            && !p.startsWith("schema")
                                            && !p.endsWith(".crc"))
                    .sorted()
                    .toList();
        }
    }

    /** Names of the data and index files that some snapshot of {@code table} references. */
    protected static List<String> referencedFileNames(FileStoreTable table) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        Long earliest = table.snapshotManager().earliestSnapshotId();
        Long latest = table.snapshotManager().latestSnapshotId();
        for (long id = earliest == null ? 1 : earliest; latest != null && id <= latest; id++) {
            org.apache.paimon.Snapshot snapshot = table.snapshotManager().snapshot(id);
            table.store()
                    .newScan()
                    .withSnapshot(snapshot)
                    .plan()
                    .files()
                    .forEach(e -> names.add(e.file().fileName()));
            if (snapshot.indexManifest() != null) {
                table.store()
                        .newIndexFileHandler()
                        .scan(snapshot, e -> true)
                        .forEach(e -> names.add(e.indexFile().fileName()));
            }
        }
        return new ArrayList<>(names);
    }
}
