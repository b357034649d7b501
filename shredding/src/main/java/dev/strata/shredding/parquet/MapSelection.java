package dev.strata.shredding.parquet;

import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.InternalArray;

/**
 * Restricts a plain (default-layout) map to requested keys: first occurrence wins, request order.
 */
final class MapSelection {

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
            for (int i = 0; i < keys.size(); i++) {
                if (!keys.isNullAt(i) && keys.getString(i).equals(w)) {
                    outKeys.add(w);
                    outValues.add(
                            ((org.apache.paimon.data.GenericArray) values).toObjectArray()[i]);
                    break;
                }
            }
        }
        return new ArrayBackedMap(outKeys.toArray(), outValues.toArray());
    }
}
