package dev.strata.shredding.parquet;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.DataGetters;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Writers of Paimon values straight into parquet-column's {@link ColumnWriter}s, one per leaf
 * column, with the levels of the field's Parquet type ({@link ParquetSchemas}): the (value, r, d)
 * triples parquet-mr's record consumer would produce, without its per-field bookkeeping.
 */
final class ValueWriters {

    private ValueWriters() {}

    /** Writes the values of one Parquet field (and everything under it). */
    abstract static class Node {
        /** Definition level of this field when its value is present. */
        final int def;

        /** Repetition level of the innermost repeated field holding this one (0 at the top). */
        final int rep;

        Node(int def, int rep) {
            this.def = def;
            this.rep = rep;
        }

        /** Writes the non-null value at {@code pos}; {@code r}: its first leaf's repetition. */
        abstract void write(DataGetters src, int pos, int r);

        /** Writes an absent value: (NULL, r, d) to every leaf column under this field. */
        abstract void writeNull(int r, int d);

        /** Takes the column writers of the row group's store ({@code schema}: the file's). */
        abstract void bind(ColumnWriteStore store, MessageType schema);
    }

    /**
     * The writer of field {@code type} (Paimon) stored as {@code parquet} at {@code path} (its full
     * column path), whose parent group is present at definition level {@code parentDef} and
     * repeated at level {@code parentRep}.
     */
    static Node of(DataType type, Type parquet, List<String> path, int parentDef, int parentRep) {
        int def = parquet.isRepetition(Type.Repetition.REQUIRED) ? parentDef : parentDef + 1;
        List<String> here = new ArrayList<>(path);
        here.add(parquet.getName());
        switch (type.getTypeRoot()) {
            case ARRAY:
                {
                    GroupType repeated = parquet.asGroupType().getType(0).asGroupType();
                    List<String> inner = new ArrayList<>(here);
                    inner.add(repeated.getName());
                    Node element =
                            of(
                                    ((ArrayType) type).getElementType(),
                                    repeated.getType(0),
                                    inner,
                                    def + 1,
                                    parentRep + 1);
                    return new ListNode(def, parentRep, element);
                }
            case MAP:
                {
                    GroupType repeated = parquet.asGroupType().getType(0).asGroupType();
                    List<String> inner = new ArrayList<>(here);
                    inner.add(repeated.getName());
                    MapType m = (MapType) type;
                    Node key =
                            of(m.getKeyType(), repeated.getType(0), inner, def + 1, parentRep + 1);
                    Node value =
                            of(
                                    m.getValueType(),
                                    repeated.getType(1),
                                    inner,
                                    def + 1,
                                    parentRep + 1);
                    return new MapNode(def, parentRep, key, value, String.join(".", here));
                }
            case ROW:
                {
                    RowType row = (RowType) type;
                    Node[] children = new Node[row.getFieldCount()];
                    for (int i = 0; i < children.length; i++) {
                        children[i] =
                                of(
                                        row.getTypeAt(i),
                                        parquet.asGroupType().getType(i),
                                        here,
                                        def,
                                        parentRep);
                    }
                    return new RowNode(def, parentRep, children);
                }
            default:
                return new Leaf(def, parentRep, type, here.toArray(new String[0]));
        }
    }

    private static final int BOOLEAN = 0;
    private static final int BYTE = 1;
    private static final int SHORT = 2;
    private static final int INT = 3;
    private static final int LONG = 4;
    private static final int FLOAT = 5;
    private static final int DOUBLE = 6;
    private static final int STRING = 7;
    private static final int BYTES = 8;
    private static final int DECIMAL_INT = 9;
    private static final int DECIMAL_LONG = 10;
    private static final int DECIMAL_BYTES = 11;
    private static final int TIMESTAMP_MILLIS = 12;
    private static final int TIMESTAMP_MICROS = 13;
    private static final int TIMESTAMP_NANOS = 14;

