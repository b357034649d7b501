package dev.strata.spark.data;

import dev.strata.shredding.parquet.ArrayBackedMap;
import java.io.Serializable;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.Decimal;

/** Spark internal rows to Paimon rows; accessors are chosen once per type. */
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

    public static SparkToPaimon forRowType(RowType rowType) {
        return new SparkToPaimon(rowType);
    }

    public GenericRow convert(InternalRow row) {
        GenericRow out = new GenericRow(accessors.length);
        for (int i = 0; i < accessors.length; i++) {
            out.setField(i, row.isNullAt(i) ? null : accessors[i].get(row, i));
        }
        return out;
    }

    /** From Spark's internal representation. */
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
                    DataType valueType = mapType.getValueType();
                    // Keys are unique and Paimon's writers read only the arrays: no hash map.
                    return (c, p) -> {
                        MapData map = c.getMap(p);
                        return new ArrayBackedMap(
                                new GenericArray(array(map.keyArray(), key)),
                                values(map.valueArray(), valueType, value));
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

    /** Primitive values without NULLs are copied as one block, unboxed. */
    private static GenericArray values(ArrayData array, DataType type, Accessor element) {
        DataTypeRoot root = type.getTypeRoot();
        boolean primitive =
                root == DataTypeRoot.DOUBLE
                        || root == DataTypeRoot.BIGINT
                        || root == DataTypeRoot.INTEGER
                        || root == DataTypeRoot.FLOAT;
        if (primitive) {
            int n = array.numElements();
            boolean nulls = false;
            for (int i = 0; i < n && !nulls; i++) {
                nulls = array.isNullAt(i);
            }
            if (!nulls) {
                switch (root) {
                    case DOUBLE:
                        return new GenericArray(array.toDoubleArray());
                    case BIGINT:
                        return new GenericArray(array.toLongArray());
                    case INTEGER:
                        return new GenericArray(array.toIntArray());
                    default:
                        return new GenericArray(array.toFloatArray());
                }
            }
        }
        return new GenericArray(array(array, element));
    }

    private static Object[] array(ArrayData array, Accessor element) {
        Object[] values = new Object[array.numElements()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.isNullAt(i) ? null : element.get(array, i);
        }
        return values;
    }
}
