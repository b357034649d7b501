package dev.strata.spark.write;

import static org.apache.paimon.deletionvectors.DeletionVectorsIndexFile.DELETION_VECTORS_INDEX;

import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.utils.Pair;

/**
 * The conflict rule Paimon's commit check lacks for bucketed primary-key tables whose reads skip
 * level 0 (deletion vectors, or the {@code first-row} merge engine).
 *
 * <p>On fixed-bucket tables Paimon does not check deletion vectors, and a commit's index entries
 * for a bucket replace the bucket's entries. So a compaction planned before a concurrent DELETE
 * drops its deletion vectors (deleted rows return), and a DELETE's vectors may point at files a
 * concurrent compaction rewrote. Two commits therefore conflict when both remove data files or
 * change deletion vectors of the same bucket; the later is checked against every snapshot since its
 * writers read the table ({@link #conflict}).
 */
final class BucketConflicts {

    private BucketConflicts() {}

    record Bucket(BinaryRow partition, int bucket) {
        Bucket {
            Objects.requireNonNull(partition);
        }
    }

    /** A primary-key table whose reads skip level 0. */
    static boolean applies(FileStoreTable table) {
        CoreOptions options = table.coreOptions();
        return !table.primaryKeys().isEmpty()
                && (options.deletionVectorsEnabled()
                        || options.mergeEngine() == CoreOptions.MergeEngine.FIRST_ROW);
    }

    /**
     * Buckets whose data files or deletion vectors the compact increments change (archive-only
     * changes do not count: an archive of replaced files is retired as stale).
     */
    static Set<Bucket> rewritten(List<CommitMessage> messages) {
        Set<Bucket> buckets = new LinkedHashSet<>();
        for (CommitMessage message : messages) {
            CompactIncrement c = ((CommitMessageImpl) message).compactIncrement();
            if (c != null
                    && (!c.compactBefore().isEmpty()
                            || hasDeletionVectors(c.newIndexFiles())
                            || hasDeletionVectors(c.deletedIndexFiles()))) {
                buckets.add(new Bucket(message.partition(), message.bucket()));
            }
        }
        return buckets;
    }

    /** The files the compact increments replace, per bucket. */
    static Map<Bucket, Set<String>> inputs(List<CommitMessage> messages) {
        Map<Bucket, Set<String>> inputs = new HashMap<>();
        for (CommitMessage message : messages) {
            CompactIncrement c = ((CommitMessageImpl) message).compactIncrement();
            if (c != null) {
                Set<String> names =
                        inputs.computeIfAbsent(
                                new Bucket(message.partition(), message.bucket()),
                                k -> new HashSet<>());
                c.compactBefore().forEach(f -> names.add(f.fileName() + "@" + f.level()));
            }
        }
        return inputs;
    }

    /** The buckets where {@code messages} add level-0 files. */
    static Set<Bucket> appended(List<CommitMessage> messages) {
        Set<Bucket> buckets = new LinkedHashSet<>();
        for (CommitMessage message : messages) {
            DataIncrement d = ((CommitMessageImpl) message).newFilesIncrement();
            if (d != null && !d.newFiles().isEmpty()) {
                buckets.add(new Bucket(message.partition(), message.bucket()));
            }
        }
        return buckets;
    }

    private static boolean hasDeletionVectors(List<IndexFileMeta> files) {
        return files.stream().anyMatch(f -> DELETION_VECTORS_INDEX.equals(f.indexType()));
    }

