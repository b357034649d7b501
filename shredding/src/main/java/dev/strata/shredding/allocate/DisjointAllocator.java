package dev.strata.shredding.allocate;

import java.util.Arrays;
import java.util.List;

/**
 * Keys that never share a row share a column (Strata's own policy and its default). LRU keeps a key
 * in a column only while no other key took it, so on keys co-occurring at random S(k) grows towards
 * all K columns; {@link StableAllocator} keeps homes but overflows a stray whose home is busy.
 *
 * <p>{@link #plan} gets the file's first rows: keys, by descending row count, each take as home the
 * column whose keys so far share the fewest rows with them, then up to {@value #REPAIR_PASSES}
 * rounds move each key to its least conflicting column. When homes would still collide in more than
 * {@value #MAX_CONFLICT_RATE_PERCENT} % of the sample's entries, the file is placed as {@link
 * LruAllocator} does. Per row, an id takes its home if free, else its last column if free, else the
 * least recently used free column; only rows of more than K entries overflow. Deterministic.
 */
final class DisjointAllocator extends ColumnAllocator {

    /** Planned homes are kept only when they collide in at most this share of sample entries. */
    static final int MAX_CONFLICT_RATE_PERCENT = 1;

    /** Rounds of moving each key to its least conflicting column (stopping when none moves). */
    static final int REPAIR_PASSES = 4;

    private final LruAllocator lru;
    private boolean planned;
    private int repairPasses;
    private final long[] lastUsed;
    private final boolean[] usedThisRow;
    private int[] home = new int[0];
    private int[] rank = new int[0];
    private int[] lastColumn = new int[0];

    /** A row's ids that did not take their home, as (rank, id). */
    private long[] missed = new long[16];

    private final long[] claims;
    private int nextFresh;
    private long clock;

    DisjointAllocator(int k) {
        super(k);
        lru = new LruAllocator(k);
        lastUsed = new long[k];
        usedThisRow = new boolean[k];
        claims = new long[k];
    }

