package dev.strata.shredding.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.function.Consumer;

/**
 * A thread-safe in-memory cache of at most a given number of entries: the one cache of Strata's
 * readers (footers, archive headers, open archives, rows indexed at query time). Caffeine decides
 * which entry leaves (frequency and recency, not strictly least recently used); its maintenance and
 * the removal callback run on the calling thread, so a removed entry is handed over before the call
 * that removed it returns and no background thread is started.
 */
public final class BoundedCache<K, V> {

    private final Cache<K, V> cache;

    private BoundedCache(long capacity, Consumer<? super V> onRemoval) {
        if (capacity < 0) {
            throw new IllegalArgumentException(
                    "Cannot create a cache: capacity must be >= 0, found " + capacity + ".");
        }
        Caffeine<Object, Object> builder =
                Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run);
        this.cache =
                onRemoval == null
                        ? builder.build()
                        : builder.<K, V>removalListener(
                                        (key, value, cause) -> {
                                            // Strong references: a removed value is never null.
                                            onRemoval.accept(value);
                                        })
                                .build();
    }

    /** A cache of at most {@code capacity} entries (0: none is kept). */
    public static <K, V> BoundedCache<K, V> of(long capacity) {
        return new BoundedCache<>(capacity, null);
    }

    /** As {@link #of(long)}, passing each removed value to {@code onRemoval} once. */
    public static <K, V> BoundedCache<K, V> of(long capacity, Consumer<? super V> onRemoval) {
        return new BoundedCache<>(capacity, onRemoval);
    }

    public V get(K key) {
        return cache.getIfPresent(key);
    }

    public void put(K key, V value) {
        cache.put(key, value);
    }

    /**
     * Keeps {@code value} unless {@code key} already has one; returns the value kept for the key
     * ({@code value} itself, or the one another thread put first). With capacity 0 the value is
     * returned and removed at once.
     */
    public V putIfAbsent(K key, V value) {
        V raced = cache.asMap().putIfAbsent(key, value);
        return raced == null ? value : raced;
    }

    public void clear() {
        cache.invalidateAll();
        cache.cleanUp();
    }

    /** The number of entries kept, after pending evictions. */
    public long size() {
        cache.cleanUp();
        return cache.estimatedSize();
    }
}
