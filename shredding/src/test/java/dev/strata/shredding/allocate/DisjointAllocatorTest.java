package dev.strata.shredding.allocate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The disjoint placement policy on the data shapes of the map benchmark (issue 26). */
class DisjointAllocatorTest {

    private static final int SAMPLE = 10_000;

    /**
     * Rows of keys given as names, turned into file-local ids in first-seen order as the writer's
     * dictionary does.
     */
    private static List<int[]> ids(List<List<String>> rows) {
        Map<String, Integer> dict = new HashMap<>();
        List<int[]> out = new ArrayList<>();
        for (List<String> row : rows) {
            out.add(
                    row.stream()
                            .mapToInt(k -> dict.computeIfAbsent(k, x -> dict.size()))
                            .toArray());
        }
        return out;
    }

    /** {@code hot} plus one key from each of 39 blocks of 50, drawn independently. */
    private static List<int[]> independent(long seed, int rows) {
        Random r = new Random(seed);
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            List<String> row = new ArrayList<>();
            row.add("hot");
            for (int b = 0; b < 39; b++) {
                row.add("k_" + (b * 50 + r.nextInt(50)));
            }
            java.util.Collections.shuffle(row, r);
            out.add(row);
        }
        return ids(out);
    }

    /** {@code hot} plus the 39 own keys of one of 60 device types. */
    private static List<int[]> correlated(long seed, int rows) {
        Random r = new Random(seed);
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            int t = r.nextInt(60);
            List<String> row = new ArrayList<>();
            row.add("hot");
            for (int j = 1; j < 40; j++) {
                row.add("d" + t + "_" + j);
            }
            out.add(row);
        }
        return ids(out);
    }

    /** Six keys in every row and 44 skewed draws from 3 000 keys, duplicates dropped. */
    private static List<int[]> longTail(long seed, int rows) {
        Random r = new Random(seed);
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            Set<String> row =
                    new LinkedHashSet<>(List.of("cpu", "mem", "disk", "net", "load", "err"));
            for (int j = 0; j < 44; j++) {
                row.add("t_" + (int) (3000 * Math.pow(r.nextDouble(), 2)));
            }
            out.add(new ArrayList<>(row));
        }
        return ids(out);
    }

    /** The ids the last row put in a column or the overflow, duplicates kept. */
    private static List<Integer> placed(ColumnAllocator a) {
        List<Integer> placed = new ArrayList<>();
        for (int id : a.mapping()) {
            if (id >= 0) {
                placed.add(id);
            }
        }
        for (int i = 0; i < a.overflowCount(); i++) {
            placed.add(a.overflowIds()[i]);
        }
        return placed;
    }

    /** Places the rows as the writer does (sample first, then every row) and checks each row. */
    private static ColumnAllocator write(PlacementPolicy policy, int k, List<int[]> rows) {
        ColumnAllocator a = policy.newAllocator(k);
        a.plan(rows.subList(0, Math.min(SAMPLE, rows.size())));
        for (int[] row : rows) {
            a.allocate(row, row.length);
            List<Integer> placed = placed(a);
            List<Integer> expected = new ArrayList<>();
            for (int id : row) {
                expected.add(id);
            }
            assertThat(placed).containsExactlyInAnyOrderElementsOf(expected);
            if (row.length <= k && !(a instanceof DisjointAllocator d && !d.planned())) {
                assertThat(a.overflowCount()).isZero();
            }
        }
        return a;
    }

    private static double meanColumnsPerId(ColumnAllocator a, List<int[]> rows) {
        int max = rows.stream().flatMapToInt(java.util.Arrays::stream).max().orElse(-1);
        int sum = 0;
        for (int id = 0; id <= max; id++) {
            sum += a.columnsOfId(id).cardinality();
        }
        return (double) sum / (max + 1);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void independentBlocksEachKeepOneColumn(long seed) {
        List<int[]> rows = independent(seed, 40_000);
        ColumnAllocator disjoint = write(PlacementPolicy.DISJOINT, 40, rows);
        assertThat(((DisjointAllocator) disjoint).planned()).isTrue();
        assertThat(disjoint.overflowSet().isEmpty()).isTrue();
        assertThat(meanColumnsPerId(disjoint, rows)).isEqualTo(1.0);
        double lru = meanColumnsPerId(write(PlacementPolicy.LRU, 40, rows), rows);
        assertThat(lru).as("LRU spreads these keys (mean |S(k)|)").isGreaterThan(5.0);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void repairStopsOnceNoEntryCollides(long seed) {
        // Device types: the first choice of homes leaves no collision, so no round runs; blocks
        // drawn at random: the rounds stop at the first that leaves none (one or two here, where a
        // further round used to confirm that nothing moves).
        DisjointAllocator types = (DisjointAllocator) PlacementPolicy.DISJOINT.newAllocator(40);
        types.plan(correlated(seed, SAMPLE));
        assertThat(types.planned()).isTrue();
        assertThat(types.repairPasses()).isZero();
        DisjointAllocator blocks = (DisjointAllocator) PlacementPolicy.DISJOINT.newAllocator(40);
        blocks.plan(independent(seed, SAMPLE));
        assertThat(blocks.planned()).isTrue();
        assertThat(blocks.repairPasses()).isBetween(1, 2);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void deviceTypesShareColumnsWithoutOverflow(long seed) {
        List<int[]> rows = correlated(seed, 40_000);
        ColumnAllocator disjoint = write(PlacementPolicy.DISJOINT, 40, rows);
        assertThat(disjoint.overflowSet().isEmpty()).isTrue();
        assertThat(meanColumnsPerId(disjoint, rows)).isEqualTo(1.0);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    void keysMeetingAtRandomStayInAFewCandidateColumns(long seed) {
        List<int[]> rows = longTail(seed, 40_000);
        int k = rows.stream().mapToInt(r -> r.length).max().orElseThrow();
        ColumnAllocator disjoint = write(PlacementPolicy.DISJOINT, k, rows);
        assertThat(((DisjointAllocator) disjoint).planned()).isFalse();
        // One round of repair shows the homes will not do; the others are not run.
        assertThat(((DisjointAllocator) disjoint).repairPasses()).isEqualTo(1);
        ColumnAllocator lru = write(PlacementPolicy.LRU, k, rows);
        int max = rows.stream().flatMapToInt(Arrays::stream).max().orElseThrow();
        long entries = rows.stream().mapToLong(r -> r.length).sum();
        for (int id = 0; id <= max; id++) {
            assertThat(disjoint.columnsOfId(id).cardinality())
                    .as("S(%d)", id)
                    .isLessThanOrEqualTo(DisjointAllocator.CHOICES);
        }
        // The six keys of every row (ids 0-5, first seen) each keep a column alone.
        for (int id = 0; id < 6; id++) {
            int column = disjoint.columnsOfId(id).nextSetBit(0);
            assertThat(disjoint.columnsOfId(id).cardinality()).isEqualTo(1);
            for (int other = 6; other <= max; other++) {
                assertThat(disjoint.columnsOfId(other).get(column)).isFalse();
            }
        }
        assertThat(overflowEntries(PlacementPolicy.DISJOINT, k, rows))
                .as("overflowed entries of %d", entries)
                .isLessThan(entries / 1_000);
        assertThat(meanColumnsPerId(lru, rows))
                .as("LRU spreads these keys")
                .isGreaterThan(2 * meanColumnsPerId(disjoint, rows));
        // A duplicate key, dedicated or not, is placed twice (its second entry may overflow).
        int[] duplicates = {0, 0, 6, 6, 7};
        disjoint.allocate(duplicates, duplicates.length);
        assertThat(placed(disjoint)).containsExactlyInAnyOrder(0, 0, 6, 6, 7);
    }

    /**
     * {@code hot} plus, from each of 39 blocks of 5 000 keys present in half the rows, one key: the
     * sample sees most keys once, so homes fitted to it collide in none of its rows and say nothing
     * of later ones, where LRU placed the keys without a home over up to 26 columns (a probe's 1M
     * rows). Keys mostly unseen in the sample are placed by candidates.
     */
    @ParameterizedTest
    @ValueSource(longs = {7, 8})
    void keysMostlyUnseenInTheSampleStayInAFewCandidateColumns(long seed) {
        Random r = new Random(seed);
        List<List<String>> named = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            List<String> row = new ArrayList<>();
            row.add("hot");
            for (int b = 0; b < 39; b++) {
                if (r.nextBoolean()) {
                    row.add("k_" + (b * 5_000 + r.nextInt(5_000)));
                }
            }
            named.add(row);
        }
        List<int[]> rows = ids(named);
        int k = 32;
        ColumnAllocator disjoint = write(PlacementPolicy.DISJOINT, k, rows);
        assertThat(((DisjointAllocator) disjoint).planned()).isFalse();
        int max = rows.stream().flatMapToInt(Arrays::stream).max().orElseThrow();
        for (int id = 0; id <= max; id++) {
            assertThat(disjoint.columnsOfId(id).cardinality())
                    .as("S(%d)", id)
                    .isLessThanOrEqualTo(DisjointAllocator.CHOICES);
        }
    }

    private static long overflowEntries(PlacementPolicy policy, int k, List<int[]> rows) {
        ColumnAllocator a = policy.newAllocator(k);
        a.plan(rows.subList(0, Math.min(SAMPLE, rows.size())));
        long overflowed = 0;
        for (int[] row : rows) {
            a.allocate(row, row.length);
            overflowed += a.overflowCount();
        }
        return overflowed;
    }

    @ParameterizedTest
    @ValueSource(longs = {4, 5})
    void newKeysDuplicatesAndWideRowsArePlacedOnce(long seed) {
        // The sample covers only the first 2 000 rows; later rows bring new keys, a duplicate key
        // and rows wider than K.
        Random r = new Random(seed);
        List<int[]> rows = new ArrayList<>(independent(seed, 2_000));
        for (int i = 0; i < 3_000; i++) {
            int n = 1 + r.nextInt(45);
            int[] row = new int[n];
            for (int j = 0; j < n; j++) {
                row[j] = r.nextInt(2_500);
            }
            rows.add(row);
        }
        ColumnAllocator a = write(PlacementPolicy.DISJOINT, 40, rows.subList(0, 2_000));
        // So few rows leave the homes colliding: keys are placed by candidates.
        assertThat(((DisjointAllocator) a).planned()).isFalse();
        for (int[] row : rows.subList(2_000, rows.size())) {
            a.allocate(row, row.length);
            List<Integer> placed = placed(a);
            List<Integer> expected = new ArrayList<>();
            for (int id : row) {
                expected.add(id);
            }
            assertThat(placed).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(a.overflowCount()).isGreaterThanOrEqualTo(Math.max(0, row.length - 40));
        }
        for (int id = 0; id < 2_500; id++) {
            assertThat(a.columnsOfId(id).cardinality())
                    .isLessThanOrEqualTo(DisjointAllocator.CHOICES);
        }
    }

    @Test
    void whenKeysSharingAHomeMeetTheKeyOfMoreSampleRowsKeepsIt() {
        // a and b never meet in the sample, so they share a home; a is in more sample rows.
        List<List<String>> sample = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            sample.add(List.of(i % 4 == 0 ? "b" : "a"));
        }
        List<int[]> rows = ids(sample);
        int a = rows.get(1)[0];
        int b = rows.get(0)[0];
        ColumnAllocator allocator = write(PlacementPolicy.DISJOINT, 2, rows);
        allocator.allocate(new int[] {a}, 1);
        int home = Arrays.asList(box(allocator.mapping())).indexOf(a);
        allocator.allocate(new int[] {b}, 1);
        assertThat(allocator.mapping()[home]).as("b's home is a's").isEqualTo(b);
        for (int[] row : List.of(new int[] {b, a}, new int[] {a, b})) {
            allocator.allocate(row, 2);
            assertThat(allocator.mapping()[home]).isEqualTo(a);
            assertThat(allocator.mapping()[1 - home]).isEqualTo(b);
        }
    }

    private static Integer[] box(int[] values) {
        return Arrays.stream(values).boxed().toArray(Integer[]::new);
    }
}
