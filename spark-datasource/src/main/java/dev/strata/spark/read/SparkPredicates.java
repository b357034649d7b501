package dev.strata.spark.read;

import dev.strata.spark.data.SparkToPaimon;
import dev.strata.spark.data.SparkTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;

/**
 * Translates Spark V2 predicates on top-level columns into Paimon predicates, or empty when not
 * exact. Literals must have the column's exact Spark type, so no implicit cast changes a
 * comparison's meaning.
 */
public final class SparkPredicates {

    private final RowType rowType;
    private final PredicateBuilder builder;

    public SparkPredicates(RowType rowType) {
        this.rowType = rowType;
        this.builder = new PredicateBuilder(rowType);
    }

    public Optional<Predicate> convert(
            org.apache.spark.sql.connector.expressions.filter.Predicate predicate) {
        try {
            return Optional.ofNullable(doConvert(predicate));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Null when it cannot be converted. */
    private Predicate child(Expression[] children, int i) {
        return doConvert((org.apache.spark.sql.connector.expressions.filter.Predicate) children[i]);
    }

    private Predicate doConvert(org.apache.spark.sql.connector.expressions.filter.Predicate p) {
        Expression[] c = p.children();
        switch (p.name()) {
            case "ALWAYS_TRUE":
                return PredicateBuilder.alwaysTrue();
            case "ALWAYS_FALSE":
                return PredicateBuilder.alwaysFalse();
            case "AND":
                {
                    Predicate l = child(c, 0);
                    Predicate r = child(c, 1);
                    return l == null || r == null ? null : PredicateBuilder.and(l, r);
                }
            case "OR":
                {
                    Predicate l = child(c, 0);
                    Predicate r = child(c, 1);
                    return l == null || r == null ? null : PredicateBuilder.or(l, r);
                }
            case "NOT":
                {
                    Predicate child = child(c, 0);
                    return child == null ? null : child.negate().orElse(null);
                }
            case "IS_NULL":
                {
                    int idx = column(c[0]);
                    return idx < 0 ? null : builder.isNull(idx);
                }
            case "IS_NOT_NULL":
                {
                    int idx = column(c[0]);
                    return idx < 0 ? null : builder.isNotNull(idx);
                }
            case "IN":
                {
                    int idx = column(c[0]);
                    if (idx < 0) {
                        return null;
                    }
                    List<Object> values = new ArrayList<>();
                    for (int i = 1; i < c.length; i++) {
                        if (!literalFits(c[i], idx)) {
                            return null;
                        }
                        Object v = literal(c[i], idx);
                        if (isZero(v)) {
                            return null;
                        }
                        if (v != null) {
                            values.add(v);
                        }
                    }
                    return values.isEmpty()
                            ? PredicateBuilder.alwaysFalse()
                            : builder.in(idx, values);
                }
            case "STARTS_WITH":
                {
                    int idx = column(c[0]);
                    if (idx < 0 || !literalFits(c[1], idx)) {
                        return null;
                    }
                    Object v = literal(c[1], idx);
                    return v == null ? null : builder.startsWith(idx, v);
                }
            case "=":
            case "<>":
            case "<":
            case "<=":
            case ">":
            case ">=":
            case "<=>":
                return comparison(p.name(), c[0], c[1]);
            default:
                return null;
        }
    }

    private Predicate comparison(String op, Expression left, Expression right) {
        int idx = column(left);
        Expression lit = right;
        String effective = op;
        if (idx < 0) {
            idx = column(right);
            lit = left;
            effective = flip(op);
        }
        if (idx < 0 || !literalFits(lit, idx)) {
            return null;
        }
        Object v = literal(lit, idx);
        if (isZero(v)) {
            return null;
        }
        if (v == null) {
            // Comparing with NULL is never true, except null-safe equality which means IS NULL.
            return effective.equals("<=>") ? builder.isNull(idx) : PredicateBuilder.alwaysFalse();
        }
        switch (effective) {
            case "=":
                return builder.equal(idx, v);
            case "<=>":
                // not just equal(v): under a NOT, NULL <=> v is false and its negation true
                return PredicateBuilder.and(builder.isNotNull(idx), builder.equal(idx, v));
            case "<>":
                return builder.notEqual(idx, v);
            case "<":
                return builder.lessThan(idx, v);
            case "<=":
                return builder.lessOrEqual(idx, v);
            case ">":
                return builder.greaterThan(idx, v);
            case ">=":
                return builder.greaterOrEqual(idx, v);
            default:
                return null;
        }
    }

    private static String flip(String op) {
        switch (op) {
            case "<":
                return ">";
            case "<=":
                return ">=";
            case ">":
                return "<";
            case ">=":
                return "<=";
            default:
                return op;
        }
    }

    /**
     * Whether Paimon's partition pruning answers {@code predicate} exactly, so Spark need not apply
     * it again: it converts, reads only partition columns of types whose Paimon comparison is
     * Spark's (no floating point, CHAR or timestamps), and has no NULL literal (where the
     * conversion drops SQL's three-valued logic: under a NOT, {@code x IN ('a', NULL)} would keep
     * rows Spark drops).
     */
    public boolean exactOnPartitions(
            org.apache.spark.sql.connector.expressions.filter.Predicate predicate,
            List<String> partitionKeys) {
        return !partitionKeys.isEmpty()
                && exactTree(predicate, partitionKeys)
                && convert(predicate).isPresent();
    }

    private boolean exactTree(Expression e, List<String> partitionKeys) {
        if (e instanceof Literal) {
            return ((Literal<?>) e).value() != null;
        }
        if (e instanceof NamedReference) {
            int idx = column(e);
            return idx >= 0
                    && partitionKeys.contains(rowType.getFieldNames().get(idx))
                    && exactPartitionType(rowType.getTypeAt(idx).getTypeRoot());
        }
        if (!(e instanceof org.apache.spark.sql.connector.expressions.filter.Predicate)) {
            return false;
        }
        boolean references = false;
        for (Expression child : e.children()) {
            if (!exactTree(child, partitionKeys)) {
                return false;
            }
            references = true;
        }
        return references;
    }

    /** Partition column types whose values Paimon and Spark compare alike. */
    static boolean exactPartitionType(DataTypeRoot root) {
        switch (root) {
            case VARCHAR:
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case DECIMAL:
            case DATE:
                return true;
            default:
                return false;
        }
    }

    /**
     * {@code column IN values} of Spark-internal values (runtime filters); empty when the column or
     * a value does not convert.
     */
    public Optional<Predicate> in(String column, List<Object> values) {
        int idx = column(column);
        if (idx < 0 || values.isEmpty()) {
            return Optional.empty();
        }
        try {
            List<Object> literals = new ArrayList<>(values.size());
            for (Object v : values) {
                literals.add(SparkToPaimon.value(v, rowType.getTypeAt(idx)));
            }
            return Optional.of(builder.in(idx, literals));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The index of a top-level, atomic-typed column reference, or -1. */
    private int column(Expression e) {
        if (!(e instanceof NamedReference)) {
            return -1;
        }
        String[] names = ((NamedReference) e).fieldNames();
        return names.length == 1 ? column(names[0]) : -1;
    }

    /**
     * Not for a name with a dot: Paimon's Parquet filters (1.4.2, 2.0.0) take {@code a.b} as a
     * nested path, find nothing and skip every row group.
     */
    public static boolean pushable(String column) {
        return column.indexOf('.') < 0;
    }

    /** A top-level, atomic-typed, {@link #pushable} column's index, or -1. */
    private int column(String name) {
        int idx = pushable(name) ? rowType.getFieldIndex(name) : -1;
        if (idx < 0) {
            return -1;
        }
        DataTypeRoot root = rowType.getTypeAt(idx).getTypeRoot();
        boolean complex =
                root == DataTypeRoot.ARRAY
                        || root == DataTypeRoot.MAP
                        || root == DataTypeRoot.ROW
                        || root == DataTypeRoot.MULTISET;
        return complex ? -1 : idx;
    }

    private boolean literalFits(Expression e, int idx) {
        if (!(e instanceof Literal)) {
            return false;
        }
        DataField field = rowType.getFields().get(idx);
        org.apache.spark.sql.types.DataType columnType =
                SparkTypes.toSpark(field.name(), field.type());
        org.apache.spark.sql.types.DataType literalType = ((Literal<?>) e).dataType();
        if (columnType instanceof org.apache.spark.sql.types.CharType
                || columnType instanceof org.apache.spark.sql.types.VarcharType) {
            columnType = org.apache.spark.sql.types.DataTypes.StringType;
        }
        return literalType instanceof org.apache.spark.sql.types.NullType
                || columnType.sameType(literalType);
    }

    /**
     * A floating-point zero: Spark's {@code -0.0 = 0.0} is true, but Paimon's statistics compare
     * with {@code Double.compare}, which orders -0.0 below 0.0, so a file of -0.0 values would be
     * skipped for {@code d = 0.0} or {@code d >= 0.0}. Spark alone filters such a comparison.
     */
    private static boolean isZero(Object v) {
        return v instanceof Double && (Double) v == 0.0 || v instanceof Float && (Float) v == 0f;
    }

    private Object literal(Expression e, int idx) {
        Object value = ((Literal<?>) e).value();
        return value == null ? null : SparkToPaimon.value(value, rowType.getTypeAt(idx));
    }
}
