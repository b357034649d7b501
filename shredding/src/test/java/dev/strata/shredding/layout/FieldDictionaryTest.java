package dev.strata.shredding.layout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.TestSeeds;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.memory.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * The key dictionary against a {@link LinkedHashMap} in first-appearance order: ids, the key list,
 * through many table growths, for keys of every length (empty, one byte, non-ASCII, long) and for
 * strings held in one heap segment at an offset, off the heap, or across several segments.
 */
class FieldDictionaryTest {

    @Test
    void idsAreFirstAppearanceOrderForEveryKeyAndEveryStringForm() {
        Random random = new Random(TestSeeds.seed("FieldDictionaryTest.ids"));
        FieldDictionary dictionary = new FieldDictionary();
        Map<String, Integer> oracle = new LinkedHashMap<>();
        List<String> universe = new ArrayList<>();
        universe.add("");
        universe.add("é");
        for (int i = 0; i < 20_000; i++) {
            int length = random.nextInt(8) == 0 ? 17 + random.nextInt(40) : 1 + random.nextInt(12);
            StringBuilder key = new StringBuilder();
            for (int j = 0; j < length; j++) {
                key.append((char) ('a' + random.nextInt(random.nextBoolean() ? 3 : 26)));
            }
            universe.add(key.toString());
        }
        for (int draw = 0; draw < 200_000; draw++) {
            double u = random.nextDouble();
            String key = universe.get((int) (u * u * universe.size()));
            int expected = oracle.computeIfAbsent(key, k -> oracle.size());
            assertThat(dictionary.idOf(form(key, draw % 4, random)))
                    .as("id of '%s' at draw %s", key, draw)
                    .isEqualTo(expected);
        }
        assertThat(dictionary.size()).isEqualTo(oracle.size());
        assertThat(dictionary.keys()).containsExactlyElementsOf(oracle.keySet());
    }

    /** {@code key} as a heap string at an offset, off the heap, across segments, or plain. */
    private static BinaryString form(String key, int form, Random random) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        switch (form) {
            case 0:
                {
                    int offset = 1 + random.nextInt(7);
                    byte[] padded = new byte[offset + bytes.length + 3];
                    System.arraycopy(bytes, 0, padded, offset, bytes.length);
                    return BinaryString.fromAddress(
                            new MemorySegment[] {MemorySegment.wrap(padded)}, offset, bytes.length);
                }
            case 1:
                {
                    MemorySegment direct = MemorySegment.allocateOffHeapMemory(bytes.length + 1);
                    direct.put(0, bytes, 0, bytes.length);
                    return BinaryString.fromAddress(new MemorySegment[] {direct}, 0, bytes.length);
                }
            case 2:
                {
                    // Segments of 8 bytes (Paimon's strings span equal-sized segments), 3 in.
                    int offset = 3;
                    int count = Math.max(1, (offset + bytes.length + 7) / 8);
                    MemorySegment[] segments = new MemorySegment[count];
                    for (int s = 0; s < count; s++) {
                        byte[] part = new byte[8];
                        for (int b = 0; b < 8; b++) {
                            int at = s * 8 + b - offset;
                            if (at >= 0 && at < bytes.length) {
                                part[b] = bytes[at];
                            }
                        }
                        segments[s] = MemorySegment.wrap(part);
                    }
                    return BinaryString.fromAddress(segments, offset, bytes.length);
                }
            default:
                return BinaryString.fromString(key);
        }
    }
}
