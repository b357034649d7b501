package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.ShreddedReadHandover;
import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.ShreddedReadMetrics.Counter;
import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.pushdown.MapPredicate.Op;
import dev.strata.shredding.read.ShreddedParquetReader;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.paimon.fs.Path;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

/**
 * The scan-to-reader hand-over through dynamic options, its safety flag, counters, and K across
 * files.
 */
class ReadHandoverTest extends PaimonTablesTestBase {

    @Test
    void predicateTreesRoundTripThroughTheOptionEncoding() {
        MapPredicate p =
                MapPredicate.or(
                        MapPredicate.and(
                                MapPredicate.leaf("m", "a;b", Op.GT, 3),
                                MapPredicate.leaf("m", "", Op.IN, 1.5, Double.NaN)),
                        MapPredicate.leaf("tags", "ключ", Op.STARTS_WITH, "pre\"fix"),
                        MapPredicate.leaf("m", "d", Op.EQ, new BigDecimal("1.20")),
                        MapPredicate.leaf("m", "e", Op.IS_NOT_NULL),
                        MapPredicate.leaf("flags", "b", Op.NOT_EQ, true));
        Map<String, String> options =
                ShreddedReadHandover.encode(Map.of("m", List.of("x", "y", "x")), p, true);
        ShreddedReadHandover.ReadRequest r = ShreddedReadHandover.decode(options);
        assertThat(r.predicate()).isEqualTo(p);
        assertThat(r.pruningPredicate()).isEqualTo(p);
        assertThat(r.selectedKeys()).containsExactly(Map.entry("m", List.of("x", "y")));
        ShreddedReadHandover.ReadRequest unsafe =
                ShreddedReadHandover.decode(ShreddedReadHandover.encode(null, p, false));
        assertThat(unsafe.pruningPredicate()).isNull();
        assertThatThrownBy(
                        () ->
                                ShreddedReadHandover.decode(
                                        Map.of(
                                                ShreddedReadHandover.MAP_PREDICATE,
                                                "{\"or\":[{\"key\":1}]}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(ShreddedReadHandover.MAP_PREDICATE);
        assertThatThrownBy(() -> MapPredicate.leaf("m", "k", Op.GT))
                .hasMessageContaining("exactly one literal");
    }

    @Test
    void selectedKeysAndSafePredicatesReachTheReaderThroughTableCopy() throws Exception {
        long seed = TestSeeds.seed("handover");
        String why = TestSeeds.describe("handover", seed);
        MapDataGenerator gen =
                MapDataGenerator.builder(seed)
                        .keyUniverse(300)
                        .keysPerRow(6, 16)
                        .families(6, 50)
                        .build();
        FileStoreTable table =
                tables.create(
                        "h",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(true, 4, "lru"),
                        Map.of());
        List<GeneratedMap> all = new ArrayList<>();
        for (int b = 0; b < 3; b++) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                ids.add((long) all.size() + i);
            }
            List<GeneratedMap> maps = gen.generate(ids.size());
            tables.write(table, ids, maps);
            all.addAll(maps);
        }
        List<String> universe = gen.keyUniverse();
        List<String> keys = List.of(universe.get(7), universe.get(150), "absent");

        Map<Long, List<String>> selected =
                PaimonTables.readAll(
                        table.copy(ShreddedReadHandover.encode(Map.of("m", keys), null, false)));
        assertThat(selected).hasSize(all.size());
        for (int i = 0; i < all.size(); i++) {
            GeneratedMap g = all.get(i);
            List<String> expected = null;
            if (!g.isNull()) {
                expected = new ArrayList<>();
                for (String k : keys) {
                    if (g.containsKey(k)) {
                        Object v = g.lookup(k);
                        expected.add(k + "=" + (v == null ? "null" : v));
                    }
                }
                java.util.Collections.sort(expected);
            }
            assertThat(selected.get((long) i)).as(why + " row " + i).isEqualTo(expected);
        }

        MapPredicate never = MapPredicate.leaf("m", universe.get(7), Op.LT, -1.0e9);
        try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
            assertThat(
                            PaimonTables.readAll(
                                    table.copy(ShreddedReadHandover.encode(null, never, true))))
                    .isEmpty();
            ShreddedReadMetrics.Snapshot s = scope.snapshot();
            assertThat(s.get(Counter.FILES_READ) + s.get(Counter.FILES_SKIPPED))
                    .as(s.toString())
                    .isGreaterThanOrEqualTo(3);
            assertThat(s.get(Counter.ROW_GROUPS_SKIPPED))
                    .as(s.toString())
                    .isEqualTo(s.get(Counter.ROW_GROUPS_TOTAL));
        }
        try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
            assertThat(
                            PaimonTables.readAll(
                                    table.copy(ShreddedReadHandover.encode(null, never, false))))
                    .hasSize(all.size());
            assertThat(scope.snapshot().get(Counter.ROW_GROUPS_SKIPPED)).isZero();
            assertThat(scope.snapshot().get(Counter.FILES_READ)).isGreaterThanOrEqualTo(3);
        }
        MapPredicate absent = MapPredicate.leaf("m", "absent", Op.IS_NOT_NULL);
        try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
            assertThat(
                            PaimonTables.readAll(
                                    table.copy(
                                            ShreddedReadHandover.encode(
                                                    Map.of("m", List.of("absent")), absent, true))))
                    .isEmpty();
            assertThat(scope.snapshot().get(Counter.FILES_READ)).isZero();
            assertThat(scope.snapshot().get(Counter.FILES_SKIPPED)).isGreaterThanOrEqualTo(3);
        }
        // Without a collector nothing is counted and nothing fails.
        assertThat(PaimonTables.readAll(table)).hasSize(all.size());
    }

    @Test
    void kAdaptsAcrossRollingFilesAndFilesWithDifferentKReadTogether() throws Exception {
        long seed = TestSeeds.seed("mixedK");
        String why = TestSeeds.describe("mixedK", seed);
        MapDataGenerator gen =
                MapDataGenerator.builder(seed)
                        .keyUniverse(300)
                        .keysPerRow(5, 9)
                        .families(6, 50)
                        .build();
        FileStoreTable shredded =
                tables.create(
                        "k",
                        PaimonTables.Kind.PRIMARY_KEY_DV,
                        PaimonTables.layoutOptions(true, 64, "lru"),
                        Map.of("target-file-size", "24 kb"));
        FileStoreTable plain =
                tables.create(
                        "kref",
                        PaimonTables.Kind.PRIMARY_KEY_DV,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of("target-file-size", "24 kb"));
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 12_000; i++) {
            ids.add((long) i);
        }
        List<GeneratedMap> maps = gen.generate(ids.size());
        tables.write(shredded, ids, maps);
        tables.write(plain, ids, maps);
        shredded = tables.alter("k", Map.of(ShreddingOptions.maxColumnsKey("m"), "2"));
        List<Long> some = ids.subList(0, 3000);
        List<GeneratedMap> updates = gen.generate(some.size());
        tables.write(shredded, some, updates);
        tables.write(plain, some, updates);

        TreeSet<Integer> ks = new TreeSet<>();
        for (Path p : PaimonTables.dataFiles(shredded, "parquet")) {
            try (ShreddedParquetReader r =
                    FileRoundTrip.open(p, PaimonTables.ROW_TYPE, null, null)) {
                ks.add(r.shreddedColumns().get("m").numColumns());
            }
        }
        assertThat(ks)
                .as(
                        why
                                + ": the first rolling file takes K from its rows, later ones the observed width, then K_max=2")
                .contains(2)
                .doesNotContain(64)
                .anyMatch(k -> k > 2 && k <= 9);
        assertThat(PaimonTables.readAll(shredded)).as(why).isEqualTo(PaimonTables.readAll(plain));
        // Selected keys over files with different K.
        FileStoreTable sel =
                shredded.copy(
                        ShreddedReadHandover.encode(
                                Map.of("m", List.of(gen.keyUniverse().get(3))), null, true));
        Map<Long, List<String>> got = PaimonTables.readAll(sel);
        Map<Long, List<String>> full = PaimonTables.readAll(plain);
        String key = gen.keyUniverse().get(3);
        // Selected keys serve m['k'] lookups: an entry whose value is NULL may read as absent
        // (where the footer's
        // ownership segments spare __field_mapping), which m['k'] cannot tell apart, so compare
        // without them.
        for (Map.Entry<Long, List<String>> e : full.entrySet()) {
            List<String> expected =
                    e.getValue() == null
                            ? null
                            : e.getValue().stream()
                                    .filter(
                                            s ->
                                                    s.startsWith(key + "=")
                                                            && !s.equals(key + "=null"))
                                    .collect(java.util.stream.Collectors.toList());
            List<String> actual =
                    got.get(e.getKey()) == null
                            ? null
                            : got.get(e.getKey()).stream()
                                    .filter(s -> !s.equals(key + "=null"))
                                    .collect(java.util.stream.Collectors.toList());
            assertThat(actual).as(why + " id " + e.getKey()).isEqualTo(expected);
        }
    }
}
