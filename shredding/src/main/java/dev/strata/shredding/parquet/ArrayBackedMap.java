package dev.strata.shredding.parquet;

import java.util.Objects;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;

/**
 * A map as parallel key and value arrays: unlike Paimon's {@code GenericMap} it keeps entry order
 * and duplicate keys exactly as a file yields them, and builds no hash map.
 */
public final class ArrayBackedMap implements InternalMap {

    private final GenericArray keys;
    private final GenericArray values;

    public ArrayBackedMap(Object[] keys, Object[] values) {
        if (keys.length != values.length) {
            throw new IllegalArgumentException(
                    "key and value arrays differ in length: "
                            + keys.length
                            + " vs "
                            + values.length);
        }
        this.keys = new GenericArray(keys);
        this.values = new GenericArray(values);
    }

    public ArrayBackedMap(GenericArray keys, GenericArray values) {
        if (keys.size() != values.size()) {
            throw new IllegalArgumentException(
                    "key and value arrays differ in length: "
                            + keys.size()
                            + " vs "
                            + values.size());
        }
        this.keys = keys;
        this.values = values;
    }

    @Override
    public int size() {
        return keys.size();
    }

    @Override
    public InternalArray keyArray() {
        return keys;
    }

    @Override
    public InternalArray valueArray() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ArrayBackedMap)) {
            return false;
        }
        ArrayBackedMap m = (ArrayBackedMap) o;
        return keys.equals(m.keys) && values.equals(m.values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(keys, values);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        Object[] k = keys.toObjectArray();
        Object[] v = values.toObjectArray();
        for (int i = 0; i < k.length; i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(k[i]).append('=').append(v[i]);
        }
        return b.append('}').toString();
    }
}
