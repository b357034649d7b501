package dev.strata.shredding.layout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.memory.MemorySegment;

/**
 * The field dictionary D of one shredded column in one file: key string → file-local id, ids
 * assigned densely from 0 in first-appearance order. Ids are not stable across files.
 *
 * <p>Looked up once per map entry on the write path, so it is an open-addressing table over the
 * keys' UTF-8 bytes: a heap-backed {@link BinaryString} is hashed and compared in place (no
 * allocation, no boxing); other strings are copied to bytes first.
 */
public final class FieldDictionary {

    private final List<String> keys = new ArrayList<>();

    /** Key bytes by id. */
    private byte[][] keyBytes = new byte[64][];

    private int[] hashOfId = new int[64];

    /** Open-addressing slots: id + 1, 0 for empty. */
    private int[] slots = new int[128];

    private int mask = 127;

    /** The id of {@code key}, assigning the next id when the key is new. */
    public int idOf(BinaryString key) {
        MemorySegment[] segs = key.getSegments();
        byte[] arr;
        int off;
        int len = key.getSizeInBytes();
        if (segs.length == 1 && !segs[0].isOffHeap()) {
            arr = segs[0].getArray();
            off = key.getOffset();
        } else {
            arr = key.toBytes();
            off = 0;
        }
        return idOf(arr, off, len);
    }

    private int idOf(byte[] arr, int off, int len) {
        int h = hash(arr, off, len);
        int slot = h & mask;
        while (true) {
            int s = slots[slot];
            if (s == 0) {
                break;
            }
            int id = s - 1;
            if (hashOfId[id] == h) {
                byte[] k = keyBytes[id];
                if (Arrays.equals(k, 0, k.length, arr, off, off + len)) {
                    return id;
                }
            }
            slot = (slot + 1) & mask;
        }
        int next = keys.size();
        byte[] copy = Arrays.copyOfRange(arr, off, off + len);
        if (next == keyBytes.length) {
            keyBytes = Arrays.copyOf(keyBytes, next * 2);
            hashOfId = Arrays.copyOf(hashOfId, next * 2);
        }
        keyBytes[next] = copy;
        hashOfId[next] = h;
        keys.add(BinaryString.fromBytes(copy).toString());
        slots[slot] = next + 1;
        if ((next + 1) * 2 > slots.length) {
            rehash();
        }
        return next;
    }

    private void rehash() {
        int[] s = new int[slots.length * 2];
        int m = s.length - 1;
        for (int id = 0; id < keys.size(); id++) {
            int slot = hashOfId[id] & m;
            while (s[slot] != 0) {
                slot = (slot + 1) & m;
            }
            s[slot] = id + 1;
        }
        slots = s;
        mask = m;
    }

    private static int hash(byte[] a, int off, int len) {
        int h = len;
        int end = off + len;
        for (int i = off; i < end; i++) {
            h = 31 * h + a[i];
        }
        return h ^ (h >>> 16) ^ (h >>> 7);
    }

    public int size() {
        return keys.size();
    }

    /** Keys by id. */
    public List<String> keys() {
        return keys;
    }
}
