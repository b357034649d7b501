package dev.strata.shredding.allocate;

import java.util.Arrays;

/**
 * Keeps every key in as few columns as the data allows (Strata's own policy, not one of Paimon's;
 * readers need nothing new because key presence is still carried only by the mapping).
 *
 * <p>LRU re-admits an evicted key into whatever column is least recently used, so on data where
 * groups of keys take turns (device families, tenants) a key wanders over most of the K columns and
 * a one-key read has to decode most of them. Here each id has a <em>home</em>: the column of its
 * first placement in the file, kept for the whole file. Per row:
 *
 * <ol>
 *   <li>ids are taken in priority order: ids that were in the previous non-null row first, then by
 *       how many rows of the file held them (descending), then by id;
 *   <li>an id takes its home if no earlier id of the row took it, else the column it used last time
 *       if free, else it is a miss; a column that is the home of a hot id (one present in at least
 *       half of the rows so far) living there is not free for other ids in this step, nor, for an
 *       id that was not in the previous row, a column another id used in the previous row (so a
 *       stray does not cut a running key's run of rows into pieces);
 *   <li>a miss of an id that has a home (taken by another id of the row) and was not in the
 *       previous row overflows, instead of wandering into a column other keys live in;
 *   <li>any other miss takes the lowest never-used column, else the least recently used free column
 *       that is not the home of a hot id (an id present in at least half of the rows so far), else
 *       the least recently used free column, else it overflows. That column becomes the id's home
 *       (for a continuing id that lost its home to a stronger one, too: it moves house rather than
 *       wander).
 * </ol>
 *
 * The priority makes a hot key win its home whenever two keys of a row share one, and the
 * reservation keeps other keys out of a hot key's home, so a key present in most rows ends up alone
 * in its column. Deterministic: same rows, same placement.
 *
 * <p>Unlike Paimon's policies (where only rows wider than K overflow) a row with at most K entries
 * may overflow (a stray key whose home is busy), so O ≠ ∅ no longer implies W &gt; K. Readers and
 * the pruning rule only rely on S and O being complete (I1, I2), which holds.
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
                // First placement, or a continuing id that keeps losing its home: this column
                // becomes its home, so
                // keys that arrive together settle into distinct homes instead of displacing each
                // other row by row.
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

    /**
     * Whether another id used column c in the previous row that filled columns (a stray would cut
     * its run short).
     */
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