    static final class Leaf extends Node {
        private final String[] path;
        private final int kind;
        private final int precision;
        private final int scale;
        private ColumnWriter w;

        Leaf(int def, int rep, DataType type, String[] path) {
            super(def, rep);
            this.path = path;
            int p = 0;
            int s = 0;
            switch (type.getTypeRoot()) {
                case BOOLEAN:
                    kind = BOOLEAN;
                    break;
                case TINYINT:
                    kind = BYTE;
                    break;
                case SMALLINT:
                    kind = SHORT;
                    break;
                case INTEGER:
                case DATE:
                case TIME_WITHOUT_TIME_ZONE:
                    kind = INT;
                    break;
                case BIGINT:
                    kind = LONG;
                    break;
                case FLOAT:
                    kind = FLOAT;
                    break;
                case DOUBLE:
                    kind = DOUBLE;
                    break;
                case CHAR:
                case VARCHAR:
                    kind = STRING;
                    break;
                case BINARY:
                case VARBINARY:
                    kind = BYTES;
                    break;
                case DECIMAL:
                    {
                        DecimalType d = (DecimalType) type;
                        p = d.getPrecision();
                        s = d.getScale();
                        kind = p <= 9 ? DECIMAL_INT : p <= 18 ? DECIMAL_LONG : DECIMAL_BYTES;
                        break;
                    }
                case TIMESTAMP_WITHOUT_TIME_ZONE:
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                    p =
                            type.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                                    ? ((TimestampType) type).getPrecision()
                                    : ((LocalZonedTimestampType) type).getPrecision();
                    kind = p <= 3 ? TIMESTAMP_MILLIS : p <= 6 ? TIMESTAMP_MICROS : TIMESTAMP_NANOS;
                    break;
                default:
                    throw new UnsupportedOperationException(
                            "Cannot write column '"
                                    + String.join(".", path)
                                    + "' to Parquet: type "
                                    + type
                                    + " is not supported.");
            }
            this.precision = p;
            this.scale = s;
        }

        @Override
        void bind(ColumnWriteStore store, MessageType schema) {
            w = store.getColumnWriter(schema.getColumnDescription(path));
        }

        @Override
        void write(DataGetters src, int pos, int r) {
            ColumnWriter w = this.w;
            int d = def;
            switch (kind) {
                case BOOLEAN:
                    w.write(src.getBoolean(pos), r, d);
                    break;
                case BYTE:
                    w.write((int) src.getByte(pos), r, d);
                    break;
                case SHORT:
                    w.write((int) src.getShort(pos), r, d);
                    break;
                case INT:
                    w.write(src.getInt(pos), r, d);
                    break;
                case LONG:
                    w.write(src.getLong(pos), r, d);
                    break;
                case FLOAT:
                    w.write(src.getFloat(pos), r, d);
                    break;
                case DOUBLE:
                    w.write(src.getDouble(pos), r, d);
                    break;
                case STRING:
                    w.write(Binary.fromConstantByteArray(src.getString(pos).toBytes()), r, d);
                    break;
                case BYTES:
                    w.write(Binary.fromConstantByteArray(src.getBinary(pos)), r, d);
                    break;
                case DECIMAL_INT:
                    w.write((int) src.getDecimal(pos, precision, scale).toUnscaledLong(), r, d);
                    break;
                case DECIMAL_LONG:
                    w.write(src.getDecimal(pos, precision, scale).toUnscaledLong(), r, d);
                    break;
                case DECIMAL_BYTES:
                    w.write(
                            Binary.fromConstantByteArray(
                                    src.getDecimal(pos, precision, scale).toUnscaledBytes()),
                            r,
                            d);
                    break;
                case TIMESTAMP_MILLIS:
                    w.write(src.getTimestamp(pos, precision).getMillisecond(), r, d);
                    break;
                case TIMESTAMP_MICROS:
                    w.write(src.getTimestamp(pos, precision).toMicros(), r, d);
                    break;
                default:
                    {
                        Timestamp t = src.getTimestamp(pos, precision);
                        w.write(
                                Math.addExact(
                                        Math.multiplyExact(t.getMillisecond(), 1_000_000L),
                                        t.getNanoOfMillisecond()),
                                r,
                                d);
                    }
            }
        }

