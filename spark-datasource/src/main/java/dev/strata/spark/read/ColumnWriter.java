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
        if (!(type instanceof MapType)) {
            ColumnarType.accepted(type).put(v, rowId, row, pos);
            return;
        }
        InternalMap map = row.getMap(pos);
        ColumnarType valueType = ColumnarType.accepted(((MapType) type).getValueType());
        InternalArray keys = map.keyArray();
        InternalArray values = map.valueArray();
        WritableColumnVector kv = v.getChild(0);
        WritableColumnVector vv = v.getChild(1);
        int offset = kv.getElementsAppended();
        for (int i = 0; i < map.size(); i++) {
            byte[] key = keys.getString(i).toBytes();
            kv.appendByteArray(key, 0, key.length);
            if (values.isNullAt(i)) {
                vv.appendNull();
            } else {
                valueType.append(vv, values, i);
            }
        }
        v.putArray(rowId, offset, map.size());
    }
}
