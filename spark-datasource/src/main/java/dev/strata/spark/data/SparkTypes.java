package dev.strata.spark.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.CharType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.VarCharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Converts between Spark SQL and Paimon types one-to-one; anything else is refused naming the
 * column, so no table has a column Spark could not read back.
 */
public final class SparkTypes {

    /** Spark's metadata key for CHAR/VARCHAR columns it replaced by STRING. */
    private static final String CHAR_VARCHAR_METADATA = "__CHAR_VARCHAR_TYPE_STRING";

    private static final Pattern CHAR_PATTERN =
            Pattern.compile(
                    "\\s*(char|varchar)\\s*\\(\\s*(\\d+)\\s*\\)\\s*", Pattern.CASE_INSENSITIVE);

    private static final String SUPPORTED =
            "boolean, tinyint, smallint, int, bigint, float, double, decimal, string, char, varchar, binary, "
                    + "date, timestamp, timestamp_ntz, array, map, struct";

    private SparkTypes() {}

    public static RowType toPaimon(String table, StructType schema) {
        List<DataField> fields = new ArrayList<>();
        int id = 0;
        for (StructField field : schema.fields()) {
            org.apache.paimon.types.DataType type =
                    toPaimon(table, field.name(), field.dataType(), field.metadata())
                            .copy(field.nullable());
            String comment = field.getComment().isDefined() ? field.getComment().get() : null;
            fields.add(new DataField(id++, field.name(), type, comment));
        }
        return new RowType(fields);
    }

