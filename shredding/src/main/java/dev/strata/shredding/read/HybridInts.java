package dev.strata.shredding.read;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.io.ParquetDecodingException;

/**
 * Parquet's RLE / bit-packed hybrid encoding read value by value straight from a page's buffer
 * (parquet-column's decoder copies every run through a {@code DataInputStream}). Sparse readers use
 * {@link #nextSparse} and {@link #skipExpecting}, which read packed values without unpacking.
 */
final class HybridInts {

    /** Little-endian longs of a byte array: heap pages are read without ByteBuffer's checks. */
    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final ByteBuffer buf;

    /** The buffer's backing array and its offset, null for a direct buffer. */
    private final byte[] array;

    private final int arrayOffset;
    private final int limit;
    private final int bitWidth;
    private final int byteWidth;

    private final long mask;

    private final BytePacker packer;
    private final int[] packed = new int[8];
    private int pos;
    private final int end;

    /** Values left in the current run (RLE: {@link #value}; bit-packed: {@link #packed}). */
    private int left;

    private boolean rle;
    private int value;
    private int packedAt;
    private int groupsLeft;

    /** Values of the next, still packed group already skipped ({@link #packedAt} is 8). */
    private int skipInGroup;

    /** {@link #pattern} is 8 copies of this value at the bit width (bit widths <= 8). */
    private int patternOf = -1;

    private long pattern;

    /** Values compared per 64-bit word by {@link #matchPacked}; 0 until {@link #prepareMatch}. */
    private int swarFields;

    private long swarMask;
    private long swarLow;
    private long swarHigh;
    private long[] swarPatterns = new long[0];
    private int[] swarTargets = new int[0];

    /** Reads the encoded values in {@code buf[pos, end)} (absolute positions). */
    HybridInts(ByteBuffer buf, int pos, int end, int bitWidth) {
        // Absolute little-endian loads: a V2 page's level buffers come in big-endian order.
        this.buf =
                buf.order() == ByteOrder.LITTLE_ENDIAN
                        ? buf
                        : buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.array = this.buf.hasArray() ? this.buf.array() : null;
        this.arrayOffset = this.buf.hasArray() ? this.buf.arrayOffset() : 0;
        this.limit = this.buf.limit();
        this.pos = pos;
        this.end = end;
        this.bitWidth = bitWidth;
        this.byteWidth = (bitWidth + 7) / 8;
        this.mask = (1L << bitWidth) - 1;
        this.packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
    }

    int next() {
        if (left == 0) {
            run();
        }
        left--;
        if (rle) {
            return value;
        }
        if (packedAt == 8) {
            unpack();
        }
        return packed[packedAt++];
    }

    /** As {@link #next}, reading a still packed group's value alone, leaving the group packed. */
    int nextSparse() {
        if (left == 0) {
            run();
        }
        left--;
        if (rle) {
            return value;
        }
        if (packedAt < 8) {
            return packed[packedAt++];
        }
        int bit = skipInGroup * bitWidth;
        int v = (int) ((load(pos + (bit >>> 3)) >>> (bit & 7)) & mask);
        if (++skipInGroup == 8) { // the group is read: the next one starts after its bytes
            pos += bitWidth;
            groupsLeft--;
            skipInGroup = 0;
        }
        return v;
    }

    /** The next run header's position if the values read so far end a run, else -1. */
    int runBoundary() {
        return left == 0 && groupsLeft == 0 ? pos : -1;
    }

