package dev.strata.shredding.parquet;

import dev.strata.shredding.layout.GroupPlacement;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * Which physical columns of one shredded map one row group needs for a list of selected keys. With
 * the group's {@link GroupPlacement} a key needs only S_g(k), and the overflow only when k ∈ O_g;
 * when the group also records ownership segments ({@link GroupPlacement#rangesOf}) for every column
 * of every selected key, {@code __field_mapping} is not read at all and the map's NULL-ness comes
 * from the definition levels of any read column (else of the smallest value column chunk). A key
 * that alone uses its columns (in the group's placement, else in the file's S and O) needs no
 * {@code __field_mapping} either. Without a placement the file-level S and O apply.
 */
public final class GroupKeyPlan {

    private final int[][] columnsPerKey;

    /** Per key and entry of its columns, the (start, end) ranges it may be in; null: by mapping. */
    private final int[][][] rangesPerKey;

    private final boolean[] overflowPerKey;
    private final boolean mappingNeeded;
    private final int presenceColumn;
    private final GroupType requested;

    private GroupKeyPlan(
            int[][] columnsPerKey,
            int[][][] rangesPerKey,
            boolean[] overflowPerKey,
            boolean mappingNeeded,
            int presenceColumn,
            GroupType requested) {
        this.columnsPerKey = columnsPerKey;
        this.rangesPerKey = rangesPerKey;
        this.overflowPerKey = overflowPerKey;
        this.mappingNeeded = mappingNeeded;
        this.presenceColumn = presenceColumn;
        this.requested = requested;
    }

    /** {@code block}: row group {@code group}; its chunk sizes choose the presence column. */
    public static GroupKeyPlan of(
            GroupType physical,
            ShreddedColumnMeta meta,
            List<String> keys,
            int group,
            BlockMetaData block) {
        GroupPlacement scope = meta.placement(group);
        if (scope == null) {
            scope = meta.filePlacement(); // every group's S_g and O_g lie within the file's
        }
        int[][] cols = new int[keys.size()][];
        int[][][] ranges = new int[keys.size()][][];
        boolean[] ovf = new boolean[keys.size()];
        boolean owned = true;
        int rows = (int) Math.min(Integer.MAX_VALUE, block.getRowCount());
        TreeSet<Integer> union = new TreeSet<>();
        boolean anyOverflow = false;
        for (int j = 0; j < keys.size(); j++) {
            int id = meta.idOf(keys.get(j));
            if (id < 0) {
                cols[j] = new int[0];
                continue;
            }
            cols[j] = scope.columnsOf(id);
            ovf[j] = scope.overflows(id);
            ranges[j] = new int[cols[j].length][];
            // A key alone in its columns is in them wherever they are non-null; its segments,
            // where recorded, only narrow that.
            boolean wholeGroup = scope.ownsItsColumns(id);
            for (int i = 0; i < cols[j].length; i++) {
                int c = cols[j][i];
                union.add(c);
                int[] segments = scope.rangesOf(c, id);
                ranges[j][i] =
                        segments != null ? segments : wholeGroup ? new int[] {0, rows} : null;
                owned &= ranges[j][i] != null;
            }
            anyOverflow |= ovf[j];
        }
        int presence = -1;
        if (owned && union.isEmpty() && !anyOverflow) {
            presence = smallestValueColumn(physical.getName(), meta.numColumns(), block);
            union.add(presence);
        }
        List<Type> fields = new ArrayList<>();
        if (!owned) {
            fields.add(physical.getType(ParquetSchemas.FIELD_MAPPING));
        }
        for (int c : union) {
            fields.add(physical.getType(ParquetSchemas.colName(c)));
        }
        if (anyOverflow) {
            fields.add(physical.getType(ParquetSchemas.OVERFLOW));
        }
        return new GroupKeyPlan(
                cols, owned ? ranges : null, ovf, !owned, presence, physical.withNewFields(fields));
    }

    private static int smallestValueColumn(String column, int k, BlockMetaData block) {
        int best = 0;
        long bestSize = Long.MAX_VALUE;
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            String[] path = chunk.getPath().toArray();
            if (path.length == 2
                    && path[0].equals(column)
                    && path[1].startsWith(ParquetSchemas.COL_PREFIX)) {
                int c = Integer.parseInt(path[1].substring(ParquetSchemas.COL_PREFIX.length()));
                if (c < k && chunk.getTotalSize() < bestSize) {
                    best = c;
                    bestSize = chunk.getTotalSize();
                }
            }
        }
        return best;
    }

    /** The columns key j (request order) may sit in within this group, ascending. */
    public int[] columnsOf(int j) {
        return columnsPerKey[j];
    }

    /** Without the mapping: ranges where column i of {@link #columnsOf}(j) holds j if non-null. */
    public int[] rangesOf(int j, int i) {
        return rangesPerKey[j][i];
    }

    public boolean overflowOf(int j) {
        return overflowPerKey[j];
    }

    /** Whether to read {@code __field_mapping}; else {@link #rangesOf} and the overflow's keys. */
    public boolean mappingNeeded() {
        return mappingNeeded;
    }

    /** The value column read only for the map's NULL-ness, or -1. */
    public int presenceColumn() {
        return presenceColumn;
    }

    /** The struct to request: mapping if needed, the value columns, overflow if needed. */
    public GroupType requested() {
        return requested;
    }
}
