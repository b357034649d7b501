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
 * rounds move each key to its least conflicting column. Per row, an id takes its home if free, else
 * its last column if free, else the least recently used free column; only rows of more than K
 * entries overflow. Deterministic.
 *
 * <p>When homes would still collide in more than {@value #MAX_CONFLICT_RATE_PERCENT} % of the
 * sample's entries, or keys of a single sample row hold more than that share of its entries (so as
 * many later entries would bring keys the plan never saw), keys meet at random: no column can be
 * one key's alone. Each key in at least {@value #DEDICATED_PERCENT} % of the sample's rows then
 * keeps a column to itself, and every other key gets {@value #CHOICES} candidate columns; a row's
 * keys are matched to free candidates (moving placed keys along augmenting paths of at most {@value
 * #MAX_PATH} steps, as in cuckoo hashing), and a key no path frees a candidate for overflows. So
 * S(k) holds at most {@value #CHOICES} columns, where LRU would spread a key in 1 % of rows over
 * every column. With no sample the file is placed as {@link LruAllocator} does.
 */
final class DisjointAllocator extends ColumnAllocator {

    /** Planned homes are kept only when they collide in at most this share of sample entries. */
    static final int MAX_CONFLICT_RATE_PERCENT = 1;

    /** Rounds of moving each key to its least conflicting column (stopping when none moves). */
    static final int REPAIR_PASSES = 4;

    /** Candidate columns of a key that does not keep one alone, where keys meet at random. */
    static final int CHOICES = 6;

    /** Keys in at least this share of the sample's rows keep a column alone there. */
    static final int DEDICATED_PERCENT = 90;

    /** Longest chain of placed keys moved to free a candidate for the next key of a row. */
    static final int MAX_PATH = 8;

    /**
     * Keys in at least this share of the sample's rows are matched after a row's other keys, so
     * that they, not the rare keys, overflow when no path frees a candidate: a lookup reads the
     * overflow only for keys that overflowed in the row group, and those keys are few and read many
     * rows anyway.
     */
    static final int LATE_PERCENT = 5;

    private final LruAllocator lru;
    private boolean planned;

    /** Keys meet at random: place by candidate columns ({@link #candidates}) instead of LRU. */
    private boolean choosing;

    /** Per id, {@link #CHOICES} candidate columns (-1: unused); one only for a dedicated key. */
    private int[] candidates = new int[0];

    /** Columns [0, firstShared) are dedicated keys' own; the others are shared by candidates. */
    private int firstShared;

    /**
     * Per shared column, the sample rows of its keys, each key's rows split over its candidates.
     */
    private double[] choiceLoad = new double[0];

    /** Per id: matched after the row's other keys ({@link #LATE_PERCENT}). */
    private boolean[] late = new boolean[0];

    private final int[] visited;
    private int visit;

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
        visited = new int[k];
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
        long entries = 0;
        for (int[] r : rows) {
            entries += r.length;
        }
        // Keys of one sample row estimate (Good-Turing) the share of later entries whose key the
        // sample never saw: a plan gives those no home, and they would be placed as LRU places
        // them. Homes fitted to such a sample hold for the sample alone.
        long once = 0;
        for (int id = 0; id <= maxId; id++) {
            if (count[id] == 1) {
                once++;
            }
        }
        if (once * 100 > entries * MAX_CONFLICT_RATE_PERCENT) {
            repairPasses = 0;
            planned = false;
            Arrays.fill(home, -1);
            planChoices(sorted, count, rows.size());
            nextFresh = k;
            return;
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
            planChoices(sorted, count, rows.size());
        }
        nextFresh = k;
    }

    /** Dedicated columns for keys (almost) always present, balanced candidates for the others. */
    private void planChoices(int[] sorted, int[] count, int sampleRows) {
        int k = numColumns();
        choosing = true;
        choiceLoad = new double[k];
        Arrays.fill(candidates, -1);
        int dedicated = 0;
        // At least CHOICES columns stay shared (or one, if K is smaller).
        int maxDedicated = Math.max(0, k - Math.min(CHOICES, k));
        for (int x : sorted) {
            if (dedicated >= maxDedicated
                    || (long) count[x] * 100 < (long) sampleRows * DEDICATED_PERCENT) {
                break;
            }
            candidates[x * CHOICES] = dedicated++;
        }
        firstShared = dedicated;
        for (int x : sorted) {
            if (candidates[x * CHOICES] < 0) {
                chooseCandidates(x, count[x]);
                late[x] = (long) count[x] * 100 >= (long) sampleRows * LATE_PERCENT;
            }
        }
    }

    /**
     * x's candidates: for each, the less loaded of two pseudo-random shared columns. Random sets
     * keep any few keys of a row from sharing the same few candidates (the least loaded columns in
     * turn would hand keys of similar counts the same set, and a row with more such keys than the
     * set has columns overflows); the second draw keeps the rows the columns hold balanced.
     */
    private void chooseCandidates(int x, double rows) {
        int shared = numColumns() - firstShared;
        int d = Math.min(CHOICES, shared);
        int base = x * CHOICES;
        long state = x * 0x9E3779B97F4A7C15L;
        for (int i = 0; i < d; i++) {
            int best = -1;
            for (int draw = 0; draw < 2 || best < 0; draw++) {
                state += 0x9E3779B97F4A7C15L;
                int c = firstShared + (int) Long.remainderUnsigned(mix(state), shared);
                if (!isCandidate(x, c, i) && (best < 0 || choiceLoad[c] < choiceLoad[best])) {
                    best = c;
                }
            }
            candidates[base + i] = best;
            choiceLoad[best] += rows / d;
        }
    }

    /** SplitMix64's finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private boolean isCandidate(int x, int c, int before) {
        for (int i = 0; i < before; i++) {
            if (candidates[x * CHOICES + i] == c) {
                return true;
            }
        }
        return false;
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
        if (choosing) {
            placeByChoice(ids, n, mapping);
            return;
        }
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

    private void placeByChoice(int[] ids, int n, int[] mapping) {
        int k = mapping.length;
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            ensureId(id);
            if (candidates[id * CHOICES] < 0) {
                // A key the sample did not hold: as a rare one of it.
                chooseCandidates(id, 1);
            }
        }
        // Dedicated keys first: their columns are theirs in every row.
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            int c = candidates[id * CHOICES];
            if (c < firstShared) {
                if (mapping[c] < 0) {
                    mapping[c] = id;
                } else {
                    // Its second entry (a duplicate key).
                    addOverflow(id);
                }
            }
        }
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < n; i++) {
                int id = ids[i];
                int c = candidates[id * CHOICES];
                if (c >= firstShared && late[id] == (pass == 1)) {
                    visit++;
                    if (!match(id, mapping, MAX_PATH)) {
                        addOverflow(id);
                    }
                }
            }
        }
        if (visit > Integer.MAX_VALUE - 2 * k) {
            Arrays.fill(visited, 0);
            visit = 0;
        }
    }

    /** Kuhn's augmenting path: a free candidate of x, or one freed by moving its holder on. */
    private boolean match(int x, int[] mapping, int steps) {
        int base = x * CHOICES;
        for (int i = 0; i < CHOICES; i++) {
            int c = candidates[base + i];
            if (c >= 0 && mapping[c] < 0) {
                mapping[c] = x;
                return true;
            }
        }
        if (steps == 0) {
            return false;
        }
        for (int i = 0; i < CHOICES; i++) {
            int c = candidates[base + i];
            if (c < 0 || visited[c] == visit) {
                continue;
            }
            visited[c] = visit;
            if (match(mapping[c], mapping, steps - 1)) {
                mapping[c] = x;
                return true;
            }
        }
        return false;
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
            candidates = Arrays.copyOf(candidates, size * CHOICES);
            late = Arrays.copyOf(late, size);
            Arrays.fill(candidates, old * CHOICES, size * CHOICES, -1);
            rank = Arrays.copyOf(rank, size);
            lastColumn = Arrays.copyOf(lastColumn, size);
            Arrays.fill(home, old, size, -1);
            Arrays.fill(rank, old, size, Integer.MAX_VALUE);
            Arrays.fill(lastColumn, old, size, -1);
        }
    }
}
