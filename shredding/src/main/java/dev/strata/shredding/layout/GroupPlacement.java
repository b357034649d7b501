package dev.strata.shredding.layout;

import java.util.Arrays;

/**
 * Where the keys of one shredded column sat in one row group (Paimon's S and O are file-level):
 * S_g(id), the columns that held id in some row of the group, and O_g, the ids that overflowed in
 * some row of it; S_g(id) ⊆ S(id) and O_g ⊆ O. Each column's owner in the group follows: the only
 * id it held, none, or several ({@link #SHARED}).
 *
 * <p>Optionally, per column, its ownership segments: maximal row ranges in which it held one id
 * only; rows outside every segment have the slot empty. A column with more segments than the
 * writer's bound is fragmented (nothing recorded).
 *
 * <p>In a row of a segment of column c owned by k, k sits in c exactly when c is non-null (empty
 * slots are NULL; a NULL value of k reads as NULL either way), and outside k's segments c never
 * holds k. So when no column of S_g(k) is fragmented, {@code m['k']} needs S_g(k), the segments
 * and, if k ∈ O_g, the overflow, but not {@code __field_mapping}.
 */
public final class GroupPlacement {

    /** {@link #ownerOf} of a column no row of the group used. */
    public static final int EMPTY = -1;

    /** {@link #ownerOf} of a column that held more than one id in the group. */
    public static final int SHARED = -2;

    /** Default bound on the ownership segments of one column in one row group. */
    public static final int DEFAULT_MAX_SEGMENTS = 4096;

    private final int[] ids;
    private final int[][] columns;
    private final int[] overflowIds;
    private final int[] owners;

    /** Per column, (start, length, owner) triples or null if fragmented; null: none recorded. */
    private final int[][] segments;

    /** {@code ids} (non-empty S_g), their {@code columns}, {@code overflowIds}: all ascending. */
    public GroupPlacement(int k, int[] ids, int[][] columns, int[] overflowIds) {
        this(k, ids, columns, overflowIds, null);
    }

    /** {@code segments}: null, or per column null (fragmented) or (start, length, owner)s. */
    public GroupPlacement(int k, int[] ids, int[][] columns, int[] overflowIds, int[][] segments) {
        if (ids.length != columns.length) {
            throw new IllegalArgumentException(
                    "Cannot build a group placement: "
                            + ids.length
                            + " ids but "
                            + columns.length
                            + " column sets.");
        }
        this.ids = ids;
        this.columns = columns;
        this.overflowIds = overflowIds;
        this.owners = new int[k];
        Arrays.fill(owners, EMPTY);
        for (int i = 0; i < ids.length; i++) {
            if (i > 0 && ids[i] <= ids[i - 1]) {
                throw new IllegalArgumentException(
                        "Cannot build a group placement: ids not ascending at " + ids[i] + ".");
            }
            for (int j = 0; j < columns[i].length; j++) {
                int c = columns[i][j];
                if (c < 0 || c >= k || (j > 0 && c <= columns[i][j - 1])) {
                    throw new IllegalArgumentException(
                            "Cannot build a group placement: column "
                                    + c
                                    + " of id "
                                    + ids[i]
                                    + " is not ascending within K="
                                    + k
                                    + ".");
                }
                owners[c] = owners[c] == EMPTY ? ids[i] : SHARED;
            }
        }
        if (segments != null) {
            if (segments.length != k) {
                throw new IllegalArgumentException(
                        "Cannot build a group placement: segments for "
                                + segments.length
                                + " columns, K="
                                + k
                                + ".");
            }
            for (int c = 0; c < k; c++) {
                int[] seg = segments[c];
                if (seg == null) {
                    continue;
                }
                if (seg.length % 3 != 0) {
                    throw new IllegalArgumentException(
                            "Cannot build a group placement: segments of column "
                                    + c
                                    + " are not (start, length, owner) triples.");
                }
                long end = 0;
                for (int i = 0; i < seg.length; i += 3) {
                    if (seg[i] < end || seg[i + 1] < 1 || seg[i + 2] < 0) {
                        throw new IllegalArgumentException(
                                "Cannot build a group placement: segment "
                                        + (i / 3)
                                        + " of column "
                                        + c
                                        + " overlaps, is empty or has no owner.");
                    }
                    end = (long) seg[i] + seg[i + 1];
                }
            }
        }
        this.segments = segments;
        for (int i = 1; i < overflowIds.length; i++) {
            if (overflowIds[i] <= overflowIds[i - 1]) {
                throw new IllegalArgumentException(
                        "Cannot build a group placement: overflow ids not ascending at "
                                + overflowIds[i]
                                + ".");
            }
        }
    }

    public int numColumns() {
        return owners.length;
    }

    /** Ids with a non-empty S_g, ascending (a view; do not modify). */
    int[] ids() {
        return ids;
    }

    /** O_g, ascending (a view; do not modify). */
    int[] overflowIds() {
        return overflowIds;
    }

    /** S_g(id), ascending; empty when the id held no column in the group. */
    public int[] columnsOf(int id) {
        int i = Arrays.binarySearch(ids, id);
        return i < 0 ? new int[0] : columns[i];
    }

    /** Whether id ∈ O_g. */
    public boolean overflows(int id) {
        return Arrays.binarySearch(overflowIds, id) >= 0;
    }

    /** The only id column c held in the group, {@link #EMPTY} or {@link #SHARED}. */
    public int ownerOf(int c) {
        return owners[c];
    }

    public boolean hasSegments() {
        return segments != null;
    }

    /** Column c's (start, length, owner) triples (a view), or null: none recorded or fragmented. */
    public int[] segmentsOf(int c) {
        return segments == null ? null : segments[c];
    }

    /** Ascending (start, end) row ranges where column c may hold {@code id}; null: unknown. */
    public int[] rangesOf(int c, int id) {
        int[] seg = segmentsOf(c);
        if (seg == null) {
            return null;
        }
        int n = 0;
        for (int i = 0; i < seg.length; i += 3) {
            n += seg[i + 2] == id ? 1 : 0;
        }
        int[] out = new int[2 * n];
        int o = 0;
        for (int i = 0; i < seg.length; i += 3) {
            if (seg[i + 2] == id) {
                out[o++] = seg[i];
                out[o++] = seg[i] + seg[i + 1];
            }
        }
        return out;
    }

    /** Whether id's values here are exactly its own columns' non-null values (see class doc). */
    public boolean ownsItsColumns(int id) {
        if (id < 0 || overflows(id)) {
            return false;
        }
        for (int c : columnsOf(id)) {
            if (owners[c] != id) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GroupPlacement)) {
            return false;
        }
        GroupPlacement g = (GroupPlacement) o;
        return Arrays.equals(ids, g.ids)
                && Arrays.deepEquals(columns, g.columns)
                && Arrays.equals(overflowIds, g.overflowIds)
                && owners.length == g.owners.length
                && Arrays.deepEquals(segments, g.segments);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ids) * 31 + Arrays.hashCode(overflowIds);
    }

    @Override
    public String toString() {
        StringBuilder b =
                new StringBuilder("GroupPlacement{K=").append(owners.length).append(", S_g={");
        for (int i = 0; i < ids.length; i++) {
            b.append(i == 0 ? "" : ", ")
                    .append(ids[i])
                    .append('=')
                    .append(Arrays.toString(columns[i]));
        }
        return b.append("}, O_g=").append(Arrays.toString(overflowIds)).append('}').toString();
    }
}
