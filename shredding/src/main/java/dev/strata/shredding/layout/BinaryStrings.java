package dev.strata.shredding.layout;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.memory.MemorySegment;

/** Reading a Paimon string's UTF-8 bytes without copying them where the string allows it. */
public final class BinaryStrings {

    private BinaryStrings() {}

    /**
     * The heap array holding all of {@code s}'s bytes from {@code s.getOffset()}, or null when
     * {@code s} spans several segments or lives off heap (then {@code s.toBytes()} copies them).
     */
    public static byte[] heapArray(BinaryString s) {
        MemorySegment[] segments = s.getSegments();
        return segments.length == 1 && !segments[0].isOffHeap() ? segments[0].getArray() : null;
    }
}
