package dev.strata.shredding.allocate;

import java.util.Arrays;

/**
 * Keeps every key in as few columns as the data allows (Strata's own policy): where LRU lets a
 * re-admitted key wander over most columns, here each id has a home, the column of its first
 * placement. Per row, ids are taken by priority (in the previous non-null row first, then by row
 * count, then id); an id takes its home if free, else its last column if free, else misses; a hot
 * id's home (the id in at least half of the rows) is not free for others, nor, for an id not in the
 * previous row, a column another id used there. A miss of an id with a home not in the previous row
 * overflows; other misses take the lowest never-used column, else the least recently used free one
 * not home to a hot id, else any, else overflow, making it their home. Deterministic. Unlike
 * Paimon's policies a row of at most K entries may overflow, so O ≠ ∅ does not imply W &gt; K.
 */
final class StableAllocator extends ColumnAllocator {

    private static final int ID_BITS = 31;

    private final long[] lastUsed;
    private final boolean[] usedThisRow;

    /** Per column, the id placed there most recently (-1: none yet); unused columns keep theirs. */
    private final int[] resident;

    private int[] home = new int[64];
    private int[] lastColumn = new int[64];
    private int[] rowsWith = new int[64];
    private long[] lastRow = new long[64];
    private long[] order = new long[16];
    private int[] misses = new int[16];
    private int nextFresh;
    private long clock;
    private long row;

    StableAllocator(int k) {
        super(k);
        lastUsed = new long[k];
        usedThisRow = new boolean[k];
        resident = new int[k];
        Arrays.fill(resident, -1);
        Arrays.fill(home, -1);
        Arrays.fill(lastColumn, -1);
        Arrays.fill(lastRow, -2);
    }

    @Override
    void place(int[] ids, int n, int[] mapping) {
        int k = mapping.length;
        row++;
        if (order.length < n) {
            order = new long[Math.max(n, order.length * 2)];
            misses = new int[order.length];
        }
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            ensureId(id);
            long continuing = lastRow[id] == row - 1 ? 0L : 1L;
            long rarity = Integer.MAX_VALUE - (long) rowsWith[id];
            order[i] = (continuing << 62) | (rarity << ID_BITS) | id;
        }
        Arrays.sort(order, 0, n);
        Arrays.fill(usedThisRow, false);
        int missCount = 0;
        boolean filled = false;
        for (int i = 0; i < n; i++) {
            int id = (int) (order[i] & Integer.MAX_VALUE);
            if (i > 0 && (int) (order[i - 1] & Integer.MAX_VALUE) == id) {
                // A duplicate key: it takes a second slot like every policy does.
                misses[missCount++] = -(id + 1);
                continue;
            }
            int h = home[id];
            int last = lastColumn[id];
            boolean continuing = lastRow[id] == row - 1;
            if (h >= 0
                    && !usedThisRow[h]
                    && !reservedAgainst(h, id)
                    && (continuing || !busy(h, id))) {
                take(mapping, h, id);
                filled = true;
            } else if (last >= 0
                    && !usedThisRow[last]
                    && !reservedAgainst(last, id)
                    && (continuing || !busy(last, id))) {
                take(mapping, last, id);
                filled = true;
            } else {
                misses[missCount++] = id;
            }
        }
        for (int m = 0; m < missCount; m++) {
            int id = misses[m];
            boolean duplicate = id < 0;
            id = duplicate ? -id - 1 : id;
            if (!duplicate && home[id] >= 0 && lastRow[id] != row - 1) {
                addOverflow(id);
                continue;
            }
            int c = chooseColumn(k);
            if (c < 0) {
                addOverflow(id);
                continue;
            }
            if (home[id] < 0 || !duplicate) {
                // First placement, or a continuing id that keeps losing its home: it moves here, so
                // keys arriving together settle into distinct homes.
                home[id] = c;
            }
            take(mapping, c, id);
            filled = true;
        }
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            if (lastRow[id] != row) {
                lastRow[id] = row;
                rowsWith[id]++;
            }
        }
        if (filled) {
            for (int c = 0; c < k; c++) {
                if (usedThisRow[c]) {
                    lastUsed[c] = clock;
                }
            }
            clock++;
        }
    }

    private void take(int[] mapping, int c, int id) {
        mapping[c] = id;
        usedThisRow[c] = true;
        lastColumn[id] = c;
        resident[c] = id;
    }

    /** Whether another id used c in the previous filling row (a stray would cut its run short). */
    private boolean busy(int c, int id) {
        int r = resident[c];
        return r >= 0 && r != id && lastUsed[c] == clock - 1;
    }

    /** Whether column c is the home of a hot id other than {@code id} that lives there. */
    private boolean reservedAgainst(int c, int id) {
        int r = resident[c];
        return r >= 0 && r != id && home[r] == c && hot(r);
    }

    private int chooseColumn(int k) {
        if (nextFresh < k) {
            return nextFresh++;
        }
        int best = -1;
        int reserved = -1; // only when nothing else is free
        for (int c = 0; c < k; c++) {
            if (usedThisRow[c]) {
                continue;
            }
            if (reservedAgainst(c, -1)) {
                if (reserved < 0 || lastUsed[c] < lastUsed[reserved]) {
                    reserved = c;
                }
            } else if (best < 0 || lastUsed[c] < lastUsed[best]) {
                best = c;
            }
        }
        return best >= 0 ? best : reserved;
    }

    /** Present in at least half of the (non-null) rows so far, after a short warm-up. */
    private boolean hot(int id) {
        return id >= 0 && row >= 64 && 2L * rowsWith[id] >= row;
    }

    private void ensureId(int id) {
        if (id >= home.length) {
            int old = home.length;
            int size = Math.max(id + 1, old * 2);
            home = Arrays.copyOf(home, size);
            lastColumn = Arrays.copyOf(lastColumn, size);
            rowsWith = Arrays.copyOf(rowsWith, size);
            lastRow = Arrays.copyOf(lastRow, size);
            Arrays.fill(home, old, size, -1);
            Arrays.fill(lastColumn, old, size, -1);
            Arrays.fill(lastRow, old, size, -2);
        }
    }
}
