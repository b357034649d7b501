package dev.strata.shredding.layout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryString;

/**
 * The field dictionary D of one shredded column in one file: key string → file-local id, ids assigned
 * densely from 0 in first-appearance order (spec §1). Ids are not stable across files.
 */
public final class FieldDictionary {

    private final Map<BinaryString, Integer> ids = new HashMap<>();
    private final List<String> keys = new ArrayList<>();

    /** The id of {@code key}, assigning the next id when the key is new. */
    public int idOf(BinaryString key) {
        Integer id = ids.get(key);
        if (id != null) {
            return id;
        }
        int next = keys.size();
        ids.put(key.copy(), next);
        keys.add(key.toString());
        return next;
    }

    public int size() {
        return keys.size();
    }

    /** Keys by id. */
    public List<String> keys() {
        return keys;
    }
}
