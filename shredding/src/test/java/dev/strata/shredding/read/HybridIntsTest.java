package dev.strata.shredding.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.TestSeeds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link HybridInts} against parquet-column's own {@link RunLengthBitPackingHybridDecoder}: values
 * encoded by parquet-column's {@link RunLengthBitPackingHybridEncoder} (runs of equal values, which
 * it writes RLE, and varied values, which it bit-packs, in runs of up to 63 groups), at every bit
 * width, read with a random mix of {@code next}, {@code nextSparse}, {@code skip}, {@code
 * skipExpecting}, {@code skipCounting} and {@code gatherPacked} from inside a larger buffer in
 * either byte order (V1 page levels are little-endian views, a V2 page's level buffers big-endian).
 * Every value read, every count and every expectation answer must be the oracle's.
 */
class HybridIntsTest {

    private static final String NAME = "hybridInts";

    @ParameterizedTest(name = "bit width {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4, 7, 8, 9, 11, 13, 16, 20, 24, 31, 32})
    void readsWhatParquetColumnDecodes(int bitWidth) throws IOException {
        long seed = TestSeeds.seed(NAME) + bitWidth;
        Random random = new Random(seed);
        String why = TestSeeds.describe(NAME, seed);
        int gathered = 0;
        for (int trial = 0; trial < 60; trial++) {
            int[] written = values(random, bitWidth, 1 + random.nextInt(3000));
            byte[] encoded = encode(written, bitWidth);
            int[] oracle = decode(encoded, bitWidth, written.length);
            assertThat(oracle).as("parquet-column round trip (%s)", why).isEqualTo(written);

            // The runs sit inside a larger buffer, with foreign bytes before and after them.
            int before = random.nextInt(9);
            int after = random.nextInt(3) == 0 ? 0 : random.nextInt(12);
            byte[] page = new byte[before + encoded.length + after];
            random.nextBytes(page);
            System.arraycopy(encoded, 0, page, before, encoded.length);
            ByteBuffer buf =
                    ByteBuffer.wrap(page)
                            .order(
                                    random.nextBoolean()
                                            ? ByteOrder.LITTLE_ENDIAN
                                            : ByteOrder.BIG_ENDIAN);
            HybridInts ints = new HybridInts(buf, before, before + encoded.length, bitWidth);
            int at = 0;
            while (at < oracle.length) {
                int n =
                        1
                                + random.nextInt(
                                        Math.min(
                                                oracle.length - at, random.nextBoolean() ? 9 : 70));
                String where = "trial " + trial + " value " + at + " of " + oracle.length;
                switch (random.nextInt(7)) {
                    case 0:
                        for (int i = 0; i < n; i++) {
                            assertThat(ints.next())
                                    .as("next at %s (%s)", where, why)
                                    .isEqualTo(oracle[at + i]);
                        }
                        break;
                    case 1:
                        for (int i = 0; i < n; i++) {
                            assertThat(ints.nextSparse())
                                    .as("nextSparse at %s (%s)", where, why)
                                    .isEqualTo(oracle[at + i]);
                        }
                        break;
                    case 2:
                        ints.skip(n);
                        break;
                    case 3:
                        {
                            int v = random.nextInt(4) == 0 ? oracle[at + n - 1] : oracle[at];
                            int equal = 0;
                            for (int i = 0; i < n; i++) {
                                equal += oracle[at + i] == v ? 1 : 0;
                            }
                            assertThat(ints.skipCounting(n, v))
                                    .as("skipCounting %d x %d at %s (%s)", n, v, where, why)
                                    .isEqualTo(equal);
                            break;
                        }
                    case 4:
                        {
                            int count = 1 + random.nextInt(Math.min(n, 4));
                            int[] offsets =
                                    random.ints(0, n).distinct().limit(count).sorted().toArray();
                            // Every value, or those of a random set of values.
                            int[] wanted = null;
                            if (random.nextBoolean()) {
                                // May end before the largest value: values past its end are not
                                // wanted.
                                wanted = new int[1 + random.nextInt(1 << Math.min(bitWidth, 16))];
                                for (int v = 0; v < wanted.length; v++) {
                                    wanted[v] = random.nextBoolean() ? 0 : -1;
                                }
                            }
                            int[] index = new int[offsets.length + 2];
                            int[] out = new int[offsets.length + 2];
                            int m =
                                    ints.gatherPacked(
                                            n, offsets, offsets.length, wanted, index, out, 2);
                            if (m >= 0) {
                                gathered++;
                                List<String> expected = new ArrayList<>();
                                for (int i = 0; i < offsets.length; i++) {
                                    int v = oracle[at + offsets[i]];
                                    if (wanted == null
                                            || (v >= 0 && v < wanted.length && wanted[v] >= 0)) {
                                        expected.add(i + "=" + v);
                                    }
                                }
                                List<String> got = new ArrayList<>();
                                for (int x = 2; x < 2 + m; x++) {
                                    got.add(index[x] + "=" + out[x]);
                                }
                                assertThat(got)
                                        .as(
                                                "gatherPacked offsets %s at %s (%s)",
                                                Arrays.toString(offsets), where, why)
                                        .containsExactlyElementsOf(expected);
                            } else { // nothing was read
                                assertThat(ints.nextSparse())
                                        .as("after a refused gatherPacked at %s (%s)", where, why)
                                        .isEqualTo(oracle[at]);
                                ints.skip(n - 1);
                            }
                            break;
                        }
                    case 5:
                        {
                            // One to four targets, mostly values that occur; a span of the n
                            // values with some entries not kept (indexAt -1).
                            int[] targets = new int[1 + random.nextInt(4)];
                            for (int t = 0; t < targets.length; t++) {
                                targets[t] =
                                        random.nextInt(4) == 0
                                                ? random.nextInt(1 << Math.min(bitWidth, 16))
                                                : oracle[at + random.nextInt(n)];
                            }
                            int fields = ints.prepareMatch(targets, targets.length);
                            if (fields == 0) { // widths over 16: value by value instead
                                assertThat(bitWidth == 0 || bitWidth > 16)
                                        .as("prepareMatch refused width %d", bitWidth)
                                        .isTrue();
                                ints.skip(n);
                                break;
                            }
                            int from = random.nextInt(n);
                            int span = 1 + random.nextInt(n - from);
                            int[] indexAt = new int[span];
                            for (int e = 0; e < span; e++) {
                                indexAt[e] = random.nextInt(5) == 0 ? -1 : 100 + e;
                            }
                            int[] index = new int[span + 3];
                            int[] out = new int[span + 3];
                            // RLE runs, unpacked groups and bit-packed runs alike.
                            int m = ints.matchPacked(n, from, span, indexAt, index, out, 3);
                            List<String> expected = new ArrayList<>();
                            for (int e = 0; e < span; e++) {
                                int v = oracle[at + from + e];
                                if (indexAt[e] >= 0
                                        && Arrays.stream(targets).anyMatch(t -> t == v)) {
                                    expected.add(indexAt[e] + "=" + v);
                                }
                            }
                            List<String> got = new ArrayList<>();
                            for (int x = 3; x < 3 + m; x++) {
                                got.add(index[x] + "=" + out[x]);
                            }
                            assertThat(got)
                                    .as(
                                            "matchPacked %s from %d span %d at %s (%s)",
                                            Arrays.toString(targets), from, span, where, why)
                                    .containsExactlyElementsOf(expected);
                            break;
                        }
                    default:
                        {
                            int v = random.nextInt(4) == 0 ? oracle[at + n - 1] : oracle[at];
                            boolean all = true;
                            for (int i = 0; i < n; i++) {
                                all &= oracle[at + i] == v;
                            }
                            boolean answer = ints.skipExpecting(n, v);
                            assertThat(answer)
                                    .as("skipExpecting %d x %d at %s (%s)", n, v, where, why)
                                    .isEqualTo(all);
                            if (!answer) { // the position is undefined after a refusal
                                at = oracle.length;
                                continue;
                            }
                        }
                }
                at += n;
            }
        }
        if (bitWidth > 0) {
            assertThat(gathered)
                    .as("gatherPacked read inside bit-packed runs (%s)", why)
                    .isPositive();
        }
    }

    /** Runs of one value (long and short), varied stretches, and a few all-ones / all-max runs. */
    private static int[] values(Random random, int bitWidth, int count) {
        long max = bitWidth == 0 ? 0 : (1L << bitWidth) - 1;
        int[] v = new int[count];
        int i = 0;
        while (i < count) {
            int len = Math.min(count - i, 1 + random.nextInt(random.nextBoolean() ? 12 : 90));
            int kind = random.nextInt(4);
            int same = (int) (kind == 3 ? max : (long) (random.nextDouble() * (max + 1)));
            for (int j = 0; j < len; j++) {
                v[i + j] = kind <= 1 ? same : (int) (long) (random.nextDouble() * (max + 1));
            }
            i += len;
        }
        return v;
    }

    private static byte[] encode(int[] values, int bitWidth) throws IOException {
        try (RunLengthBitPackingHybridEncoder encoder =
                new RunLengthBitPackingHybridEncoder(
                        bitWidth, 64, 64 * 1024, new HeapByteBufferAllocator())) {
            for (int v : values) {
                encoder.writeInt(v);
            }
            return encoder.toBytes().toByteArray();
        }
    }

    private static int[] decode(byte[] encoded, int bitWidth, int count) throws IOException {
        RunLengthBitPackingHybridDecoder decoder =
                new RunLengthBitPackingHybridDecoder(
                        bitWidth, ByteBufferInputStream.wrap(ByteBuffer.wrap(encoded)));
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = decoder.readInt();
        }
        return out;
    }
}
