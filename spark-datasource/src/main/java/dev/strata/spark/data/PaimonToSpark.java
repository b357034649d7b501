package dev.strata.spark.data;

import java.io.Serializable;
import java.util.List;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Turns Paimon rows into Spark's internal rows. The per-field work is decided once, when the
 * converter is built for a row type, so converting a row only runs the chosen accessors.
 */
public final class PaimonToSpark implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Reads position {@code pos} of a Paimon row or array as a Spark internal value. */
    @FunctionalInterface
    private interface Accessor extends Serializable {
        Object get(Object container, int pos);
    }

    private final Accessor[] accessors;

    private PaimonToSpark(RowType rowType) {
        List<DataField> fields = rowType.getFields();
        this.accessors = new Accessor[fields.size()];
        for (int i = 0; i < accessors.length; i++) {
            accessors[i] = accessor(fields.get(i).type());
        }
    }

    /** A converter for rows of the given type. */
    public static PaimonToSpark forRowType(RowType rowType) {
        return new PaimonToSpark(rowType);
    }

    /** Converts one row into a fresh Spark row. */
    public GenericInternalRow convert(InternalRow row) {
        Object[] values = new Object[accessors.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = row.isNullAt(i) ? null : accessors[i].get(row, i);
        }
        return new GenericInternalRow(values);
    }

    /** Converts one value of the given Paimon type stored at {@code pos} of a row. */
    public static Object value(InternalRow row, int pos, DataType type) {
        return row.isNullAt(pos) ? null : accessor(type).get(row, pos);
    }

    private static Accessor accessor(DataType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return (c, p) ->
                        c instanceof InternalRow
                                ? ((InternalRow) c).getBoolean(p)
                                : ((InternalArray) c).getBoolean(p);
            case TINYINT:
                return (c, p) ->
                        c instanceof InternalRow
                                ? ((InternalRow) c).getByte(p)
                                : ((InternalArray) c).getByte(p);
            case SMALLINT:
                return (c, p) ->
                        c instanceof InternalRow
                                ? ((InternalRow) c).getShort(p)
                                : ((InternalArray) c).getShort(p);
            case INTEGER:
            case DATE:
                return (c, p) ->
                        c instanceof InternalRow
                                ? ((InternalRow) c).getInt(p)
                                : ((InternalArray) c).getInt(p);
            case BIGINT:
                return (c, p) ->
                        c instanceof InternalRow
                                ? ((InternalRow) c).getLong(p)
                                : ((InternalArray) c).getLong(p);
            case FLOAT:
                return (c, p) ->
                        c instanceof InternalRow
                                ? ((InternalRow) c).getFloat(p)
                                : ((InternalArray) c).getFloat(p);
            case DOUBLE:
                return (c, p) ->
                        c instanceof InternalRow
                                ? ((InternalRow) c).getDouble(p)
                                : ((InternalArray) c).getDouble(p);
            case CHAR:
            case VARCHAR:
                return (c, p) ->
                        UTF8String.fromBytes(
                                (c instanceof InternalRow
                                                ? ((InternalRow) c).getString(p)
                                                : ((InternalArray) c).getString(p))
                                        .toBytes());
            case BINARY:
            case VARBINARY:
                return (c, p) ->
                        c instanceof InternalRow
                                ? ((InternalRow) c).getBinary(p)
                                : ((InternalArray) c).getBinary(p);
            case DECIMAL:
                {
                    DecimalType d = (DecimalType) type;
                    int precision = d.getPrecision();
                    int scale = d.getScale();
                    return (c, p) -> {
                        org.apache.paimon.data.Decimal v =
                                c instanceof InternalRow
                                        ? ((InternalRow) c).getDecimal(p, precision, scale)
                                        : ((InternalArray) c).getDecimal(p, precision, scale);
                        return org.apache.paimon.data.Decimal.isCompact(precision)
                                ? Decimal.createUnsafe(v.toUnscaledLong(), precision, scale)
                                : Decimal.apply(v.toBigDecimal(), precision, scale);
                    };
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                {
                    int precision = org.apache.paimon.types.DataTypeChecks.getPrecision(type);
                    return (c, p) ->
                            (c instanceof InternalRow
                                            ? ((InternalRow) c).getTimestamp(p, precision)
                                            : ((InternalArray) c).getTimestamp(p, precision))
                                    .toMicros();
                }
            case ARRAY:
                {
                    DataType elementType = ((ArrayType) type).getElementType();
                    Accessor element = accessor(elementType);
                    return (c, p) ->
                            array(
                                    c instanceof InternalRow
                                            ? ((InternalRow) c).getArray(p)
                                            : ((InternalArray) c).getArray(p),
                                    element);
                }
            case MAP:
                {
                    MapType mapType = (MapType) type;
                    Accessor key = accessor(mapType.getKeyType());
                    Accessor value = accessor(mapType.getValueType());
                    return (c, p) -> {
                        InternalMap map =
                                c instanceof InternalRow
                                        ? ((InternalRow) c).getMap(p)
                                        : ((InternalArray) c).getMap(p);
                        return new ArrayBasedMapData(
                                array(map.keyArray(), key), array(map.valueArray(), value));
                    };
                }
            case ROW:
                {
                    RowType rowType = (RowType) type;
                    PaimonToSpark nested = new PaimonToSpark(rowType);
                    int arity = rowType.getFieldCount();
                    return (c, p) ->
                            nested.convert(
                                    c instanceof InternalRow
                                            ? ((InternalRow) c).getRow(p, arity)
                                            : ((InternalArray) c).getRow(p, arity));
                }
            default:
                throw new UnsupportedOperationException(
                        "Cannot read Paimon type "
                                + type
                                + " into Spark: the type has no Spark counterpart.");
        }
    }

    private static GenericArrayData array(InternalArray array, Accessor element) {
        Object[] values = new Object[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.isNullAt(i) ? null : element.get(array, i);
        }
        return new GenericArrayData(values);
    }
}
