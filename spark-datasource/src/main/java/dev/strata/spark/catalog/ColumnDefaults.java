package dev.strata.spark.catalog;

import dev.strata.spark.data.PaimonToSpark;
import dev.strata.spark.data.SparkToPaimon;
import dev.strata.spark.data.SparkTypes;
import java.util.Arrays;
import java.util.Objects;
import org.apache.paimon.casting.CastExecutor;
import org.apache.paimon.casting.CastExecutors;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypeFamily;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.VarCharType;
import org.apache.paimon.utils.DefaultValueUtils;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.parser.CatalystSqlParser$;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * Column DEFAULT values, stored as Paimon's {@code DataField#defaultValue} text, which every Paimon
 * writer casts from STRING and writes in place of NULL. So a default is stored only when it is a
 * constant Paimon reads back as the declared value, and Spark is shown what Paimon will write.
 */
public final class ColumnDefaults {

    private ColumnDefaults() {}

    /** The text Paimon stores for the field's default, or null without one. */
    public static String forCreate(
            String table, StructField field, org.apache.paimon.types.DataType type) {
        if (field.getCurrentDefaultValue().isEmpty()) {
            return null;
        }
        String sql = field.getCurrentDefaultValue().get();
        String evaluated =
                field.getExistenceDefaultValue().isDefined()
                        ? field.getExistenceDefaultValue().get()
                        : sql;
        checkConstant(table, field.name(), sql);
        return toPaimonText(table, field.name(), sql, evaluate(evaluated, field.dataType()), type);
    }

    public static String forAlter(
            String table, String column, String sql, org.apache.paimon.types.DataType type) {
        checkConstant(table, column, sql);
        return toPaimonText(
                table, column, sql, evaluate(sql, SparkTypes.toSpark(column, type)), type);
    }

    /** In Spark's internal representation. */
    private static Object evaluate(String sql, DataType type) {
        Expression parsed = CatalystSqlParser$.MODULE$.parseExpression(sql);
        return new Cast(parsed, type, Option.apply("UTC")).eval(null);
    }

    /** {@code schema} with each Paimon default shown to Spark. */
    public static StructType withDefaults(StructType schema, RowType rowType) {
        StructField[] fields = schema.fields().clone();
        boolean any = false;
        for (int i = 0; i < fields.length; i++) {
            DataField paimon = rowType.getFields().get(i);
            String literal = sparkLiteral(paimon);
            if (literal != null) {
                // The existence default too, or DESCRIBE shows none; Paimon has no other value for
                // older rows.
                fields[i] =
                        fields[i]
                                .withCurrentDefaultValue(literal)
                                .withExistenceDefaultValue(literal);
                any = true;
            }
        }
        return any ? new StructType(fields) : schema;
    }

    /**
     * Null when the field has none or Paimon cannot read it (then Paimon refuses every write,
     * naming the default).
     */
    private static String sparkLiteral(DataField field) {
        if (field.defaultValue() == null || boundedText(field.type())) {
            return null;
        }
        Object value;
        try {
            value = DefaultValueUtils.convertDefaultValue(field.type(), field.defaultValue());
        } catch (RuntimeException e) {
            return null;
        }
        DataType sparkType = SparkTypes.toSpark(field.name(), field.type());
        Object spark = PaimonToSpark.value(GenericRow.of(value), 0, field.type());
        return new Literal(spark, sparkType).sql();
    }

    /** Paimon writes one value for a default: an expression evaluated at each INSERT cannot be. */
    private static void checkConstant(String table, String column, String sql) {
        Expression parsed;
        try {
            parsed = CatalystSqlParser$.MODULE$.parseExpression(sql);
        } catch (RuntimeException e) {
            parsed = null;
        }
        if (parsed == null || !parsed.resolved() || !parsed.foldable()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot store the default %s of column %s of table %s: Paimon keeps a "
                                    + "column's default as one constant value that every writer "
                                    + "writes, and this default is evaluated at each write. Use a "
                                    + "constant, such as a literal of the column's type.",
                            sql, column, table));
        }
    }

    private static String toPaimonText(
            String table,
            String column,
            String sql,
            Object sparkValue,
            org.apache.paimon.types.DataType type) {
        if (type.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            throw refused(
                    table,
                    column,
                    sql,
                    "Paimon reads the text of a TIMESTAMP default in each writer's time zone, so "
                            + "writers in other zones would write other instants",
                    "Use a TIMESTAMP_NTZ column for a default timestamp, or no default");
        }
        if (boundedText(type)) {
            throw refused(
                    table,
                    column,
                    sql,
                    "Spark cannot resolve the default of a "
                            + type.asSQLString()
                            + " column of a catalog's table when it reads the table back",
                    "Use a STRING column for a default text");
        }
        Object value = SparkToPaimon.value(sparkValue, type);
        if (value == null) {
            throw refused(
                    table,
                    column,
                    sql,
                    "Paimon writes a column's default in place of NULL, so NULL is no default",
                    "Remove the DEFAULT clause");
        }
        @SuppressWarnings("unchecked")
        CastExecutor<Object, Object> toText =
                (CastExecutor<Object, Object>) CastExecutors.resolve(type, VarCharType.STRING_TYPE);
        if (toText == null || type.is(DataTypeFamily.CONSTRUCTED)) {
            throw refused(
                    table,
                    column,
                    sql,
                    "Paimon keeps defaults of columns of atomic types only, not "
                            + type.asSQLString(),
                    "Remove the DEFAULT clause");
        }
        String text = toText.cast(value).toString();
        // Quote all but numbers and booleans: other engines show this text to Spark as a literal.
        if (!(type.is(DataTypeFamily.NUMERIC) || type.getTypeRoot() == DataTypeRoot.BOOLEAN)
                || !text.matches("[-+0-9.eE]+|true|false")) {
            text = "'" + text + "'";
        }
        Object readBack;
        try {
            readBack = DefaultValueUtils.convertDefaultValue(type, text);
        } catch (RuntimeException e) {
            readBack = e;
        }
        if (!Objects.deepEquals(readBack, value)) {
            throw refused(
                    table,
                    column,
                    sql,
                    "Paimon stores a default as text and would read this value back as "
                            + (readBack instanceof RuntimeException
                                    ? "an error ("
                                            + ((RuntimeException) readBack).getMessage()
                                            + ")"
                                    : readBack instanceof byte[]
                                            ? Arrays.toString((byte[]) readBack)
                                            : String.valueOf(readBack)),
                    "Use another value, or no default");
        }
        return text;
    }

    /** Spark cannot resolve CHAR(n) or VARCHAR(n) defaults when it reads a table back. */
    private static boolean boundedText(org.apache.paimon.types.DataType type) {
        return type.getTypeRoot() == DataTypeRoot.CHAR
                || type.getTypeRoot() == DataTypeRoot.VARCHAR
                        && !type.equals(VarCharType.STRING_TYPE.copy(type.isNullable()));
    }

    private static IllegalArgumentException refused(
            String table, String column, String sql, String why, String fix) {
        return new IllegalArgumentException(
                String.format(
                        "Cannot store the default %s of column %s of table %s: %s. %s.",
                        sql, column, table, why, fix));
    }
}
