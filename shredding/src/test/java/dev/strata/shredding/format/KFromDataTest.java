package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ParquetSchemas;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.paimon.fs.Path;
import org.apache.paimon.table.FileStoreTable;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;

/**
 * K of a file follows the rows written: the first file of a table's column takes K from its first
 * rows' map widths (not max-columns), later files from the window of completed files; tables whose
 * files differ in K or in placement policy read back exactly what a table in Paimon's default MAP
 * layout returns.
 */
class KFromDataTest extends PaimonTablesTestBase {

    /**
     * Rows of exactly {@code width} keys out of a {@code universe}-key universe, as the user
     * scenario writes them.
     */
    private static List<GeneratedMap> fixedWidth(Random random, int rows, int width, int universe) {
        List<GeneratedMap> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            List<String> keys = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            int family = random.nextInt(Math.max(1, universe / width));
            for (int i = 0; i < width; i++) {
                keys.add(i == 0 ? "hot" : "key_" + (family * width + i));
                values.add(random.nextInt(1_000_000) / 10_000.0);
            }
            out.add(GeneratedMap.of(keys, values));
        }
        return out;
    }

    private static List<Long> ids(long from, int n) {
        List<Long> out = new ArrayList<>();
        for (long i = from; i < from + n; i++) {
            out.add(i);
        }
        return out;
    }

    /**
     * K (the number of {@code __col_*} fields) of column m in every data file of the current
     * snapshot.
     */
    private static List<Integer> fileKs(FileStoreTable t) throws Exception {
        List<Integer> ks = new ArrayList<>();
        for (Path p : PaimonTables.dataFiles(t, "parquet")) {
            try (ParquetFileReader r =
                    ParquetFileReader.open(
                            PaimonFiles.inputFile(t.fileIO(), p, t.fileIO().getFileSize(p)),
                            PaimonFiles.readOptions())) {
                Type m = r.getFooter().getFileMetaData().getSchema().getType("m");
                assertThat(ParquetSchemas.looksShredded(m)).as("file %s is shredded", p).isTrue();
                int k = 0;
                for (Type f : ((GroupType) m).getFields()) {
                    if (f.getName().startsWith("__col_")) {
                        k++;
                    }
                }
                ks.add(k);
            }
        }
        return ks;
    }

    private static Map<String, String> onlyLayout() {
        return Map.of(ShreddingOptions.layoutKey("m"), "shared-shredding");
    }

    @Test
    void firstFileOfFortyKeyRowsIsFortyWideNotMaxColumns() throws Exception {
        long seed = TestSeeds.seed("kFromData40");
        String why = TestSeeds.describe("kFromData40", seed);
        Random random = new Random(seed);
        FileStoreTable shredded =
                tables.create("forty", PaimonTables.Kind.APPEND, onlyLayout(), Map.of());
        FileStoreTable plain =
                tables.create(
                        "forty_ref",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of());
        List<GeneratedMap> maps = fixedWidth(random, 4_000, 40, 2_000);
        tables.write(shredded, ids(0, maps.size()), maps);
        tables.write(plain, ids(0, maps.size()), maps);
        List<Integer> ks = fileKs(shredded);
        assertThat(ks)
                .as(
                        why
                                + ": every first file of a writer is as wide as its 40-key rows (max-columns is 256)")
                .isNotEmpty()
                .containsOnly(40);
        assertThat(PaimonTables.readAll(shredded)).as(why).isEqualTo(PaimonTables.readAll(plain));
    }

    @Test
    void firstFileOfVaryingRowsTakesTheWindowRuleOverRowWidths() throws Exception {
        long seed = TestSeeds.seed("kFromDataVarying");
        String why = TestSeeds.describe("kFromDataVarying", seed);
        List<GeneratedMap> maps =
                MapDataGenerator.builder(seed)
                        .keyUniverse(800)
                        .keysPerRow(12, 30)
                        .nullMapRate(0.05)
                        .emptyMapRate(0.03)
                        .nullValueRate(0.05)
                        .families(10, 30)
                        .build()
                        .generate(5_000);
        FileStoreTable shredded =
                tables.create("varying", PaimonTables.Kind.APPEND, onlyLayout(), Map.of());
        FileStoreTable plain =
                tables.create(
                        "varying_ref",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of());
        tables.write(shredded, ids(0, maps.size()), maps);
        tables.write(plain, ids(0, maps.size()), maps);
        int widest =
                maps.stream()
                        .filter(g -> !g.isNull())
                        .mapToInt(GeneratedMap::size)
                        .max()
                        .getAsInt();
        // P90 of the widths of rows with mean 12 (sd 4) is about 17; the widest (up to 30) is more
        // than 4 and 1.25x above.
        assertThat(fileKs(shredded))
                .as(why)
                .isNotEmpty()
                .allSatisfy(k -> assertThat(k).isBetween(12, widest));
        assertThat(PaimonTables.readAll(shredded))
                .as(why + ": rows wider than K overflow and read back")
                .isEqualTo(PaimonTables.readAll(plain));
    }

    /**
     * A window of narrow files (one-key maps, as an UPDATE writes) must not narrow a later file
     * below what its own rows need: before, a compaction of two-key rows got K = 1 and every key
     * but one overflowed.
     */
    @Test
    void narrowFilesInTheWindowDoNotNarrowAFileOfWiderRows() throws Exception {
        long seed = TestSeeds.seed("kNarrowWindow");
        String why = TestSeeds.describe("kNarrowWindow", seed);
        Random random = new Random(seed);
        FileStoreTable shredded =
                tables.create("narrow_then_wide", PaimonTables.Kind.APPEND, onlyLayout(), Map.of());
        FileStoreTable plain =
                tables.create(
                        "narrow_then_wide_ref",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of());
        long id = 0;
        for (int file = 0; file < 3; file++) {
            List<GeneratedMap> narrow = fixedWidth(random, 50, 1, 1);
            tables.write(shredded, ids(id, narrow.size()), narrow);
            tables.write(plain, ids(id, narrow.size()), narrow);
            id += narrow.size();
        }
        // 'hot' in every row with one of 200 keys that never meet.
        List<GeneratedMap> wide = fixedWidth(random, 4_000, 2, 400);
        tables.write(shredded, ids(id, wide.size()), wide);
        tables.write(plain, ids(id, wide.size()), wide);
        // Two buckets: six files of the narrow writes, two of the wide one.
        assertThat(fileKs(shredded))
                .as(why + ": the narrow files are one wide, both files of two-key rows two")
                .hasSize(8)
                .containsOnly(1, 2)
                .filteredOn(k -> k == 2)
                .hasSize(2);
        assertThat(PaimonTables.readAll(shredded)).as(why).isEqualTo(PaimonTables.readAll(plain));
    }

    /**
     * Files whose maps are all NULL report no width; before, they entered the window as 0 and a
     * placement without a sample (here {@code lru}) took K = 1 for the next file of two-key rows.
     */
    @Test
    void filesOfNullMapsDoNotEnterTheWindow() throws Exception {
        long seed = TestSeeds.seed("kNullWindow");
        String why = TestSeeds.describe("kNullWindow", seed);
        Map<String, String> lru = new java.util.HashMap<>(onlyLayout());
        lru.put(ShreddingOptions.policyKey("m"), "lru");
        FileStoreTable shredded =
                tables.create("nulls_then_wide", PaimonTables.Kind.APPEND, lru, Map.of());
        List<GeneratedMap> nulls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            nulls.add(GeneratedMap.nullMap());
        }
        tables.write(shredded, ids(0, nulls.size()), nulls);
        tables.write(shredded, ids(50, nulls.size()), nulls);
        List<GeneratedMap> wide = fixedWidth(new Random(seed), 1_000, 2, 100);
        tables.write(shredded, ids(100, wide.size()), wide);
        assertThat(fileKs(shredded))
                .as(why + ": files of the two-key rows")
                .filteredOn(k -> k > 1)
                .hasSize(2);
    }

    @Test
    void tableWhoseFilesDifferInKReadsRight() throws Exception {
        long seed = TestSeeds.seed("mixedK");
        String why = TestSeeds.describe("mixedK", seed);
        Random random = new Random(seed);
        for (PaimonTables.Kind kind :
                new PaimonTables.Kind[] {PaimonTables.Kind.APPEND, PaimonTables.Kind.PRIMARY_KEY}) {
            String name = "mixed_k_" + kind.name().toLowerCase();
            FileStoreTable shredded = tables.create(name, kind, onlyLayout(), Map.of());
            FileStoreTable plain =
                    tables.create(
                            name + "_ref",
                            kind,
                            PaimonTables.layoutOptions(false, 0, null),
                            Map.of());
            // The data's shape changes between commits: 6-key rows, then 50-key rows (the window
            // still says 6, so they
            // overflow), then 6-key rows again in files as wide as the window now says; primary
            // keys overlap.
            int[] widths = {6, 50, 50, 6};
            long next = 0;
            for (int b = 0; b < widths.length; b++) {
                List<GeneratedMap> maps = fixedWidth(random, 1_500, widths[b], 3_000);
                long from = kind == PaimonTables.Kind.APPEND ? next : next / 2;
                tables.write(shredded, ids(from, maps.size()), maps);
                tables.write(plain, ids(from, maps.size()), maps);
                next += maps.size();
                assertThat(PaimonTables.readAll(shredded))
                        .as(why + " " + kind + " after batch " + b)
                        .isEqualTo(PaimonTables.readAll(plain));
            }
            assertThat(new TreeSet<>(fileKs(shredded)))
                    .as(why + " " + kind + ": files of several K in one snapshot")
                    .hasSizeGreaterThanOrEqualTo(2)
                    .contains(6);
            if (kind == PaimonTables.Kind.PRIMARY_KEY) {
                tables.compactAll(shredded);
                tables.compactAll(plain);
                assertThat(PaimonTables.readAll(shredded))
                        .as(why + " after full compaction")
                        .isEqualTo(PaimonTables.readAll(plain));
            }
        }
    }

    @Test
    void tableWrittenWithSeveralPlacementPoliciesReadsRight() throws Exception {
        long seed = TestSeeds.seed("mixedPolicy");
        String why = TestSeeds.describe("mixedPolicy", seed);
        MapDataGenerator gen =
                MapDataGenerator.builder(seed)
                        .keyUniverse(500)
                        .keysPerRow(10, 25)
                        .nullMapRate(0.03)
                        .emptyMapRate(0.02)
                        .nullValueRate(0.05)
                        .families(8, 40)
                        .build();
        for (PaimonTables.Kind kind :
                new PaimonTables.Kind[] {
                    PaimonTables.Kind.APPEND, PaimonTables.Kind.PRIMARY_KEY_DV
                }) {
            String name = "mixed_policy_" + kind.name().toLowerCase();
            FileStoreTable shredded = tables.create(name, kind, onlyLayout(), Map.of());
            FileStoreTable plain =
                    tables.create(
                            name + "_ref",
                            kind,
                            PaimonTables.layoutOptions(false, 0, null),
                            Map.of());
            String[] policies = {"lru", "stable", "sequential", "plain", "lru"};
            long next = 0;
            for (int b = 0; b < policies.length; b++) {
                if (b > 0) {
                    // Paimon's key, changed in place through Paimon's API: Strata still reads
                    // 'stable' there, as tables of earlier versions have it.
                    shredded =
                            tables.alter(
                                    name, Map.of(ShreddingOptions.policyKey("m"), policies[b]));
                }
                List<GeneratedMap> maps = gen.generate(1_200);
                long from = kind == PaimonTables.Kind.APPEND ? next : next / 2;
                tables.write(shredded, ids(from, maps.size()), maps);
                tables.write(plain, ids(from, maps.size()), maps);
                next += maps.size();
                assertThat(PaimonTables.readAll(shredded))
                        .as(why + " " + kind + " after " + policies[b])
                        .isEqualTo(PaimonTables.readAll(plain));
            }
            assertThat(fileKs(shredded))
                    .as(why)
                    .isNotEmpty()
                    .allSatisfy(k -> assertThat(k).isLessThanOrEqualTo(25));
        }
    }
}
