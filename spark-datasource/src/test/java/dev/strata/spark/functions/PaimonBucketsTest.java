package dev.strata.spark.functions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

/**
 * One {@link PaimonBuckets} serves the driver's key lookups, which look into buckets on several
 * threads: each thread gets the bucket one thread alone computes.
 */
class PaimonBucketsTest {

    @Test
    void threadsSharingOneInstanceGetTheBucketsOfOneThread() throws Exception {
        RowType keyType = RowType.of(DataTypes.STRING().notNull());
        PaimonBuckets shared = new PaimonBuckets(CoreOptions.BucketFunctionType.DEFAULT, keyType);
        int keys = 20_000;
        int[] expected = new int[keys];
        PaimonBuckets alone = new PaimonBuckets(CoreOptions.BucketFunctionType.DEFAULT, keyType);
        for (int k = 0; k < keys; k++) {
            expected[k] = alone.bucket(key(k), 7);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Integer>>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t;
                Callable<List<Integer>> wrong =
                        () -> {
                            List<Integer> misplaced = new ArrayList<>();
                            for (int round = 0; round < 5; round++) {
                                for (int i = 0; i < keys; i++) {
                                    int k = (i * 4 + offset) % keys;
                                    if (shared.bucket(key(k), 7) != expected[k]) {
                                        misplaced.add(k);
                                    }
                                }
                            }
                            return misplaced;
                        };
                results.add(pool.submit(wrong));
            }
            for (Future<List<Integer>> r : results) {
                assertThat(r.get()).as("keys given another key's bucket").isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static GenericRow key(int k) {
        // keys of different lengths, as user ids are
        return GenericRow.of(BinaryString.fromString("user-" + k * 7919L));
    }
}
