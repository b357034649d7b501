package dev.strata.shredding.layout;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.memory.MemorySegment;

/** Reading a Paimon string's UTF-8 bytes without copying them where the string allows it. */
public final class BinaryStrings {

    private BinaryStrings() {}

    /** The heap array holding all of {@code s}'s bytes from its offset, or null (then copy). */
    public static byte[] heapArray(BinaryString s) {
        MemorySegment[] segments = s.getSegments();
        return segments.length == 1 && !segments[0].isOffHeap() ? segments[0].getArray() : null;
    }
}
