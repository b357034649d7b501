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

    /** Per field: the timestamp precision when Spark reads the field as micros, else -1. */
    private final int[] timestampPrecision;

    private PaimonToSpark(RowType rowType) {
        List<DataField> fields = rowType.getFields();
        this.accessors = new Accessor[fields.size()];
        this.timestampPrecision = new int[fields.size()];
        for (int i = 0; i < accessors.length; i++) {
            DataType type = fields.get(i).type();
            accessors[i] = accessor(type);
            switch (type.getTypeRoot()) {
                case TIMESTAMP_WITHOUT_TIME_ZONE:
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                    timestampPrecision[i] =
                            org.apache.paimon.types.DataTypeChecks.getPrecision(type);
                    break;
                default:
                    timestampPrecision[i] = -1;
            }
        }
    }

    /**
     * A Spark row that reads a Paimon row in place, for a reader that returns one row at a time:
     * {@link RowView#of} points it at the next row, and each getter converts only the field asked
     * for, with no row or boxed value allocated (a scan reading a few columns of every row paid a
     * fresh row and a boxed value per field). {@code copy()} gives an independent row. It extends
     * {@link GenericInternalRow} only so that one source serves Spark minors whose {@code
     * InternalRow} declares different getters; its {@code values} array holds nothing.
     */
    public RowView newView() {
        return new RowView(this);
    }

    /** See {@link #newView()}. */
    public static final class RowView extends GenericInternalRow {

        private static final long serialVersionUID = 1L;

        private final PaimonToSpark converter;
        private transient InternalRow row;

        private RowView(PaimonToSpark converter) {
            super(new Object[converter.accessors.length]);
            this.converter = converter;
        }

        /** Points this view at {@code paimonRow}; returns this view. */
        public RowView of(InternalRow paimonRow) {
            this.row = paimonRow;
            return this;
        }

        @Override
        public Object genericGet(int ordinal) {
            return row.isNullAt(ordinal) ? null : converter.accessors[ordinal].get(row, ordinal);
        }

        @Override
        public boolean isNullAt(int ordinal) {
            return row.isNullAt(ordinal);
        }

        @Override
        public boolean getBoolean(int ordinal) {
            return row.getBoolean(ordinal);
        }

        @Override
        public byte getByte(int ordinal) {
            return row.getByte(ordinal);
        }

        @Override
        public short getShort(int ordinal) {
            return row.getShort(ordinal);
        }

        @Override
        public int getInt(int ordinal) {
            return row.getInt(ordinal);
        }

        @Override
        public long getLong(int ordinal) {
            int precision = converter.timestampPrecision[ordinal];
            return precision < 0
                    ? row.getLong(ordinal)
                    : row.getTimestamp(ordinal, precision).toMicros();
        }

        @Override
        public float getFloat(int ordinal) {
            return row.getFloat(ordinal);
        }

        @Override
        public double getDouble(int ordinal) {
            return row.getDouble(ordinal);
        }

        @Override
        public Decimal getDecimal(int ordinal, int precision, int scale) {
            return (Decimal) genericGet(ordinal);
        }

        @Override
        public UTF8String getUTF8String(int ordinal) {
            return UTF8String.fromBytes(row.getString(ordinal).toBytes());
        }

        @Override
        public byte[] getBinary(int ordinal) {
            return row.getBinary(ordinal);
        }

        @Override
        public scala.collection.immutable.Seq<Object> toSeq(
                scala.collection.immutable.Seq<org.apache.spark.sql.types.DataType> fieldTypes) {
            return copy().toSeq(fieldTypes);
        }

        @Override
        public void setNullAt(int i) {
            throw new UnsupportedOperationException("A Paimon row view cannot be changed.");
        }

        @Override
        public void update(int i, Object value) {
            throw new UnsupportedOperationException("A Paimon row view cannot be changed.");
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
