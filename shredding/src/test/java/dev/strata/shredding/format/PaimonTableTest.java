package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Shredded tables written, compacted and read by Paimon itself answer exactly like default-layout
 * tables.
 */
class PaimonTableTest extends PaimonTablesTestBase {

    /** Batches of (ids, maps): later batches update some earlier ids (for primary-key tables). */
    private static List<List<Long>> idBatches(
            PaimonTables.Kind kind, Random random, int batches, int rows) {
        List<List<Long>> out = new ArrayList<>();
        long next = 0;
        for (int b = 0; b < batches; b++) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                boolean update =
                        kind != PaimonTables.Kind.APPEND && next > 0 && random.nextInt(4) == 0;
                ids.add(update ? (long) random.nextInt((int) next) : next++);
            }
            out.add(new ArrayList<>(new java.util.LinkedHashSet<>(ids)));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(PaimonTables.Kind.class)
    void writesCompactionsAndReadsMatchTheDefaultLayout(PaimonTables.Kind kind) throws Exception {
        long seed = TestSeeds.seed("paimonTables-" + kind);
        String why = TestSeeds.describe("paimonTables-" + kind, seed);
        Random random = new Random(seed);
        MapDataGenerator gen =
                MapDataGenerator.builder(seed)
                        .keyUniverse(400)
                        .keysPerRow(6, 20)
                        .duplicateKeyRate(0)
                        .families(10, 30)
                        .build();
        FileStoreTable shredded =
                tables.create(
                        "s_" + kind.name().toLowerCase(),
                        kind,
                        PaimonTables.layoutOptions(true, 4, "lru"),
                        Map.of());
        FileStoreTable plain =
                tables.create(
                        "p_" + kind.name().toLowerCase(),
                        kind,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of());
        assertThat(shredded.options().getOrDefault("file.format", "parquet")).isEqualTo("parquet");

        List<List<Long>> batches = idBatches(kind, random, 4, 1500);
        for (int b = 0; b < batches.size(); b++) {
            List<GeneratedMap> maps = gen.generate(batches.get(b).size());
            tables.write(shredded, batches.get(b), maps);
            tables.write(plain, batches.get(b), maps);
            if (b == 2) {
                tables.compactAll(shredded);
                tables.compactAll(plain);
            }
            Map<Long, List<String>> expected = PaimonTables.readAll(plain);
            assertThat(PaimonTables.readAll(shredded))
                    .as(why + " after batch " + b)
                    .isEqualTo(expected);
        }
        assertThat(PaimonTables.fileLayouts(shredded)).as(why).containsOnlyKeys("parquet:shredded");
        assertThat(PaimonTables.fileLayouts(plain)).as(why).containsOnlyKeys("parquet:plain");

        // Reads that project only one column resolve by name (PK files hold _KEY_id for id).
        FileStoreTable table = tables.table("s_" + kind.name().toLowerCase());
        List<Long> ids = new ArrayList<>();
        try (org.apache.paimon.reader.RecordReader<org.apache.paimon.data.InternalRow> r =
                table.newReadBuilder()
                        .withProjection(new int[] {0})
                        .newRead()
                        .createReader(table.newReadBuilder().newScan().plan().splits())) {
            r.forEachRemaining(row -> ids.add(row.getLong(0)));
        }
        assertThat(ids)
                .as(why)
                .containsExactlyInAnyOrderElementsOf(PaimonTables.readAll(plain).keySet());
    }

