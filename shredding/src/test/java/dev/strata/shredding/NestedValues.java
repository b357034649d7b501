package dev.strata.shredding;

import dev.strata.shredding.parquet.ArrayBackedMap;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;

/**
 * Random values of nested Paimon types (NULL at every level, empty arrays and maps) and a canonical
 * text of them, for tests comparing what a reader returns with what was written or with another
 * reader.
 */
public final class NestedValues {

    /**
     * The nested shapes the tests read: ARRAY and ROW of primitives, and their combinations with
     * maps.
     */
    public static final DataType[] SHAPES = {
        DataTypes.ARRAY(DataTypes.INT()),
        DataTypes.ARRAY(DataTypes.STRING()),
        DataTypes.ROW(
                DataTypes.FIELD(10, "x", DataTypes.INT()),
                DataTypes.FIELD(11, "y", DataTypes.STRING()),
                DataTypes.FIELD(12, "z", DataTypes.DOUBLE())),
        DataTypes.ARRAY(
                DataTypes.ROW(
                        DataTypes.FIELD(13, "x", DataTypes.BIGINT()),
                        DataTypes.FIELD(14, "y", DataTypes.STRING()))),
        DataTypes.ROW(
                DataTypes.FIELD(15, "n", DataTypes.INT()),
                DataTypes.FIELD(16, "l", DataTypes.ARRAY(DataTypes.STRING())),
                DataTypes.FIELD(
                        17, "mm", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.INT()))),
        DataTypes.MAP(
                DataTypes.STRING().notNull(),
                DataTypes.ROW(
                        DataTypes.FIELD(18, "p", DataTypes.INT()),
                        DataTypes.FIELD(19, "q", DataTypes.ARRAY(DataTypes.DOUBLE())))),
        DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.ARRAY(DataTypes.BIGINT())),
        DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT())),
        DataTypes.ARRAY(DataTypes.DECIMAL(20, 3)),
        DataTypes.ROW(
                DataTypes.FIELD(20, "t", DataTypes.TIMESTAMP(6)),
                DataTypes.FIELD(21, "b", DataTypes.BOOLEAN()),
                DataTypes.FIELD(22, "d", DataTypes.DATE()),
                DataTypes.FIELD(23, "bin", DataTypes.BYTES()))
    };

    private NestedValues() {}

    /**
     * A random value of {@code type}: NULL (when nullable) and empty collections about one time in
     * six each.
     */
    public static Object random(DataType type, Random random) {
        if (type.isNullable() && random.nextInt(6) == 0) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case ARRAY:
                {
                    DataType e = ((ArrayType) type).getElementType();
                    Object[] items = new Object[size(random)];
                    for (int i = 0; i < items.length; i++) {
                        items[i] = random(e, random);
                    }
                    return new GenericArray(items);
                }
            case MAP:
                {
                    MapType m = (MapType) type;
                    int n = size(random);
                    Set<Object> keys = new LinkedHashSet<>();
                    while (keys.size() < n) {
                        keys.add(random(m.getKeyType(), random));
                    }
                    Object[] values = new Object[n];
                    for (int i = 0; i < n; i++) {
                        values[i] = random(m.getValueType(), random);
                    }
                    return new ArrayBackedMap(keys.toArray(), values);
                }
            case MULTISET:
                {
                    DataType e = ((org.apache.paimon.types.MultisetType) type).getElementType();
                    int n = size(random);
                    Set<Object> elements = new LinkedHashSet<>();
                    while (elements.size() < n) {
                        elements.add(random(e.notNull(), random));
                    }
                    Object[] counts = new Object[n];
                    for (int i = 0; i < n; i++) {
                        counts[i] = 1 + random.nextInt(3);
                    }
                    return new ArrayBackedMap(elements.toArray(), counts);
                }
            case ROW:
                {
                    List<DataField> fields = ((RowType) type).getFields();
                    Object[] values = new Object[fields.size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = random(fields.get(i).type(), random);
                    }
                    return GenericRow.of(values);
                }
            case BOOLEAN:
                return random.nextBoolean();
            case INTEGER:
                return random.nextInt(1000) - 500;
            case BIGINT:
                return random.nextLong();
            case DOUBLE:
                return random.nextInt(10_000) / 8.0;
            case VARCHAR:
                return BinaryString.fromString(
                        "s" + random.nextInt(60) + (random.nextInt(9) == 0 ? "ü" : ""));
            case VARBINARY:
                return new byte[] {(byte) random.nextInt(), (byte) random.nextInt()};
            case DATE:
                return 19_000 + random.nextInt(1000);
            case DECIMAL:
                {
                    DecimalType d = (DecimalType) type;
                    return Decimal.fromBigDecimal(
                            BigDecimal.valueOf(
                                    random.nextLong() % 1_000_000_000_000L, d.getScale()),
                            d.getPrecision(),
                            d.getScale());
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return Timestamp.fromMicros(1_700_000_000_000_000L + random.nextInt(1_000_000_000));
            default:
                throw new IllegalArgumentException(type.toString());
        }
    }

    /** 0 about one time in six, else 1 to 4. */
    private static int size(Random random) {
        return random.nextInt(6) == 0 ? 0 : 1 + random.nextInt(4);
    }

    /** The canonical text of a row of {@code type} (maps in entry order). */
    public static String render(InternalRow row, RowType type) {
        return render(row, type, false);
    }

    /**
     * As above; with {@code sortMaps} the entries of every map sorted (a whole shredded map lists
     * them in column order).
     */
    public static String render(InternalRow row, RowType type, boolean sortMaps) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < type.getFieldCount(); i++) {
            Object v = InternalRow.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row);
            s.append(text(type.getTypeAt(i), v, sortMaps)).append(';');
        }
        return s.toString();
    }

    public static String text(DataType t, Object v) {
        return text(t, v, false);
    }

    private static String text(DataType t, Object v, boolean sortMaps) {
        if (v == null) {
            return "null";
        }
        switch (t.getTypeRoot()) {
            case MAP:
            case MULTISET:
                {
                    InternalMap m = (InternalMap) v;
                    DataType kt =
                            t instanceof MapType
                                    ? ((MapType) t).getKeyType()
                                    : ((org.apache.paimon.types.MultisetType) t).getElementType();
                    DataType vt =
                            t instanceof MapType ? ((MapType) t).getValueType() : DataTypes.INT();
                    List<String> entries = new ArrayList<>();
                    for (int i = 0; i < m.size(); i++) {
                        Object k =
                                InternalArray.createElementGetter(kt)
                                        .getElementOrNull(m.keyArray(), i);
                        Object x =
                                InternalArray.createElementGetter(vt)
                                        .getElementOrNull(m.valueArray(), i);
                        entries.add(text(kt, k, sortMaps) + "=" + text(vt, x, sortMaps));
                    }
                    if (sortMaps) {
                        java.util.Collections.sort(entries);
                    }
                    return "{" + String.join(", ", entries) + "}";
                }
            case ARRAY:
                {
                    InternalArray a = (InternalArray) v;
                    DataType et = ((ArrayType) t).getElementType();
                    List<String> items = new ArrayList<>();
                    for (int i = 0; i < a.size(); i++) {
                        items.add(
                                text(
                                        et,
                                        InternalArray.createElementGetter(et)
                                                .getElementOrNull(a, i),
                                        sortMaps));
                    }
                    return items.toString();
                }
            case ROW:
                {
                    InternalRow r = (InternalRow) v;
                    RowType rt = (RowType) t;
                    StringBuilder s = new StringBuilder("(");
                    for (int i = 0; i < rt.getFieldCount(); i++) {
                        s.append(
                                        text(
                                                rt.getTypeAt(i),
                                                InternalRow.createFieldGetter(rt.getTypeAt(i), i)
                                                        .getFieldOrNull(r),
                                                sortMaps))
                                .append(',');
                    }
                    return s.append(')').toString();
                }
            case VARBINARY:
            case BINARY:
                return java.util.Arrays.toString((byte[]) v);
            default:
                return String.valueOf(v);
        }
    }
}
