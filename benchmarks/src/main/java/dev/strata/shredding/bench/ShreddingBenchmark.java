package dev.strata.shredding.bench;

import dev.strata.shredding.ShreddedReadHandover;
import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.ShreddedReadMetrics.Counter;
import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.parquet.ArrayBackedMap;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ParquetSchemas;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Shredded vs default layout through Paimon's own write and read paths (issue 3's benchmark): N
 * rows (default 2 000 000; {@code -Dstrata.bench.rows=...}), a 2 000-key universe, ~40 keys a row,
 * DOUBLE values. Prints write-time and bytes ratios, bytes and time ratios of reading 1, 3 and 10
 * keys, and how many more row groups the per-key zone statistics skip than Parquet statistics
 * alone. A main class, not a test: see shredding/README.md for the command.
 */
public final class ShreddingBenchmark {

    private static final int BATCH = 100_000;

    public static void main(String[] args) throws Exception {
        int rows = Integer.getInteger("strata.bench.rows", 2_000_000);
        long seed = Long.getLong("strata.bench.seed", 7L);
        java.nio.file.Path dir = Files.createTempDirectory("strata-bench");
        Options options = new Options();
        options.set("warehouse", dir.resolve("warehouse").toUri().toString());
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            catalog.createDatabase("bench", true);
            FileStoreTable shredded = create(catalog, "shredded", true);
            FileStoreTable plain = create(catalog, "plain", false);
            MapDataGenerator gen =
                    MapDataGenerator.builder(seed)
                            .keyUniverse(2000)
                            .keysPerRow(40, 60)
                            .nullMapRate(0.01)
                            .emptyMapRate(0.0)
                            .nullValueRate(0.01)
                            .unicodeKeys(false)
                            .emptyStringKey(false)
                            .families(50, 500)
                            .coreKeys(0.95)
                            .build();
            long shreddedNanos = 0;
            long plainNanos = 0;
            long shreddedCpu = 0;
            long plainCpu = 0;
            for (int start = 0; start < rows; start += BATCH) {
                int n = Math.min(BATCH, rows - start);
                List<InternalRow> batch = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    GeneratedMap g = gen.next();
                    batch.add(GenericRow.of((long) (start + i), toMap(g)));
                }
                // Alternate the order so neither layout always runs on a warmer JVM.
                for (int turn = 0; turn < 2; turn++) {
                    boolean doShredded = (turn == 0) == ((start / BATCH) % 2 == 0);
                    long c0 = cpu();
                    long t = write(doShredded ? shredded : plain, batch);
                    long c = cpu() - c0;
                    if (doShredded) {
                        shreddedNanos += t;
                        shreddedCpu += c;
                    } else {
                        plainNanos += t;
                        plainCpu += c;
                    }
                }
            }
            System.out.printf(
                    "write time: shredded %.1f s, default %.1f s -> shredded speed = %.2fx default"
                            + " (process CPU: %.1f s vs %.1f s -> %.2fx)%n",
                    shreddedNanos / 1e9,
                    plainNanos / 1e9,
                    (double) plainNanos / shreddedNanos,
                    shreddedCpu / 1e9,
                    plainCpu / 1e9,
                    (double) plainCpu / shreddedCpu);
            long cc0 = cpu();
            long ct0 = System.nanoTime();
            compact(shredded);
            long ct1 = System.nanoTime();
            long cc1 = cpu();
            compact(plain);
            long ct2 = System.nanoTime();
            long cc2 = cpu();
            System.out.printf(
                    "full compaction: shredded %.1f s, default %.1f s -> %.2fx (CPU %.2fx)%n",
                    (ct1 - ct0) / 1e9,
                    (ct2 - ct1) / 1e9,
                    (double) (ct2 - ct1) / (ct1 - ct0),
                    (double) (cc2 - cc1) / (cc1 - cc0));
            long shreddedBytes = totalBytes(shredded);
            long plainBytes = totalBytes(plain);
            System.out.printf(
                    "rows=%d keys/row~40 universe=2000 files: shredded=%d default=%d%n",
                    rows, files(shredded).size(), files(plain).size());
            System.out.printf(
                    "bytes: shredded %,d, default %,d -> ratio %.3f%n",
                    shreddedBytes, plainBytes, (double) shreddedBytes / plainBytes);

