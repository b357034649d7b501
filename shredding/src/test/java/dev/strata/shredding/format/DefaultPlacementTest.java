package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.fs.Path;
import org.apache.paimon.table.FileStoreTable;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table with only {@code map.storage-layout = shared-shredding} places keys that never share a
 * row in one column (issue 26): on independent blocks of keys and on device types with their own
 * keys every key's S(k) is one column and nothing overflows, and the table reads back what Paimon's
 * default layout returns. Under {@code lru} (the default before) these keys spread over many
 * columns; with neither placement key set Strata's writers use {@code disjoint}.
 */
class DefaultPlacementTest extends PaimonTablesTestBase {

    private static List<GeneratedMap> rows(String shape, Random random, int n) {
        List<GeneratedMap> out = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            List<String> keys = new ArrayList<>();
            keys.add("hot");
            if (shape.equals("independent")) {
                for (int b = 0; b < 39; b++) {
                    keys.add("k_" + (b * 50 + random.nextInt(50)));
                }
            } else {
                int type = random.nextInt(60);
                for (int i = 1; i < 40; i++) {
                    keys.add("d" + type + "_" + i);
                }
            }
            Collections.shuffle(keys, random);
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                values.add(random.nextInt(10) == 0 ? null : random.nextInt(10_000) / 100.0);
            }
            out.add(GeneratedMap.of(keys, values));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"independent", "correlated"})
    void keysThatNeverMeetKeepOneColumnByDefault(String shape) throws Exception {
        long seed = TestSeeds.seed("defaultPlacement-" + shape);
        String why = TestSeeds.describe("defaultPlacement-" + shape, seed);
        Random random = new Random(seed);
        FileStoreTable shredded =
                tables.create(
                        "placed_" + shape,
                        PaimonTables.Kind.APPEND,
                        Map.of(ShreddingOptions.layoutKey("m"), "shared-shredding"),
                        Map.of());
        FileStoreTable plain =
                tables.create(
                        "placed_" + shape + "_ref",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of());
        List<GeneratedMap> maps = rows(shape, random, 15_000);
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        tables.write(shredded, ids, maps);
        tables.write(plain, ids, maps);
        List<Path> files = PaimonTables.dataFiles(shredded, "parquet");
        assertThat(files).as(why).isNotEmpty();
        for (Path p : files) {
            ShreddedColumnMeta meta;
            try (ParquetFileReader r =
                    ParquetFileReader.open(
                            PaimonFiles.inputFile(
                                    shredded.fileIO(), p, shredded.fileIO().getFileSize(p)),
                            PaimonFiles.readOptions())) {
                meta =
                        ShreddingFooter.decode(
                                r.getFooter().getFileMetaData().getKeyValueMetaData(),
                                "m",
                                p.toString());
            }
            assertThat(meta.numColumns()).as(why + " K of " + p).isEqualTo(40);
            for (String key : meta.keys()) {
                int id = meta.idOf(key);
                assertThat(meta.columnsOf(id)).as(why + ": S(" + key + ") in " + p).hasSize(1);
                assertThat(meta.overflows(id)).as(why + ": " + key + " overflows").isFalse();
            }
        }
        assertThat(PaimonTables.readAll(shredded)).as(why).isEqualTo(PaimonTables.readAll(plain));
    }
}
