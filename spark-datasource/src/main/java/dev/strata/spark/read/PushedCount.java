package dev.strata.spark.read;

import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code count(*)}, optionally grouped by partition columns (or only their distinct values),
 * answered on the driver without reading: a row per group (one without grouping), no Spark job (the
 * operators above it are evaluated on the driver too, by the catalyst rules' driver strategy).
 */
public final class PushedCount implements LocalScan {

    private final String tableName;
    private final TextMatchPushdown textMatch;
    private final StructField[] groupBy;
    private final int counts;
    private final List<Group> groups;

    /** One group's values of the {@code groupBy} columns (Spark values) and its row count. */
    record Group(Object[] values, long count) {}

    /**
     * {@code textMatch} null: split row counts; {@code groupBy}: the grouping columns; {@code
     * counts}: {@code count(*)} columns.
     */
    PushedCount(
            String tableName,
            TextMatchPushdown textMatch,
            StructField[] groupBy,
            int counts,
            List<Group> groups) {
        this.tableName = tableName;
        this.textMatch = textMatch;
        this.groupBy = groupBy;
        this.counts = counts;
        this.groups = List.copyOf(groups);
    }

    @Override
    public InternalRow[] rows() {
        InternalRow[] rows = new InternalRow[groups.size()];
        for (int g = 0; g < rows.length; g++) {
            Object[] values = new Object[groupBy.length + counts];
            System.arraycopy(groups.get(g).values(), 0, values, 0, groupBy.length);
            java.util.Arrays.fill(values, groupBy.length, values.length, groups.get(g).count());
            rows[g] = new GenericInternalRow(values);
        }
        return rows;
    }

    @Override
    public StructType readSchema() {
        StructField[] fields = new StructField[groupBy.length + counts];
        System.arraycopy(groupBy, 0, fields, 0, groupBy.length);
        for (int i = 0; i < counts; i++) {
            fields[groupBy.length + i] =
                    DataTypes.createStructField(
                            "count(*)" + (i == 0 ? "" : "_" + i), DataTypes.LongType, false);
        }
        return DataTypes.createStructType(fields);
    }

    @Override
    public String description() {
        StringBuilder sb = new StringBuilder(tableName).append(" [");
        if (textMatch != null) {
            sb.append("PushedTextMatch: ").append(textMatch.describe()).append(", ");
        }
        sb.append("PushedAggregates: [").append(counts > 0 ? "COUNT(*)" : "").append("]");
        if (groupBy.length > 0) {
            sb.append(", PushedGroupBy: [");
            for (int i = 0; i < groupBy.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(groupBy[i].name());
            }
            sb.append("], Groups: ").append(groups.size());
        } else {
            sb.append(", Rows: ").append(groups.get(0).count());
        }
        return sb.append("]").toString();
    }
}
