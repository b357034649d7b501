package dev.strata.shredding.parquet;

import java.util.Map;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * Paimon types → Parquet schema. Every field is OPTIONAL except map keys. A shredded column {@code
 * m MAP<STRING, T>} with K columns becomes:
 *
 * <pre>
 * optional group m {
 *   optional group __field_mapping (LIST) { repeated group list { optional int32 element; } }
 *   optional T __col_0; ... optional T __col_{K-1};
 *   optional group __overflow (MAP) { repeated group key_value { required int32 key; optional T value; } }
 * }
 * </pre>
 *
 * Timestamps of precision ≤ 3 are INT64 millis, ≤ 6 micros, otherwise nanos; decimals of precision
 * ≤ 9 INT32, ≤ 18 INT64, otherwise BINARY; TIME is INT32 millis.
 */
public final class ParquetSchemas {

    public static final String FIELD_MAPPING = "__field_mapping";
    public static final String OVERFLOW = "__overflow";
    public static final String COL_PREFIX = "__col_";

    private ParquetSchemas() {}

    public static String colName(int c) {
        return COL_PREFIX + c;
    }

    /** The file schema for {@code rowType}; {@code shredded} maps column names to their K. */
    public static MessageType messageType(RowType rowType, Map<String, Integer> shredded) {
        Types.MessageTypeBuilder b = Types.buildMessage();
        for (DataField f : rowType.getFields()) {
            Integer k = shredded.get(f.name());
            if (k != null) {
                b.addField(shreddedType(f.name(), ((MapType) f.type()).getValueType(), k));
            } else {
                b.addField(toParquet(f.name(), f.type(), Repetition.OPTIONAL));
            }
        }
        return b.named("paimon_schema");
    }

    public static GroupType shreddedType(String name, DataType valueType, int k) {
        Types.GroupBuilder<GroupType> g = Types.optionalGroup();
        g.addField(
                Types.optionalList().optionalElement(PrimitiveTypeName.INT32).named(FIELD_MAPPING));
        for (int c = 0; c < k; c++) {
            g.addField(toParquet(colName(c), valueType, Repetition.OPTIONAL));
        }
        g.addField(
                Types.optionalMap()
                        .key(Types.required(PrimitiveTypeName.INT32).named("key"))
                        .value(toParquet("value", valueType, Repetition.OPTIONAL))
                        .named(OVERFLOW));
        return g.named(name);
    }

    static Type toParquet(String name, DataType type, Repetition rep) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return Types.primitive(PrimitiveTypeName.BOOLEAN, rep).named(name);
            case TINYINT:
                return Types.primitive(PrimitiveTypeName.INT32, rep)
                        .as(LogicalTypeAnnotation.intType(8, true))
                        .named(name);
            case SMALLINT:
                return Types.primitive(PrimitiveTypeName.INT32, rep)
                        .as(LogicalTypeAnnotation.intType(16, true))
                        .named(name);
            case INTEGER:
                return Types.primitive(PrimitiveTypeName.INT32, rep).named(name);
            case BIGINT:
                return Types.primitive(PrimitiveTypeName.INT64, rep).named(name);
            case FLOAT:
                return Types.primitive(PrimitiveTypeName.FLOAT, rep).named(name);
            case DOUBLE:
                return Types.primitive(PrimitiveTypeName.DOUBLE, rep).named(name);
            case CHAR:
            case VARCHAR:
                return Types.primitive(PrimitiveTypeName.BINARY, rep)
                        .as(LogicalTypeAnnotation.stringType())
                        .named(name);
            case BINARY:
            case VARBINARY:
                return Types.primitive(PrimitiveTypeName.BINARY, rep).named(name);
            case DECIMAL:
                {
                    DecimalType d = (DecimalType) type;
                    LogicalTypeAnnotation a =
                            LogicalTypeAnnotation.decimalType(d.getScale(), d.getPrecision());
                    PrimitiveTypeName p =
                            d.getPrecision() <= 9
                                    ? PrimitiveTypeName.INT32
                                    : d.getPrecision() <= 18
                                            ? PrimitiveTypeName.INT64
                                            : PrimitiveTypeName.BINARY;
                    return Types.primitive(p, rep).as(a).named(name);
                }
            case DATE:
                return Types.primitive(PrimitiveTypeName.INT32, rep)
                        .as(LogicalTypeAnnotation.dateType())
                        .named(name);
            case TIME_WITHOUT_TIME_ZONE:
                return Types.primitive(PrimitiveTypeName.INT32, rep)
                        .as(
                                LogicalTypeAnnotation.timeType(
                                        false, LogicalTypeAnnotation.TimeUnit.MILLIS))
                        .named(name);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestamp(name, rep, ((TimestampType) type).getPrecision(), false);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(name, rep, ((LocalZonedTimestampType) type).getPrecision(), true);
            case ARRAY:
                return Types.list(rep)
                        .element(
                                toParquet(
                                        "element",
                                        ((ArrayType) type).getElementType(),
                                        Repetition.OPTIONAL))
                        .named(name);
            case MAP:
                {
                    MapType m = (MapType) type;
                    return Types.map(rep)
                            .key(toParquet("key", m.getKeyType(), Repetition.REQUIRED))
                            .value(toParquet("value", m.getValueType(), Repetition.OPTIONAL))
                            .named(name);
                }
            case ROW:
                {
                    Types.GroupBuilder<GroupType> g = Types.buildGroup(rep);
                    for (DataField f : ((RowType) type).getFields()) {
                        g.addField(toParquet(f.name(), f.type(), Repetition.OPTIONAL));
                    }
                    return g.named(name);
                }
            default:
                throw new UnsupportedOperationException(
                        "Cannot store column '"
                                + name
                                + "' in the shredded Parquet format: type "
                                + type
                                + " is not supported. Supported: numbers, decimal, string, binary, boolean, date, time,"
                                + " timestamp, array, map and row.");
        }
    }

    private static Type timestamp(String name, Repetition rep, int precision, boolean utc) {
        LogicalTypeAnnotation.TimeUnit unit =
                precision <= 3
                        ? LogicalTypeAnnotation.TimeUnit.MILLIS
                        : precision <= 6
                                ? LogicalTypeAnnotation.TimeUnit.MICROS
                                : LogicalTypeAnnotation.TimeUnit.NANOS;
        return Types.primitive(PrimitiveTypeName.INT64, rep)
                .as(LogicalTypeAnnotation.timestampType(utc, unit))
                .named(name);
    }

    /** Primitive columns (leaves) under {@code t}: the sub-columns a reader of that field reads. */
    public static int leafCount(Type t) {
        if (t.isPrimitive()) {
            return 1;
        }
        int n = 0;
        for (Type c : t.asGroupType().getFields()) {
            n += leafCount(c);
        }
        return n;
    }

    public static boolean looksShredded(Type t) {
        return !t.isPrimitive()
                && t.asGroupType().getFieldCount() > 0
                && t.asGroupType().getType(0).getName().equals(FIELD_MAPPING);
    }

    /** Throws when a type cannot be stored by this format. */
    public static void checkSupported(String name, DataType type) {
        toParquet(name, type, Repetition.OPTIONAL);
    }
}
