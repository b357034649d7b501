package dev.strata.spark.write;

import dev.strata.spark.catalog.PartitionSelector;
import dev.strata.spark.errors.StrataErrors;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.manifest.SimpleFileEntry;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.InnerTableCommit;
import org.apache.paimon.table.source.ScanMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one commit-or-clean-up path of every Strata writer and procedure.
 *
 * <p>Paimon lands a commit that both adds and compacts as up to two snapshots (APPEND or OVERWRITE,
 * then COMPACT), each conflict-checked on its own, so a commit that throws may have landed wholly,
 * partly or not at all. Each {@link Commit} therefore has its own commit user and a baseline
 * snapshot, and after a failure reads the snapshots since the baseline to see which parts landed.
 * Only parts that did not land are cleaned up, and never a file named by the latest snapshot, a
 * landed part or a compaction's inputs (a file moved up a level keeps its name). Outcomes: all
 * landed is success (also when Paimon failed afterwards); rows landed but compaction given up
 * deletes the compaction's files and succeeds; nothing landed deletes every new file and throws
 * {@link CommitFailedException}.
 *
 * <p>Tasks record their messages in the commit's {@link PendingMessages} directory, so an abort
 * also deletes the files of tasks whose message never reached the driver, and a commit deletes
 * those of recorded attempts it did not commit.
 */
public final class PaimonCommits {

    private static final Logger LOG = LoggerFactory.getLogger(PaimonCommits.class);

    /** Checks and commits of one compacting part before its failure is final. */
    private static final int MAX_CHECKED_ATTEMPTS = 20;

    /** Compactions run again for a statement whose compaction conflicted, before it fails. */
    private static final int MAX_RECOMPACTIONS = 10;

    private static final ThreadLocal<List<Recording>> RECORDINGS =
            ThreadLocal.withInitial(ArrayList::new);

    private PaimonCommits() {}

    /**
     * Records the snapshots that commits on this thread create until closed, so a statement learns
     * its own snapshots despite concurrent writers (Spark commits a statement's writes and runs its
     * procedures on the statement's thread).
     */
    public static Recording record() {
        Recording recording = new Recording();
        RECORDINGS.get().add(recording);
        return recording;
    }

    /** The snapshots commits created on one thread while it was open, per table path. */
    public static final class Recording implements AutoCloseable {
        // A set: a commit that runs another inside it reports the inner snapshots again.
        private final Map<String, TreeSet<Long>> snapshots = new java.util.LinkedHashMap<>();

        private Recording() {}

        /** The snapshot ids created in {@code table} while recording, oldest first. */
        public List<Long> snapshots(FileStoreTable table) {
            TreeSet<Long> ids = snapshots.get(table.location().toString());
            return ids == null ? List.of() : List.copyOf(ids);
        }

        @Override
        public void close() {
            RECORDINGS.get().remove(this);
        }
    }

    /**
     * Starts a commit; non-null {@code overwritePartition} makes it an INSERT OVERWRITE. {@code
     * what} names the commit in messages ("the compaction of lake.db.t").
     */
    public static Commit prepare(
            FileStoreTable table, Map<String, String> overwritePartition, String what) {
        return new Commit(table, overwritePartition, what);
    }

