package dev.strata.spark.read;

import dev.strata.shredding.read.ShreddedColumns;
import org.apache.paimon.data.DataGetters;
import org.apache.paimon.types.DataType;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * The value types the columnar scan reads, as columns and as map values, and how a value of each
 * gets into a Spark vector from each source: Paimon rows and arrays ({@link RowsToColumns}) and
 * shredded columns ({@link ShreddedFileColumns}). {@link ColumnarReads} accepts exactly these, so a
 * type is added to the columnar path here and nowhere else.
 */
enum ColumnarType {
    BIGINT {
        @Override
        void put(WritableColumnVector v, int row, DataGetters from, int pos) {
            v.putLong(row, from.getLong(pos));
        }

        @Override
        void append(WritableColumnVector v, DataGetters from, int pos) {
            v.appendLong(from.getLong(pos));
        }

        @Override
        void put(WritableColumnVector v, int row, ShreddedColumns.Primitive from, int r) {
            v.putLong(row, from.getLong(r));
        }

        @Override
        void put(WritableColumnVector v, int row, ShreddedColumns.MapKeys from, int j, int r) {
            v.putLong(row, from.getLong(j, r));
        }

        @Override
        void append(WritableColumnVector v, ShreddedColumns.MapKeys from, int j, int r) {
            v.appendLong(from.getLong(j, r));
        }
    },
    INT {
        @Override
        void put(WritableColumnVector v, int row, DataGetters from, int pos) {
            v.putInt(row, from.getInt(pos));
        }

        @Override
        void append(WritableColumnVector v, DataGetters from, int pos) {
            v.appendInt(from.getInt(pos));
        }

        @Override
        void put(WritableColumnVector v, int row, ShreddedColumns.Primitive from, int r) {
            v.putInt(row, from.getInt(r));
        }

        @Override
        void put(WritableColumnVector v, int row, ShreddedColumns.MapKeys from, int j, int r) {
            v.putInt(row, from.getInt(j, r));
        }

        @Override
        void append(WritableColumnVector v, ShreddedColumns.MapKeys from, int j, int r) {
            v.appendInt(from.getInt(j, r));
        }
    },
    DOUBLE {
        @Override
        void put(WritableColumnVector v, int row, DataGetters from, int pos) {
            v.putDouble(row, from.getDouble(pos));
        }

        @Override
        void append(WritableColumnVector v, DataGetters from, int pos) {
            v.appendDouble(from.getDouble(pos));
        }

        @Override
        void put(WritableColumnVector v, int row, ShreddedColumns.Primitive from, int r) {
            v.putDouble(row, from.getDouble(r));
        }

        @Override
        void put(WritableColumnVector v, int row, ShreddedColumns.MapKeys from, int j, int r) {
            v.putDouble(row, from.getDouble(j, r));
        }

        @Override
        void append(WritableColumnVector v, ShreddedColumns.MapKeys from, int j, int r) {
            v.appendDouble(from.getDouble(j, r));
        }
    },
    STRING {
        @Override
        void put(WritableColumnVector v, int row, DataGetters from, int pos) {
            byte[] b = from.getString(pos).toBytes();
            v.putByteArray(row, b, 0, b.length);
        }

        @Override
        void append(WritableColumnVector v, DataGetters from, int pos) {
            byte[] b = from.getString(pos).toBytes();
            v.appendByteArray(b, 0, b.length);
        }

        @Override
        void put(WritableColumnVector v, int row, ShreddedColumns.Primitive from, int r) {
            byte[] b = from.getBytes(r);
            v.putByteArray(row, b, 0, b.length);
        }

        @Override
        void put(WritableColumnVector v, int row, ShreddedColumns.MapKeys from, int j, int r) {
            byte[] b = from.getBytes(j, r);
            v.putByteArray(row, b, 0, b.length);
        }

        @Override
        void append(WritableColumnVector v, ShreddedColumns.MapKeys from, int j, int r) {
            byte[] b = from.getBytes(j, r);
            v.appendByteArray(b, 0, b.length);
        }
    };

    /**
     * The non-null value at {@code pos} of a Paimon row or array into {@code row} of the vector.
     */
    abstract void put(WritableColumnVector v, int row, DataGetters from, int pos);

    abstract void append(WritableColumnVector v, DataGetters from, int pos);

    /** The non-null value of shredded row {@code r}. */
    abstract void put(WritableColumnVector v, int row, ShreddedColumns.Primitive from, int r);

    /** The non-null value of key {@code j} in shredded row {@code r}. */
    abstract void put(WritableColumnVector v, int row, ShreddedColumns.MapKeys from, int j, int r);

    abstract void append(WritableColumnVector v, ShreddedColumns.MapKeys from, int j, int r);

    /** The entry of a Paimon type, or null when the columnar path does not read it. */
    static ColumnarType of(DataType type) {
        switch (type.getTypeRoot()) {
            case BIGINT:
                return BIGINT;
            case INTEGER:
                return INT;
            case DOUBLE:
                return DOUBLE;
            case VARCHAR:
                return STRING;
            default:
                return null;
        }
    }

    /** {@link #of} for a type {@link ColumnarReads} accepted. */
    static ColumnarType accepted(DataType type) {
        ColumnarType t = of(type);
        if (t == null) {
            throw new IllegalStateException(
                    "Cannot read a value of type "
                            + type
                            + " into a column batch: the columnar path reads "
                            + java.util.Arrays.toString(values())
                            + " and maps of them. This is a bug in the Strata scan.");
        }
        return t;
    }
}