        @Override
        void writeNull(int r, int d) {
            w.writeNull(r, d);
        }
    }

    /** {@code optional group (LIST) { repeated group list { optional element } }}. */
    static final class ListNode extends Node {
        private final Node element;

        ListNode(int def, int rep, Node element) {
            super(def, rep);
            this.element = element;
        }

        @Override
        void write(DataGetters src, int pos, int r) {
            InternalArray a = src.getArray(pos);
            int n = a.size();
            if (n == 0) {
                element.writeNull(r, def);
                return;
            }
            int inner = rep + 1;
            for (int i = 0; i < n; i++) {
                int ri = i == 0 ? r : inner;
                if (a.isNullAt(i)) {
                    element.writeNull(ri, def + 1);
                } else {
                    element.write(a, i, ri);
                }
            }
        }

        @Override
        void writeNull(int r, int d) {
            element.writeNull(r, d);
        }

        @Override
        void bind(ColumnWriteStore store, MessageType schema) {
            element.bind(store, schema);
        }
    }

    /** {@code optional group (MAP) { repeated group key_value { required key; optional value }}} */
    static final class MapNode extends Node {
        private final Node key;
        private final Node value;
        private final String column;

        MapNode(int def, int rep, Node key, Node value, String column) {
            super(def, rep);
            this.key = key;
            this.value = value;
            this.column = column;
        }

        @Override
        void write(DataGetters src, int pos, int r) {
            InternalMap m = src.getMap(pos);
            int n = m.size();
            if (n == 0) {
                key.writeNull(r, def);
                value.writeNull(r, def);
                return;
            }
            InternalArray keys = m.keyArray();
            InternalArray values = m.valueArray();
            int inner = rep + 1;
            for (int i = 0; i < n; i++) {
                int ri = i == 0 ? r : inner;
                if (keys.isNullAt(i)) {
                    throw new IllegalArgumentException(
                            "Cannot write MAP column '"
                                    + column
                                    + "' to Parquet: entry "
                                    + i
                                    + " has a NULL key. Map keys must not be NULL.");
                }
                key.write(keys, i, ri);
                if (values.isNullAt(i)) {
                    value.writeNull(ri, def + 1);
                } else {
                    value.write(values, i, ri);
                }
            }
        }

        @Override
        void writeNull(int r, int d) {
            key.writeNull(r, d);
            value.writeNull(r, d);
        }

        @Override
        void bind(ColumnWriteStore store, MessageType schema) {
            key.bind(store, schema);
            value.bind(store, schema);
        }
    }

    /** {@code optional group { optional field... }}. */
    static final class RowNode extends Node {
        private final Node[] children;

        RowNode(int def, int rep, Node[] children) {
            super(def, rep);
            this.children = children;
        }

        @Override
        void write(DataGetters src, int pos, int r) {
            InternalRow row = src.getRow(pos, children.length);
            for (int i = 0; i < children.length; i++) {
                if (row.isNullAt(i)) {
                    children[i].writeNull(r, def);
                } else {
                    children[i].write(row, i, r);
                }
            }
        }

        @Override
        void writeNull(int r, int d) {
            for (Node c : children) {
                c.writeNull(r, d);
            }
        }

        @Override
        void bind(ColumnWriteStore store, MessageType schema) {
            for (Node c : children) {
                c.bind(store, schema);
            }
        }
    }

    /** The {@link dev.strata.shredding.layout.ValueKind} domain value of a Paimon value. */
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
            case DECIMAL:
                {
                    BigDecimal d = ((Decimal) v).toBigDecimal();
                    return d;
                }
            default:
                return null;
        }
    }
}
