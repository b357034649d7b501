package dev.strata.shredding.allocate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.layout.GroupPlacement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The stable placement policy, and the per-row-group S_g / O_g every allocator reports. */
class StableAllocatorTest {

    private static int[] place(ColumnAllocator a, int... ids) {
        a.allocate(ids, ids.length);
        return a.mapping().clone();
    }

    /**
     * Families of keys taking turns in runs, plus one random key per row: the layout LRU spreads.
     */
    private static List<int[]> familyRows(
            long seed, int rows, int families, int perFamily, int run) {
        Random r = new Random(seed);
        List<int[]> out = new ArrayList<>();
        int family = 0;
        for (int i = 0; i < rows; i++) {
            if (i % run == 0) {
                family = r.nextInt(families);
            }
            List<Integer> ids = new ArrayList<>();
            for (int j = 0; j < perFamily; j++) {
                if (r.nextDouble() < 0.95) {
                    ids.add(family * perFamily + j);
                }
            }
            int extra = r.nextInt(families * perFamily);
            if (!ids.contains(extra)) {
                ids.add(extra);
            }
            out.add(ids.stream().mapToInt(Integer::intValue).toArray());
        }
        return out;
    }

    private static double meanColumnsPerId(ColumnAllocator a, int ids) {
        int sum = 0;
        int n = 0;
        for (int id = 0; id < ids; id++) {
            int c = a.columnsOfId(id).cardinality();
            if (c > 0) {
                sum += c;
                n++;
            }
        }
        return (double) sum / n;
    }

    @Test
    void keysKeepTheirHomeWhenTheirGroupReturns() {
        ColumnAllocator a = PlacementPolicy.STABLE.newAllocator(3);
        assertThat(place(a, 0, 1, 2)).containsExactly(0, 1, 2);
        assertThat(place(a, 3, 4, 5)).containsExactly(3, 4, 5);
        // Returning keys whose homes the previous row used overflow for one row (a stray must not
        // cut a running
        // key's run); from the next row on they are running keys and go home, where LRU would put
        // them wherever
        // the least recently used columns are.
        assertThat(place(a, 2, 0)).containsExactly(-1, -1, -1);
        assertThat(Arrays.copyOf(a.overflowIds(), a.overflowCount())).containsExactly(0, 2);
        assertThat(place(a, 2, 0)).containsExactly(0, -1, 2);
        assertThat(place(a, 4)).containsExactly(-1, 4, -1);
        assertThat(a.columnsOfId(0).stream().toArray()).containsExactly(0);
        assertThat(a.columnsOfId(2).stream().toArray()).containsExactly(2);
        // 3 and 5 share their homes with 0 and 2, which win as they were in the previous row: 3 and
        // 5, strays
        // whose homes are busy, overflow although column 1 is free, so they never spread into other
        // columns.
        assertThat(place(a, 0, 2, 3, 5)).containsExactly(0, -1, 2);
        assertThat(Arrays.copyOf(a.overflowIds(), a.overflowCount())).containsExactly(3, 5);
        assertThat(a.maxRowWidth()).isEqualTo(4);
        // In the next row 3 is continuing: it keeps colliding with 0, so it takes a free column for
        // the run.
        assertThat(place(a, 0, 3)).containsExactly(0, 3, -1);
        assertThat(place(a, 0, 3)).containsExactly(0, 3, -1);
        assertThat(a.columnsOfId(3).stream().toArray()).containsExactly(0, 1);
    }

    @Test
    void aHotKeyWinsItsHomeAndKeepsItToItself() {
        ColumnAllocator a = PlacementPolicy.STABLE.newAllocator(4);
        Random r = new Random(7);
        for (int row = 0; row < 2000; row++) {
            // id 0 in every row, three of 60 others at random.
            int[] ids = {0, 1 + r.nextInt(20), 21 + r.nextInt(20), 41 + r.nextInt(20)};
            a.allocate(ids, ids.length);
        }
        int home = a.columnsOfId(0).nextSetBit(0);
        assertThat(a.columnsOfId(0).cardinality()).isEqualTo(1);
        for (int id = 1; id <= 60; id++) {
            assertThat(a.columnsOfId(id).get(home))
                    .as("id %s must stay out of the hot key's column", id)
                    .isFalse();
        }
    }

    @Test
    void familiesTakingTurnsStayInFewerColumnsThanUnderLru() {
        List<int[]> rows = familyRows(11, 20000, 20, 10, 200);
        ColumnAllocator lru = PlacementPolicy.LRU.newAllocator(12);
        ColumnAllocator stable = PlacementPolicy.STABLE.newAllocator(12);
        for (int[] row : rows) {
            lru.allocate(row, row.length);
            stable.allocate(row, row.length);
        }
        double l = meanColumnsPerId(lru, 200);
        double s = meanColumnsPerId(stable, 200);
        assertThat(s).as("mean |S(id)| stable %s vs lru %s", s, l).isLessThan(l / 2);
    }

