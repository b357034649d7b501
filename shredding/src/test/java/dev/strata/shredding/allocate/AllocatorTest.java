package dev.strata.shredding.allocate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllocatorTest {

    private static int[] place(ColumnAllocator a, int... ids) {
        a.allocate(ids, ids.length);
        return a.mapping().clone();
    }

    private static int[] overflow(ColumnAllocator a) {
        return Arrays.copyOf(a.overflowIds(), a.overflowCount());
    }

    private static Map<Integer, int[]> s(ColumnAllocator a, int maxId) {
        Map<Integer, int[]> m = new LinkedHashMap<>();
        for (int id = 0; id <= maxId; id++) {
            BitSet b = a.columnsOfId(id);
            if (!b.isEmpty()) {
                m.put(id, b.stream().toArray());
            }
        }
        return m;
    }

    @Test
    void plainKeepsEntryOrderAndOverflowsTheRest() {
        ColumnAllocator a = PlacementPolicy.PLAIN.newAllocator(3);
        assertThat(place(a, 10, 20)).containsExactly(10, 20, -1);
        assertThat(place(a, 0, 1, 2)).containsExactly(0, 1, 2);
        assertThat(place(a)).containsExactly(-1, -1, -1);
        assertThat(place(a, 2, 0, 1)).containsExactly(2, 0, 1);
        assertThat(place(a, 4, 3, 5, 6)).containsExactly(4, 3, 5);
        assertThat(overflow(a)).containsExactly(6);

        ColumnAllocator b = PlacementPolicy.PLAIN.newAllocator(2);
        assertThat(place(b, 10, 20, 30, 40)).containsExactly(10, 20);
        assertThat(overflow(b)).containsExactly(30, 40);

        ColumnAllocator w = PlacementPolicy.PLAIN.newAllocator(3);
        place(w, 1, 2);
        place(w, 1, 2, 3, 4, 5);
        place(w, 1);
        assertThat(w.maxRowWidth()).isEqualTo(5);

        ColumnAllocator st = PlacementPolicy.PLAIN.newAllocator(3);
        place(st, 10, 20, 30);
        place(st, 20, 40);
        Map<Integer, int[]> s = s(st, 40);
        assertThat(s.keySet()).containsExactly(10, 20, 30, 40);
        assertThat(s.get(10)).containsExactly(0);
        assertThat(s.get(20)).containsExactly(0, 1);
        assertThat(s.get(30)).containsExactly(2);
        assertThat(s.get(40)).containsExactly(1);

        ColumnAllocator o = PlacementPolicy.PLAIN.newAllocator(2);
        place(o, 1, 2, 3);
        place(o, 4, 5, 6, 7);
        assertThat(o.overflowSet().stream().toArray()).containsExactly(3, 6, 7);
    }

    @Test
    void sequentialSortsIdsBeforePlacing() {
        ColumnAllocator a = PlacementPolicy.SEQUENTIAL.newAllocator(3);
        assertThat(place(a, 1, 2)).containsExactly(1, 2, -1);
        assertThat(place(a, 2, 3)).containsExactly(2, 3, -1);
        assertThat(place(a, 7, 4, 6, 5)).containsExactly(4, 5, 6);
        assertThat(overflow(a)).containsExactly(7);
        Map<Integer, int[]> s = s(a, 10);
        assertThat(s.get(1)).containsExactly(0);
        assertThat(s.get(2)).containsExactly(0, 1);
        assertThat(s.get(3)).containsExactly(1);
        assertThat(s.get(4)).containsExactly(0);
        assertThat(s.get(5)).containsExactly(1);
        assertThat(s.get(6)).containsExactly(2);
        assertThat(a.overflowSet().stream().toArray()).containsExactly(7);
    }

    @Test
    void lruKeepsResidentsAndEvictsLeastRecentlyUsed() {
        ColumnAllocator a = PlacementPolicy.LRU.newAllocator(3);
        assertThat(place(a, 0, 1, 2)).containsExactly(0, 1, 2);
        assertThat(place(a, 0, 1)).containsExactly(0, 1, -1);
        assertThat(place(a, 3, 4, 5)).containsExactly(4, 5, 3);
        assertThat(place(a, 0, 3, 4, 5)).containsExactly(4, 5, 3);
        assertThat(overflow(a)).containsExactly(0);
        assertThat(a.maxRowWidth()).isEqualTo(4);
        Map<Integer, int[]> s = s(a, 10);
        assertThat(s.get(0)).containsExactly(0);
        assertThat(s.get(1)).containsExactly(1);
        assertThat(s.get(2)).containsExactly(2);
        assertThat(s.get(3)).containsExactly(2);
        assertThat(s.get(4)).containsExactly(0);
        assertThat(s.get(5)).containsExactly(1);
        assertThat(a.overflowSet().stream().toArray()).containsExactly(0);

        ColumnAllocator b = PlacementPolicy.LRU.newAllocator(2);
        assertThat(place(b)).containsExactly(-1, -1);
        assertThat(b.maxRowWidth()).isZero();
        assertThat(place(b, 7)).containsExactly(7, -1);
        assertThat(b.maxRowWidth()).isEqualTo(1);

        // A row's misses are placed in ascending id order, whatever the entry order: 3 takes the
        // never-used column, then 7 evicts 5.
        ColumnAllocator c = PlacementPolicy.LRU.newAllocator(2);
        assertThat(place(c, 5)).containsExactly(5, -1);
        assertThat(place(c, 7, 3)).containsExactly(7, 3);
    }

    @Test
    void workedExampleOfTheSpecMatchesForEveryPolicy() {
        // ids: cpu=0, mem=1, disk=2, net=3, gpu=4
        int[][] rows = {{0, 1, 2}, {1, 0}, {3}, {4, 3, 0, 1}, {}};
        int[][] plain = {{0, 1, 2}, {1, 0, -1}, {3, -1, -1}, {4, 3, 0}, {-1, -1, -1}};
        int[][] seq = {{0, 1, 2}, {0, 1, -1}, {3, -1, -1}, {0, 1, 3}, {-1, -1, -1}};
        int[][] lru = {{0, 1, 2}, {0, 1, -1}, {-1, -1, 3}, {0, 1, 3}, {-1, -1, -1}};
        check(PlacementPolicy.PLAIN, rows, plain, new int[] {1});
        check(PlacementPolicy.SEQUENTIAL, rows, seq, new int[] {4});
        check(PlacementPolicy.LRU, rows, lru, new int[] {4});
    }

    private static void check(
            PlacementPolicy policy, int[][] rows, int[][] expected, int[] overflowSet) {
        ColumnAllocator a = policy.newAllocator(3);
        for (int i = 0; i < rows.length; i++) {
            assertThat(place(a, rows[i])).as(policy + " row " + i).containsExactly(expected[i]);
        }
        assertThat(a.overflowSet().stream().toArray())
                .as(policy + " O")
                .containsExactly(overflowSet);
        assertThat(a.maxRowWidth()).isEqualTo(4);
    }

    @Test
    void kAdaptsToRecentWidthsWithSlack() {
        assertThat(next(256)).isEqualTo(256);
        assertThat(next(256, 7)).isEqualTo(7);
        assertThat(next(10, 20)).isEqualTo(10);
        assertThat(next(256, 3, 7, 5)).isEqualTo(7);
        assertThat(next(256, repeat(3, 19, 1000))).isEqualTo(3);
        assertThat(next(256, repeat(3, 19, 7))).isEqualTo(7);
        assertThat(next(256, repeat(100, 19, 125))).isEqualTo(125);
        assertThat(next(256, repeat(100, 19, 130))).isEqualTo(100);
        KAdaptation k = new KAdaptation(256);
        k.fileCompleted(104);
        for (int i = 0; i < 19; i++) {
            k.fileCompleted(100);
        }
        assertThat(k.nextK()).isEqualTo(104);
        k.fileCompleted(100);
        assertThat(k.nextK()).isEqualTo(100);
        assertThat(next(256, 0)).isEqualTo(1);
    }

    @Test
    void kSequenceOfTheSpecExample() {
        KAdaptation k = new KAdaptation(64);
        int[] widths = {5, 6, 5, 40, 6, 5, 6, 5, 6, 5, 6, 0};
        int[] expectedKs = {64, 5, 6, 6, 40, 40, 40, 40, 40, 40, 6, 6};
        for (int i = 0; i < widths.length; i++) {
            assertThat(k.nextK()).as("file " + i).isEqualTo(expectedKs[i]);
            k.fileCompleted(widths[i]);
        }
        assertThat(k.nextK()).isEqualTo(6);
    }

    private static int[] repeat(int v, int times, int last) {
        int[] out = new int[times + 1];
        Arrays.fill(out, v);
        out[times] = last;
        return out;
    }

    private static int next(int max, int... window) {
        KAdaptation k = new KAdaptation(max);
        for (int w : window) {
            k.fileCompleted(w);
        }
        return k.nextK();
    }
}
