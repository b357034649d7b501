package dev.strata.shredding.allocate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.TestSeeds;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The LRU allocator places every row as the rule says, checked against a direct transcription of it
 * (rows of distinct ids, placed in ascending id order: an id keeps its resident column if the row
 * has not used it yet; a miss takes the lowest never-used column, else the unused column with the
 * oldest use, ties by lowest index, else overflows), over random rows narrower and wider than K,
 * with rotating key families and stray keys, so that files keep their bytes.
 */
class LruOrderTest {

    /** The rule, one scan over the K columns per miss. */
    private static final class Reference {
        final int k;
        final int[] resident;
        final long[] lastUsed;
        final int[] columnOfId = new int[100_000];
        int nextFresh;
        long clock;

        Reference(int k) {
            this.k = k;
            resident = new int[k];
            lastUsed = new long[k];
            Arrays.fill(resident, -1);
            Arrays.fill(columnOfId, -1);
        }

        /**
         * Returns the mapping (K ids, -1 for unused columns) and appends overflowed ids to {@code
         * overflow}.
         */
        int[] place(int[] ids, java.util.List<Integer> overflow) {
            int[] sorted = ids.clone();
            Arrays.sort(sorted);
            int[] mapping = new int[k];
            Arrays.fill(mapping, -1);
            boolean[] used = new boolean[k];
            java.util.List<Integer> misses = new java.util.ArrayList<>();
            for (int id : sorted) {
                int c = columnOfId[id];
                if (c >= 0 && !used[c]) {
                    mapping[c] = id;
                    used[c] = true;
                } else {
                    misses.add(id);
                }
            }
            for (int id : misses) {
                int c = -1;
                if (nextFresh < k) {
                    c = nextFresh++;
                } else {
                    for (int x = 0; x < k; x++) {
                        if (!used[x] && (c < 0 || lastUsed[x] < lastUsed[c])) {
                            c = x;
                        }
                    }
                }
                if (c < 0) {
                    overflow.add(id);
                    continue;
                }
                if (resident[c] >= 0 && columnOfId[resident[c]] == c) {
                    columnOfId[resident[c]] = -1;
                }
                resident[c] = id;
                columnOfId[id] = c;
                mapping[c] = id;
                used[c] = true;
            }
            boolean any = false;
            for (int x = 0; x < k; x++) {
                if (used[x]) {
                    lastUsed[x] = clock;
                    any = true;
                }
            }
            if (any) {
                clock++;
            }
            return mapping;
        }
    }

    @ParameterizedTest(name = "K={0}, families={1}")
    @CsvSource({"1, 3", "4, 5", "8, 3", "40, 50", "64, 20"})
    void placesEveryRowAsTheRuleSays(int k, int families) {
        long seed = TestSeeds.seed("lruOrder" + k);
        Random random = new Random(seed);
        ColumnAllocator a = PlacementPolicy.LRU.newAllocator(k);
        Reference ref = new Reference(k);
        for (int row = 0; row < 3000; row++) {
            Set<Integer> ids = new LinkedHashSet<>();
            int width = random.nextInt(10) == 0 ? 0 : random.nextInt(k + k / 2 + 2);
            int family = random.nextInt(families);
            for (int i = 0; i < width; i++) {
                ids.add(random.nextInt(8) == 0 ? random.nextInt(90_000) : family * (k + 2) + i);
            }
            int[] row0 = ids.stream().mapToInt(Integer::intValue).toArray();
            java.util.List<Integer> expectedOverflow = new java.util.ArrayList<>();
            int[] expected = ref.place(row0, expectedOverflow);
            a.allocate(row0.clone(), row0.length);
            String at =
                    "row "
                            + row
                            + " "
                            + Arrays.toString(row0)
                            + " ("
                            + TestSeeds.describe("lruOrder" + k, seed)
                            + ")";
            assertThat(a.mapping()).as(at).containsExactly(expected);
            int[] overflow = Arrays.copyOf(a.overflowIds(), a.overflowCount());
            java.util.Collections.sort(expectedOverflow);
            int[] sortedOverflow = overflow.clone();
            Arrays.sort(sortedOverflow);
            assertThat(sortedOverflow)
                    .as(at)
                    .containsExactly(
                            expectedOverflow.stream().mapToInt(Integer::intValue).toArray());
        }
    }
}
