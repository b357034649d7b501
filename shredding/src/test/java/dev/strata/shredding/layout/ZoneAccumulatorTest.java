package dev.strata.shredding.layout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.TestSeeds;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * BYTES zone statistics, STRING values taken in place ({@link ZoneAccumulator#addBytes}) and BINARY
 * ones as arrays ({@link ZoneAccumulator#add}), against bounds computed from the values themselves,
 * over two row groups of strings that share prefixes, are empty, non-ASCII or longer than a footer
 * bound.
 */
class ZoneAccumulatorTest {

    @Test
    void stringBoundsAreTheSmallestAndLargestValuesOfEachKeyAndRowGroup() {
        Random random = new Random(TestSeeds.seed("ZoneAccumulatorTest.strings"));
        ZoneAccumulator zones = new ZoneAccumulator(ValueKind.BYTES);
        for (int group = 0; group < 2; group++) {
            Map<Integer, byte[]> min = new HashMap<>();
            Map<Integer, byte[]> max = new HashMap<>();
            Map<Integer, int[]> counts = new HashMap<>();
            for (int n = 0; n < 20_000; n++) {
                int id = random.nextInt(300);
                int[] c = counts.computeIfAbsent(id, i -> new int[2]);
                c[0]++;
                if (random.nextInt(10) == 0) {
                    zones.add(id, true, null);
                    c[1]++;
                    continue;
                }
                byte[] value = value(random, id % 7 == 0);
                // The value sits inside a larger buffer that is overwritten after the call, as a
                // reused row's bytes are: a bound must be a copy.
                int offset = random.nextInt(5);
                byte[] buffer = new byte[offset + value.length + random.nextInt(5)];
                System.arraycopy(value, 0, buffer, offset, value.length);
                if (random.nextInt(3) == 0) {
                    // BINARY values come through add() as whole arrays, kept by the same rule.
                    byte[] whole = Arrays.copyOfRange(buffer, offset, offset + value.length);
                    zones.add(id, false, whole);
                    Arrays.fill(whole, (byte) 0);
                } else {
                    zones.addBytes(id, buffer, offset, value.length);
                }
                Arrays.fill(buffer, (byte) 0);
                min.merge(id, value, (a, b) -> Arrays.compareUnsigned(a, b) <= 0 ? a : b);
                max.merge(id, value, (a, b) -> Arrays.compareUnsigned(a, b) >= 0 ? a : b);
            }
            zones.sealRowGroup(20_000);
            KeyZones sealed = zones.sealedGroups().get(group);
            for (Map.Entry<Integer, int[]> e : counts.entrySet()) {
                int id = e.getKey();
                int entry = sealed.find(id);
                String what = "key " + id + " in row group " + group;
                assertThat(entry).as(what).isGreaterThanOrEqualTo(0);
                assertThat(sealed.presentCount(entry)).as(what).isEqualTo(e.getValue()[0]);
                assertThat(sealed.nullCount(entry)).as(what).isEqualTo(e.getValue()[1]);
                if (min.containsKey(id)) {
                    assertThat((byte[]) sealed.min(entry))
                            .as(what)
                            .isEqualTo(ShreddingFooter.lowerBound(min.get(id)));
                    assertThat((byte[]) sealed.max(entry))
                            .as(what)
                            .isEqualTo(ShreddingFooter.upperBound(max.get(id)));
                } else {
                    assertThat(sealed.min(entry)).as(what).isNull();
                }
            }
        }
    }

    /** A short string over few letters (shared prefixes), empty (some keys), non-ASCII or long. */
    private static byte[] value(Random random, boolean mayBeEmpty) {
        switch (random.nextInt(6)) {
            case 0:
                if (mayBeEmpty) {
                    return new byte[0];
                }
                return new byte[] {'b'};
            case 1:
                return ("é" + random.nextInt(50)).getBytes(StandardCharsets.UTF_8);
            case 2:
                {
                    byte[] b = new byte[70 + random.nextInt(40)];
                    for (int i = 0; i < b.length; i++) {
                        b[i] = (byte) ('a' + random.nextInt(2));
                    }
                    return b;
                }
            default:
                {
                    byte[] b = new byte[1 + random.nextInt(6)];
                    for (int i = 0; i < b.length; i++) {
                        b[i] = (byte) ('a' + random.nextInt(3));
                    }
                    return b;
                }
        }
    }
}
