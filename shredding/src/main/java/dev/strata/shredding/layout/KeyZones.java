package dev.strata.shredding.layout;

import java.util.Arrays;

/**
 * Per-key zone statistics of one shredded column in one row group (beyond Paimon): for each key id
 * present in the row group, how many rows carry the key, how many of those values are NULL or NaN,
 * and min/max in the column's {@link ValueKind} domain (null when unknown or unbounded). When
 * {@link #truncated()} is set, ids not listed may still be present (the writer keeps at most {@link
 * ShreddingFooter#MAX_ZONE_KEYS} keys per row group and column).
 */
public final class KeyZones {

    private final long rowCount;
    private final boolean truncated;
    private final int[] ids;
    private final int[] present;
    private final int[] nulls;
    private final int[] nans;
    private final Object[] min;
    private final Object[] max;

    KeyZones(
            long rowCount,
            boolean truncated,
            int[] ids,
            int[] present,
            int[] nulls,
            int[] nans,
            Object[] min,
            Object[] max) {
        this.rowCount = rowCount;
        this.truncated = truncated;
        this.ids = ids;
        this.present = present;
        this.nulls = nulls;
        this.nans = nans;
        this.min = min;
        this.max = max;
    }

    public long rowCount() {
        return rowCount;
    }

    public boolean truncated() {
        return truncated;
    }

    int size() {
        return ids.length;
    }

    int idAt(int i) {
        return ids[i];
    }

    int presentAt(int i) {
        return present[i];
    }

    int nullsAt(int i) {
        return nulls[i];
    }

    int nansAt(int i) {
        return nans[i];
    }

    Object minAt(int i) {
        return min[i];
    }

    Object maxAt(int i) {
        return max[i];
    }

    /** The entry index of {@code id}, or -1 when the id is not listed. */
    public int find(int id) {
        int i = Arrays.binarySearch(ids, id);
        return i >= 0 ? i : -1;
    }

    /** Rows of the row group where the key is present (its value may be NULL). */
    public int presentCount(int entry) {
        return present[entry];
    }

    public int nullCount(int entry) {
        return nulls[entry];
    }

    public int nanCount(int entry) {
        return nans[entry];
    }

    public Object min(int entry) {
        return min[entry];
    }

    public Object max(int entry) {
        return max[entry];
    }
}
