package dev.strata.shredding.allocate;

import java.util.Arrays;

/**
 * Least-recently-used residency: an id keeps the column it last used; a miss takes the lowest
 * never-used column, else the column with the oldest use (ties: lowest index), else overflows.
 * Residency and use times carry over from row to row within the file. The columns are kept in that
 * order, so a row's misses take its first unused columns and a row costs O(K), not O(K) per miss.
 */
final class LruAllocator extends ColumnAllocator {

    private final int[] resident;

    /** Every column, oldest use first (ties: lowest index); {@link #spare} is its next buffer. */
    private int[] order;

    private int[] spare;

    /** Position in {@link #order} before which every column is used in the current row. */
    private int scan;

    private final boolean[] usedThisRow;
    private int[] residentColumnOfId = new int[64];
    private int nextFresh;
    private int[] sorted = new int[16];
    private int[] misses = new int[16];

    LruAllocator(int k) {
        super(k);
        resident = new int[k];
        Arrays.fill(resident, -1);
        order = new int[k];
        spare = new int[k];
        for (int c = 0; c < k; c++) {
            order[c] = c;
        }
        usedThisRow = new boolean[k];
        Arrays.fill(residentColumnOfId, -1);
    }

    @Override
    void place(int[] ids, int n, int[] mapping) {
        int k = mapping.length;
        if (sorted.length < n) {
            sorted = new int[Math.max(n, sorted.length * 2)];
            misses = new int[sorted.length];
        }
        System.arraycopy(ids, 0, sorted, 0, n);
        Arrays.sort(sorted, 0, n);
        Arrays.fill(usedThisRow, false);
        scan = 0;
        int missCount = 0;
        for (int i = 0; i < n; i++) {
            int id = sorted[i];
            int c = id < residentColumnOfId.length ? residentColumnOfId[id] : -1;
            if (c >= 0 && !usedThisRow[c]) {
                mapping[c] = id;
                usedThisRow[c] = true;
            } else {
                misses[missCount++] = id;
            }
        }
        boolean filled = false;
        for (int i = 0; i < k; i++) {
            if (usedThisRow[i]) {
                filled = true;
                break;
            }
        }
        for (int m = 0; m < missCount; m++) {
            int id = misses[m];
            int c = chooseColumn(k);
            if (c < 0) {
                addOverflow(id);
                continue;
            }
            int evicted = resident[c];
            if (evicted >= 0 && residentColumnOfId[evicted] == c) {
                residentColumnOfId[evicted] = -1;
            }
            resident[c] = id;
            ensureId(id);
            residentColumnOfId[id] = c;
            mapping[c] = id;
            usedThisRow[c] = true;
            filled = true;
        }
        if (filled) {
            int at = 0;
            for (int x = 0; x < k; x++) {
                if (!usedThisRow[order[x]]) {
                    spare[at++] = order[x];
                }
            }
            for (int c = 0; c < k; c++) {
                if (usedThisRow[c]) {
                    spare[at++] = c;
                }
            }
            int[] t = order;
            order = spare;
            spare = t;
        }
    }

    private int chooseColumn(int k) {
        if (nextFresh < k) {
            return nextFresh++;
        }
        while (scan < k && usedThisRow[order[scan]]) {
            scan++;
        }
        return scan < k ? order[scan] : -1;
    }

    private void ensureId(int id) {
        if (id >= residentColumnOfId.length) {
            int old = residentColumnOfId.length;
            residentColumnOfId = Arrays.copyOf(residentColumnOfId, Math.max(id + 1, old * 2));
            Arrays.fill(residentColumnOfId, old, residentColumnOfId.length, -1);
        }
    }
}