    public static Outcome commit(FileStoreTable table, List<CommitMessage> messages, String what) {
        Commit commit;
        try {
            commit = prepare(table, null, what);
        } catch (RuntimeException e) {
            try {
                discard(table, messages);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw new CommitFailedException(
                    String.format(
                            "Cannot commit %s: %s. No snapshot was created and the files of this commit were deleted; "
                                    + "run the statement again.",
                            what, StrataErrors.rootMessage(e)),
                    e);
        }
        return commit.commit(messages);
    }

    /** Deletes the files of messages never handed to a commit, never a compaction input. */
    public static void discard(FileStoreTable table, List<CommitMessage> messages)
            throws IOException {
        cleanUp(table, messages, true, true, Set.of());
    }

    public static final class Outcome {
        private final List<Long> snapshots;
        private final boolean compactionDropped;

        Outcome(List<Long> snapshots, boolean compactionDropped) {
            this.snapshots = snapshots;
            this.compactionDropped = compactionDropped;
        }

        /** Snapshot ids this commit created, oldest first. */
        public List<Long> snapshots() {
            return snapshots;
        }

        /** Whether the rows landed but their compaction was given up and its files deleted. */
        public boolean compactionDropped() {
            return compactionDropped;
        }
    }

    /** A commit that failed and left nothing behind: no snapshot and none of its new files. */
    public static class CommitFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CommitFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A compaction that another commit's change of the same buckets made obsolete: nothing was
     * committed and its files were deleted; running it again from the latest snapshot succeeds.
     */
    public static final class ConcurrentChangeException extends CommitFailedException {
        private static final long serialVersionUID = 1L;

        ConcurrentChangeException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Whether the commit landed is unknown, so nothing was deleted. */
    static final class UndeterminedCommitException extends CommitFailedException {
        private static final long serialVersionUID = 1L;

        UndeterminedCommitException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * One commit attempt of a job, created before its tasks write (the baseline is the latest
     * snapshot then). Spark aborts a write whose commit threw, so abort after commit is a no-op.
     */
    public static final class Commit {
        /** The table as the catalog gave it, with the catalog's snapshot cache. */
        private final FileStoreTable shared;

        /** The same table reading every snapshot from the file system: see {@link #uncached}. */
        private final FileStoreTable table;

        private final Map<String, String> overwritePartition;
        private final String what;
        private final String commitUser = "strata-" + UUID.randomUUID();
        private final PendingMessages pending;
        private final long baseline;
        private volatile boolean settled;

        private Commit(FileStoreTable table, Map<String, String> overwritePartition, String what) {
            dev.strata.spark.catalog.CommitSafety.checkTable(table, what);
            this.shared = table;
            this.table = uncached(table);
            this.overwritePartition = overwritePartition;
            this.what = what;
            this.pending = PendingMessages.of(table, commitUser);
            Long latest = table.snapshotManager().latestSnapshotIdFromFileSystem();
            this.baseline = latest == null ? 0 : latest;
        }

        public String commitUser() {
            return commitUser;
        }

        /** Ship to the tasks: they record their messages there before returning them. */
        public PendingMessages pending() {
            return pending;
        }

        /**
         * A catalog's snapshot cache keeps a snapshot by its path. When another engine's rename
         * replaced this commit's snapshot file after this commit read it back, the cached copy hid
         * the replacement from the checks here, and Paimon based the statement's compaction on it,
         * dropping the other engine's files from the table. Commits and their checks read snapshots
         * from the file system.
         */
        private static FileStoreTable uncached(FileStoreTable table) {
            FileStoreTable copy = table.copy(Map.of());
            copy.setSnapshotCache(null);
            return copy;
        }

        /** See the class comment for the outcomes. */
        public Outcome commit(List<CommitMessage> messages) {
            if (settled) {
                throw new IllegalStateException(
                        "Cannot commit " + what + ": this commit was already used.");
            }
            settled = true;
            boolean settle = true;
            try {
                return commitOnce(messages);
            } catch (UndeterminedCommitException e) {
                // Unknown whether it landed: leave files to remove_orphan_files.
                settle = false;
                shared.snapshotManager().invalidateCache();
                throw e;
            } catch (RuntimeException e) {
                // The session's readers must not keep a cached snapshot another writer replaced.
                shared.snapshotManager().invalidateCache();
                throw e;
            } finally {
                if (settle) {
                    settlePending(messages);
                }
            }
        }

        private Outcome commitOnce(List<CommitMessage> messages) {
            boolean overwrite = overwritePartition != null;
            if (!overwrite && messages.stream().allMatch(m -> ((CommitMessageImpl) m).isEmpty())) {
                return record(new Outcome(List.of(), false));
            }
            IllegalStateException refused;
            try {
                refused = replacedTable();
                if (refused == null) {
                    refused =
                            overwrite
                                    ? outsideOverwrittenPartition(messages)
                                    : bucketCountMismatch(messages);
                }
                if (refused == null && overwrite) {
                    refused = writtenMeanwhile(messages);
                }
            } catch (RuntimeException e) {
                // Nothing was committed yet.
                cleanUpAfterFailure(messages, true, true, new Landed(), e);
                throw failed(e);
            }
            if (refused != null) {
                cleanUpAfterFailure(messages, true, true, new Landed(), refused);
                throw refused;
            }
            Set<BucketConflicts.Bucket> rewritten =
                    overwrite || !BucketConflicts.applies(table)
                            ? Set.of()
                            : BucketConflicts.rewritten(messages);
            if (rewritten.isEmpty()) {
                return record(commitWhole(messages));
            }
            return record(commitChecked(messages, rewritten));
        }

        /**
         * A table dropped and created again, or replaced, at the same path while the statement ran:
         * its files were written in the old table's schema, which the new table reads with its own
         * schema of the same id (garbage values, unreadable files). The schema this write was
         * planned with must still be the table's schema of that id; later schemas (ALTER TABLE by
         * another session) are fine, as Paimon reads files by their schema id.
         */
        private IllegalStateException replacedTable() {
            TableSchema planned = table.schema();
            SchemaManager schemas = table.schemaManager();
            TableSchema now =
                    schemas.schemaExists(planned.id()) ? schemas.schema(planned.id()) : null;
            if (now != null
                    && now.timeMillis() == planned.timeMillis()
                    && now.fields().equals(planned.fields())) {
                return null;
            }
            return new IllegalStateException(
                    String.format(
                            "Cannot commit %s: the table was dropped and created again, or replaced,"
                                    + " while the statement ran (its schema %d is %s), so its rows"
                                    + " would be read with another table's columns. Nothing was"
                                    + " committed; run the statement again.",
                            what, planned.id(), now == null ? "gone" : "another table's"));
        }

        /**
         * Files written with another bucket count than the partition's: after ALTER TABLE SET
         * 'bucket', a key hashes to another bucket than its earlier versions, so a primary key
         * would hold two live rows. Paimon refuses such a commit only when it also deletes files
         * (its compactions); a commit that only adds files is checked here.
         */
        private IllegalStateException bucketCountMismatch(List<CommitMessage> messages) {
            Map<BinaryRow, Integer> written = new HashMap<>();
            for (CommitMessage m : messages) {
                CommitMessageImpl message = (CommitMessageImpl) m;
                Integer total = message.totalBuckets();
                if (!message.isEmpty() && total != null && total > 0) {
                    written.putIfAbsent(message.partition(), total);
                }
            }
            if (written.isEmpty()) {
                return null;
            }
            // Live file entries, not partition entries: those merge an overwrite's deleted and
            // added files in no fixed order and may carry the old count.
            for (SimpleFileEntry existing :
                    table.store()
                            .newScan()
                            .withPartitionFilter(new ArrayList<>(written.keySet()))
                            .readSimpleEntries()) {
                Integer now = written.get(existing.partition());
                if (now == null || existing.totalBuckets() <= 0 || existing.totalBuckets() == now) {
                    continue;
                }
                return new IllegalStateException(
                        bucketCountMessage(
                                "commit " + what,
                                table.partitionKeys().isEmpty()
                                        ? null
                                        : PartitionSelector.describe(
                                                table.rowType().project(table.partitionKeys()),
                                                existing.partition()),
                                existing.totalBuckets(),
                                now));
            }
            return null;
        }

        /**
         * Rows of another partition than the one a static overwrite replaces ({@code INSERT INTO t
         * REPLACE WHERE dt = 'd2' SELECT ... 'd1'}): Paimon refuses the commit with "the changes in
         * dt=d1/ does not belong to this partition", which read as a race to run again.
         */
        private IllegalStateException outsideOverwrittenPartition(List<CommitMessage> messages) {
            if (overwritePartition == null || overwritePartition.isEmpty()) {
                return null;
            }
            CoreOptions options = table.coreOptions();
            org.apache.paimon.types.RowType partitionType =
                    table.rowType().project(table.partitionKeys());
            org.apache.paimon.partition.PartitionPredicate replaced =
                    org.apache.paimon.partition.PartitionPredicate.fromMap(
                            partitionType, overwritePartition, options.partitionDefaultName());
            for (CommitMessage m : messages) {
                CommitMessageImpl message = (CommitMessageImpl) m;
                if (message.isEmpty() || replaced.test(message.partition())) {
                    continue;
                }
                return new IllegalStateException(
                        String.format(
                                "Cannot commit %s: it replaces partition %s, but writes rows of"
                                        + " partition %s. Write only rows of the partition it"
                                        + " replaces (filter the SELECT on %s). Nothing was"
                                        + " committed.",
                                what,
                                // In the table's key order, as the rows' partition below.
                                table.partitionKeys().stream()
                                        .filter(overwritePartition::containsKey)
                                        .map(k -> k + "=" + overwritePartition.get(k))
                                        .collect(java.util.stream.Collectors.joining("/")),
                                PartitionSelector.describe(partitionType, message.partition()),
                                String.join(", ", overwritePartition.keySet())));
            }
            return null;
        }

        /**
         * Rows another writer committed, after this overwrite started, into partitions it replaces:
         * Paimon's overwrite deletes whatever the partitions hold when it commits, so they would be
         * lost without a trace, and an overwrite that read its own partition (the bucket rescale,
         * {@code SELECT ... max(v) + 1}) matches no order of the two statements. Refused, as
         * Iceberg's serializable overwrite refuses it; compactions only rewrite rows.
         */
        private IllegalStateException writtenMeanwhile(List<CommitMessage> messages) {
            Long latest = table.snapshotManager().latestSnapshotIdFromFileSystem();
            if (latest == null || latest <= baseline) {
                return null;
            }
            org.apache.paimon.types.RowType partitionType =
                    table.rowType().project(table.partitionKeys());
            java.util.function.Predicate<BinaryRow> replaced;
            if (!overwritePartition.isEmpty()) {
                replaced =
                        org.apache.paimon.partition.PartitionPredicate.fromMap(
                                        partitionType,
                                        overwritePartition,
                                        table.coreOptions().partitionDefaultName())
                                ::test;
            } else if (!table.partitionKeys().isEmpty()
                    && table.coreOptions().dynamicPartitionOverwrite()) {
                Set<BinaryRow> written = new HashSet<>();
                for (CommitMessage m : messages) {
                    if (!((CommitMessageImpl) m).isEmpty()) {
                        written.add(m.partition());
                    }
                }
                replaced = written::contains;
            } else {
                replaced = partition -> true;
            }
            for (long id = baseline + 1; id <= latest; id++) {
                Snapshot snapshot = snapshotOrNull(table, id);
                if (snapshot == null
                        || snapshot.commitUser().equals(commitUser)
                        || snapshot.commitKind() == Snapshot.CommitKind.COMPACT) {
                    continue;
                }
                for (ManifestEntry entry : delta(table, snapshot, null)) {
                    if (replaced.test(entry.partition())) {
                        return new IllegalStateException(
                                String.format(
                                        "Cannot commit %s: another session wrote into %s after"
                                                + " this statement started (snapshot %d, %s), and"
                                                + " the overwrite would delete those rows. Nothing"
                                                + " was committed; run the statement again.",
                                        what,
                                        table.partitionKeys().isEmpty()
                                                ? "the table"
                                                : "partition "
                                                        + PartitionSelector.describe(
                                                                partitionType, entry.partition()),
                                        id,
                                        snapshot.commitKind()));
                    }
                }
            }
            return null;
        }

        private Outcome record(Outcome outcome) {
            for (Recording recording : RECORDINGS.get()) {
                recording
                        .snapshots
                        .computeIfAbsent(table.location().toString(), k -> new TreeSet<>())
                        .addAll(outcome.snapshots());
            }
            return outcome;
        }

        /** One Paimon commit of all parts, under Paimon's own conflict rules only. */
        private Outcome commitWhole(List<CommitMessage> messages) {
            try {
                paimonCommit(table, messages);
            } catch (Throwable e) {
                return recover(messages, e);
            }
            Landed landed = landedAfterSuccessOrNull();
            // Only an overwrite commits empty messages, and Paimon may then write no snapshot.
            boolean changes = messages.stream().anyMatch(m -> !((CommitMessageImpl) m).isEmpty());
            if (landed != null && changes && (replaced(landed) || appendLost(landed, messages))) {
                return recover(messages, replacedFailure());
            }
            return new Outcome(landed == null ? List.of() : landed.ids, false);
        }

        private Landed landedAfterSuccessOrNull() {
            try {
                return landed();
            } catch (RuntimeException e) {
                // Paimon returned normally, so the commit landed.
                LOG.warn(
                        "The commit of {} landed, but its snapshots could not be read back: {}",
                        what,
                        StrataErrors.rootMessage(e));
                return null;
            }
        }

        /**
         * Whether Paimon returned normally but no snapshot since the baseline is this commit's,
         * none having expired meanwhile: another writer's snapshot file was renamed over this
         * one's, as a rename that replaces files allows (another engine's writer on a local
         * warehouse, any writer on an object store without a lock).
         */
        private static boolean replaced(Landed landed) {
            return landed.ids.isEmpty() && !landed.missing;
        }

        /**
         * Whether the rows' snapshot is gone although a later one of this commit (its compaction)
         * landed: another writer's snapshot replaced it after it was read back.
         */
        private boolean appendLost(Landed landed, List<CommitMessage> messages) {
            boolean hasAppend =
                    overwritePartition != null
                            || messages.stream().anyMatch(PaimonCommits::hasAppendPart);
            return hasAppend && !landed.append && !landed.missing;
        }

        private IllegalStateException replacedFailure() {
            return new IllegalStateException(
                    "Paimon committed it, but another writer's snapshot of the same id replaced it: the "
                            + "warehouse's rename replaces files (give it a catalog lock, see Concurrent writers)");
        }

        private List<Long> landedAfterSuccess() {
            Landed landed = landedAfterSuccessOrNull();
            return landed == null ? List.of() : landed.ids;
        }

        private void paimonCommit(FileStoreTable target, List<CommitMessage> messages)
                throws Exception {
            try (InnerTableCommit commit =
                    target.newCommit(commitUser).withOverwrite(overwritePartition)) {
                commit.ignoreEmptyCommit(
                        Options.fromMap(target.options())
                                .getOptional(CoreOptions.SNAPSHOT_IGNORE_EMPTY_COMMIT)
                                .orElse(true));
                commit.commit(BatchWriteBuilder.COMMIT_IDENTIFIER, messages);
            }
        }

        /**
         * For a compaction that rewrites {@code rewritten} on a table whose reads skip level 0 (see
         * {@link BucketConflicts}): the adding part lands first under Paimon's rules; the
         * compacting part only on a snapshot where no other commit since the baseline changed those
         * buckets. Strict mode ({@code commit.strict-mode.last-safe-snapshot} = the snapshot just
         * checked) makes check and commit one step: Paimon refuses if another compaction lands in
         * between, and the new snapshots are then checked in turn. On conflict a pure compaction
         * throws {@link ConcurrentChangeException}; a statement whose rows landed compacts its
         * level-0 files again so its change is visible when it returns.
         */
        private Outcome commitChecked(
                List<CommitMessage> messages, Set<BucketConflicts.Bucket> rewritten) {
            List<CommitMessage> appendPart = part(messages, true);
            List<CommitMessage> compactPart = part(messages, false);
            boolean appended = false;
            if (!appendPart.isEmpty()) {
                try {
                    paimonCommit(table, appendPart);
                } catch (Throwable e) {
                    Landed landed = landedOrUndetermined(e);
                    if (!landed.append) {
                        cleanUpAfterFailure(messages, true, true, landed, e);
                        throw failed(e);
                    }
                    LOG.warn(
                            "The rows of {} landed (snapshots {}), but Paimon failed afterwards: {}",
                            what,
                            landed.ids,
                            StrataErrors.rootMessage(e));
                }
                Landed landed = landedAfterSuccessOrNull();
                if (landed != null && replaced(landed)) {
                    IllegalStateException e = replacedFailure();
                    cleanUpAfterFailure(messages, true, true, landed, e);
                    throw failed(e);
                }
                appended = true;
            }
            Map<BucketConflicts.Bucket, Set<String>> inputs = BucketConflicts.inputs(compactPart);
            String conflict;
            Throwable failure = null;
            for (int attempt = 1; ; attempt++) {
                long latest;
                try {
                    Long latestId = table.snapshotManager().latestSnapshotIdFromFileSystem();
                    latest = latestId == null ? 0 : latestId;
                    conflict =
                            BucketConflicts.conflict(
                                    table, commitUser, baseline, latest, rewritten, inputs);
                } catch (RuntimeException e) {
                    failure = e;
                    conflict = null;
                    break;
                }
                if (conflict != null) {
                    break;
                }
                try {
                    paimonCommit(
                            table.copy(
                                    Map.of(
                                            CoreOptions.COMMIT_STRICT_MODE_LAST_SAFE_SNAPSHOT.key(),
                                            Long.toString(latest))),
                            compactPart);
                    Landed compacted = landedAfterSuccessOrNull();
                    if (compacted != null && appendLost(compacted, messages)) {
                        // Replaced after the check above read it back.
                        return recover(messages, replacedFailure());
                    }
                    return new Outcome(compacted == null ? List.of() : compacted.ids, false);
                } catch (Throwable e) {
                    Landed landed = landedOrUndetermined(e);
                    if (landed.compact) {
                        LOG.warn(
                                "The commit of {} landed (snapshots {}), but Paimon failed afterwards: {}",
                                what,
                                landed.ids,
                                StrataErrors.rootMessage(e));
                        return new Outcome(landed.ids, false);
                    }
                    boolean recheck;
                    try {
                        recheck = BucketConflicts.rewrittenSince(table, commitUser, latest);
                    } catch (RuntimeException check) {
                        e.addSuppressed(check);
                        recheck = false;
                    }
                    if (!recheck || attempt >= MAX_CHECKED_ATTEMPTS) {
                        failure = e;
                        // Refused after other writers' compactions landed, after the check or
                        // before it (Paimon's own rules also refuse what the check does not look
                        // at, such as their files overlapping ours in a level): a conflict.
                        conflict =
                                recheck || rewrittenSinceBaseline(e)
                                        ? StrataErrors.rootMessage(e)
                                        : null;
                        break;
                    }
                    // Another compaction landed after the check: check the new snapshots.
                }
            }
            Landed landed = landedOrUndetermined(failure);
            if (appended && appendLost(landed, messages)) {
                // The rows' snapshot was replaced after the check above read it back: their
                // compaction then met files it did not expect.
                IllegalStateException replaced = replacedFailure();
                cleanUpAfterFailure(messages, true, true, landed, replaced);
                throw failed(replaced);
            }
            cleanUpAfterFailure(messages, false, true, landed, failure);
            if (!appended && conflict == null) {
                throw failed(failure);
            }
            if (conflict == null) {
                conflict = StrataErrors.rootMessage(failure);
            }
            if (!appended) {
                throw new ConcurrentChangeException(
                        String.format(
                                "Cannot commit %s: %s. No snapshot was created and the files of this commit were "
                                        + "deleted; run it again.",
                                what, conflict),
                        failure);
            }
            return compactAgain(landed.ids, BucketConflicts.appended(appendPart), conflict);
        }

        /**
         * Compacts the level-0 files of {@code buckets} again from the latest snapshot, through the
         * checked path, until it lands: reads skip level 0, so the landed rows are invisible until
         * then.
         */
        private Outcome compactAgain(
                List<Long> landed, Set<BucketConflicts.Bucket> buckets, String conflict) {
            List<Long> ids = new ArrayList<>(landed);
            String reason = conflict;
            for (int round = 1; round <= MAX_RECOMPACTIONS; round++) {
                LOG.info(
                        "The compaction of {} was given up ({}); compacting its buckets again (round {}).",
                        what,
                        reason,
                        round);
                Commit again = new Commit(table, null, what + " (its compaction, run again)");
                List<CommitMessage> messages;
                try (PaimonTaskWriter writer =
                        PaimonTaskWriter.open(table, table.newBatchWriteBuilder())) {
                    for (BucketConflicts.Bucket b : buckets) {
                        writer.compact(b.partition(), b.bucket(), false);
                    }
                    messages = writer.prepareCommit();
                } catch (Exception e) {
                    throw invisible(ids, StrataErrors.rootMessage(e), e);
                }
                try {
                    Outcome outcome = again.commit(messages);
                    ids.addAll(outcome.snapshots());
                    return new Outcome(ids, false);
                } catch (ConcurrentChangeException e) {
                    reason = StrataErrors.rootMessage(e);
                } catch (CommitFailedException e) {
                    throw invisible(ids, StrataErrors.rootMessage(e), e);
                }
            }
            throw invisible(ids, reason, null);
        }

        private IllegalStateException invisible(List<Long> ids, String why, Throwable cause) {
            return new IllegalStateException(
                    String.format(
                            "Cannot make %s visible: its rows were committed (snapshots %s), but compacting them "
                                    + "failed: %s. Reads of %s skip uncompacted rows until a compaction moves "
                                    + "them; run CALL <catalog>.sys.compact on the table.",
                            what, ids, why, table.name()),
                    cause);
        }

        private static List<CommitMessage> part(List<CommitMessage> messages, boolean append) {
            List<CommitMessage> part = new ArrayList<>();
            for (CommitMessage message : messages) {
                CommitMessageImpl m = (CommitMessageImpl) message;
                CommitMessageImpl p =
                        new CommitMessageImpl(
                                m.partition(),
                                m.bucket(),
                                m.totalBuckets(),
                                append ? m.newFilesIncrement() : DataIncrement.emptyIncrement(),
                                append ? CompactIncrement.emptyIncrement() : m.compactIncrement());
                if (!p.isEmpty()) {
                    part.add(p);
                }
            }
            return part;
        }

        /** Whether another writer's compaction or overwrite landed since this commit's baseline. */
        private boolean rewrittenSinceBaseline(Throwable failure) {
            try {
                return BucketConflicts.rewrittenSince(table, commitUser, baseline);
            } catch (RuntimeException e) {
                failure.addSuppressed(e);
                return false;
            }
        }

        private Landed landedOrUndetermined(Throwable failure) {
            try {
                return landed();
            } catch (RuntimeException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                }
                throw new UndeterminedCommitException(
                        String.format(
                                "Cannot commit %s: %s. Whether the commit landed could not be determined, so no file "
                                        + "was deleted; look at the table's snapshots, files that no snapshot references "
                                        + "can be removed with remove_orphan_files.",
                                what, StrataErrors.rootMessage(failure == null ? e : failure)),
                        failure == null ? e : failure);
            }
        }

        private void cleanUpAfterFailure(
                List<CommitMessage> messages,
                boolean appendPart,
                boolean compactPart,
                Landed landed,
                Throwable failure) {
            try {
                cleanUp(
                        table,
                        messages,
                        appendPart,
                        compactPart,
                        landed.protectedNames(table, messages));
            } catch (IOException | RuntimeException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                } else {
                    LOG.warn(
                            "Cannot delete the given-up files of {}: {}",
                            what,
                            StrataErrors.rootMessage(e));
                }
            }
        }

        private CommitFailedException failed(Throwable failure) {
            return new CommitFailedException(
                    String.format(
                            "Cannot commit %s: %s. No snapshot was created and the files of this commit were deleted; "
                                    + "run the statement again.",
                            what, StrataErrors.rootMessage(failure)),
                    failure);
        }

        /**
         * Deletes the files of recorded attempts not in {@code committed} (zombie or duplicate
         * attempts), never one {@code committed} names or the latest snapshot references, then the
         * pending directory. Failures are only logged: the commit's outcome stands and
         * remove_orphan_files finds unreferenced files.
         */
        private void settlePending(List<CommitMessage> committed) {
            try {
                List<CommitMessage> recorded = pending.read();
                if (!recorded.isEmpty()) {
                    Set<String> keep = allNames(committed);
                    Landed latestOnly = new Landed();
                    latestOnly.latest = table.snapshotManager().latestSnapshotIdFromFileSystem();
                    keep.addAll(latestOnly.protectedNames(table, recorded));
                    cleanUp(table, recorded, true, true, keep);
                }
                pending.delete();
            } catch (IOException | RuntimeException e) {
                LOG.warn(
                        "Cannot clean up the pending directory {} of {}: {}. Files of task attempts whose messages "
                                + "were not committed may remain; remove_orphan_files removes them.",
                        pending.dir(),
                        what,
                        StrataErrors.rootMessage(e));
            }
        }

        /**
         * Drops whole partitions (null: the whole table) in one OVERWRITE snapshot. {@code
         * partitions} maps column names to Paimon's partition value strings.
         */
        public Outcome dropPartitions(List<Map<String, String>> partitions) {
            if (settled) {
                throw new IllegalStateException(
                        "Cannot commit " + what + ": this commit was already used.");
            }
            settled = true;
            if (partitions != null && partitions.isEmpty()) {
                return new Outcome(List.of(), false);
            }
            try (InnerTableCommit commit = table.newCommit(commitUser)) {
                if (partitions == null) {
                    commit.truncateTable();
                } else {
                    commit.truncatePartitions(partitions);
                }
            } catch (Throwable e) {
                Landed landed;
                try {
                    landed = landed();
                } catch (RuntimeException check) {
                    e.addSuppressed(check);
                    throw new CommitFailedException(
                            String.format(
                                    "Cannot commit %s: %s. Whether the commit landed could not be determined; look at the "
                                            + "table's snapshots before running the statement again.",
                                    what, StrataErrors.rootMessage(e)),
                            e);
                }
                if (landed.append) {
                    LOG.warn(
                            "The commit of {} landed (snapshots {}), but Paimon failed afterwards: {}",
                            what,
                            landed.ids,
                            StrataErrors.rootMessage(e));
                    return record(new Outcome(landed.ids, false));
                }
                throw new CommitFailedException(
                        String.format(
                                "Cannot commit %s: %s. No snapshot was created and no file was changed; run the statement "
                                        + "again.",
                                what, StrataErrors.rootMessage(e)),
                        e);
            }
            return record(new Outcome(landed().ids, false));
        }

        /**
         * Deletes what the messages and recorded attempts added, except what a snapshot of this
         * commit references. A no-op after {@link #commit}.
         */
        public void abort(List<CommitMessage> messages) throws IOException {
            if (settled) {
                return;
            }
            settled = true;
            List<CommitMessage> all = new ArrayList<>(messages);
            IOException unreadable = null;
            try {
                all.addAll(pending.read());
            } catch (IOException e) {
                unreadable = e;
            }
            Landed landed = landed();
            cleanUp(table, all, !landed.append, !landed.compact, landed.protectedNames(table, all));
            if (unreadable != null) {
                throw unreadable;
            }
            pending.delete();
        }

        /** Gives up without committing, as {@link #abort}. */
        public void discard(List<CommitMessage> messages) throws IOException {
            abort(messages);
        }

        private Outcome recover(List<CommitMessage> messages, Throwable failure) {
            Landed landed = landedOrUndetermined(failure);
            boolean hasAppend =
                    overwritePartition != null
                            || messages.stream().anyMatch(PaimonCommits::hasAppendPart);
            boolean hasCompact = messages.stream().anyMatch(PaimonCommits::hasCompactPart);
            boolean appendDone = !hasAppend || landed.append;
            boolean compactDone = !hasCompact || landed.compact;
            if (appendDone && compactDone) {
                LOG.warn(
                        "The commit of {} landed (snapshots {}), but Paimon failed afterwards: {}",
                        what,
                        landed.ids,
                        StrataErrors.rootMessage(failure));
                return new Outcome(landed.ids, false);
            }
            try {
                cleanUp(
                        table,
                        messages,
                        !appendDone,
                        !compactDone,
                        landed.protectedNames(table, messages));
            } catch (IOException | RuntimeException e) {
                failure.addSuppressed(e);
            }
            if (appendDone && hasAppend) {
                LOG.warn(
                        "The rows of {} were committed (snapshots {}), but their compaction was given up and its "
                                + "files deleted: {}. The next compaction of those buckets merges them.",
                        what,
                        landed.ids,
                        StrataErrors.rootMessage(failure));
                return new Outcome(landed.ids, true);
            }
            throw new CommitFailedException(
                    String.format(
                            "Cannot commit %s: %s. No snapshot was created and the files of this commit were deleted; "
                                    + "run the statement again.",
                            what, StrataErrors.rootMessage(failure)),
                    failure);
        }

        private Landed landed() {
            Landed landed = new Landed();
            Long latest = table.snapshotManager().latestSnapshotIdFromFileSystem();
            if (latest == null) {
                return landed;
            }
            for (long id = baseline + 1; id <= latest; id++) {
                Snapshot snapshot;
                try {
                    snapshot = table.snapshotManager().tryGetSnapshot(id);
                } catch (FileNotFoundException e) {
                    // Expired meanwhile: its files are protected by the latest snapshot check.
                    landed.missing = true;
                    continue;
                }
                if (commitUser.equals(snapshot.commitUser())) {
                    landed.ids.add(id);
                    if (snapshot.commitKind() == Snapshot.CommitKind.COMPACT) {
                        landed.compact = true;
                    } else {
                        landed.append = true;
                    }
                }
            }
            landed.latest = latest;
            return landed;
        }
    }

    private static final class Landed {
        final List<Long> ids = new ArrayList<>();
        boolean append;
        boolean compact;

        /** Whether a snapshot since the baseline was gone (expired) when read. */
        boolean missing;

        Long latest;

        /**
         * Names no clean-up may delete: files of a landed part and the latest snapshot's files in
         * the messages' partitions (taken over by another writer, or whose snapshot expired).
         */
        Set<String> protectedNames(FileStoreTable table, List<CommitMessage> messages) {
            Set<String> names = new HashSet<>();
            Set<BinaryRow> partitions = new HashSet<>();
            for (CommitMessage message : messages) {
                CommitMessageImpl m = (CommitMessageImpl) message;
                partitions.add(m.partition());
                if (append) {
                    addedByAppend(m).forEach(names::add);
                }
                if (compact) {
                    addedByCompact(m).forEach(names::add);
                }
            }
            if (latest != null && !partitions.isEmpty()) {
                Snapshot snapshot = table.snapshotManager().snapshot(latest);
                for (ManifestEntry entry :
                        table.store()
                                .newScan()
                                .withSnapshot(snapshot)
                                .withPartitionFilter(new ArrayList<>(partitions))
                                .plan()
                                .files()) {
                    names.add(entry.file().fileName());
                }
                if (snapshot.indexManifest() != null) {
                    for (IndexManifestEntry entry :
                            table.store()
                                    .newIndexFileHandler()
                                    .scan(snapshot, e -> partitions.contains(e.partition()))) {
                        names.add(entry.indexFile().fileName());
                    }
                }
            }
            return names;
        }
    }

    private static boolean hasAppendPart(CommitMessage message) {
        DataIncrement d = ((CommitMessageImpl) message).newFilesIncrement();
        return d != null && !d.isEmpty();
    }

    private static boolean hasCompactPart(CommitMessage message) {
        CompactIncrement c = ((CommitMessageImpl) message).compactIncrement();
        return c != null && !c.isEmpty();
    }

    /**
     * Which of {@code names} any snapshot added: older snapshots still read files a later
     * compaction replaced. Reads every snapshot's delta manifests, so use only when needed.
     */
    private static Set<String> referencedByAnySnapshot(
            FileStoreTable table, List<CommitMessage> messages, Set<String> names) {
        Set<String> found = new HashSet<>();
        Long earliest = table.snapshotManager().earliestSnapshotId();
        Long latest = table.snapshotManager().latestSnapshotIdFromFileSystem();
        if (earliest == null || latest == null) {
            return found;
        }
        List<BinaryRow> partitions = new ArrayList<>();
        messages.forEach(
                m -> {
                    if (!partitions.contains(m.partition())) {
                        partitions.add(m.partition());
                    }
                });
        for (long id = earliest; id <= latest; id++) {
            Snapshot snapshot = snapshotOrNull(table, id);
            if (snapshot == null) {
                continue;
            }
            for (ManifestEntry entry : delta(table, snapshot, partitions)) {
                if (names.contains(entry.file().fileName())) {
                    found.add(entry.file().fileName());
                }
            }
        }
        return found;
    }

    /** Snapshot {@code id}, or null when its file is gone (expired meanwhile). */
    private static Snapshot snapshotOrNull(FileStoreTable table, long id) {
        try {
            return table.snapshotManager().tryGetSnapshot(id);
        } catch (FileNotFoundException e) {
            return null;
        }
    }

    /** The files {@code snapshot} added or deleted, of {@code partitions} (all when null). */
    private static List<ManifestEntry> delta(
            FileStoreTable table, Snapshot snapshot, List<BinaryRow> partitions) {
        org.apache.paimon.operation.FileStoreScan scan =
                table.store().newScan().withSnapshot(snapshot).withKind(ScanMode.DELTA);
        if (partitions != null) {
            scan = scan.withPartitionFilter(partitions);
        }
        return scan.plan().files();
    }

    private static Set<String> allNames(List<CommitMessage> messages) {
        Set<String> names = new HashSet<>();
        for (CommitMessage message : messages) {
            CommitMessageImpl m = (CommitMessageImpl) message;
            names.addAll(addedByAppend(m));
            names.addAll(addedByCompact(m));
            CompactIncrement c = m.compactIncrement();
            if (c != null) {
                c.compactBefore().forEach(f -> names.add(f.fileName()));
                c.deletedIndexFiles().forEach(f -> names.add(f.fileName()));
            }
            DataIncrement d = m.newFilesIncrement();
            if (d != null) {
                d.deletedFiles().forEach(f -> names.add(f.fileName()));
                d.deletedIndexFiles().forEach(f -> names.add(f.fileName()));
            }
        }
        return names;
    }

    private static List<String> addedByAppend(CommitMessageImpl m) {
        List<String> names = new ArrayList<>();
        DataIncrement d = m.newFilesIncrement();
        if (d != null) {
            d.newFiles().forEach(f -> names.add(f.fileName()));
            d.changelogFiles().forEach(f -> names.add(f.fileName()));
            d.newIndexFiles().forEach(f -> names.add(f.fileName()));
        }
        return names;
    }

    private static List<String> addedByCompact(CommitMessageImpl m) {
        List<String> names = new ArrayList<>();
        CompactIncrement c = m.compactIncrement();
        if (c != null) {
            c.compactAfter().forEach(f -> names.add(f.fileName()));
            c.changelogFiles().forEach(f -> names.add(f.fileName()));
            c.newIndexFiles().forEach(f -> names.add(f.fileName()));
        }
        return names;
    }

    /**
     * Deletes the new files of the selected parts, except {@code keep} and the messages' inputs (a
     * compaction that moves a file up a level "adds" the same name). A compaction input the
     * messages themselves add (own level-0 files, as on deletion-vector tables) is deleted with the
     * adding part.
     */
    private static void cleanUp(
            FileStoreTable table,
            List<CommitMessage> messages,
            boolean appendPart,
            boolean compactPart,
            Set<String> keep)
            throws IOException {
        Set<String> own = new HashSet<>();
        if (appendPart) {
            messages.forEach(m -> own.addAll(addedByAppend((CommitMessageImpl) m)));
        }
        Set<String> inputs = new HashSet<>();
        for (CommitMessage message : messages) {
            CompactIncrement c = ((CommitMessageImpl) message).compactIncrement();
            if (c != null) {
                c.compactBefore().forEach(f -> inputs.add(f.fileName()));
                c.deletedIndexFiles().forEach(f -> inputs.add(f.fileName()));
            }
            DataIncrement d = ((CommitMessageImpl) message).newFilesIncrement();
            if (d != null) {
                d.deletedFiles().forEach(f -> inputs.add(f.fileName()));
                d.deletedIndexFiles().forEach(f -> inputs.add(f.fileName()));
            }
        }
        own.retainAll(inputs);
        if (!own.isEmpty()) {
            own.removeAll(referencedByAnySnapshot(table, messages, own));
        }
        inputs.removeAll(own);
        inputs.addAll(keep);
        List<Path> toDelete = new ArrayList<>();
        for (CommitMessage message : messages) {
            CommitMessageImpl m = (CommitMessageImpl) message;
            DataFilePathFactory dataPaths =
                    table.store()
                            .pathFactory()
                            .createDataFilePathFactory(m.partition(), m.bucket());
            List<DataFileMeta> dataFiles = new ArrayList<>();
            List<IndexFileMeta> indexFiles = new ArrayList<>();
            DataIncrement d = m.newFilesIncrement();
            if (appendPart && d != null) {
                dataFiles.addAll(d.newFiles());
                dataFiles.addAll(d.changelogFiles());
                indexFiles.addAll(d.newIndexFiles());
            }
            CompactIncrement c = m.compactIncrement();
            if (compactPart && c != null) {
                dataFiles.addAll(c.compactAfter());
                dataFiles.addAll(c.changelogFiles());
                indexFiles.addAll(c.newIndexFiles());
            }
            for (DataFileMeta file : dataFiles) {
                if (!inputs.contains(file.fileName())) {
                    toDelete.add(dataPaths.toPath(file));
                }
            }
            for (IndexFileMeta file : indexFiles) {
                if (!inputs.contains(file.fileName())) {
                    toDelete.add(
                            table.store()
                                    .pathFactory()
                                    .indexFileFactory(m.partition(), m.bucket())
                                    .toPath(file));
                }
            }
        }
        IOException problems = null;
        for (Path path : toDelete) {
            try {
                table.fileIO().deleteQuietly(path);
            } catch (RuntimeException e) {
                if (problems == null) {
                    problems =
                            new IOException(
                                    "Cannot delete every uncommitted file of "
                                            + table.name()
                                            + ".");
                }
                problems.addSuppressed(e);
            }
        }
        if (problems != null) {
            throw problems;
        }
    }

    /**
     * The one refusal of a write into files of another bucket count than the table's: {@code
     * partition} as {@code dt=d1}, null for an unpartitioned table.
     */
    static String bucketCountMessage(String doWhat, String partition, int before, int now) {
        boolean partitioned = partition != null;
        return String.format(
                "Cannot %s: the files of %s are in %d buckets, and the table now has 'bucket' ="
                        + " '%d', so a key would land in another bucket than its earlier rows."
                        + " Rescale %s first by overwriting it with its own rows (INSERT OVERWRITE"
                        + " ... %sSELECT * FROM the table%s), or set 'bucket' back to '%d'. Nothing"
                        + " was committed.",
                doWhat,
                partitioned ? "partition " + partition : "the table",
                before,
                now,
                partitioned ? "the partition" : "the table",
                partitioned ? "PARTITION (...) " : "",
                partitioned ? " WHERE ..." : "",
                before);
    }
}
