package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddedReadHandover;
import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.ShreddedReadMetrics.Counter;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.pushdown.MapPredicate.Op;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

/**
 * Row-group skipping under deletion vectors: skipped groups must not shift positions, so every row
 * a pruned read returns is live (equal to the reference table) and every live matching row is
 * returned.
 */
class DeletionVectorPruningTest extends PaimonTablesTestBase {

    @Test
    void prunedReadsOfDeletionVectorTablesReturnOnlyLiveRowsAndAllMatches() throws Exception {
        long seed = TestSeeds.seed("dvPruning");
        String why = TestSeeds.describe("dvPruning", seed);
        Random random = new Random(seed);
        MapDataGenerator gen =
                MapDataGenerator.builder(seed)
                        .keyUniverse(120)
                        .keysPerRow(6, 12)
                        .families(6, 100)
                        .build();
        Map<String, String> small = Map.of("file.block-size", "8 kb");
        FileStoreTable shredded =
                tables.create(
                        "dv",
                        PaimonTables.Kind.PRIMARY_KEY_DV,
                        PaimonTables.layoutOptions(true, 6, "lru"),
                        small);
        FileStoreTable plain =
                tables.create(
                        "dvref",
                        PaimonTables.Kind.PRIMARY_KEY_DV,
                        PaimonTables.layoutOptions(false, 0, null),
                        small);
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < 2500; i++) {
            ids.add(i);
        }
        List<GeneratedMap> first = gen.generate(ids.size());
        tables.write(shredded, ids, first);
        tables.write(plain, ids, first);
        tables.compactAll(shredded);
        tables.compactAll(plain);
        List<Long> updated = new ArrayList<>();
        for (long i = 0; i < 2500; i += 1 + random.nextInt(3)) {
            updated.add(i);
        }
        List<GeneratedMap> second = gen.generate(updated.size());
        tables.write(shredded, updated, second);
        tables.write(plain, updated, second);
        tables.compact(shredded, false);
        tables.compact(plain, false);
        assertThat(PaimonTables.deletionFiles(shredded))
                .as("the updates must be applied through deletion vectors")
                .isPositive();

        Map<Long, List<String>> reference = PaimonTables.readAll(plain);
        List<String> universe = gen.keyUniverse();
        long skipped = 0;
        for (int p = 0; p < 12; p++) {
            int k = random.nextInt(universe.size());
            String key = universe.get(k);
            double lit = MapDataGenerator.valueBase(k) + random.nextDouble() * 10;
            MapPredicate pred =
                    MapPredicate.leaf(
                            "m", key, p % 2 == 0 ? Op.LT : Op.EQ, p % 2 == 0 ? lit : 1.0e9);
            Map<Long, List<String>> got;
            try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
                got =
                        PaimonTables.readAll(
                                shredded.copy(ShreddedReadHandover.encode(null, pred, true)));
                skipped += scope.snapshot().get(Counter.ROW_GROUPS_SKIPPED);
            }
            for (Map.Entry<Long, List<String>> e : got.entrySet()) {
                assertThat(e.getValue())
                        .as(why + " id " + e.getKey() + " must be the live row")
                        .isEqualTo(reference.get(e.getKey()));
            }
            for (Map.Entry<Long, List<String>> e : reference.entrySet()) {
                if (matches(e.getValue(), key, pred)) {
                    assertThat(got)
                            .as(why + " " + pred + " must return id " + e.getKey())
                            .containsKey(e.getKey());
                }
            }
        }
        assertThat(skipped).as("pruning must have skipped row groups").isGreaterThan(0);
    }

    private static boolean matches(List<String> entries, String key, MapPredicate pred) {
        if (entries == null) {
            return false;
        }
        for (String e : entries) {
            if (e.startsWith(key + "=")) {
                String v = e.substring(key.length() + 1);
                if (v.equals("null")) {
                    return false;
                }
                double d = Double.parseDouble(v);
                double lit = (Double) ((MapPredicate.Leaf) pred).literals().get(0);
                return ((MapPredicate.Leaf) pred).op() == Op.LT ? d < lit : d == lit;
            }
        }
        return false;
    }
}