    @Test
    void duplicateKeysTakeTwoSlots() {
        ColumnAllocator a = PlacementPolicy.STABLE.newAllocator(3);
        int[] m = place(a, 5, 5);
        assertThat(Arrays.stream(m).filter(x -> x == 5).count()).isEqualTo(2);
        assertThat(a.maxRowWidth()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(PlacementPolicy.class)
    void columnSetsHoldColumnsBeyondTheFirst64(PlacementPolicy policy) {
        // K = 130: S(id) and S_g(id) span three words of column bits per id.
        Random random = new Random(130);
        ColumnAllocator a = policy.newAllocator(130);
        Map<Integer, BitSet> file = new HashMap<>();
        Map<Integer, BitSet> group = new HashMap<>();
        for (int r = 0; r < 400; r++) {
            int[] row = new int[100 + random.nextInt(60)];
            for (int i = 0; i < row.length; i++) {
                row[i] = random.nextInt(900);
            }
            a.allocate(row, row.length, r % 100);
            for (int c = 0; c < 130; c++) {
                int id = a.mapping()[c];
                if (id >= 0) {
                    file.computeIfAbsent(id, x -> new BitSet()).set(c);
                    group.computeIfAbsent(id, x -> new BitSet()).set(c);
                }
            }
            if (r % 100 == 99) {
                GroupPlacement g = a.sealGroup(1 << 16, 100);
                for (int id = 0; id < 900; id++) {
                    BitSet e = group.getOrDefault(id, new BitSet());
                    assertThat(g.columnsOf(id))
                            .as("S_g(%s)", id)
                            .containsExactly(e.stream().toArray());
                }
                group.clear();
            }
        }
        assertThat(file.values().stream().anyMatch(b -> b.nextSetBit(64) >= 0)).isTrue();
        for (int id = 0; id < 900; id++) {
            assertThat(a.columnsOfId(id))
                    .as("S(%s)", id)
                    .isEqualTo(file.getOrDefault(id, new BitSet()));
        }
    }

    @ParameterizedTest
    @EnumSource(PlacementPolicy.class)
    void groupPlacementIsExactlyWhatTheRowsOfTheGroupUsed(PlacementPolicy policy) {
        List<int[]> rows = familyRows(3, 3000, 8, 6, 50);
        ColumnAllocator a = policy.newAllocator(5);
        int groupSize = 700;
        Map<Integer, BitSet> expected = new TreeMap<>();
        BitSet expectedOverflow = new BitSet();
        BitSet fileOverflow = new BitSet();
        Map<Integer, BitSet> fileColumns = new HashMap<>();
        List<int[]> groupMappings = new ArrayList<>();
        int groupStart = 0;
        for (int i = 0; i < rows.size(); i++) {
            int[] row = rows.get(i);
            if (i % 97 == 5) {
                groupMappings.add(null); // a NULL map: counted as a row, never allocated
                continue;
            }
            a.allocate(row, row.length, i - groupStart);
            groupMappings.add(a.mapping().clone());
            for (int c = 0; c < 5; c++) {
                int id = a.mapping()[c];
                if (id >= 0) {
                    expected.computeIfAbsent(id, x -> new BitSet()).set(c);
                    fileColumns.computeIfAbsent(id, x -> new BitSet()).set(c);
                }
            }
            for (int j = 0; j < a.overflowCount(); j++) {
                expectedOverflow.set(a.overflowIds()[j]);
                fileOverflow.set(a.overflowIds()[j]);
            }
            if ((i + 1) % groupSize == 0 || i == rows.size() - 1) {
                GroupPlacement g = a.sealGroup(1 << 16, i + 1 - groupStart);
                assertThat(g.hasSegments()).isTrue();
                for (int c = 0; c < 5; c++) {
                    int[] seg = g.segmentsOf(c);
                    assertThat(seg)
                            .as("column %s is not fragmented under the default bound", c)
                            .isNotNull();
                    for (int r = 0; r < groupMappings.size(); r++) {
                        int[] m = groupMappings.get(r);
                        int held = m == null ? -1 : m[c];
                        int owner = -1;
                        for (int s = 0; s < seg.length; s += 3) {
                            if (r >= seg[s] && r < seg[s] + seg[s + 1]) {
                                owner = seg[s + 2];
                            }
                        }
                        if (held >= 0) {
                            assertThat(owner)
                                    .as("row %s of the group, column %s holds %s", r, c, held)
                                    .isEqualTo(held);
                            assertThat(g.rangesOf(c, held)).isNotEmpty();
                        }
                    }
                }
                groupMappings.clear();
                groupStart = i + 1;
                for (int id = 0; id < 48; id++) {
                    BitSet e = expected.getOrDefault(id, new BitSet());
                    assertThat(g.columnsOf(id))
                            .as("S_g(%s) of the group ending at row %s", id, i)
                            .containsExactly(e.stream().toArray());
                    assertThat(g.overflows(id)).isEqualTo(expectedOverflow.get(id));
                    for (int c : g.columnsOf(id)) {
                        long holders = expected.values().stream().filter(b -> b.get(c)).count();
                        assertThat(g.ownerOf(c) == id).isEqualTo(holders == 1);
                    }
                }
                expected.clear();
                expectedOverflow.clear();
            }
        }
        for (Map.Entry<Integer, BitSet> e : fileColumns.entrySet()) {
            assertThat(a.columnsOfId(e.getKey())).isEqualTo(e.getValue());
        }
        assertThat(a.overflowSet()).isEqualTo(fileOverflow);
        assertThat(a.sealGroup(0))
                .as("an empty group lists no ids, so it is recorded even with a bound of 0")
                .isNotNull();
        ColumnAllocator tight = policy.newAllocator(2);
        tight.maxSegmentsPerColumn(1);
        tight.allocate(new int[] {1}, 1, 0);
        tight.allocate(new int[] {2}, 1, 1);
        tight.allocate(new int[] {1}, 1, 2);
        GroupPlacement t = tight.sealGroup(10, 3);
        int col = t.columnsOf(1)[0];
        if (t.columnsOf(2).length > 0 && t.columnsOf(2)[0] == col) {
            assertThat(t.segmentsOf(col)).as("three segments exceed a bound of one").isNull();
            assertThat(t.rangesOf(col, 1)).isNull();
        }
        ColumnAllocator fresh = policy.newAllocator(5);
        fresh.allocate(new int[] {1, 2}, 2);
        assertThat(fresh.sealGroup(1)).as("two ids exceed a bound of one").isNull();
    }
}