    /**
     * Why a change of {@code buckets} read at or after {@code base} must not land on {@code
     * latest}, or null: another commit since {@code base} removed a data file of those buckets or
     * changed their deletion vectors. Only COMPACT and OVERWRITE snapshots can, so only those are
     * read. An expired snapshot counts as a conflict, since what it changed is unknown.
     */
    static String conflict(
            FileStoreTable table,
            String commitUser,
            long base,
            long latest,
            Set<Bucket> buckets,
            Map<Bucket, Set<String>> inputs) {
        Long rewriter = null;
        for (long id = base + 1; id <= latest; id++) {
            Snapshot snapshot;
            try {
                snapshot = table.snapshotManager().tryGetSnapshot(id);
            } catch (FileNotFoundException e) {
                return "snapshot " + id + " expired while this commit was written";
            }
            if (!commitUser.equals(snapshot.commitUser())
                    && snapshot.commitKind() != Snapshot.CommitKind.APPEND) {
                rewriter = id;
                break;
            }
        }
        if (rewriter == null) {
            return null;
        }
        Snapshot before = null;
        if (base > 0) {
            try {
                before = table.snapshotManager().tryGetSnapshot(base);
            } catch (FileNotFoundException e) {
                return "snapshot " + base + ", which this commit's writers read, expired meanwhile";
            }
        }
        Snapshot after = table.snapshotManager().snapshot(latest);
        Map<Bucket, Set<String>> filesBefore = files(table, before, buckets);
        Map<Bucket, Set<String>> filesAfter = files(table, after, buckets);
        Map<Bucket, Set<String>> vectorsBefore = deletionVectors(table, before, buckets);
        Map<Bucket, Set<String>> vectorsAfter = deletionVectors(table, after, buckets);
        for (Bucket bucket : buckets) {
            Set<String> kept = filesAfter.getOrDefault(bucket, Set.of());
            // Inputs may be newer than base (writers restore when they start): they must remain.
            boolean removed =
                    !kept.containsAll(filesBefore.getOrDefault(bucket, Set.of()))
                            || !kept.containsAll(inputs.getOrDefault(bucket, Set.of()));
            boolean vectorsChanged =
                    !vectorsBefore
                            .getOrDefault(bucket, Set.of())
                            .equals(vectorsAfter.getOrDefault(bucket, Set.of()));
            if (removed || vectorsChanged) {
                return String.format(
                        "another commit since snapshot %d (first at snapshot %d) %s bucket %d of the same partition",
                        base,
                        rewriter,
                        removed ? "rewrote files of" : "changed the deletion vectors of",
                        bucket.bucket());
            }
        }
        return null;
    }

    /** Whether another commit's COMPACT or OVERWRITE snapshot landed after {@code since}. */
    static boolean rewrittenSince(FileStoreTable table, String commitUser, long since) {
        Long latest = table.snapshotManager().latestSnapshotIdFromFileSystem();
        if (latest == null) {
            return false;
        }
        for (long id = since + 1; id <= latest; id++) {
            try {
                Snapshot snapshot = table.snapshotManager().tryGetSnapshot(id);
                if (!commitUser.equals(snapshot.commitUser())
                        && snapshot.commitKind() != Snapshot.CommitKind.APPEND) {
                    return true;
                }
            } catch (FileNotFoundException e) {
                return true;
            }
        }
        return false;
    }

    private static List<BinaryRow> partitions(Set<Bucket> buckets) {
        Set<BinaryRow> partitions = new HashSet<>();
        buckets.forEach(b -> partitions.add(b.partition()));
        return new ArrayList<>(partitions);
    }

    private static Map<Bucket, Set<String>> files(
            FileStoreTable table, Snapshot snapshot, Set<Bucket> buckets) {
        Map<Bucket, Set<String>> files = new HashMap<>();
        if (snapshot == null) {
            return files;
        }
        for (ManifestEntry entry :
                table.store()
                        .newScan()
                        .withSnapshot(snapshot)
                        .withPartitionFilter(partitions(buckets))
                        .plan()
                        .files()) {
            Bucket bucket = new Bucket(entry.partition(), entry.bucket());
            if (buckets.contains(bucket)) {
                // A file moved to another level keeps its name but is another entry to Paimon.
                files.computeIfAbsent(bucket, k -> new HashSet<>())
                        .add(entry.file().fileName() + "@" + entry.file().level());
            }
        }
        return files;
    }

    private static Map<Bucket, Set<String>> deletionVectors(
            FileStoreTable table, Snapshot snapshot, Set<Bucket> buckets) {
        Map<Bucket, Set<String>> vectors = new HashMap<>();
        if (snapshot == null) {
            return vectors;
        }
        Map<Pair<BinaryRow, Integer>, List<IndexFileMeta>> indexes =
                table.store()
                        .newIndexFileHandler()
                        .scan(snapshot, DELETION_VECTORS_INDEX, new HashSet<>(partitions(buckets)));
        for (Map.Entry<Pair<BinaryRow, Integer>, List<IndexFileMeta>> e : indexes.entrySet()) {
            Bucket bucket = new Bucket(e.getKey().getLeft(), e.getKey().getRight());
            if (buckets.contains(bucket)) {
                Set<String> names = vectors.computeIfAbsent(bucket, k -> new HashSet<>());
                e.getValue().forEach(f -> names.add(f.fileName()));
            }
        }
        return vectors;
    }
}
