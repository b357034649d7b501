package dev.strata.shredding.parquet;

import java.math.BigDecimal;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/** Writers of one non-null Paimon value (as returned by Paimon's field/element getters) to a {@link RecordConsumer}. */
final class ValueWriters {

    private ValueWriters() {}

    interface ValueWriter {
        void write(RecordConsumer rc, Object value);
    }

    static ValueWriter of(DataType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return (rc, v) -> rc.addBoolean((Boolean) v);
            case TINYINT:
                return (rc, v) -> rc.addInteger((Byte) v);
            case SMALLINT:
                return (rc, v) -> rc.addInteger((Short) v);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return (rc, v) -> rc.addInteger((Integer) v);
            case BIGINT:
                return (rc, v) -> rc.addLong((Long) v);
            case FLOAT:
                return (rc, v) -> rc.addFloat((Float) v);
            case DOUBLE:
                return (rc, v) -> rc.addDouble((Double) v);
            case CHAR:
            case VARCHAR:
                return (rc, v) -> rc.addBinary(Binary.fromConstantByteArray(((BinaryString) v).toBytes()));
            case BINARY:
            case VARBINARY:
                return (rc, v) -> rc.addBinary(Binary.fromConstantByteArray((byte[]) v));
            case DECIMAL: {
                int p = ((DecimalType) type).getPrecision();
                if (p <= 9) {
                    return (rc, v) -> rc.addInteger((int) ((Decimal) v).toUnscaledLong());
                } else if (p <= 18) {
                    return (rc, v) -> rc.addLong(((Decimal) v).toUnscaledLong());
                }
                return (rc, v) -> rc.addBinary(Binary.fromConstantByteArray(((Decimal) v).toUnscaledBytes()));
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestamp(((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(((LocalZonedTimestampType) type).getPrecision());
            case ARRAY:
                return arrayWriter(((ArrayType) type).getElementType());
            case MAP:
                return mapWriter((MapType) type);
            case ROW:
                return rowWriter((RowType) type);
            default:
                throw new UnsupportedOperationException("Cannot write type " + type + " to Parquet.");
        }
    }

    private static ValueWriter timestamp(int precision) {
        if (precision <= 3) {
            return (rc, v) -> rc.addLong(((Timestamp) v).getMillisecond());
        } else if (precision <= 6) {
            return (rc, v) -> rc.addLong(((Timestamp) v).toMicros());
        }
        return (rc, v) -> {
            Timestamp t = (Timestamp) v;
            rc.addLong(Math.addExact(Math.multiplyExact(t.getMillisecond(), 1_000_000L), t.getNanoOfMillisecond()));
        };
    }

    private static ValueWriter arrayWriter(DataType elementType) {
        InternalArray.ElementGetter getter = InternalArray.createElementGetter(elementType);
        ValueWriter element = of(elementType);
        return (rc, v) -> {
            InternalArray a = (InternalArray) v;
            rc.startGroup();
            int n = a.size();
            if (n > 0) {
                rc.startField("list", 0);
                for (int i = 0; i < n; i++) {
                    rc.startGroup();
                    Object e = getter.getElementOrNull(a, i);
                    if (e != null) {
                        rc.startField("element", 0);
                        element.write(rc, e);
                        rc.endField("element", 0);
                    }
                    rc.endGroup();
                }
                rc.endField("list", 0);
            }
            rc.endGroup();
        };
    }

    private static ValueWriter mapWriter(MapType type) {
        InternalArray.ElementGetter keyGetter = InternalArray.createElementGetter(type.getKeyType());
        InternalArray.ElementGetter valueGetter = InternalArray.createElementGetter(type.getValueType());
        ValueWriter key = of(type.getKeyType());
        ValueWriter value = of(type.getValueType());
        return (rc, v) -> {
            InternalMap m = (InternalMap) v;
            InternalArray keys = m.keyArray();
            InternalArray values = m.valueArray();
            rc.startGroup();
            int n = m.size();
            if (n > 0) {
                rc.startField("key_value", 0);
                for (int i = 0; i < n; i++) {
                    Object k = keyGetter.getElementOrNull(keys, i);
                    if (k == null) {
                        throw new IllegalArgumentException("Cannot write a MAP with a NULL key to Parquet.");
                    }
                    rc.startGroup();
                    rc.startField("key", 0);
                    key.write(rc, k);
                    rc.endField("key", 0);
                    Object val = valueGetter.getElementOrNull(values, i);
                    if (val != null) {
                        rc.startField("value", 1);
                        value.write(rc, val);
                        rc.endField("value", 1);
                    }
                    rc.endGroup();
                }
                rc.endField("key_value", 0);
            }
            rc.endGroup();
        };
    }

    private static ValueWriter rowWriter(RowType type) {
        int n = type.getFieldCount();
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[n];
        ValueWriter[] writers = new ValueWriter[n];
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            DataField f = type.getFields().get(i);
            getters[i] = InternalRow.createFieldGetter(f.type(), i);
            writers[i] = of(f.type());
            names[i] = f.name();
        }
        return (rc, v) -> {
            InternalRow r = (InternalRow) v;
            rc.startGroup();
            for (int i = 0; i < n; i++) {
                Object x = getters[i].getFieldOrNull(r);
                if (x != null) {
                    rc.startField(names[i], i);
                    writers[i].write(rc, x);
                    rc.endField(names[i], i);
                }
            }
            rc.endGroup();
        };
    }

    /** The {@link dev.strata.shredding.layout.ValueKind} domain value of a Paimon value, for zone statistics. */
    static Object toDomain(DataType type, Object v) {
        if (v == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return ((Boolean) v) ? 1L : 0L;
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return ((Number) v).longValue();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((Timestamp) v).toMicros();
            case FLOAT:
            case DOUBLE:
                return ((Number) v).doubleValue();
            case CHAR:
            case VARCHAR:
                return ((BinaryString) v).toBytes();
            case BINARY:
            case VARBINARY:
                return v;
            case DECIMAL: {
                BigDecimal d = ((Decimal) v).toBigDecimal();
                return d;
            }
            default:
                return null;
        }
    }
}
