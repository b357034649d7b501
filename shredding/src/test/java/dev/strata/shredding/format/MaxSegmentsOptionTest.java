package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.layout.GroupPlacement;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.read.ShreddedParquetReader;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.fs.Path;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

/**
 * The table option {@code strata-shredded.max-segments} (not a JVM property) bounds the segments
 * written per column.
 */
class MaxSegmentsOptionTest extends PaimonTablesTestBase {

    /**
     * Per file: how many (row group, column) pairs record segments, and how many are fragmented.
     */
    private static int[] recordedAndFragmented(FileStoreTable t) throws Exception {
        int[] out = new int[2];
        for (Path p : PaimonTables.dataFiles(t, "parquet")) {
            try (ShreddedParquetReader r =
                    FileRoundTrip.open(p, PaimonTables.ROW_TYPE, null, null)) {
                ShreddedColumnMeta meta = r.shreddedColumns().get("m");
                for (GroupPlacement g : meta.placements()) {
                    if (g == null || !g.hasSegments()) {
                        continue;
                    }
                    for (int c = 0; c < meta.numColumns(); c++) {
                        out[g.segmentsOf(c) == null ? 1 : 0]++;
                    }
                }
            }
        }
        return out;
    }

    @Test
    void maxSegmentsTableOptionDecidesWhichColumnsAreFragmented() throws Exception {
        long seed = TestSeeds.seed("maxSegments");
        // Runs of 400 rows of one key family (every family key in every row): few enough owner
        // changes that a group's segments fit the footer's byte
        // budget (about 2 bytes per row; beyond it the footer drops them), many enough that
        // max-segments 1 matters.
        String why = TestSeeds.describe("maxSegments", seed);
        List<GeneratedMap> maps =
                MapDataGenerator.builder(seed)
                        .keyUniverse(400)
                        .keysPerRow(8, 8)
                        .coreKeys(1.0)
                        .families(8, 400)
                        .build()
                        .generate(4_000);
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        FileStoreTable plain =
                tables.create(
                        "ref",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of());
        tables.write(plain, ids, maps);
        int[][] counts = new int[2][];
        String[] values = {null, "1"};
        for (int v = 0; v < values.length; v++) {
            FileStoreTable t =
                    tables.create(
                            "t" + v,
                            PaimonTables.Kind.APPEND,
                            PaimonTables.layoutOptions(true, 64, "lru"),
                            values[v] == null
                                    ? Map.of()
                                    : Map.of(ShreddingOptions.MAX_SEGMENTS.key(), values[v]));
            tables.write(t, ids, maps);
            counts[v] = recordedAndFragmented(t);
            assertThat(PaimonTables.readAll(t)).as(why).isEqualTo(PaimonTables.readAll(plain));
        }
        assertThat(counts[0][0])
                .as(why + ": by default most columns record their segments")
                .isGreaterThan(counts[0][1]);
        assertThat(counts[1][1])
                .as(why + ": with max-segments 1, columns that changed owner are fragmented")
                .isGreaterThan(counts[0][1]);
    }
}
