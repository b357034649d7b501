package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.read.ShreddedParquetReader;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The columnar reader ({@link dev.strata.shredding.read.ShreddedColumns}) and parquet-mr's record
 * assembly ({@link RecordAssemblyReader}, a test oracle) return identical rows and positions.
 */
class AssemblyPathsTest {

    @TempDir java.nio.file.Path tmp;

    @Test
    void columnarAndRecordAssemblyAgreeOnFullSelectedAndPrunedReads() throws Exception {
        long seed = TestSeeds.seed("assemblyPaths");
        String why = TestSeeds.describe("assemblyPaths", seed);
        List<GeneratedMap> maps =
                MapDataGenerator.builder(seed)
                        .keyUniverse(300)
                        .keysPerRow(5, 14)
                        .nullMapRate(0.05)
                        .emptyMapRate(0.05)
                        .nullValueRate(0.1)
                        .duplicateKeyRate(0.03)
                        .nanRate(0.01)
                        .families(8, 60)
                        .build()
                        .generate(6000);
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        Path path = new Path(tmp.toUri().toString(), "paths.parquet");
        FileRoundTrip.write(
                path,
                TestMaps.idAndMap(),
                Map.of("m", 3),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(1000).pageRowLimit(100),
                ids,
                i -> GenericRow.of(i % 7 == 0 ? null : (long) i, TestMaps.toPaimon(maps.get(i))));
        List<String> universe =
                MapDataGenerator.builder(seed).keyUniverse(300).build().keyUniverse();
        MapPredicate pred =
                MapPredicate.or(
                        MapPredicate.leaf("m", universe.get(10), MapPredicate.Op.LT, 105.0),
                        MapPredicate.leaf("m", universe.get(200), MapPredicate.Op.IS_NOT_NULL));
        List<Map<String, List<String>>> selections =
                List.of(
                        Map.of(),
                        Map.of("m", List.of(universe.get(10), universe.get(200), "none")));
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
                // The record path only skips pages; the columnar reader also drops, per row, the
                // rows in which
                // the predicate is not true when it decodes the keys the predicate names (the
                // selected keys).
                // The predicate is evaluated on the record path's maps: with duplicate keys the
                // file keeps the
                // writer's choice of value, which the generator's first-entry lookup need not be.
                Map<Long, GeneratedMap> recordMaps = maps(path, sel);
                List<String> matching = new ArrayList<>();
                for (String row : record) {
                    if (PruningSoundnessTest.eval(
                            p,
                            recordMaps.get(Long.parseLong(row.substring(0, row.indexOf(':')))))) {
                        matching.add(row);
                    }
                }
                assertThat(matching).as(what).isNotEmpty();
                assertThat(columnar).as(what).isEqualTo(sel.isEmpty() ? record : matching);
            }
        }
    }

    /**
     * A shredded map next to a map in Paimon's plain layout: both read by the columnar reader,
     * whole or by keys.
     */
    @Test
    void aPlainLayoutMapBesideAShreddedOneReadsAsByRecordAssembly() throws Exception {
        long seed = TestSeeds.seed("assemblyPathsPlainMap");
        String why = TestSeeds.describe("assemblyPathsPlainMap", seed);
        List<GeneratedMap> maps =
                MapDataGenerator.builder(seed)
                        .keyUniverse(200)
                        .keysPerRow(0, 9)
                        .nullMapRate(0.05)
                        .emptyMapRate(0.05)
                        .nullValueRate(0.1)
                        .duplicateKeyRate(0.05)
                        .families(8, 40)
                        .build()
                        .generate(3000);
        RowType type =
                RowType.of(
                        new org.apache.paimon.types.DataType[] {
                            DataTypes.BIGINT(),
                            TestMaps.MAP_STRING_DOUBLE,
                            TestMaps.MAP_STRING_DOUBLE
                        },
                        new String[] {"id", "m", "p"});
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        Path path = new Path(tmp.toUri().toString(), "plain.parquet");
        FileRoundTrip.write(
                path,
                type,
                Map.of("m", 3),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(700).pageRowLimit(90),
                ids,
                i ->
                        GenericRow.of(
                                (long) i,
                                TestMaps.toPaimon(maps.get(i)),
                                TestMaps.toPaimon(maps.get(maps.size() - 1 - i))));
        List<String> universe =
                MapDataGenerator.builder(seed).keyUniverse(200).build().keyUniverse();
        List<Map<String, List<String>>> selections =
                List.of(
                        Map.of(),
                        Map.of("p", List.of(universe.get(3), universe.get(150), "none")),
                        Map.of(
                                "m",
                                List.of(universe.get(3)),
                                "p",
                                List.of(universe.get(7), universe.get(3))));
        for (Map<String, List<String>> sel : selections) {
            // A selected key of a shredded map whose value is NULL may read as absent where the
            // footer's
            // ownership segments spare __field_mapping (same m['k']); compare those lookups, not
            // entries.
            List<String> columnar =
                    lookups(read(path, type, sel, null, true), sel.containsKey("m"));
            assertThat(columnar)
                    .as(why + " selection " + sel)
                    .isEqualTo(lookups(read(path, type, sel, null, false), sel.containsKey("m")));
            assertThat(columnar).hasSize(maps.size());
        }
    }

    /** By position, the map column of every row as parquet-mr's record assembly reads it. */
    private static Map<Long, GeneratedMap> maps(Path path, Map<String, List<String>> sel)
            throws Exception {
        Map<Long, GeneratedMap> out = new java.util.HashMap<>();
        try (RecordAssemblyReader r =
                new RecordAssemblyReader(
                        PaimonFiles.inputFile(
                                FileRoundTrip.IO, path, FileRoundTrip.IO.getFileSize(path)),
                        path.toString(),
                        TestMaps.idAndMap(),
                        sel,
                        null,
                        null)) {
            InternalRow row;
            while ((row = r.next()) != null) {
                if (row.isNullAt(1)) {
                    out.put(r.position(), GeneratedMap.nullMap());
                    continue;
                }
                org.apache.paimon.data.InternalMap m = row.getMap(1);
                List<String> keys = new ArrayList<>();
                List<Object> values = new ArrayList<>();
                for (int i = 0; i < m.size(); i++) {
                    keys.add(m.keyArray().getString(i).toString());
                    values.add(m.valueArray().isNullAt(i) ? null : m.valueArray().getDouble(i));
                }
                out.put(r.position(), GeneratedMap.of(keys, values));
            }
        }
        return out;
    }

    /**
     * The rows with the NULL-valued entries of the map in field 1 dropped when {@code dropNulls}.
     */
    private static List<String> lookups(List<String> rows, boolean dropNulls) {
        List<String> out = new ArrayList<>();
        for (String row : rows) {
            String[] parts = row.split(":", 4);
            if (dropNulls && !parts[2].equals("NULL")) {
                List<String> kept = new ArrayList<>();
                for (String e : parts[2].substring(1, parts[2].length() - 1).split(", ")) {
                    if (!e.isEmpty() && !e.endsWith("=null")) {
                        kept.add(e);
                    }
                }
                parts[2] = kept.toString();
            }
            out.add(String.join(":", parts));
        }
        return out;
    }

    private static List<String> read(
            Path path, Map<String, List<String>> sel, MapPredicate p, boolean columnar)
            throws Exception {
        return read(path, TestMaps.idAndMap(), sel, p, columnar);
    }

    private static List<String> read(
            Path path,
            RowType type,
            Map<String, List<String>> sel,
            MapPredicate p,
            boolean columnar)
            throws Exception {
        List<String> out = new ArrayList<>();
        org.apache.parquet.io.InputFile input =
                PaimonFiles.inputFile(FileRoundTrip.IO, path, FileRoundTrip.IO.getFileSize(path));
        if (columnar) {
            try (ShreddedParquetReader r =
                    new ShreddedParquetReader(input, path.toString(), type, sel, p, null, true)) {
                InternalRow row;
                while ((row = r.next()) != null) {
                    out.add(render(r.position(), row, type));
                }
            }
            return out;
        }
        try (RecordAssemblyReader r =
                new RecordAssemblyReader(input, path.toString(), type, sel, p, null)) {
            InternalRow row;
            while ((row = r.next()) != null) {
                out.add(render(r.position(), row, type));
            }
        }
        return out;
    }

    private static String render(long position, InternalRow row, RowType type) {
        StringBuilder b =
                new StringBuilder()
                        .append(position)
                        .append(':')
                        .append(row.isNullAt(0) ? "null" : row.getLong(0));
        for (int f = 1; f < type.getFieldCount(); f++) {
            b.append(':').append(row.isNullAt(f) ? "NULL" : TestMaps.entries(row.getMap(f)));
        }
        return b.toString();
    }
}
