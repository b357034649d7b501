package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The direct write of {@code __field_mapping} elements gives byte-identical files to the record-consumer path. */
class DirectMappingWriteTest {

    @TempDir
    java.nio.file.Path tmp;

    @Test
    void directMappingWritesTheSameBytesAsTheRecordConsumer() throws Exception {
        assertThat(ShreddedParquetWriter.directMappingAvailable())
                .as("parquet-mr's record consumer exposes its column store, so the direct path is exercised").isTrue();
        String name = "directMapping";
        long seed = TestSeeds.seed(name);
        String why = TestSeeds.describe(name, seed);
        List<GeneratedMap> maps = MapDataGenerator.builder(seed).keyUniverse(600).keysPerRow(4, 30)
                .nullMapRate(0.05).emptyMapRate(0.03).nullValueRate(0.05).duplicateKeyRate(0.02)
                .families(20, 40).build().generate(30_000);
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        RowType type = TestMaps.idAndMap();
        for (int k : new int[] {1, 8, 64}) {
            byte[][] bytes = new byte[2][];
            boolean before = ShreddedParquetWriter.DIRECT_MAPPING;
            try {
                for (int direct = 0; direct < 2; direct++) {
                    ShreddedParquetWriter.DIRECT_MAPPING = direct == 1;
                    Path path = new Path(tmp.toUri().toString(), "k" + k + "-" + direct + ".parquet");
                    FileRoundTrip.write(path, type, Map.of("m", k), PlacementPolicy.LRU,
                            new ShreddedParquetWriter.Settings().rowGroupRowLimit(7_000).pageRowLimit(1_000), ids,
                            i -> GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));
                    bytes[direct] = Files.readAllBytes(tmp.resolve("k" + k + "-" + direct + ".parquet"));
                }
            } finally {
                ShreddedParquetWriter.DIRECT_MAPPING = before;
            }
            assertThat(bytes[1]).as(why + " K=" + k).isEqualTo(bytes[0]);
        }
    }
}
