package dev.strata.spark.read;

import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.MapType;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/** Writes Paimon values of the types {@link ColumnarReads} accepts into Spark column vectors. */
final class ColumnWriter {

    private ColumnWriter() {}

    /** Writes field {@code pos} of a Paimon row into {@code rowId} of the vector. */
    static void write(InternalRow row, int pos, DataType type, WritableColumnVector v, int rowId) {
        if (row.isNullAt(pos)) {
            v.putNull(rowId);
            return;
        }
        switch (type.getTypeRoot()) {
            case BIGINT:
                v.putLong(rowId, row.getLong(pos));
                return;
            case INTEGER:
                v.putInt(rowId, row.getInt(pos));
                return;
            case DOUBLE:
                v.putDouble(rowId, row.getDouble(pos));
                return;
            case VARCHAR:
                v.putByteArray(rowId, row.getString(pos).toBytes());
                return;
            case MAP:
                {
                    InternalMap map = row.getMap(pos);
                    DataType valueType = ((MapType) type).getValueType();
                    InternalArray keys = map.keyArray();
                    InternalArray values = map.valueArray();
                    WritableColumnVector kv = v.getChild(0);
                    WritableColumnVector vv = v.getChild(1);
                    int offset = kv.getElementsAppended();
                    for (int i = 0; i < map.size(); i++) {
                        byte[] key = keys.getString(i).toBytes();
                        kv.appendByteArray(key, 0, key.length);
                        appendValue(values, i, valueType, vv);
                    }
                    v.putArray(rowId, offset, map.size());
                    return;
                }
            default:
                throw new IllegalStateException(
                        "Cannot write a value of type "
                                + type
                                + " into a column batch: the"
                                + " columnar path accepts BIGINT, INT, DOUBLE, STRING and maps of them. This is a bug in the Strata scan.");
        }
    }

    private static void appendValue(
            InternalArray values, int i, DataType type, WritableColumnVector vv) {
        if (values.isNullAt(i)) {
            vv.appendNull();
            return;
        }
        switch (type.getTypeRoot()) {
            case BIGINT:
                vv.appendLong(values.getLong(i));
                return;
            case INTEGER:
                vv.appendInt(values.getInt(i));
                return;
            case DOUBLE:
                vv.appendDouble(values.getDouble(i));
                return;
            default:
                byte[] b = values.getString(i).toBytes();
                vv.appendByteArray(b, 0, b.length);
        }
    }
}
