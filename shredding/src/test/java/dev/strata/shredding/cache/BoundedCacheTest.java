package dev.strata.shredding.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundedCacheTest {

    @Test
    void keepsAtMostItsCapacityAndHandsOverEveryRemovedValueOnce() {
        ConcurrentHashMap<Integer, AtomicInteger> removals = new ConcurrentHashMap<>();
        BoundedCache<String, Integer> cache =
                BoundedCache.of(
                        8,
                        v ->
                                removals.computeIfAbsent(v, x -> new AtomicInteger())
                                        .incrementAndGet());
        for (int i = 0; i < 100; i++) {
            cache.put("k" + i, i);
            assertThat(cache.size()).isLessThanOrEqualTo(8);
        }
        assertThat(cache.size()).isEqualTo(8);
        Set<Integer> kept = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            Integer v = cache.get("k" + i);
            if (v != null) {
                kept.add(v);
            }
        }
        assertThat(kept).hasSize(8);
        // Evicted before the call that evicted them returned: no background thread is involved.
        assertThat(removals.keySet()).hasSize(92).doesNotContainAnyElementsOf(kept);
        cache.clear();
        assertThat(cache.size()).isZero();
        assertThat(removals.keySet()).hasSize(100);
        assertThat(removals.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    }

    @Test
    void capacityZeroKeepsNothingButReturnsTheValue() {
        List<String> removed = new ArrayList<>();
        BoundedCache<String, String> cache = BoundedCache.of(0, removed::add);
        assertThat(cache.putIfAbsent("a", "A")).isEqualTo("A");
        assertThat(cache.get("a")).isNull();
        assertThat(cache.size()).isZero();
        assertThat(removed).containsExactly("A");
    }

    @Test
    void racingPutsAgreeOnOneValue() throws Exception {
        // Room for every key: which entry a full cache drops is Caffeine's policy, not this test's.
        BoundedCache<String, Object> cache = BoundedCache.of(64);
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 50; round++) {
                String key = "key" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Object>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    results.add(
                            pool.submit(
                                    () -> {
                                        start.await();
                                        return cache.putIfAbsent(key, new Object());
                                    }));
                }
                start.countDown();
                Object first = results.get(0).get();
                for (Future<Object> f : results) {
                    assertThat(f.get()).isSameAs(first);
                }
                assertThat(cache.get(key)).isSameAs(first);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aNegativeCapacityIsRefused() {
        assertThatThrownBy(() -> BoundedCache.of(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity must be >= 0, found -1");
    }
}
