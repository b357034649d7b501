package dev.strata.shredding.bench;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.TestMaps;
import dev.strata.testing.TempDirs;
import dev.strata.testing.maps.MapDataGenerator;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;

/**
 * Paimon's row path over a shredded primary-key table: a full read that merges four sorted runs of
 * one bucket, and a full compaction of them (on a fresh copy of the table each time). A main class,
 * not a test: {@code prepare DIR} writes the table (rows with {@code -Dstrata.bench.rows}, default
 * 400 000, in four commits, the later ones updating earlier ids), {@code run DIR [repeats]} times
 * both operations and prints one line each. To compare two builds, run {@code run} with each
 * build's classes first on the class path, alternating (see shredding/README.md).
 */
public final class RowPathBenchmark {

    private RowPathBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        if (args[0].equals("prepare")) {
            prepare(dir, Integer.getInteger("strata.bench.rows", 400_000));
            return;
        }
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String label = System.getProperty("strata.bench.label", "this build");
        for (int i = 0; i < repeats; i++) {
            long c0 = cpu();
            long t0 = System.nanoTime();
            long checksum = read(dir.resolve("warehouse"));
            long t1 = System.nanoTime();
            long c1 = cpu();
            Path copy = copyOf(dir, "copy-" + ProcessHandle.current().pid() + "-" + i);
            long c2 = cpu();
            long t2 = System.nanoTime();
            compact(copy.resolve("warehouse"));
            long t3 = System.nanoTime();
            long c3 = cpu();
            TempDirs.delete(copy);
            System.out.printf(
                    "%s: PK merge read %.2f s (CPU %.2f s, checksum %d); full compaction %.2f s (CPU %.2f s)%n",
                    label,
                    (t1 - t0) / 1e9,
                    (c1 - c0) / 1e9,
                    checksum,
                    (t3 - t2) / 1e9,
                    (c3 - c2) / 1e9);
        }
    }

    private static Catalog catalog(Path warehouse) {
        Options options = new Options();
        options.set("warehouse", warehouse.toUri().toString());
        return CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    private static void prepare(Path dir, int rows) throws Exception {
        try (Catalog catalog = catalog(dir.resolve("warehouse"))) {
            catalog.createDatabase("bench", true);
            Map<String, String> options = new HashMap<>();
            options.put(ShreddingOptions.layoutKey("m"), "shared-shredding");
            options.put(ShreddingOptions.maxColumnsKey("m"), "64");
            Schema.Builder b =
                    Schema.newBuilder()
                            .column("id", DataTypes.BIGINT().notNull())
                            .column(
                                    "m",
                                    DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.DOUBLE()))
                            .primaryKey("id")
                            .option("bucket", "1")
                            .option("write-only", "true");
            options.forEach(b::option);
            catalog.createTable(Identifier.create("bench", "pk"), b.build(), false);
            FileStoreTable table =
                    (FileStoreTable) catalog.getTable(Identifier.create("bench", "pk"));
            MapDataGenerator gen =
                    MapDataGenerator.builder(11L)
                            .keyUniverse(2000)
                            .keysPerRow(20, 40)
                            .duplicateKeyRate(0)
                            .nullMapRate(0.01)
                            .nullValueRate(0.01)
                            .unicodeKeys(false)
                            .emptyStringKey(false)
                            .families(50, 500)
                            .coreKeys(0.9)
                            .build();
            java.util.Random random = new java.util.Random(11L);
            int perCommit = rows / 4;
            for (int c = 0; c < 4; c++) {
                BatchWriteBuilder wb = table.newBatchWriteBuilder();
                try (BatchTableWrite w =
                                wb.newWrite().withIOManager(IOManager.create(dir.toString()));
                        BatchTableCommit commit = wb.newCommit()) {
                    for (int i = 0; i < perCommit; i++) {
                        long id = c == 0 ? i : random.nextInt(perCommit * 2);
                        w.write(GenericRow.of(id, TestMaps.toPaimon(gen.next())));
                    }
                    commit.commit(w.prepareCommit());
                }
            }
        }
    }

    /** Reads every row (merged) and returns a checksum of ids and map sizes. */
    private static long read(Path warehouse) throws Exception {
        try (Catalog catalog = catalog(warehouse)) {
            FileStoreTable table =
                    (FileStoreTable) catalog.getTable(Identifier.create("bench", "pk"));
            ReadBuilder rb = table.newReadBuilder();
            long[] sum = new long[1];
            try (RecordReader<InternalRow> r =
                    rb.newRead().createReader(rb.newScan().plan().splits())) {
                r.forEachRemaining(
                        row -> {
                            sum[0] +=
                                    row.getLong(0) * 31
                                            + (row.isNullAt(1) ? -1 : row.getMap(1).size());
                        });
            }
            return sum[0];
        }
    }

    private static void compact(Path warehouse) throws Exception {
        try (Catalog catalog = catalog(warehouse)) {
            FileStoreTable table =
                    (FileStoreTable) catalog.getTable(Identifier.create("bench", "pk"));
            table = table.copy(Map.of("write-only", "false"));
            BatchWriteBuilder wb = table.newBatchWriteBuilder();
            try (BatchTableWrite w =
                            wb.newWrite()
                                    .withIOManager(
                                            IOManager.create(warehouse.getParent().toString()));
                    BatchTableCommit c = wb.newCommit()) {
                w.compact(BinaryRow.EMPTY_ROW, 0, true);
                c.commit(w.prepareCommit());
            }
        }
    }

    private static Path copyOf(Path dir, String name) throws Exception {
        Path target = dir.resolveSibling(dir.getFileName() + "-" + name);
        Path from = dir.resolve("warehouse");
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path to = target.resolve("warehouse").resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return target;
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
