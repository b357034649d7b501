package dev.strata.testing.maps;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One generated logical map value: NULL, or entries in their stored order. Duplicate keys are
 * allowed (a map built from raw key/value arrays can hold them); {@link #lookup} follows Spark's
 * {@code m['k']} (first matching key wins).
 */
public final class GeneratedMap {

    private final boolean isNull;
    private final List<String> keys;
    private final List<Object> values;

    private GeneratedMap(boolean isNull, List<String> keys, List<Object> values) {
        this.isNull = isNull;
        this.keys = Collections.unmodifiableList(keys);
        this.values = Collections.unmodifiableList(values);
    }

    public static GeneratedMap nullMap() {
        return new GeneratedMap(true, List.of(), List.of());
    }

    public static GeneratedMap of(List<String> keys, List<Object> values) {
        if (keys.size() != values.size()) {
            throw new IllegalArgumentException("keys and values differ in length");
        }
        return new GeneratedMap(false, new ArrayList<>(keys), new ArrayList<>(values));
    }

    public boolean isNull() {
        return isNull;
    }

    public int size() {
        return keys.size();
    }

    public List<String> keys() {
        return keys;
    }

    /** Values in entry order; elements may be null. */
    public List<Object> values() {
        return values;
    }

    /**
     * Spark's {@code m[key]}: the value of the first entry with that key, or null (absent, null
     * value or null map).
     */
    public Object lookup(String key) {
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i).equals(key)) {
                return values.get(i);
            }
        }
        return null;
    }

    public boolean containsKey(String key) {
        return !isNull && keys.contains(key);
    }

    public boolean hasDuplicateKeys() {
        return keys.stream().distinct().count() != keys.size();
    }

    /**
     * Distinct keys with the value of their LAST occurrence (what a writer that dedups by last
     * value keeps).
     */
    public Map<String, Object> lastValueByKey() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            m.put(keys.get(i), values.get(i));
        }
        return m;
    }

    @Override
    public String toString() {
        if (isNull) {
            return "NULL";
        }
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(keys.get(i)).append('=').append(values.get(i));
        }
        return b.append('}').toString();
    }
}