    /** Whether the {@code length} bytes at run boundary {@code at} equal those at {@code from}. */
    boolean sameBytes(int at, int from, int length) {
        if (at + length > end) {
            return false;
        }
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            if (buf.getLong(at + i) != buf.getLong(from + i)) {
                return false;
            }
        }
        if (i + 4 <= length) {
            if (buf.getInt(at + i) != buf.getInt(from + i)) {
                return false;
            }
            i += 4;
        }
        for (; i < length; i++) {
            if (buf.get(at + i) != buf.get(from + i)) {
                return false;
            }
        }
        return true;
    }

    /** Passes {@code length} bytes {@link #sameBytes} matched; it stays at a run boundary. */
    void skipBytes(int length) {
        pos += length;
    }

    /** How many values of an RLE run of {@code v} follow (0: none); may read the next header. */
    int rleLeft(int v) {
        if (left == 0 && groupsLeft == 0) {
            if (pos >= end) {
                return 0;
            }
            run();
        }
        return rle && value == v ? left : 0;
    }

    /** Skips {@code n} values without unpacking them. */
    void skip(int n) {
        while (n > 0) {
            if (left == 0) {
                run();
            }
            if (rle) {
                int take = Math.min(n, left);
                left -= take;
                n -= take;
            } else if (packedAt < 8) { // the rest of an unpacked group
                int take = Math.min(n, 8 - packedAt);
                packedAt += take;
                left -= take;
                n -= take;
            } else if (skipInGroup + n < 8) { // inside the next group: counted, not unpacked
                skipInGroup += n;
                left -= n;
                n = 0;
            } else { // the rest of the next group and whole groups after it, never unpacked
                n -= 8 - skipInGroup;
                skipInGroup = 0;
                int groups = 1 + Math.min(n / 8, groupsLeft - 1);
                n -= (groups - 1) * 8;
                pos += groups * bitWidth;
                groupsLeft -= groups;
                left = 0;
            }
        }
    }

    /** Skips {@code n} values; false if one is not {@code expected} (position then undefined). */
    boolean skipExpecting(int n, int expected) {
        while (n > 0) {
            if (left == 0) {
                run();
            }
            if (rle) {
                if (value != expected) {
                    return false;
                }
                int take = Math.min(n, left);
                left -= take;
                n -= take;
            } else if (packedAt == 8 && bitWidth <= 8) {
                // A group not unpacked: its values [skipInGroup, skipInGroup + take) are compared
                // with 8 copies of the expected value in one XOR over the group's bytes.
                if (expected >>> bitWidth != 0) {
                    return false;
                }
                int take = Math.min(n, left);
                int lo = skipInGroup * bitWidth;
                int hi = (skipInGroup + take) * bitWidth;
                long range = (hi == 64 ? -1L : (1L << hi) - 1) & ~((1L << lo) - 1);
                if (((load(pos) ^ pattern(expected)) & range) != 0) {
                    return false;
                }
                skipInGroup += take;
                left -= take;
                n -= take;
                if (skipInGroup == 8) {
                    pos += bitWidth;
                    groupsLeft--;
                    skipInGroup = 0;
                }
            } else {
                if (packedAt == 8) {
                    unpack();
                }
                int take = Math.min(n, 8 - packedAt);
                for (int i = 0; i < take; i++) {
                    if (packed[packedAt + i] != expected) {
                        return false;
                    }
                }
                packedAt += take;
                left -= take;
                n -= take;
            }
        }
        return true;
    }

    /** 8 copies of {@code v} at the bit width (at most 8 bits, so they fill at most a long). */
    private long pattern(int v) {
        if (v != patternOf) {
            long p = 0;
            for (int i = 0; i < 8; i++) {
                p |= (long) v << (i * bitWidth);
            }
            pattern = p;
            patternOf = v;
        }
        return pattern;
    }

    /** 8 little-endian bytes from {@code at}; bytes past the limit (short last group) read 0. */
    private long load(int at) {
        if (at + 8 <= limit) {
            return array != null ? (long) LONGS.get(array, arrayOffset + at) : buf.getLong(at);
        }
        long bits = 0;
        for (int b = 0; b < 8 && at + b < limit; b++) {
            bits |= (buf.get(at + b) & 0xFFL) << (8 * b);
        }
        return bits;
    }

    /**
     * If the next {@code n} values lie in one bit-packed run whose current group is still packed,
     * passes them and returns how many of those at {@code offsets[0 .. count)} (ascending, from the
     * next value) are wanted ({@code wanted[v] >= 0}, null: all), each one's index and value going
     * to {@code outIndex} and {@code outValue} from {@code outBase}; else -1, reading nothing.
     */
    int gatherPacked(
            int n,
            int[] offsets,
            int count,
            int[] wanted,
            int[] outIndex,
            int[] outValue,
            int outBase) {
        if (!packedAhead(n)) {
            return -1;
        }
        long first = (long) pos * 8 + (long) skipInGroup * bitWidth;
        int out = outBase;
        if (wanted == null) {
            for (int i = 0; i < count; i++) {
                long bit = first + (long) offsets[i] * bitWidth;
                outIndex[out] = i;
                outValue[out++] = (int) ((load((int) (bit >>> 3)) >>> (bit & 7)) & mask);
            }
        } else {
            int wantedLength = wanted.length;
            for (int i = 0; i < count; i++) {
                long bit = first + (long) offsets[i] * bitWidth;
                int v = (int) ((load((int) (bit >>> 3)) >>> (bit & 7)) & mask);
                // Written always, kept only when wanted: no branch on the data in the loop.
                outIndex[out] = i;
                outValue[out] = v;
                // Unsigned: a 32-bit width packs negative ints.
                out += Integer.compareUnsigned(v, wantedLength) < 0 && wanted[v] >= 0 ? 1 : 0;
            }
        }
        passPacked(n);
        return out - outBase;
    }

    /** Whether the next {@code n} values lie in one bit-packed run, no group of it unpacked. */
    private boolean packedAhead(int n) {
        if (left == 0 && groupsLeft == 0) {
            if (pos >= end) {
                return false;
            }
            run();
        }
        return !rle && packedAt >= 8 && (long) groupsLeft * 8 - skipInGroup >= n;
    }

    private void passPacked(int n) {
        int passed = skipInGroup + n;
        pos += (passed >>> 3) * bitWidth;
        groupsLeft -= passed >>> 3;
        skipInGroup = passed & 7;
        left = skipInGroup == 0 ? 0 : 8 - skipInGroup;
    }

    /**
     * Prepares {@link #matchPacked} for {@code targets[0 .. count)}; returns the values compared
     * per word, or 0 for over four targets or 16 bits (value by value costs about as much there).
     */
    int prepareMatch(int[] targets, int count) {
        swarFields = 0;
        if (bitWidth == 0 || bitWidth > 16 || count > 4) {
            return 0;
        }
        // A load shifted by up to 7 bits holds 57 whole bits.
        int fields = 57 / bitWidth;
        long low = 0;
        long high = 0;
        for (int i = 0; i < fields; i++) {
            low |= 1L << (i * bitWidth);
            high |= 1L << (i * bitWidth + bitWidth - 1);
        }
        swarLow = low;
        swarHigh = high;
        swarMask = (1L << (fields * bitWidth)) - 1;
        swarPatterns = new long[count];
        swarTargets = Arrays.copyOf(targets, count);
        for (int t = 0; t < count; t++) {
            swarPatterns[t] = low * (targets[t] & mask);
        }
        swarFields = fields;
        return fields;
    }

    /**
     * Passes the next {@code n} values (all in this buffer), keeping those of the {@code span}
     * values from {@code from} that are {@link #prepareMatch} targets with {@code indexAt[e] >= 0}
     * (e: place in the span): index and value to {@code outIndex} and {@code outValue} from {@code
     * outBase}; returns how many. In a packed run a target leaves a zero field in {@code word ^
     * pattern}, which the borrow of a subtraction flags.
     */
    int matchPacked(
            int n, int from, int span, int[] indexAt, int[] outIndex, int[] outValue, int outBase) {
        if (swarPatterns.length == 0) {
            skip(n);
            return 0;
        }
        int out = outBase;
        int spanEnd = from + span;
        int e = 0;
        while (e < n) {
            if (left == 0) {
                run();
            }
            int take;
            if (rle) {
                take = Math.min(n - e, left);
                if (isTarget(value)) {
                    for (int x = Math.max(e, from); x < Math.min(e + take, spanEnd); x++) {
                        int index = indexAt[x - from];
                        if (index >= 0) {
                            outIndex[out] = index;
                            outValue[out++] = value;
                        }
                    }
                }
                left -= take;
            } else if (packedAt < 8) { // the rest of an unpacked group
                take = Math.min(n - e, 8 - packedAt);
                for (int i = 0; i < take; i++) {
                    int x = e + i;
                    int v = packed[packedAt + i];
                    if (x >= from && x < spanEnd && indexAt[x - from] >= 0 && isTarget(v)) {
                        outIndex[out] = indexAt[x - from];
                        outValue[out++] = v;
                    }
                }
                packedAt += take;
                left -= take;
            } else {
                take = (int) Math.min(n - e, (long) groupsLeft * 8 - skipInGroup);
                int a = Math.max(e, from);
                int z = Math.min(e + take, spanEnd);
                if (a < z) {
                    out = matchWords(a - e, z - a, a - from, indexAt, outIndex, outValue, out);
                }
                passPacked(take);
            }
            e += take;
        }
        return out - outBase;
    }

    /**
     * {@link #matchPacked} over {@code count} values from {@code offset} values after the next one,
     * inside the current bit-packed run; the first is span entry {@code spanAt}.
     */
    private int matchWords(
            int offset,
            int count,
            int spanAt,
            int[] indexAt,
            int[] outIndex,
            int[] outValue,
            int out) {
        int b = bitWidth;
        int fields = swarFields;
        int targets = swarPatterns.length;
        long first = (long) pos * 8 + (long) (skipInGroup + offset) * b;
        long wordMask = swarMask;
        long low = swarLow;
        long high = swarHigh;
        long pattern = swarPatterns[0];
        for (int e = 0; e < count; e += fields) {
            long bit = first + (long) e * b;
            long word = (load((int) (bit >>> 3)) >>> (bit & 7)) & wordMask;
            long x = word ^ pattern;
            long flags = (x - low) & ~x & high;
            for (int t = 1; t < targets; t++) {
                x = word ^ swarPatterns[t];
                flags |= (x - low) & ~x & high;
            }
            if (flags != 0) {
                int m = Math.min(fields, count - e);
                for (int i = 0; i < m; i++) {
                    int v = (int) ((word >>> (i * b)) & mask);
                    int index = indexAt[spanAt + e + i];
                    if (index >= 0 && isTarget(v)) {
                        outIndex[out] = index;
                        outValue[out++] = v;
                    }
                }
            }
        }
        return out;
    }

    private boolean isTarget(int v) {
        for (int t : swarTargets) {
            if (t == v) {
                return true;
            }
        }
        return false;
    }

    /** Skips {@code n} values, returning how many equal {@code v}. */
    int skipCounting(int n, int v) {
        int equal = 0;
        while (n > 0) {
            if (left == 0) {
                run();
            }
            if (rle) {
                int take = Math.min(n, left);
                equal += value == v ? take : 0;
                left -= take;
                n -= take;
            } else {
                if (packedAt == 8) {
                    unpack();
                }
                int take = Math.min(n, 8 - packedAt);
                for (int i = 0; i < take; i++) {
                    equal += packed[packedAt + i] == v ? 1 : 0;
                }
                packedAt += take;
                left -= take;
                n -= take;
            }
        }
        return equal;
    }

    private void run() {
        if (groupsLeft > 0) { // the rest of a bit-packed run
            left = 8;
            return;
        }
        if (pos >= end) {
            // parquet-mr's decoding error: the reader names the file and row group (PageChecksums).
            throw new ParquetDecodingException(
                    "the RLE / bit-packed values end before the page's level count");
        }
        int header = 0;
        int shift = 0;
        byte b;
        do {
            b = buf.get(pos++);
            header |= (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        if ((header & 1) == 0) {
            rle = true;
            left = header >>> 1;
            int v = 0;
            for (int i = 0; i < byteWidth; i++) {
                v |= (buf.get(pos++) & 0xFF) << (8 * i);
            }
            value = v;
        } else {
            rle = false;
            groupsLeft = header >>> 1;
            left = groupsLeft > 0 ? 8 : 0;
            packedAt = 8;
        }
        if (left == 0) {
            run();
        }
    }

    private void unpack() {
        if (bitWidth == 0) {
            java.util.Arrays.fill(packed, 0);
        } else if (pos + bitWidth <= buf.limit()) {
            packer.unpack8Values(buf, pos, packed, 0);
        } else { // a last group shorter than its 8 values' bytes
            byte[] tail = new byte[bitWidth];
            for (int i = 0; pos + i < buf.limit(); i++) {
                tail[i] = buf.get(pos + i);
            }
            packer.unpack8Values(tail, 0, packed, 0);
        }
        pos += bitWidth;
        groupsLeft--;
        packedAt = skipInGroup;
        skipInGroup = 0;
    }
}
