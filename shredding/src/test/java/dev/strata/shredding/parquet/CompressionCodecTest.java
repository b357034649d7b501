package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The codecs a shredded table may use (none, lz4, zstd) write files that read back equal. */
class CompressionCodecTest {

    @TempDir java.nio.file.Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"none", "lz4", "zstd", "NONE"})
    void eachAllowedCodecRoundTrips(String codec) throws Exception {
        List<GeneratedMap> maps =
                MapDataGenerator.builder(11).keyUniverse(100).build().generate(2000);
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        Path path = new Path(tmp.toUri().toString(), "c-" + codec + ".parquet");
        FileRoundTrip.write(
                path,
                TestMaps.idAndMap(),
                Map.of("m", 3),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().compression(codec),
                ids,
                i -> GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));
        FileRoundTrip.Read read = FileRoundTrip.read(path, TestMaps.idAndMap(), null, null);
        assertThat(read.rows).hasSize(maps.size());
        for (int i = 0; i < maps.size(); i++) {
            List<String> expected = TestMaps.expectedEntries(maps.get(i));
            List<String> actual =
                    read.rows.get(i).isNullAt(1)
                            ? null
                            : TestMaps.entries(read.rows.get(i).getMap(1));
            if (expected == null) {
                assertThat(actual).isNull();
            } else {
                assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"brotli", "lzo-ish"})
    void unknownCodecsAreRejectedByName(String codec) {
        assertThatThrownBy(() -> ShreddedParquetWriter.codec(codec))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + codec + "'")
                .hasMessageContaining("none, zstd, lz4");
    }
}
