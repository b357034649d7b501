package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.read.ShreddedParquetReader;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ShreddedRoundTripTest {

    @TempDir java.nio.file.Path tmp;

    @ParameterizedTest
    @EnumSource(PlacementPolicy.class)
    void everyMapReadsBackEqualWithSmallKAndOverflow(PlacementPolicy policy) throws Exception {
        String name = "roundTrip-" + policy;
        long seed = TestSeeds.seed(name);
        String why = TestSeeds.describe(name, seed);
        List<GeneratedMap> maps =
                MapDataGenerator.builder(seed)
                        .keyUniverse(1200)
                        .keysPerRow(6, 24)
                        .nullMapRate(0.03)
                        .emptyMapRate(0.03)
                        .nullValueRate(0.05)
                        .duplicateKeyRate(0.02)
                        .families(30, 40)
                        .build()
                        .generate(30_000);
        RowType type = TestMaps.idAndMap();
        Path path = new Path(tmp.toUri().toString(), "rt-" + policy + ".parquet");
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        FileRoundTrip.write(
                path,
                type,
                Map.of("m", 4),
                policy,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(8_000),
                ids,
                i -> GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));

        FileRoundTrip.Read read = FileRoundTrip.read(path, type, null, null);
        assertThat(read.rows).as(why).hasSize(maps.size());
        int overflowRows = 0;
        for (int i = 0; i < maps.size(); i++) {
            InternalRow row = read.rows.get(i);
            assertThat(row.getLong(0)).as(why).isEqualTo(i);
            assertThat(read.positions.get(i)).as(why).isEqualTo(i);
            GeneratedMap g = maps.get(i);
            InternalMap m = row.isNullAt(1) ? null : row.getMap(1);
            List<String> expected = TestMaps.expectedEntries(g);
            if (expected == null) {
                assertThat(m).as(why + " row " + i).isNull();
                continue;
            }
            assertThat(m).as(why + " row " + i).isNotNull();
            assertThat(TestMaps.entries(m))
                    .as(why + " row " + i + " " + g)
                    .containsExactlyInAnyOrderElementsOf(expected);
            if (policy == PlacementPolicy.PLAIN && !g.hasDuplicateKeys()) {
                assertThat(TestMaps.entries(m))
                        .as("plain keeps entry order, " + why)
                        .containsExactlyElementsOf(expected);
            }
            if (g.size() > 4) {
                overflowRows++;
            }
        }
        assertThat(overflowRows).as("the data must force overflow with K=4").isGreaterThan(1000);

        // Selected-key reads return exactly map[key] for every requested key, absent keys included.
        Random random = new Random(seed);
        List<String> universe =
                MapDataGenerator.builder(seed).keyUniverse(1200).build().keyUniverse();
        try (ShreddedParquetReader probe = FileRoundTrip.open(path, type, null, null)) {
            ShreddedColumnMeta meta = probe.shreddedColumns().get("m");
            assertThat(meta.numColumns()).isEqualTo(4);
            assertThat(meta.overflowSet().isEmpty()).isFalse();
        }
        for (int trial = 0; trial < 6; trial++) {
            List<String> keys = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            int n = 1 + random.nextInt(4);
            while (keys.size() < n) {
                String k =
                        random.nextInt(8) == 0
                                ? "absent-" + random.nextInt(5)
                                : universe.get(random.nextInt(universe.size()));
                if (seen.add(k)) {
                    keys.add(k);
                }
            }
            FileRoundTrip.Read sel = FileRoundTrip.read(path, type, Map.of("m", keys), null);
            assertThat(sel.rows).hasSize(maps.size());
            for (int i = 0; i < maps.size(); i++) {
                GeneratedMap g = maps.get(i);
                InternalRow row = sel.rows.get(i);
                if (g.isNull()) {
                    assertThat(row.isNullAt(1)).as(why).isTrue();
                    continue;
                }
                InternalMap m = row.getMap(1);
                for (String k : keys) {
                    Object expected = g.containsKey(k) ? g.lastValueByKey().get(k) : null;
                    assertThat(lookup(m, k))
                            .as(why + " row " + i + " key " + k + " keys " + keys)
                            .isEqualTo(expected);
                }
                assertThat(m.size()).as(why).isLessThanOrEqualTo(keys.size());
            }
        }
    }

    static Object lookup(InternalMap m, String key) {
        for (int i = 0; i < m.size(); i++) {
            if (m.keyArray().getString(i).toString().equals(key)) {
                return m.valueArray().isNullAt(i) ? null : m.valueArray().getDouble(i);
            }
        }
        return null;
    }
}
