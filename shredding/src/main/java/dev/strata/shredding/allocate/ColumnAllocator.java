package dev.strata.shredding.allocate;

import dev.strata.shredding.layout.GroupPlacement;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Places the file-local key ids of one map row into the K value columns of a file and keeps the
 * file-level bookkeeping: S (id → columns that held it), O (ids that overflowed) and W (the largest
 * number of entries of a non-null map). One allocator serves one file of one column.
 */
public abstract class ColumnAllocator {

    private final int k;
    private final int[] mapping;

    /** Per column, the id last recorded in S (-1: none); S only grows, so repeats skip it. */
    private final int[] lastRecorded;

    private int[] overflow = new int[8];
    private int overflowCount;

    /** S as {@link #words} longs of column bits per id, flat: an update touches one cache line. */
    private long[] columnsById = new long[0];

    private final int words;
    private final BitSet overflowSet = new BitSet();
    private int maxRowWidth;

    private final int[] groupLastRecorded;

    /** S_g of the current row group, laid out like {@link #columnsById}. */
    private long[] groupColumnsById = new long[0];

    private final BitSet groupIds = new BitSet();
    private final BitSet groupOverflow = new BitSet();

    /** Per column, the current group's open ownership segment: owner (-1: none) and start row. */
    private final int[] segmentOwner;

    private final int[] segmentStart;

    /** Per column, the group's closed segments as (start, length, owner); null once fragmented. */
    private final int[][] segments;

    private final int[] segmentInts;
    private int maxSegments = GroupPlacement.DEFAULT_MAX_SEGMENTS;

    ColumnAllocator(int k) {
        if (k < 1) {
            throw new IllegalArgumentException(
                    "Cannot create a column allocator: K must be at least 1 but was " + k + ".");
        }
        this.k = k;
        this.words = (k + 63) >>> 6;
        this.mapping = new int[k];
        this.lastRecorded = new int[k];
        Arrays.fill(lastRecorded, -1);
        this.groupLastRecorded = new int[k];
        Arrays.fill(groupLastRecorded, -1);
        this.segmentOwner = new int[k];
        Arrays.fill(segmentOwner, -1);
        this.segmentStart = new int[k];
        this.segments = new int[k][];
        for (int c = 0; c < k; c++) {
            segments[c] = new int[12];
        }
        this.segmentInts = new int[k];
    }

    /** Most ownership segments one column records per row group before it counts as fragmented. */
    public final void maxSegmentsPerColumn(int max) {
        this.maxSegments = max;
    }

    public final int numColumns() {
        return k;
    }

    /** Places {@code ids[0..n)} (entry order, duplicates allowed) and updates S, O and W. */
    public final void allocate(int[] ids, int n) {
        allocate(ids, n, -1);
    }

    /** As {@link #allocate(int[], int)}, recording segments at {@code rowInGroup} (-1: none). */
    public final void allocate(int[] ids, int n, int rowInGroup) {
        Arrays.fill(mapping, -1);
        overflowCount = 0;
        place(ids, n, mapping);
        maxRowWidth = Math.max(maxRowWidth, n);
        for (int c = 0; c < k; c++) {
            int id = mapping[c];
            if (id >= 0 && lastRecorded[c] != id) {
                columnsById = set(columnsById, id, c);
                lastRecorded[c] = id;
            }
            if (id >= 0 && groupLastRecorded[c] != id) {
                groupColumnsById = set(groupColumnsById, id, c);
                groupIds.set(id);
                groupLastRecorded[c] = id;
            }
            if (id >= 0 && rowInGroup >= 0 && segmentOwner[c] != id) {
                if (segmentOwner[c] >= 0) {
                    closeSegment(c, rowInGroup);
                }
                segmentOwner[c] = id;
                segmentStart[c] = rowInGroup;
            }
        }
        for (int i = 0; i < overflowCount; i++) {
            overflowSet.set(overflow[i]);
            groupOverflow.set(overflow[i]);
        }
    }

    /** Ends the row group: its S_g and O_g, or null if over {@code maxIds} ids held a column. */
    public final GroupPlacement sealGroup(int maxIds) {
        return sealGroup(maxIds, -1);
    }