    /** {@code column} is the dotted path used in error messages. */
    public static org.apache.paimon.types.DataType toPaimon(
            String table, String column, DataType type, Metadata metadata) {
        if (metadata != null && metadata.contains(CHAR_VARCHAR_METADATA)) {
            Matcher m = CHAR_PATTERN.matcher(metadata.getString(CHAR_VARCHAR_METADATA));
            if (m.matches()) {
                int length = Integer.parseInt(m.group(2));
                return m.group(1).toLowerCase(Locale.ROOT).equals("char")
                        ? DataTypes.CHAR(length)
                        : DataTypes.VARCHAR(length);
            }
        }
        if (type instanceof org.apache.spark.sql.types.BooleanType) {
            return DataTypes.BOOLEAN();
        } else if (type instanceof org.apache.spark.sql.types.ByteType) {
            return DataTypes.TINYINT();
        } else if (type instanceof org.apache.spark.sql.types.ShortType) {
            return DataTypes.SMALLINT();
        } else if (type instanceof org.apache.spark.sql.types.IntegerType) {
            return DataTypes.INT();
        } else if (type instanceof org.apache.spark.sql.types.LongType) {
            return DataTypes.BIGINT();
        } else if (type instanceof org.apache.spark.sql.types.FloatType) {
            return DataTypes.FLOAT();
        } else if (type instanceof org.apache.spark.sql.types.DoubleType) {
            return DataTypes.DOUBLE();
        } else if (type instanceof org.apache.spark.sql.types.DecimalType) {
            org.apache.spark.sql.types.DecimalType d =
                    (org.apache.spark.sql.types.DecimalType) type;
            return DataTypes.DECIMAL(d.precision(), d.scale());
        } else if (type instanceof org.apache.spark.sql.types.CharType) {
            return DataTypes.CHAR(((org.apache.spark.sql.types.CharType) type).length());
        } else if (type instanceof org.apache.spark.sql.types.VarcharType) {
            return DataTypes.VARCHAR(((org.apache.spark.sql.types.VarcharType) type).length());
        } else if (type instanceof org.apache.spark.sql.types.StringType) {
            org.apache.spark.sql.types.StringType s = (org.apache.spark.sql.types.StringType) type;
            if (!s.isUTF8BinaryCollation() || s.usesTrimCollation()) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot store column %s of table %s with collation %s: Paimon strings carry no "
                                        + "collation, so the column would compare as UTF8_BINARY. Remove the "
                                        + "COLLATE clause; queries can compare with collate(expr, '%s').",
                                column, table, s.collationName(), s.collationName()));
            }
            return DataTypes.STRING();
        } else if (type instanceof org.apache.spark.sql.types.BinaryType) {
            return DataTypes.BYTES();
        } else if (type instanceof org.apache.spark.sql.types.DateType) {
            return DataTypes.DATE();
        } else if (type instanceof org.apache.spark.sql.types.TimestampType) {
            return DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6);
        } else if (type instanceof org.apache.spark.sql.types.TimestampNTZType) {
            return DataTypes.TIMESTAMP(6);
        } else if (type instanceof org.apache.spark.sql.types.ArrayType) {
            org.apache.spark.sql.types.ArrayType a = (org.apache.spark.sql.types.ArrayType) type;
            return DataTypes.ARRAY(
                    toPaimon(table, column + ".element", a.elementType(), null)
                            .copy(a.containsNull()));
        } else if (type instanceof org.apache.spark.sql.types.MapType) {
            org.apache.spark.sql.types.MapType m = (org.apache.spark.sql.types.MapType) type;
            return DataTypes.MAP(
                    toPaimon(table, column + ".key", m.keyType(), null).copy(false),
                    toPaimon(table, column + ".value", m.valueType(), null)
                            .copy(m.valueContainsNull()));
        } else if (type instanceof StructType) {
            RowType.Builder builder = RowType.builder();
            for (StructField f : ((StructType) type).fields()) {
                String comment = f.getComment().isDefined() ? f.getComment().get() : null;
                builder.field(
                        f.name(),
                        toPaimon(table, column + "." + f.name(), f.dataType(), f.metadata())
                                .copy(f.nullable()),
                        comment);
            }
            return builder.build();
        }
        throw new IllegalArgumentException(
                String.format(
                        "Cannot store column %s of table %s: Paimon has no type for Spark's %s. Use one of: %s.",
                        column, table, type.sql(), SUPPORTED));
    }

    /**
     * Refuses a default collation other than UTF8_BINARY: Paimon keeps none, so columns added later
     * would silently compare byte-wise.
     */
    public static void checkDefaultCollation(String table, String doing, String collation) {
        if (collation != null && !collation.equalsIgnoreCase("UTF8_BINARY")) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s %s with DEFAULT COLLATION %s: Paimon strings carry no collation, so "
                                    + "its string columns would compare as UTF8_BINARY. Remove the DEFAULT "
                                    + "COLLATION clause; queries can compare with collate(expr, '%s').",
                            doing, table, collation, collation));
        }
    }

    public static StructType toSpark(RowType rowType) {
        List<StructField> fields = new ArrayList<>();
        for (DataField field : rowType.getFields()) {
            Metadata metadata = Metadata.empty();
            if (field.description() != null) {
                metadata = new MetadataBuilder().putString("comment", field.description()).build();
            }
            fields.add(
                    new StructField(
                            field.name(),
                            toSpark(field.name(), field.type()),
                            field.type().isNullable(),
                            metadata));
        }
        return new StructType(fields.toArray(new StructField[0]));
    }

    public static DataType toSpark(String column, org.apache.paimon.types.DataType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return org.apache.spark.sql.types.DataTypes.BooleanType;
            case TINYINT:
                return org.apache.spark.sql.types.DataTypes.ByteType;
            case SMALLINT:
                return org.apache.spark.sql.types.DataTypes.ShortType;
            case INTEGER:
                return org.apache.spark.sql.types.DataTypes.IntegerType;
            case BIGINT:
                return org.apache.spark.sql.types.DataTypes.LongType;
            case FLOAT:
                return org.apache.spark.sql.types.DataTypes.FloatType;
            case DOUBLE:
                return org.apache.spark.sql.types.DataTypes.DoubleType;
            case DECIMAL:
                DecimalType d = (DecimalType) type;
                return org.apache.spark.sql.types.DataTypes.createDecimalType(
                        d.getPrecision(), d.getScale());
            case CHAR:
                return org.apache.spark.sql.types.DataTypes.createCharType(
                        ((CharType) type).getLength());
            case VARCHAR:
                int length = ((VarCharType) type).getLength();
                return length == VarCharType.MAX_LENGTH
                        ? org.apache.spark.sql.types.DataTypes.StringType
                        : org.apache.spark.sql.types.DataTypes.createVarcharType(length);
            case BINARY:
            case VARBINARY:
                return org.apache.spark.sql.types.DataTypes.BinaryType;
            case DATE:
                return org.apache.spark.sql.types.DataTypes.DateType;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return org.apache.spark.sql.types.DataTypes.TimestampType;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return org.apache.spark.sql.types.DataTypes.TimestampNTZType;
            case ARRAY:
                org.apache.paimon.types.DataType element = ((ArrayType) type).getElementType();
                return org.apache.spark.sql.types.DataTypes.createArrayType(
                        toSpark(column + ".element", element), element.isNullable());
            case MAP:
                MapType map = (MapType) type;
                return org.apache.spark.sql.types.DataTypes.createMapType(
                        toSpark(column + ".key", map.getKeyType()),
                        toSpark(column + ".value", map.getValueType()),
                        map.getValueType().isNullable());
            case ROW:
                List<StructField> fields = new ArrayList<>();
                for (DataField f : ((RowType) type).getFields()) {
                    fields.add(
                            new StructField(
                                    f.name(),
                                    toSpark(column + "." + f.name(), f.type()),
                                    f.type().isNullable(),
                                    Metadata.empty()));
                }
                return new StructType(fields.toArray(new StructField[0]));
            default:
                throw new UnsupportedOperationException(
                        String.format(
                                "Cannot read column %s: Paimon type %s has no Spark counterpart in Strata. "
                                        + "Read the table with an engine that supports %s.",
                                column, type, type.getTypeRoot()));
        }
    }
}
