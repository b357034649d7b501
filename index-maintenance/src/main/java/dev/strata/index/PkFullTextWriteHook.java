package dev.strata.index;

import dev.strata.index.maintain.BucketMaintainer;
import dev.strata.index.maintain.IndexChange;
import dev.strata.index.maintain.IndexCommit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;

/**
 * Keeps full-text archives current inside one Paimon table write (one per write task): {@link
 * #prepareCommit} runs the bucket maintainers of the messages and returns copies that also carry
 * the index changes, so data and archives land in the same snapshot. Maintainers are restored
 * lazily from {@code restoredSnapshotId}, the snapshot the Paimon writer restored from. Buckets
 * below 0 (postpone bucket {@code -2}) are passed through.
 */
public final class PkFullTextWriteHook implements AutoCloseable {

    private final Maintainers maintainers;
    private final Snapshot restoredSnapshot;
    private final ExecutorService executor;
    private final boolean ownsExecutor;
    private final Map<BinaryRow, Map<Integer, BucketMaintainer>> buckets = new LinkedHashMap<>();
    private final List<IndexCommit> prepared = new ArrayList<>();

    private PkFullTextWriteHook(
            FileStoreTable table,
            Long restoredSnapshotId,
            ExecutorService executor,
            java.nio.file.Path localTempDir) {
        this.maintainers = new Maintainers(table, false, localTempDir);
        this.restoredSnapshot =
                restoredSnapshotId == null
                        ? null
                        : table.snapshotManager().snapshot(restoredSnapshotId);
        this.ownsExecutor = executor == null;
        this.executor =
                executor != null
                        ? executor
                        : Executors.newSingleThreadExecutor(
                                r -> {
                                    Thread t = new Thread(r, "strata-pk-full-text-build");
                                    t.setDaemon(true);
                                    return t;
                                });
    }

    /** {@code restoredSnapshotId} null: empty table; {@code executor} null: own daemon thread. */
    public static PkFullTextWriteHook create(
            FileStoreTable table, Long restoredSnapshotId, ExecutorService executor) {
        return create(table, restoredSnapshotId, executor, null);
    }

    /** As the other {@code create}, building Lucene indexes under {@code localTempDir}. */
    public static PkFullTextWriteHook create(
            FileStoreTable table,
            Long restoredSnapshotId,
            ExecutorService executor,
            java.nio.file.Path localTempDir) {
        return new PkFullTextWriteHook(table, restoredSnapshotId, executor, localTempDir);
    }

    /**
     * Returns the messages rewritten with their index changes (same order), plus an index-only
     * message for each other known bucket whose pending build finished or had archives to retire.
     * With {@code waitCompaction} (compaction tasks) every level of every touched bucket is current
     * on return; otherwise finished builds are harvested and new ones start in the background.
     */
    public synchronized List<CommitMessage> prepareCommit(
            List<CommitMessage> messages, boolean waitCompaction) throws Exception {
        List<CommitMessage> result = new ArrayList<>(messages.size());
        List<IndexCommit> commits = new ArrayList<>();
        try {
            Set<String> seen = new HashSet<>();
            for (CommitMessage message : messages) {
                CommitMessageImpl m = (CommitMessageImpl) message;
                if (m.bucket() < 0) {
                    result.add(m);
                    continue;
                }
                seen.add(key(m.partition(), m.bucket()));
                BucketMaintainer maintainer = maintainer(m.partition(), m.bucket());
                IndexCommit commit =
                        maintainer.prepareCommit(
                                m.newFilesIncrement(), m.compactIncrement(), waitCompaction);
                commits.add(commit);
                result.add(rewrite(m, commit));
            }
            for (Map.Entry<BinaryRow, Map<Integer, BucketMaintainer>> p : buckets.entrySet()) {
                for (Map.Entry<Integer, BucketMaintainer> b : p.getValue().entrySet()) {
                    BucketMaintainer maintainer = b.getValue();
                    if (seen.contains(key(p.getKey(), b.getKey()))
                            || !(maintainer.buildNotCompleted()
                                    || !maintainer.retiredPayloads().isEmpty())) {
                        continue;
                    }
                    IndexCommit commit = maintainer.prepareCommit(null, null, waitCompaction);
                    commits.add(commit);
                    Optional<IndexChange> change = commit.appendChange();
                    if (change.isPresent()) {
                        result.add(
                                new CommitMessageImpl(
                                        p.getKey(),
                                        b.getKey(),
                                        totalBuckets(),
                                        new DataIncrement(
                                                empty(),
                                                empty(),
                                                empty(),
                                                change.get().created(),
                                                change.get().removed()),
                                        CompactIncrement.emptyIncrement()));
                    }
                }
            }
        } catch (Throwable t) {
            for (int i = commits.size() - 1; i >= 0; i--) {
                try {
                    commits.get(i).abort();
                } catch (Throwable cleanup) {
                    t.addSuppressed(cleanup);
                }
            }
            throw t;
        }
        prepared.addAll(commits);
        return result;
    }

