package dev.strata.shredding.read;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.io.ParquetDecodingException;

/**
 * Parquet's RLE / bit-packed hybrid encoding (levels and dictionary ids) read value by value
 * straight from a page's buffer, unpacking bit-packed groups with parquet-column's {@link
 * BytePacker}. Used instead of parquet-column's {@code RunLengthBitPackingHybridDecoder}, which
 * reads every run through a {@code DataInputStream}: in a profile of the 2M-row rare-key scan that
 * stream copying was about a third of the reader's time.
 *
 * <p>Readers that take a few values between long skips ({@link MappingProbe}) use {@link
 * #nextSparse} and {@link #skipExpecting}, which read a bit-packed group's values straight from its
 * bytes (one 8-byte load, a shift and a mask) without unpacking the whole group through a virtual
 * {@code BytePacker} call.
 */
final class HybridInts {

    private final ByteBuffer buf;
    private final int bitWidth;
    private final int byteWidth;

    /** The low {@link #bitWidth} bits. */
    private final long mask;

    private final BytePacker packer;
    private final int[] packed = new int[8];
    private int pos;
    private final int end;

    /**
     * Values left in the current run; an RLE run repeats {@link #value}, a packed run reads {@link
     * #packed}.
     */
    private int left;

    private boolean rle;
    private int value;
    private int packedAt;
    private int groupsLeft;

    /**
     * Values of the next bit-packed group (not unpacked yet: {@link #packedAt} is 8) already
     * skipped.
     */
    private int skipInGroup;

    /**
     * The value {@link #pattern} repeats, and 8 copies of it at the bit width (bit widths <= 8).
     */
    private int patternOf = -1;

    private long pattern;

    /** Reads the encoded values in {@code buf[pos, end)} (absolute positions). */
    HybridInts(ByteBuffer buf, int pos, int end, int bitWidth) {
        // Absolute little-endian loads: a V2 page's level buffers come in big-endian order.
        this.buf =
                buf.order() == ByteOrder.LITTLE_ENDIAN
                        ? buf
                        : buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
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

    /**
     * As {@link #next}, but a value of a bit-packed group not unpacked yet is read alone from the
     * group's bytes and the group stays packed: for readers that take a value here and there and
     * skip the rest.
     */
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

    /**
     * The buffer position of the next run's header when the values read so far end a run (the
     * values that follow depend only on the bytes from there), else -1.
     */
    int runBoundary() {
        return left == 0 && groupsLeft == 0 ? pos : -1;
    }

    /**
     * Whether the {@code length} bytes at {@code at} (a run boundary) are inside the encoded values
     * and equal those at {@code from}.
     */
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

    /**
     * Passes {@code length} bytes from a run boundary whose runs {@link #sameBytes} found equal to
     * runs already read; the position is then a run boundary again.
     */
    void skipBytes(int length) {
        pos += length;
    }

    /**
     * How many values of an RLE run of {@code v} follow (0 when the next value is bit-packed, of
     * another value, or the values end); reads the next run's header when at a run boundary.
     */
    int rleLeft(int v) {
        if (left == 0 && groupsLeft == 0) {
            if (pos >= end) {
                return 0;
            }
            run();
        }
        return rle && value == v ? left : 0;
    }

    /**
     * Skips {@code n} values without unpacking them: an RLE run by count, bit-packed groups by
     * their byte width; values skipped inside a group not unpacked yet are only counted, and the
     * group is unpacked when a value of it is read.
     */
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

    /**
     * Skips {@code n} values, returning false as soon as one differs from {@code expected} (then
     * the position is undefined). An RLE run is checked once; bit-packed groups are unpacked and
     * checked.
     */
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

    /**
     * The 8 bytes from {@code at}, little-endian; bytes past the buffer's limit (the short last
     * group of a page) read as 0.
     */
    private long load(int at) {
        if (at + 8 <= buf.limit()) {
            return buf.getLong(at);
        }
        long bits = 0;
        for (int b = 0; b < 8 && at + b < buf.limit(); b++) {
            bits |= (buf.get(at + b) & 0xFFL) << (8 * b);
        }
        return bits;
    }

    /**
     * When the next {@code n} values all lie in one bit-packed run whose current group is not
     * unpacked, stores the values at {@code offsets[0 .. count)} (ascending, relative to the next
     * value) into {@code out[outBase ..]}, passes the {@code n} values and returns true: each value
     * is one load, a shift and a mask, with no walk over the values between. Otherwise returns
     * false and reads nothing (an RLE run, an unpacked group or a run ending inside the {@code n}
     * values take the walk).
     */
    boolean gatherPacked(int n, int[] offsets, int count, int[] out, int outBase) {
        if (left == 0 && groupsLeft == 0) {
            if (pos >= end) {
                return false;
            }
            run();
        }
        if (rle || packedAt < 8 || (long) groupsLeft * 8 - skipInGroup < n) {
            return false;
        }
        long first = (long) pos * 8 + (long) skipInGroup * bitWidth;
        for (int i = 0; i < count; i++) {
            long bit = first + (long) offsets[i] * bitWidth;
            out[outBase + i] = (int) ((load((int) (bit >>> 3)) >>> (bit & 7)) & mask);
        }
        int passed = skipInGroup + n;
        pos += (passed >>> 3) * bitWidth;
        groupsLeft -= passed >>> 3;
        skipInGroup = passed & 7;
        left = skipInGroup == 0 ? 0 : 8 - skipInGroup;
        return true;
    }

    /**
     * Skips {@code n} values and returns how many of them equal {@code v}: an RLE run is counted by
     * its length, a bit-packed group is unpacked and compared.
     */
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
