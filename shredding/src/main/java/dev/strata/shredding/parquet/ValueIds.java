package dev.strata.shredding.parquet;

import java.util.Arrays;

/**
 * Dense indexes of distinct 64-bit keys (a DOUBLE's raw bits, an INT's value) in order of first
 * appearance, for the dictionary writers: an open-addressing table whose slot holds a key and its
 * index + 1 side by side, so a lookup costs one cache miss at most and boxes nothing. Keys are the
 * same entry when their bits are: DOUBLE 0.0 and -0.0 differ, and so do NaNs of different bit
 * patterns (parquet-mr's dictionaries hash the raw bits too).
 */
final class ValueIds {
    private long[] slots = new long[2 * 1024];
    private int shift = 64 - 10;
    private long[] keys = new long[1024];
    private int size;
    private int[] scratch = new int[0];

    /** The dictionary writers that take their ids here. */
    private int users;

    /** The index of {@code key}, adding it (as index {@link #size()}) when new. */
    int indexOf(long key) {
        long[] s = slots;
        int mask = s.length - 2;
        int at = slot(key);
        while (true) {
            long indexPlusOne = s[at + 1];
            if (indexPlusOne == 0) {
                break;
            }
            if (s[at] == key) {
                return (int) indexPlusOne - 1;
            }
            at = (at + 2) & mask;
        }
        int index = size++;
        s[at] = key;
        s[at + 1] = index + 1L;
        if (index == keys.length) {
            keys = Arrays.copyOf(keys, index * 2);
        }
        keys[index] = key;
        if (size * 4L > (s.length / 2) * 3L) {
            grow();
        }
        return index;
    }

    /** The index of a key already added. */
    int find(long key) {
        long[] s = slots;
        int mask = s.length - 2;
        int at = slot(key);
        while (s[at] != key || s[at + 1] == 0) {
            at = (at + 2) & mask;
        }
        return (int) s[at + 1] - 1;
    }

    long bits(int index) {
        return keys[index];
    }

    void addUser() {
        users++;
    }

    int users() {
        return users;
    }

    int size() {
        return size;
    }

    /** An array of at least one int per index, for a column to renumber a page with. */
    int[] scratch() {
        if (scratch.length < size) {
            scratch = new int[Math.max(size, scratch.length * 2)];
        }
        return scratch;
    }

    private int slot(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift) << 1;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        shift--;
        int mask = slots.length - 2;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i + 1] != 0) {
                int at = slot(old[i]);
                while (slots[at + 1] != 0) {
                    at = (at + 2) & mask;
                }
                slots[at] = old[i];
                slots[at + 1] = old[i + 1];
            }
        }
    }
}
