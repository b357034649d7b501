package dev.strata.shredding.parquet;

import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.InternalArray;

/**
 * Keys of decoded maps: the first entry naming a key is the key's entry (as Spark's {@code m['k']}
 * takes it), for a plain (default-layout) map restricted to requested keys and for a key looked up
 * in a map read by Paimon's reader.
 */
public final class MapSelection {

    private MapSelection() {}

    static ArrayBackedMap select(ArrayBackedMap map, List<String> requested) {
        if (map == null) {
            return null;
        }
        InternalArray keys = map.keyArray();
        InternalArray values = map.valueArray();
        List<Object> outKeys = new ArrayList<>();
        List<Object> outValues = new ArrayList<>();
        for (String want : requested) {
            BinaryString w = BinaryString.fromString(want);
            int i = indexOf(keys, w);
            if (i >= 0) {
                outKeys.add(w);
                outValues.add(((org.apache.paimon.data.GenericArray) values).toObjectArray()[i]);
            }
        }
        return new ArrayBackedMap(outKeys.toArray(), outValues.toArray());
    }

    /** The index of the first entry of {@code keys} equal to {@code key}, or -1. */
    public static int indexOf(InternalArray keys, BinaryString key) {
        for (int i = 0; i < keys.size(); i++) {
            if (!keys.isNullAt(i) && keys.getString(i).equals(key)) {
                return i;
            }
        }
        return -1;
    }
}
