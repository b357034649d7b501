package dev.strata.shredding.allocate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import dev.strata.shredding.layout.GroupPlacement;

/**
 * Places the file-local key ids of one map row into the K value columns of a file and keeps the
 * file-level bookkeeping of spec §5.2: S (id → columns that held it), O (ids that overflowed) and W
 * (the largest number of entries of a non-null map). One allocator serves one file of one column.
 *
 * <p>After {@link #allocate(int[], int)} the row's placement is in {@link #mapping()} (K ints, -1 for
 * an empty slot) and {@link #overflowIds()} / {@link #overflowCount()} (overflowed ids in order).
 */
public abstract class ColumnAllocator {

    private final int k;
    private final int[] mapping;
    /** Per column, the id last recorded in S for it (-1: none); S only grows, so a repeat needs no BitSet update. */
    private final int[] lastRecorded;
    private int[] overflow = new int[8];
    private int overflowCount;
    private final List<BitSet> columnsById = new ArrayList<>();
    private final BitSet overflowSet = new BitSet();
    private int maxRowWidth;
    /** Per column, the id last recorded in the current row group's S_g (-1: none yet in this group). */
    private final int[] groupLastRecorded;
    private final List<BitSet> groupColumnsById = new ArrayList<>();
    private final BitSet groupIds = new BitSet();
    private final BitSet groupOverflow = new BitSet();

    ColumnAllocator(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("Cannot create a column allocator: K must be at least 1 but was " + k + ".");
        }
        this.k = k;
        this.mapping = new int[k];
        this.lastRecorded = new int[k];
        Arrays.fill(lastRecorded, -1);
        this.groupLastRecorded = new int[k];
        Arrays.fill(groupLastRecorded, -1);
    }

    public final int numColumns() {
        return k;
    }

    /** Places the ids {@code ids[0..n)} (entry order, duplicates allowed) and updates S, O and W. */
    public final void allocate(int[] ids, int n) {
        Arrays.fill(mapping, -1);
        overflowCount = 0;
        place(ids, n, mapping);
        maxRowWidth = Math.max(maxRowWidth, n);
        for (int c = 0; c < k; c++) {
            int id = mapping[c];
            if (id >= 0 && lastRecorded[c] != id) {
                columnsOf(id).set(c);
                lastRecorded[c] = id;
            }
            if (id >= 0 && groupLastRecorded[c] != id) {
                groupColumnsOf(id).set(c);
                groupIds.set(id);
                groupLastRecorded[c] = id;
            }
        }
        for (int i = 0; i < overflowCount; i++) {
            overflowSet.set(overflow[i]);
            groupOverflow.set(overflow[i]);
        }
    }

    /**
     * Ends the current row group: returns its S_g and O_g ({@link GroupPlacement}), or null when more than
     * {@code maxIds} ids held a column in it (the footer then records no placement for the group), and starts
     * the next group empty.
     */
    public final GroupPlacement sealGroup(int maxIds) {
        GroupPlacement result = null;
        int count = groupIds.cardinality();
        if (count <= maxIds) {
            int[] ids = new int[count];
            int[][] cols = new int[count][];
            int i = 0;
            for (int id = groupIds.nextSetBit(0); id >= 0; id = groupIds.nextSetBit(id + 1)) {
                ids[i] = id;
                cols[i++] = groupColumnsById.get(id).stream().toArray();
            }
            result = new GroupPlacement(k, ids, cols, groupOverflow.stream().toArray());
        }
        for (int id = groupIds.nextSetBit(0); id >= 0; id = groupIds.nextSetBit(id + 1)) {
            groupColumnsById.get(id).clear();
        }
        groupIds.clear();
        groupOverflow.clear();
        Arrays.fill(groupLastRecorded, -1);
        return result;
    }

    private BitSet groupColumnsOf(int id) {
        while (groupColumnsById.size() <= id) {
            groupColumnsById.add(new BitSet());
        }
        return groupColumnsById.get(id);
    }

    /** Fills {@code mapping} (pre-filled with -1) and calls {@link #addOverflow(int)} for the rest. */
    abstract void place(int[] ids, int n, int[] mapping);

    final void addOverflow(int id) {
        if (overflowCount == overflow.length) {
            overflow = Arrays.copyOf(overflow, overflowCount * 2);
        }
        overflow[overflowCount++] = id;
    }

    private BitSet columnsOf(int id) {
        while (columnsById.size() <= id) {
            columnsById.add(new BitSet());
        }
        return columnsById.get(id);
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

    /** S(id): the columns that held {@code id} in some row so far (a copy; empty for unseen ids). */
    public final BitSet columnsOfId(int id) {
        return id < columnsById.size() ? (BitSet) columnsById.get(id).clone() : new BitSet();
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
