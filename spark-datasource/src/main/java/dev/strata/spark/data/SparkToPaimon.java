package dev.strata.spark.data;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.Decimal;

/**
 * Turns Spark's internal rows into Paimon rows of a given row type, field by field. Like {@link
 * PaimonToSpark}, the accessors are chosen once per type.
 */
public final class SparkToPaimon implements Serializable {

    private static final long serialVersionUID = 1L;

    @FunctionalInterface
    private interface Accessor extends Serializable {
        Object get(SpecializedGetters container, int pos);
    }

    private final Accessor[] accessors;

    private SparkToPaimon(RowType rowType) {
        List<DataField> fields = rowType.getFields();
        this.accessors = new Accessor[fields.size()];
        for (int i = 0; i < accessors.length; i++) {
            accessors[i] = accessor(fields.get(i).type());
        }
    }

    /** A converter producing rows of the given type. */
    public static SparkToPaimon forRowType(RowType rowType) {
        return new SparkToPaimon(rowType);
    }

    /** Converts one Spark row. */
    public GenericRow convert(InternalRow row) {
        GenericRow out = new GenericRow(accessors.length);
        for (int i = 0; i < accessors.length; i++) {
            out.setField(i, row.isNullAt(i) ? null : accessors[i].get(row, i));
        }
        return out;
    }

    /** Converts one Spark value (internal representation) of the given Paimon type. */
    public static Object value(Object sparkValue, DataType type) {
        if (sparkValue == null) {
            return null;
        }
        return accessor(type).get(new GenericInternalRow(new Object[] {sparkValue}), 0);
    }

    private static Accessor accessor(DataType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return SpecializedGetters::getBoolean;
            case TINYINT:
                return SpecializedGetters::getByte;
            case SMALLINT:
                return SpecializedGetters::getShort;
            case INTEGER:
            case DATE:
                return SpecializedGetters::getInt;
            case BIGINT:
                return SpecializedGetters::getLong;
            case FLOAT:
                return SpecializedGetters::getFloat;
            case DOUBLE:
                return SpecializedGetters::getDouble;
            case CHAR:
            case VARCHAR:
                return (c, p) -> BinaryString.fromBytes(c.getUTF8String(p).getBytes());
            case BINARY:
            case VARBINARY:
                return SpecializedGetters::getBinary;
            case DECIMAL:
                {
                    DecimalType d = (DecimalType) type;
                    int precision = d.getPrecision();
                    int scale = d.getScale();
                    return (c, p) -> {
                        Decimal v = c.getDecimal(p, precision, scale);
                        return org.apache.paimon.data.Decimal.fromBigDecimal(
                                v.toJavaBigDecimal(), precision, scale);
                    };
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return (c, p) -> Timestamp.fromMicros(c.getLong(p));
            case ARRAY:
                {
                    Accessor element = accessor(((ArrayType) type).getElementType());
                    return (c, p) -> new GenericArray(array(c.getArray(p), element));
                }
            case MAP:
                {
                    MapType mapType = (MapType) type;
                    Accessor key = accessor(mapType.getKeyType());
                    Accessor value = accessor(mapType.getValueType());
                    return (c, p) -> {
                        MapData map = c.getMap(p);
                        Object[] keys = array(map.keyArray(), key);
                        Object[] values = array(map.valueArray(), value);
                        Map<Object, Object> out = new LinkedHashMap<>(keys.length * 2);
                        for (int i = 0; i < keys.length; i++) {
                            out.put(keys[i], values[i]);
                        }
                        return new GenericMap(out);
                    };
                }
            case ROW:
                {
                    RowType rowType = (RowType) type;
                    SparkToPaimon nested = new SparkToPaimon(rowType);
                    int arity = rowType.getFieldCount();
                    return (c, p) -> nested.convert(c.getStruct(p, arity));
                }
            default:
                throw new UnsupportedOperationException(
                        "Cannot write Paimon type "
                                + type
                                + " from Spark: the type has no Spark counterpart.");
        }
    }

    private static Object[] array(ArrayData array, Accessor element) {
        Object[] values = new Object[array.numElements()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.isNullAt(i) ? null : element.get(array, i);
        }
        return values;
    }
}