    @Override
    public void plan(List<int[]> rows) {
        int k = numColumns();
        int maxId = -1;
        for (int[] r : rows) {
            for (int id : r) {
                maxId = Math.max(maxId, id);
            }
        }
        if (maxId < 0) {
            return;
        }
        ensureId(maxId);
        int[] freq = new int[maxId + 1];
        for (int[] r : rows) {
            for (int id : r) {
                freq[id]++;
            }
        }
        // Per id, the sample rows holding it (a duplicate key counts once).
        int[][] rowsOf = new int[maxId + 1][];
        int[] count = new int[maxId + 1];
        for (int id = 0; id <= maxId; id++) {
            rowsOf[id] = new int[freq[id]];
        }
        for (int i = 0; i < rows.size(); i++) {
            for (int id : rows.get(i)) {
                if (count[id] == 0 || rowsOf[id][count[id] - 1] != i) {
                    rowsOf[id][count[id]++] = i;
                }
            }
        }
        long[] byCount = new long[maxId + 1];
        int keys = 0;
        for (int id = 0; id <= maxId; id++) {
            if (count[id] > 0) {
                byCount[keys++] = ((long) (Integer.MAX_VALUE - count[id]) << 32) | id;
            }
        }
        Arrays.sort(byCount, 0, keys);
        int[] sorted = new int[keys];
        for (int i = 0; i < keys; i++) {
            sorted[i] = (int) byCount[i];
            rank[sorted[i]] = i;
        }
        long[] conflicts = new long[k];
        long[] load = new long[k];
        double sampleRows = rows.size();
        for (int x : sorted) {
            conflictsOf(x, rows, rowsOf[x], count[x], conflicts);
            int best = 0;
            double bestScore = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < k; c++) {
                // Rows x would share with c's keys if they met at random, minus twice the rows
                // they do share: positive only for keys that avoid each other.
                double score = count[x] * load[c] / sampleRows - 2.0 * conflicts[c];
                if (score > bestScore || score == bestScore && load[c] < load[best]) {
                    best = c;
                    bestScore = score;
                }
            }
            home[x] = best;
            load[best] += count[x];
        }
        long entries = 0;
        for (int[] r : rows) {
            entries += r.length;
        }
        long collisions = collisions(rows);
        // With no entry colliding a round has nothing to repair (one costs as much as the plan).
        boolean moved = collisions > 0;
        repairPasses = 0;
        for (int pass = 0; pass < REPAIR_PASSES && moved; pass++) {
            repairPasses++;
            moved = false;
            for (int x : sorted) {
                conflictsOf(x, rows, rowsOf[x], count[x], conflicts);
                load[home[x]] -= count[x];
                int best = home[x];
                for (int c = 0; c < k; c++) {
                    if (conflicts[c] < conflicts[best]
                            || conflicts[c] == conflicts[best] && load[c] > load[best]) {
                        best = c;
                    }
                }
                moved |= best != home[x];
                home[x] = best;
                load[best] += count[x];
            }
            long after = collisions(rows);
            // Keys meeting at random: more passes would not get the homes under the limit.
            boolean hopeless =
                    after * 100 > entries * MAX_CONFLICT_RATE_PERCENT && after * 2 > collisions;
            collisions = after;
            if (hopeless || collisions == 0) {
                break;
            }
        }
        planned = collisions * 100 <= entries * MAX_CONFLICT_RATE_PERCENT;
        if (!planned) {
            Arrays.fill(home, -1);
        }
        nextFresh = k;
    }

    private void conflictsOf(int x, List<int[]> rows, int[] rowsOfX, int n, long[] conflicts) {
        Arrays.fill(conflicts, 0);
        for (int i = 0; i < n; i++) {
            for (int y : rows.get(rowsOfX[i])) {
                if (y != x && y < home.length && home[y] >= 0) {
                    conflicts[home[y]]++;
                }
            }
        }
    }

    /** The sample entries whose home another entry of their row already took. */
    private long collisions(List<int[]> rows) {
        long collisions = 0;
        for (int[] r : rows) {
            Arrays.fill(usedThisRow, false);
            for (int id : r) {
                if (usedThisRow[home[id]]) {
                    collisions++;
                }
                usedThisRow[home[id]] = true;
            }
        }
        return collisions;
    }

    int repairPasses() {
        return repairPasses;
    }

    boolean planned() {
        return planned;
    }

    @Override
    void place(int[] ids, int n, int[] mapping) {
        if (!planned) {
            lru.clearOverflow();
            lru.place(ids, n, mapping);
            for (int i = 0; i < lru.overflowCount(); i++) {
                addOverflow(lru.overflowIds()[i]);
            }
            return;
        }
        int k = mapping.length;
        if (missed.length < n) {
            missed = new long[Math.max(n, missed.length * 2)];
        }
        // Each home goes to its claimant of lowest (rank, id); only the misses are sorted.
        long[] claim = claims;
        Arrays.fill(claim, Long.MAX_VALUE);
        int missCount = 0;
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            ensureId(id);
            long key = ((long) rank[id] << 32) | id;
            int h = home[id];
            if (h < 0) {
                missed[missCount++] = key;
            } else if (key < claim[h]) {
                if (claim[h] != Long.MAX_VALUE) {
                    missed[missCount++] = claim[h];
                }
                claim[h] = key;
            } else {
                // Taken by a key of lower rank, or this id again (a duplicate key).
                missed[missCount++] = key;
            }
        }
        Arrays.fill(usedThisRow, false);
        for (int c = 0; c < k; c++) {
            if (claim[c] != Long.MAX_VALUE) {
                take(mapping, c, (int) claim[c]);
            }
        }
        if (missCount > 1) {
            Arrays.sort(missed, 0, missCount);
        }
        for (int m = 0; m < missCount; m++) {
            int id = (int) missed[m];
            int last = lastColumn[id];
            int c = last >= 0 && !usedThisRow[last] ? last : leastRecentlyUsedFree(k);
            if (c < 0) {
                addOverflow(id);
                continue;
            }
            if (home[id] < 0) {
                home[id] = c;
            }
            take(mapping, c, id);
        }
        for (int c = 0; c < k; c++) {
            if (usedThisRow[c]) {
                lastUsed[c] = clock;
            }
        }
        clock++;
    }

    private void take(int[] mapping, int c, int id) {
        mapping[c] = id;
        usedThisRow[c] = true;
        lastColumn[id] = c;
    }

    private int leastRecentlyUsedFree(int k) {
        if (nextFresh < k) {
            return nextFresh++;
        }
        int best = -1;
        for (int c = 0; c < k; c++) {
            if (!usedThisRow[c] && (best < 0 || lastUsed[c] < lastUsed[best])) {
                best = c;
            }
        }
        return best;
    }

    private void ensureId(int id) {
        if (id >= home.length) {
            int old = home.length;
            int size = Math.max(id + 1, Math.max(64, old * 2));
            home = Arrays.copyOf(home, size);
            rank = Arrays.copyOf(rank, size);
            lastColumn = Arrays.copyOf(lastColumn, size);
            Arrays.fill(home, old, size, -1);
            Arrays.fill(rank, old, size, Integer.MAX_VALUE);
            Arrays.fill(lastColumn, old, size, -1);
        }
    }
}
