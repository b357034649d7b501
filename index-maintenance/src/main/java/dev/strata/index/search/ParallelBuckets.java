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
 * Runs the per-bucket work of one search or text match on the JVM that plans it (the driver), one
 * bucket per thread of a small pool sized to the JVM's processors, so a search of 8 buckets on the
 * driver takes about the time of its slowest bucket rather than their sum. The work must be
 * thread-safe (the archive, snapshot and fresh-row caches are). Work submitted from a pool thread
 * runs inline, so nested calls cannot deadlock; one bucket, or a one-processor JVM, runs inline
 * too.
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

    /** Work on one bucket. */
    public interface BucketWork<T, R> {
        R apply(T bucket) throws IOException;
    }

    /**
     * {@code work} applied to every bucket, results in the order of {@code buckets}. After every
     * bucket finished, the first failure in bucket order is rethrown as it was thrown.
     */
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
