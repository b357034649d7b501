package dev.strata.index.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the per-bucket work of one search on the driver, one bucket per thread of a small pool. The
 * work must be thread-safe; work submitted from a pool thread runs inline, so nesting cannot
 * deadlock.
 */
public final class ParallelBuckets {

    private static final int THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());

    private static final ThreadGroup GROUP = new ThreadGroup("strata-search-buckets");

    private static final ExecutorService POOL =
            Executors.newFixedThreadPool(
                    THREADS,
                    new java.util.concurrent.ThreadFactory() {
                        private final AtomicInteger next = new AtomicInteger();

                        @Override
                        public Thread newThread(Runnable r) {
                            Thread t =
                                    new Thread(
                                            GROUP,
                                            r,
                                            "strata-search-bucket-" + next.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        }
                    });

    private ParallelBuckets() {}

    public interface BucketWork<T, R> {
        R apply(T bucket) throws IOException;
    }

    /** {@code work} on every bucket, in order; after all finish, the first failure is rethrown. */
    public static <T, R> List<R> map(List<T> buckets, BucketWork<T, R> work) throws IOException {
        List<R> out = new ArrayList<>(buckets.size());
        if (buckets.size() <= 1
                || THREADS == 1
                || Thread.currentThread().getThreadGroup() == GROUP) {
            for (T b : buckets) {
                out.add(work.apply(b));
            }
            return out;
        }
        List<Future<R>> futures = new ArrayList<>(buckets.size());
        for (T b : buckets) {
            futures.add(POOL.submit(() -> work.apply(b)));
        }
        Throwable failure = null;
        for (Future<R> f : futures) {
            try {
                R r = f.get();
                if (failure == null) {
                    out.add(r);
                }
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                futures.forEach(x -> x.cancel(true));
                throw new IllegalStateException(
                        "Cannot finish the search of "
                                + buckets.size()
                                + " buckets: the thread was interrupted.",
                        e);
            }
        }
        if (failure instanceof IOException) {
            throw (IOException) failure;
        }
        if (failure instanceof RuntimeException) {
            throw (RuntimeException) failure;
        }
        if (failure instanceof Error) {
            throw (Error) failure;
        }
        if (failure != null) {
            throw new IllegalStateException(failure.getMessage(), failure);
        }
        return out;
    }
}
