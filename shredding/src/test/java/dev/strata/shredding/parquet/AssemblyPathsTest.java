package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The columnar reader ({@link dev.strata.shredding.read.ShreddedColumns}) and parquet-mr's record assembly return identical rows and positions. */
class AssemblyPathsTest {

    @TempDir
    java.nio.file.Path tmp;

    @Test
    void columnarAndRecordAssemblyAgreeOnFullSelectedAndPrunedReads() throws Exception {
        long seed = TestSeeds.seed("assemblyPaths");
        String why = TestSeeds.describe("assemblyPaths", seed);
        List<GeneratedMap> maps = MapDataGenerator.builder(seed).keyUniverse(300).keysPerRow(5, 14).nullMapRate(0.05)
                .emptyMapRate(0.05).nullValueRate(0.1).duplicateKeyRate(0.03).nanRate(0.01).families(8, 60).build().generate(6000);
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        Path path = new Path(tmp.toUri().toString(), "paths.parquet");
        FileRoundTrip.write(path, TestMaps.idAndMap(), Map.of("m", 3), PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(1000).pageRowLimit(100), ids,
                i -> GenericRow.of(i % 7 == 0 ? null : (long) i, TestMaps.toPaimon(maps.get(i))));
        List<String> universe = MapDataGenerator.builder(seed).keyUniverse(300).build().keyUniverse();
        MapPredicate pred = MapPredicate.or(MapPredicate.leaf("m", universe.get(10), MapPredicate.Op.LT, 105.0),
                MapPredicate.leaf("m", universe.get(200), MapPredicate.Op.IS_NOT_NULL));
        List<Map<String, List<String>>> selections = List.of(Map.of(), Map.of("m", List.of(universe.get(10), universe.get(200), "none")));
        for (Map<String, List<String>> sel : selections) {
            for (MapPredicate p : new MapPredicate[] {null, pred}) {
                List<String> columnar = read(path, sel, p, true);
                List<String> record = read(path, sel, p, false);
                String what = why + " selection " + sel + " predicate " + p;
                assertThat(columnar).isNotEmpty();
                if (p == null) {
                    assertThat(columnar).as(what).isEqualTo(record);
                    continue;
                }
                // The record path only skips pages; the columnar reader also drops, per row, the rows in which
                // the predicate is not true when it decodes the keys the predicate names (the selected keys).
                List<String> matching = new ArrayList<>();
                for (String row : record) {
                    if (PruningSoundnessTest.eval(p, maps.get(Integer.parseInt(row.substring(0, row.indexOf(':')))))) {
                        matching.add(row);
                    }
                }
                assertThat(matching).as(what).isNotEmpty();
                assertThat(columnar).as(what).isEqualTo(sel.isEmpty() ? record : matching);
            }
        }
    }

    private static List<String> read(Path path, Map<String, List<String>> sel, MapPredicate p, boolean columnar) throws Exception {
        List<String> out = new ArrayList<>();
        try (ShreddedParquetReader r = new ShreddedParquetReader(
                PaimonFiles.inputFile(FileRoundTrip.IO, path, FileRoundTrip.IO.getFileSize(path)), path.toString(),
                TestMaps.idAndMap(), sel, p, null, true, columnar)) {
            assertThat(r.columnar()).isEqualTo(columnar);
            InternalRow row;
            while ((row = r.next()) != null) {
                out.add(r.position() + ":" + (row.isNullAt(0) ? "null" : row.getLong(0)) + ":"
                        + (row.isNullAt(1) ? "NULL" : TestMaps.entries(row.getMap(1))));
            }
        }
        return out;
    }
}
