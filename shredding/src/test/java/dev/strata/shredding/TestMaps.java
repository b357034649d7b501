package dev.strata.shredding;

import dev.strata.testing.maps.GeneratedMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;

/** Conversions between generated maps and Paimon values, and the comparisons tests need. */
public final class TestMaps {

    private TestMaps() {}

    public static final MapType MAP_STRING_DOUBLE =
            DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.DOUBLE());

    public static RowType idAndMap() {
        return RowType.of(
                new org.apache.paimon.types.DataType[] {DataTypes.BIGINT(), MAP_STRING_DOUBLE},
                new String[] {"id", "m"});
    }

    /** A Paimon map holding exactly the generated entries (duplicates kept), or null. */
    public static InternalMap toPaimon(GeneratedMap g) {
        return toPaimon(g, v -> v);
    }

    /**
     * As {@link #toPaimon(GeneratedMap)}, with each non-null value converted (e.g. to another value
     * type).
     */
    public static InternalMap toPaimon(
            GeneratedMap g, java.util.function.Function<Object, Object> value) {
        if (g.isNull()) {
            return null;
        }
        Object[] keys = new Object[g.size()];
        Object[] values = new Object[g.size()];
        for (int i = 0; i < g.size(); i++) {
            keys[i] = BinaryString.fromString(g.keys().get(i));
            Object v = g.values().get(i);
            values[i] = v == null ? null : value.apply(v);
        }
        return new dev.strata.shredding.parquet.ArrayBackedMap(keys, values);
    }

    /** Entries of a Paimon map as "key=value" strings (order kept), or null. */
    public static List<String> entries(InternalMap m) {
        if (m == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        InternalArray k = m.keyArray();
        InternalArray v = m.valueArray();
        for (int i = 0; i < m.size(); i++) {
            out.add(
                    k.getString(i).toString()
                            + "="
                            + (v.isNullAt(i) ? "null" : String.valueOf(valueOf(v, i))));
        }
        return out;
    }

    private static Object valueOf(InternalArray a, int i) {
        if (a instanceof GenericArray) {
            return ((GenericArray) a).toObjectArray()[i];
        }
        return a.getDouble(i);
    }

    /**
     * What a shredded read must return for a generated map, as "key=value" strings: every entry,
     * where a duplicated key carries the value of its last occurrence, order-insensitive.
     */
    public static List<String> expectedEntries(GeneratedMap g) {
        if (g.isNull()) {
            return null;
        }
        Map<String, Object> last = g.lastValueByKey();
        List<String> out = new ArrayList<>();
        for (String k : g.keys()) {
            Object v = last.get(k);
            out.add(k + "=" + (v == null ? "null" : String.valueOf(v)));
        }
        return out;
    }
}
