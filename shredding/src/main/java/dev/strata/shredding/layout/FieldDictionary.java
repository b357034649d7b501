package dev.strata.shredding.layout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.paimon.data.BinaryString;

/**
 * The field dictionary D of one shredded column in one file: key string → file-local id, dense from
 * 0 in first-appearance order; not stable across files. Looked up per map entry when writing, so an
 * open-addressing table over the keys' UTF-8 bytes (a heap {@link BinaryString} is hashed in place)
 * whose slot holds hash, id and arena position side by side: two cache misses a lookup.
 */
public final class FieldDictionary {

    private final List<String> keys = new ArrayList<>();

    /** Pairs of longs: (hash << 32 | id + 1), (arena offset << 32 | length); 0: an empty pair. */
    private long[] slots = new long[2 * 128];

    private int mask = 2 * 128 - 2;

    private byte[] arena = new byte[1024];

    private int arenaSize;

    /** The id of {@code key}, assigning the next id when the key is new. */
    public int idOf(BinaryString key) {
        int len = key.getSizeInBytes();
        byte[] heap = BinaryStrings.heapArray(key);
        if (heap != null) {
            return idOf(heap, key.getOffset(), len);
        }
        return idOf(key.toBytes(), 0, len);
    }

    private int idOf(byte[] arr, int off, int len) {
        int h = hash(arr, off, len);
        long[] s = slots;
        int at = slotOf(h, mask);
        while (true) {
            long head = s[at];
            if (head == 0) {
                break;
            }
            if ((int) (head >>> 32) == h) {
                long where = s[at + 1];
                int from = (int) (where >>> 32);
                if ((int) where == len
                        && Arrays.equals(arena, from, from + len, arr, off, off + len)) {
                    return (int) head - 1;
                }
            }
            at = (at + 2) & mask;
        }
        int id = keys.size();
        if (arenaSize + len > arena.length) {
            arena = Arrays.copyOf(arena, Math.max(arenaSize + len, arena.length * 2));
        }
        System.arraycopy(arr, off, arena, arenaSize, len);
        s[at] = ((long) h << 32) | (id + 1L);
        s[at + 1] = ((long) arenaSize << 32) | len;
        keys.add(new String(arena, arenaSize, len, StandardCharsets.UTF_8));
        arenaSize += len;
        if ((id + 1) * 4L > (long) s.length) {
            rehash();
        }
        return id;
    }

    private static int slotOf(int hash, int mask) {
        return (hash * 0x9E3779B9 >>> 7) & mask;
    }

    /** Keeps the table at most half full. */
    private void rehash() {
        long[] old = slots;
        long[] s = new long[old.length * 2];
        int m = s.length - 2;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i] != 0) {
                int at = slotOf((int) (old[i] >>> 32), m);
                while (s[at] != 0) {
                    at = (at + 2) & m;
                }
                s[at] = old[i];
                s[at + 1] = old[i + 1];
            }
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
        return h ^ (h >>> 16);
    }

    public int size() {
        return keys.size();
    }

    public List<String> keys() {
        return keys;
    }
}
