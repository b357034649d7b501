package dev.strata.spark.read;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * An aggregate answered on the driver without reading, from each partition's live row count: {@code
 * count(*)}, {@code min} / {@code max} of partition columns, grouped by nothing or by partition
 * columns (so also {@code SELECT DISTINCT} of them). No Spark job runs: the operators above it are
 * evaluated on the driver too, by the catalyst rules' driver strategy.
 */
public final class PushedAggregate implements LocalScan {

    /** A partition's values (Spark values, in partition column order) and its live row count. */
    record Partition(Object[] values, long rows) {}

    private final String tableName;
    private final TextMatchPushdown textMatch;
    private final Aggregation aggregation;
    private final StructType schema;
    private final InternalRow[] rows;

    private PushedAggregate(
            String tableName,
            TextMatchPushdown textMatch,
            Aggregation aggregation,
            StructType schema,
            InternalRow[] rows) {
        this.tableName = tableName;
        this.textMatch = textMatch;
        this.aggregation = aggregation;
        this.schema = schema;
        this.rows = rows;
    }

    /**
     * Each of {@code aggregation}'s grouping expressions and aggregate arguments as an index among
     * the partition columns ({@code -1} for {@code count(*)}), in output order; null when one is
     * something else, or a {@code min} / {@code max} of a type without an exact order here.
     */
    static int[] columns(Aggregation aggregation, List<String> partitionKeys, RowType partitions) {
        Expression[] groupBy = aggregation.groupByExpressions();
        AggregateFunc[] aggregates = aggregation.aggregateExpressions();
        int[] columns = new int[groupBy.length + aggregates.length];
        for (int i = 0; i < columns.length; i++) {
            Expression e;
            if (i < groupBy.length) {
                e = groupBy[i];
            } else if (aggregates[i - groupBy.length] instanceof CountStar) {
                columns[i] = -1;
                continue;
            } else if (aggregates[i - groupBy.length] instanceof Min) {
                e = ((Min) aggregates[i - groupBy.length]).column();
            } else if (aggregates[i - groupBy.length] instanceof Max) {
                e = ((Max) aggregates[i - groupBy.length]).column();
            } else {
                return null;
            }
            if (!(e instanceof NamedReference) || ((NamedReference) e).fieldNames().length != 1) {
                return null;
            }
            columns[i] = partitionKeys.indexOf(((NamedReference) e).fieldNames()[0]);
            if (columns[i] < 0
                    || (i >= groupBy.length
                            && !SparkPredicates.exactPartitionType(
                                    partitions.getTypeAt(columns[i]).getTypeRoot()))) {
                return null;
            }
        }
        return columns;
    }

    /** {@code count(*)} alone, of {@code rows} rows (a text match's count, say). */
    static PushedAggregate count(
            String tableName, TextMatchPushdown textMatch, Aggregation aggregation, long rows) {
        int counts = aggregation.aggregateExpressions().length;
        Object[] values = new Object[counts];
        java.util.Arrays.fill(values, rows);
        StructField[] fields = new StructField[counts];
        for (int i = 0; i < counts; i++) {
            fields[i] = DataTypes.createStructField("count(*)_" + i, DataTypes.LongType, false);
        }
        return new PushedAggregate(
                tableName,
                textMatch,
                aggregation,
                DataTypes.createStructType(fields),
                new InternalRow[] {new GenericInternalRow(values)});
    }

    /**
     * {@code aggregation} over the {@code partitions} that have live rows; {@code columns} as
     * {@link #columns} gives them, {@code partitionSchema} the partition columns' Spark types.
     */
    static PushedAggregate of(
            String tableName,
            Aggregation aggregation,
            int[] columns,
            StructType partitionSchema,
            List<Partition> partitions) {
        int groupBy = aggregation.groupByExpressions().length;
        StructField[] fields = new StructField[columns.length];
        for (int i = 0; i < columns.length; i++) {
            fields[i] =
                    columns[i] < 0
                            ? DataTypes.createStructField(
                                    "count(*)_" + i, DataTypes.LongType, false)
                            : partitionSchema.fields()[columns[i]].copy(
                                    "c" + i,
                                    partitionSchema.fields()[columns[i]].dataType(),
                                    i >= groupBy || partitionSchema.fields()[columns[i]].nullable(),
                                    partitionSchema.fields()[columns[i]].metadata());
        }
        Map<List<Object>, Object[]> groups = new LinkedHashMap<>();
        if (groupBy == 0) {
            groups.put(List.of(), initial(columns, groupBy));
        }
        for (Partition p : partitions) {
            List<Object> key = new ArrayList<>(groupBy);
            for (int i = 0; i < groupBy; i++) {
                key.add(p.values()[columns[i]]);
            }
            Object[] row = groups.computeIfAbsent(key, k -> initial(columns, groupBy));
            for (int i = 0; i < groupBy; i++) {
                row[i] = key.get(i);
            }
            for (int i = groupBy; i < columns.length; i++) {
                if (columns[i] < 0) {
                    row[i] = (Long) row[i] + p.rows();
                    continue;
                }
                Object v = p.values()[columns[i]];
                boolean max = aggregation.aggregateExpressions()[i - groupBy] instanceof Max;
                if (v != null && (row[i] == null || better(v, row[i], max))) {
                    row[i] = v;
                }
            }
        }
        List<InternalRow> rows = new ArrayList<>();
        groups.values().forEach(values -> rows.add(new GenericInternalRow(values)));
        return new PushedAggregate(
                tableName,
                null,
                aggregation,
                DataTypes.createStructType(fields),
                rows.toArray(new InternalRow[0]));
    }

    private static Object[] initial(int[] columns, int groupBy) {
        Object[] row = new Object[columns.length];
        for (int i = groupBy; i < columns.length; i++) {
            row[i] = columns[i] < 0 ? (Object) 0L : null;
        }
        return row;
    }

    /**
     * Whether {@code v} replaces {@code current} as the max (or min): Spark's values of the types
     * {@link SparkPredicates#exactPartitionType} admits are {@link Comparable} in Spark's order.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static boolean better(Object v, Object current, boolean max) {
        int c = ((Comparable) v).compareTo(current);
        return max ? c > 0 : c < 0;
    }

    @Override
    public InternalRow[] rows() {
        return rows;
    }

    @Override
    public StructType readSchema() {
        return schema;
    }

    @Override
    public String description() {
        StringBuilder sb = new StringBuilder(tableName).append(" [");
        if (textMatch != null) {
            sb.append("PushedTextMatch: ").append(textMatch.describe()).append(", ");
        }
        sb.append("PushedAggregates: [");
        AggregateFunc[] aggregates = aggregation.aggregateExpressions();
        for (int i = 0; i < aggregates.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(aggregates[i].describe());
        }
        sb.append("]");
        Expression[] groupBy = aggregation.groupByExpressions();
        if (groupBy.length > 0) {
            sb.append(", PushedGroupBy: [");
            for (int i = 0; i < groupBy.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(groupBy[i].describe());
            }
            sb.append("]");
        }
        return sb.append(", Rows: ").append(rows.length).append("]").toString();
    }
}