    @ParameterizedTest
    @EnumSource(
            value = PaimonTables.Kind.class,
            names = {"APPEND", "PRIMARY_KEY"})
    void layoutSwitchesBothWaysAndOldFilesStillRead(PaimonTables.Kind kind) throws Exception {
        long seed = TestSeeds.seed("layoutSwitch-" + kind);
        String why = TestSeeds.describe("layoutSwitch-" + kind, seed);
        Random random = new Random(seed);
        MapDataGenerator gen =
                MapDataGenerator.builder(seed)
                        .keyUniverse(200)
                        .keysPerRow(5, 12)
                        .families(5, 20)
                        .build();
        String name = "switch_" + kind.name().toLowerCase();
        FileStoreTable shredded =
                tables.create(
                        name, kind, PaimonTables.layoutOptions(true, 3, "sequential"), Map.of());
        FileStoreTable plain =
                tables.create(
                        "ref_" + kind.name().toLowerCase(),
                        kind,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of());
        List<List<Long>> batches = idBatches(kind, random, 4, 600);
        String[] layouts = {"shared-shredding", "default", "default", "shared-shredding"};
        for (int b = 0; b < batches.size(); b++) {
            if (b > 0 && !layouts[b].equals(layouts[b - 1])) {
                shredded = tables.alter(name, Map.of(ShreddingOptions.layoutKey("m"), layouts[b]));
                assertThat(shredded.options().getOrDefault("file.format", "parquet"))
                        .isEqualTo("parquet");
            }
            List<GeneratedMap> maps = gen.generate(batches.get(b).size());
            tables.write(shredded, batches.get(b), maps);
            tables.write(plain, batches.get(b), maps);
            if (b == 1) {
                assertThat(PaimonTables.fileLayouts(shredded))
                        .as(why)
                        .containsKeys("parquet:plain", "parquet:shredded");
            }
            if (b == 2) {
                tables.compactAll(shredded);
                tables.compactAll(plain);
                if (kind == PaimonTables.Kind.PRIMARY_KEY) {
                    assertThat(PaimonTables.fileLayouts(shredded))
                            .as("compaction rewrites into the current layout, " + why)
                            .containsOnlyKeys("parquet:plain");
                }
            }
            assertThat(PaimonTables.readAll(shredded))
                    .as(why + " after batch " + b)
                    .isEqualTo(PaimonTables.readAll(plain));
        }
        assertThat(PaimonTables.fileLayouts(shredded)).containsKey("parquet:shredded");
    }

    /**
     * Paimon's own vectorized Parquet reader rejects BYTE_STREAM_SPLIT pages, so a table's DOUBLE
     * sub-columns use PLAIN unless the table opts in with {@code strata-shredded.byte-stream-split
     * = true}.
     */
    @org.junit.jupiter.api.Test
    void doubleSubColumnsAvoidByteStreamSplitUnlessTheTableOptsIn() throws Exception {
        MapDataGenerator gen =
                MapDataGenerator.builder(TestSeeds.seed("bss"))
                        .keyUniverse(20)
                        .keysPerRow(3, 6)
                        .build();
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < 3000; i++) {
            ids.add(i);
        }
        List<GeneratedMap> maps = gen.generate(ids.size());
        for (boolean optIn : new boolean[] {false, true}) {
            FileStoreTable t =
                    tables.create(
                            "bss_" + optIn,
                            PaimonTables.Kind.APPEND,
                            PaimonTables.layoutOptions(true, 4, "lru"),
                            optIn
                                    ? Map.of(
                                            dev.strata.shredding.ShreddingOptions.BYTE_STREAM_SPLIT
                                                    .key(),
                                            "true")
                                    : Map.of());
            tables.write(t, ids, maps);
            java.util.Set<org.apache.parquet.column.Encoding> encodings = new java.util.HashSet<>();
            for (org.apache.paimon.fs.Path p : PaimonTables.dataFiles(t, "parquet")) {
                try (org.apache.parquet.hadoop.ParquetFileReader r =
                        org.apache.parquet.hadoop.ParquetFileReader.open(
                                dev.strata.shredding.parquet.PaimonFiles.inputFile(
                                        t.fileIO(), p, t.fileIO().getFileSize(p)),
                                dev.strata.shredding.parquet.PaimonFiles.readOptions())) {
                    for (org.apache.parquet.hadoop.metadata.BlockMetaData b : r.getRowGroups()) {
                        for (org.apache.parquet.hadoop.metadata.ColumnChunkMetaData c :
                                b.getColumns()) {
                            encodings.addAll(c.getEncodings());
                        }
                    }
                }
            }
            if (optIn) {
                assertThat(encodings)
                        .contains(org.apache.parquet.column.Encoding.BYTE_STREAM_SPLIT);
            } else {
                assertThat(encodings)
                        .doesNotContain(org.apache.parquet.column.Encoding.BYTE_STREAM_SPLIT);
            }
            assertThat(PaimonTables.readAll(t)).hasSize(ids.size());
        }
    }
}