            List<String> universe = gen.keyUniverse();
            for (int nKeys : new int[] {1, 3, 10}) {
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < nKeys; i++) {
                    keys.add(universe.get((i * 397 + 11) % universe.size()));
                }
                long shreddedRead = readBytesShredded(shredded, keys);
                long plainRead = readBytesPlain(plain);
                readLookups(
                        shredded.copy(ShreddedReadHandover.encode(Map.of("m", keys), null, false)),
                        keys);
                readLookups(plain, keys);
                long c0 = cpu();
                long t0 = System.nanoTime();
                double a =
                        readLookups(
                                shredded.copy(
                                        ShreddedReadHandover.encode(
                                                Map.of("m", keys), null, false)),
                                keys);
                long t1 = System.nanoTime();
                long c1 = cpu();
                double b = readLookups(plain, keys);
                long t2 = System.nanoTime();
                long c2 = cpu();
                if (Double.compare(a, b) != 0) {
                    throw new IllegalStateException("answers differ: " + a + " vs " + b);
                }
                System.out.printf(
                        "read %2d keys: bytes shredded %,d vs default %,d (%.3f); time shredded %.2f s vs default %.2f s"
                                + " (%.2fx faster; CPU %.2fx)%n",
                        nKeys,
                        shreddedRead,
                        plainRead,
                        (double) shreddedRead / plainRead,
                        (t1 - t0) / 1e9,
                        (t2 - t1) / 1e9,
                        (double) (t2 - t1) / (t1 - t0),
                        (double) (c2 - c1) / (c1 - c0));
            }

            long total = 0;
            long skipped = 0;
            long zoneOnly = 0;
            for (int i = 0; i < 20; i++) {
                int keyIndex = (i * 101 + 3) % universe.size();
                MapPredicate p =
                        MapPredicate.leaf(
                                "m",
                                universe.get(keyIndex),
                                MapPredicate.Op.GT,
                                MapDataGenerator.valueBase(keyIndex) + 9.5);
                try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
                    readLookups(
                            shredded.copy(
                                    ShreddedReadHandover.encode(
                                            Map.of("m", List.of(universe.get(keyIndex))), p, true)),
                            List.of(universe.get(keyIndex)));
                    ShreddedReadMetrics.Snapshot s = scope.snapshot();
                    total += s.get(Counter.ROW_GROUPS_TOTAL);
                    skipped += s.get(Counter.ROW_GROUPS_SKIPPED);
                    zoneOnly += s.get(Counter.ROW_GROUPS_SKIPPED_BY_ZONE_STATS_ONLY);
                }
            }
            System.out.printf(
                    "20 predicates m[k] > top-5%% value: row groups %d, skipped %d, of which %d only by per-key zone stats"
                            + " (Parquet statistics alone: %d)%n",
                    total, skipped, zoneOnly, skipped - zoneOnly);
        }
    }

    /**
     * CPU time of the whole process (all threads, GC included): less noisy than wall time on a
     * shared machine.
     */
    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static FileStoreTable create(Catalog catalog, String name, boolean shredded)
            throws Exception {
        Map<String, String> o = new HashMap<>();
        if (shredded) {
            o.put(ShreddingOptions.layoutKey("m"), "shared-shredding");
            // strata.bench.policy: the placement policy (default lru, Paimon's default; stable is
            // Strata's own).
            String policy = System.getProperty("strata.bench.policy", "lru");
            o.put(ShreddingOptions.policyKey("m", policy), policy);
        }
        o.put("bucket", "1");
        o.put("bucket-key", "id");
        o.put("file.block-size", System.getProperty("strata.bench.row-group", "16 mb"));
        o.put("target-file-size", "256 mb");
        o.put("file.compression", "zstd");
        // Writes only write; the compaction into one file per table is timed separately below.
        o.put("write-only", "true");
        var rowType =
                org.apache.paimon.types.RowType.of(
                        new org.apache.paimon.types.DataType[] {
                            DataTypes.BIGINT(),
                            DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.DOUBLE())
                        },
                        new String[] {"id", "m"});
        ShreddingOptions.validate("bench." + name, rowType, o);
        Schema.Builder b =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column(
                                "m",
                                DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.DOUBLE()))
                        .options(o);
        catalog.createTable(Identifier.create("bench", name), b.build(), false);
        return (FileStoreTable) catalog.getTable(Identifier.create("bench", name));
    }

    private static InternalMap toMap(GeneratedMap g) {
        if (g.isNull()) {
            return null;
        }
        Object[] k = new Object[g.size()];
        Object[] v = new Object[g.size()];
        for (int i = 0; i < k.length; i++) {
            k[i] = BinaryString.fromString(g.keys().get(i));
            v[i] = g.values().get(i);
        }
        return new ArrayBackedMap(k, v);
    }

    private static void compact(FileStoreTable table) throws Exception {
        BatchWriteBuilder wb = table.copy(Map.of("write-only", "false")).newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite();
                BatchTableCommit c = wb.newCommit()) {
            w.compact(org.apache.paimon.data.BinaryRow.EMPTY_ROW, 0, true);
            c.commit(w.prepareCommit());
        }
    }

    private static long write(FileStoreTable table, List<InternalRow> rows) throws Exception {
        long t0 = System.nanoTime();
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite();
                BatchTableCommit c = wb.newCommit()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            c.commit(w.prepareCommit());
        }
        return System.nanoTime() - t0;
    }

    private static List<Path> files(FileStoreTable table) {
        List<Path> out = new ArrayList<>();
        for (Split s : table.newReadBuilder().newScan().plan().splits()) {
            DataSplit d = (DataSplit) s;
            for (DataFileMeta f : d.dataFiles()) {
                out.add(new Path(table.location(), "bucket-" + d.bucket() + "/" + f.fileName()));
            }
        }
        return out;
    }

    private static long totalBytes(FileStoreTable table) throws Exception {
        long sum = 0;
        for (Path p : files(table)) {
            sum += table.fileIO().getFileSize(p);
        }
        return sum;
    }

    private static ParquetMetadata footer(FileStoreTable table, Path p) throws Exception {
        try (ParquetFileReader r =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(table.fileIO(), p, table.fileIO().getFileSize(p)),
                        ParquetReadOptions.builder().build())) {
            return r.getFooter();
        }
    }

    /**
     * Column-chunk bytes a selected-key read of the map fetches: mapping, S columns, overflow if
     * needed.
     */
    private static long readBytesShredded(FileStoreTable table, List<String> keys)
            throws Exception {
        long sum = 0;
        for (Path p : files(table)) {
            ParquetMetadata f = footer(table, p);
            ShreddedColumnMeta meta =
                    ShreddingFooter.decode(
                            f.getFileMetaData().getKeyValueMetaData(), "m", p.toString());
            TreeSet<String> wanted = new TreeSet<>();
            wanted.add(ParquetSchemas.FIELD_MAPPING);
            boolean overflow = false;
            for (String k : keys) {
                int id = meta.idOf(k);
                if (id >= 0) {
                    for (int c : meta.columnsOf(id)) {
                        wanted.add(ParquetSchemas.colName(c));
                    }
                    overflow |= meta.overflows(id);
                }
            }
            if (overflow) {
                wanted.add(ParquetSchemas.OVERFLOW);
            }
            for (BlockMetaData b : f.getBlocks()) {
                for (ColumnChunkMetaData c : b.getColumns()) {
                    String[] path = c.getPath().toArray();
                    if (path[0].equals("m") && wanted.contains(path[1])) {
                        sum += c.getTotalSize();
                    }
                }
            }
        }
        return sum;
    }

    private static long readBytesPlain(FileStoreTable table) throws Exception {
        long sum = 0;
        for (Path p : files(table)) {
            for (BlockMetaData b : footer(table, p).getBlocks()) {
                for (ColumnChunkMetaData c : b.getColumns()) {
                    if (c.getPath().toArray()[0].equals("m")) {
                        sum += c.getTotalSize();
                    }
                }
            }
        }
        return sum;
    }

    /**
     * Reads the map column and sums m[k] over the keys (NULL as 0), like {@code SELECT m['k1'],
     * ...}.
     */
    private static double readLookups(Table table, List<String> keys) throws Exception {
        ReadBuilder rb = table.newReadBuilder().withProjection(new int[] {1});
        BinaryString[] wanted =
                keys.stream().map(BinaryString::fromString).toArray(BinaryString[]::new);
        double[] sum = {0};
        try (RecordReader<InternalRow> r =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            r.forEachRemaining(
                    row -> {
                        if (row.isNullAt(0)) {
                            return;
                        }
                        InternalMap m = row.getMap(0);
                        for (BinaryString k : wanted) {
                            for (int i = 0; i < m.size(); i++) {
                                if (m.keyArray().getString(i).equals(k)) {
                                    if (!m.valueArray().isNullAt(i)) {
                                        sum[0] += m.valueArray().getDouble(i);
                                    }
                                    break;
                                }
                            }
                        }
                    });
        }
        return sum[0];
    }
}