    /** As {@link #sealGroup(int)}, with the segments of rows allocated with their index. */
    public final GroupPlacement sealGroup(int maxIds, int rows) {
        int[][] closed = null;
        if (rows >= 0) {
            closed = new int[k][];
            for (int c = 0; c < k; c++) {
                if (segmentOwner[c] >= 0) {
                    closeSegment(c, rows);
                }
                closed[c] = segments[c] == null ? null : Arrays.copyOf(segments[c], segmentInts[c]);
            }
        }
        for (int c = 0; c < k; c++) {
            segmentOwner[c] = -1;
            segmentInts[c] = 0;
            if (segments[c] == null) {
                segments[c] = new int[12];
            }
        }
        GroupPlacement result = null;
        int count = groupIds.cardinality();
        if (count <= maxIds) {
            int[] ids = new int[count];
            int[][] cols = new int[count][];
            int i = 0;
            for (int id = groupIds.nextSetBit(0); id >= 0; id = groupIds.nextSetBit(id + 1)) {
                ids[i] = id;
                cols[i++] = bitsOf(groupColumnsById, id).stream().toArray();
            }
            result = new GroupPlacement(k, ids, cols, groupOverflow.stream().toArray(), closed);
        }
        for (int id = groupIds.nextSetBit(0); id >= 0; id = groupIds.nextSetBit(id + 1)) {
            Arrays.fill(groupColumnsById, id * words, (id + 1) * words, 0L);
        }
        groupIds.clear();
        groupOverflow.clear();
        Arrays.fill(groupLastRecorded, -1);
        return result;
    }

    private void closeSegment(int c, int end) {
        int[] seg = segments[c];
        if (seg == null) {
            return;
        }
        int at = segmentInts[c];
        if (at / 3 >= maxSegments) {
            segments[c] = null;
            return;
        }
        if (at + 3 > seg.length) {
            seg = Arrays.copyOf(seg, seg.length * 2);
            segments[c] = seg;
        }
        seg[at] = segmentStart[c];
        seg[at + 1] = end - segmentStart[c];
        seg[at + 2] = segmentOwner[c];
        segmentInts[c] = at + 3;
    }

    private long[] set(long[] sets, int id, int c) {
        int at = id * words + (c >>> 6);
        if (at >= sets.length) {
            sets = Arrays.copyOf(sets, Math.max((id + 1) * words, sets.length * 2));
        }
        sets[at] |= 1L << c;
        return sets;
    }

    private BitSet bitsOf(long[] sets, int id) {
        return (id + 1) * words > sets.length
                ? new BitSet()
                : BitSet.valueOf(Arrays.copyOfRange(sets, id * words, (id + 1) * words));
    }

    /** Called once before the first row with the ids of the file's first rows. */
    public void plan(List<int[]> rows) {}

    /** Forgets the overflow of the last row (for an allocator another one delegates to). */
    final void clearOverflow() {
        overflowCount = 0;
    }

    /** Fills {@code mapping} (pre-filled with -1) and calls {@link #addOverflow} for the rest. */
    abstract void place(int[] ids, int n, int[] mapping);

    final void addOverflow(int id) {
        if (overflowCount == overflow.length) {
            overflow = Arrays.copyOf(overflow, overflowCount * 2);
        }
        overflow[overflowCount++] = id;
    }

    /** The row's placement: K ids, -1 for an empty slot. Valid until the next call. */
    public final int[] mapping() {
        return mapping;
    }

    /** The row's overflowed ids, valid up to {@link #overflowCount()}. */
    public final int[] overflowIds() {
        return overflow;
    }

    public final int overflowCount() {
        return overflowCount;
    }

    /** S(id): the columns that held {@code id} so far (a copy; empty for unseen ids). */
    public final BitSet columnsOfId(int id) {
        return bitsOf(columnsById, id);
    }

    /** O: the ids that overflowed in some row so far (a copy). */
    public final BitSet overflowSet() {
        return (BitSet) overflowSet.clone();
    }

    /** W: the largest entry count of a non-null map so far (duplicates counted). */
    public final int maxRowWidth() {
        return maxRowWidth;
    }
}