    private Integer totalBuckets() {
        int n = maintainers.table.schema().numBuckets();
        return n > 0 ? n : null;
    }

    private static String key(BinaryRow partition, int bucket) {
        return java.util.Arrays.toString(partition.toBytes()) + "/" + bucket;
    }

    private BucketMaintainer maintainer(BinaryRow partition, int bucket) {
        Map<Integer, BucketMaintainer> byBucket =
                buckets.computeIfAbsent(partition.copy(), p -> new LinkedHashMap<>());
        BucketMaintainer maintainer = byBucket.get(bucket);
        if (maintainer == null) {
            BucketFiles restored = maintainers.bucketFiles(restoredSnapshot, partition, bucket);
            maintainer = maintainers.restore(restored, partition, bucket, executor);
            byBucket.put(bucket, maintainer);
        }
        return maintainer;
    }

    private static CommitMessageImpl rewrite(CommitMessageImpl m, IndexCommit commit) {
        DataIncrement append = m.newFilesIncrement();
        CompactIncrement compact = m.compactIncrement();
        if (commit.appendChange().isPresent()) {
            IndexChange c = commit.appendChange().get();
            append =
                    new DataIncrement(
                            copy(append.newFiles()),
                            copy(append.deletedFiles()),
                            copy(append.changelogFiles()),
                            concat(append.newIndexFiles(), c.created()),
                            concat(append.deletedIndexFiles(), c.removed()));
        }
        if (commit.compactChange().isPresent()) {
            IndexChange c = commit.compactChange().get();
            compact =
                    new CompactIncrement(
                            copy(compact.compactBefore()),
                            copy(compact.compactAfter()),
                            copy(compact.changelogFiles()),
                            concat(compact.newIndexFiles(), c.created()),
                            concat(compact.deletedIndexFiles(), c.removed()));
        }
        return new CommitMessageImpl(m.partition(), m.bucket(), m.totalBuckets(), append, compact);
    }

    private static List<DataFileMeta> copy(List<DataFileMeta> files) {
        return new ArrayList<>(files);
    }

    private static List<DataFileMeta> empty() {
        return new ArrayList<>();
    }

    private static List<IndexFileMeta> concat(List<IndexFileMeta> a, List<IndexFileMeta> b) {
        List<IndexFileMeta> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** Whether any bucket still has a background build pending (do not close the writer then). */
    public synchronized boolean buildNotCompleted() {
        for (Map<Integer, BucketMaintainer> byBucket : buckets.values()) {
            for (BucketMaintainer m : byBucket.values()) {
                if (m.buildNotCompleted()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Rolls back every commit prepared by this hook (latest first) and deletes the archives they
     * generated. Call when the task's messages will not be committed.
     */
    public synchronized void abort() throws IOException {
        List<Throwable> problems = new ArrayList<>();
        for (int i = prepared.size() - 1; i >= 0; i--) {
            try {
                prepared.get(i).abort();
            } catch (IOException | RuntimeException e) {
                problems.add(e);
            }
        }
        prepared.clear();
        if (!problems.isEmpty()) {
            IOException e = new IOException("Cannot abort every prepared full-text commit.");
            problems.forEach(e::addSuppressed);
            throw e;
        }
    }

    /** The current archives of one bucket as the hook sees them (empty if not seen). */
    public synchronized List<IndexFileMeta> archives(BinaryRow partition, int bucket) {
        Map<Integer, BucketMaintainer> byBucket = buckets.get(partition);
        BucketMaintainer m = byBucket == null ? null : byBucket.get(bucket);
        return m == null ? Collections.emptyList() : m.payloads();
    }

    /** Cancels pending builds (their archives are deleted); committed archives are untouched. */
    @Override
    public synchronized void close() throws IOException {
        IOException failure = null;
        for (Map<Integer, BucketMaintainer> byBucket : buckets.values()) {
            for (BucketMaintainer m : byBucket.values()) {
                try {
                    m.close();
                } catch (IOException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
        }
        buckets.clear();
        if (ownsExecutor) {
            executor.shutdownNow();
        }
        if (failure != null) {
            throw failure;
        }
    }
}
