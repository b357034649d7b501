package dev.strata.spark.write;

import dev.strata.spark.errors.StrataErrors;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
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
import org.apache.paimon.options.Options;
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
 * <p>A Paimon commit of messages that both add files and compact lands as up to two snapshots:
 * first the APPEND (or OVERWRITE) part, then the COMPACT part, each checked for conflicts on its
 * own. So a commit that throws may have landed completely, partly or not at all, and deleting
 * "everything the messages added" after a failure would delete files that a committed snapshot
 * references. Therefore each {@link Commit} uses a commit user of its own, remembers the latest
 * snapshot before it started, and after any failure reads the snapshots written since then to find
 * out which parts landed (Paimon records the commit user in every snapshot). Only the parts that
 * did not land are cleaned up, and even then a file is never deleted if its name is referenced by
 * the latest snapshot, a landed part or a compaction's inputs (a file moved up a level keeps its
 * name).
 *
 * <p>Outcomes:
 *
 * <ul>
 *   <li>everything landed: success, also when Paimon failed afterwards (for example in snapshot
 *       expiry);
 *   <li>the adding part landed but the compaction was given up (another writer compacted or
 *       overwrote the same files): the compaction's new files are deleted and the commit succeeds
 *       with the compaction dropped (the rows are committed; the next compaction of those buckets
 *       merges them);
 *   <li>nothing landed: every new file is deleted and {@link CommitFailedException} says so.
 * </ul>
 *
 * <p>Each commit also owns a pending directory ({@link PendingMessages}) where its tasks record
 * their messages before returning them. An abort cleans up the recorded messages together with the
 * ones it was given, so the files of a task whose message never reached the driver are deleted too;
 * a commit deletes the files of recorded attempts whose messages it did not commit. Both then
 * delete the directory.
 */
public final class PaimonCommits {

    private static final Logger LOG = LoggerFactory.getLogger(PaimonCommits.class);

    /** Checks and commits of one compacting part before its failure is final. */
    private static final int MAX_CHECKED_ATTEMPTS = 20;

    /** Compactions run again for a statement whose compaction conflicted, before it fails. */
    private static final int MAX_RECOMPACTIONS = 10;

    /** The commits of the recordings open on each thread (see {@link #record()}). */
    private static final ThreadLocal<List<Recording>> RECORDINGS =
            ThreadLocal.withInitial(ArrayList::new);

    private PaimonCommits() {}

    /**
     * Starts recording the snapshots that commits made on this thread create, until the recording
     * is closed: how a caller that runs a statement learns the statement's own snapshots, whatever
     * other writers commit at the same time (Spark commits a statement's writes and runs its
     * procedures on the thread that runs the statement).
     */
    public static Recording record() {
        Recording recording = new Recording();
        RECORDINGS.get().add(recording);
        return recording;
    }

    /** The snapshots commits created on one thread while it was open, per table path. */
    public static final class Recording implements AutoCloseable {
        // A set: a commit that runs another inside it (a compaction run again after a lost race)
        // reports the inner commit's snapshots again with its own.
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
     * Starts a commit of {@code table}; {@code overwritePartition} non-null makes it an INSERT
     * OVERWRITE.
     *
     * @param what what is committed, for messages: "the compaction of lake.db.t"
     */
    public static Commit prepare(
            FileStoreTable table, Map<String, String> overwritePartition, String what) {
        return new Commit(table, overwritePartition, what);
    }

    /** Commits {@code messages} in one Paimon commit (see {@link Commit#commit}). */
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

    /**
     * Deletes what {@code messages} would have added, for messages that were never handed to a
     * commit (a failed task, a procedure that gave up): data, changelog and index files, never a
     * compaction input.
     */
    public static void discard(FileStoreTable table, List<CommitMessage> messages)
            throws IOException {
        cleanUp(table, messages, true, true, Set.of());
    }

    /** What a commit did. */
    public static final class Outcome {
        private final List<Long> snapshots;
        private final boolean compactionDropped;

        Outcome(List<Long> snapshots, boolean compactionDropped) {
            this.snapshots = snapshots;
            this.compactionDropped = compactionDropped;
        }

        /**
         * The ids of the snapshots this commit created, oldest first (empty when there was nothing
         * to commit).
         */
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

    /**
     * A commit that failed where Strata could not tell whether it landed, so it deleted nothing.
     */
    static final class UndeterminedCommitException extends CommitFailedException {
        private static final long serialVersionUID = 1L;

        UndeterminedCommitException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * One commit attempt of a job. Created before the job's tasks write (its baseline is the latest
     * snapshot at that time), then either {@link #commit}ted or {@link #abort}ed; both may be
     * called in that order (Spark aborts a write whose commit threw), the abort then does nothing
     * more.
     */
    public static final class Commit {
        private final FileStoreTable table;
        private final Map<String, String> overwritePartition;
        private final String what;
        private final String commitUser = "strata-" + UUID.randomUUID();
        private final PendingMessages pending;
        private final long baseline;
        private volatile boolean settled;

        private Commit(FileStoreTable table, Map<String, String> overwritePartition, String what) {
            dev.strata.spark.catalog.CommitSafety.checkTable(table, what);
            this.table = table;
            this.overwritePartition = overwritePartition;
            this.what = what;
            this.pending = PendingMessages.of(table, commitUser);
            Long latest = table.snapshotManager().latestSnapshotIdFromFileSystem();
            this.baseline = latest == null ? 0 : latest;
        }

        /** The commit user recorded in the snapshots this commit creates. */
        public String commitUser() {
            return commitUser;
        }

        /**
         * Where this commit's tasks record their messages before returning them: the driver's abort
         * finds the files of tasks whose messages it never got there. Ship it to the tasks; see
         * {@link PendingMessages}.
         */
        public PendingMessages pending() {
            return pending;
        }

        /**
         * Commits {@code messages}; see the class comment for the outcomes.
         *
         * @throws CommitFailedException when nothing landed (every new file was deleted)
         */
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
                // Whether the messages landed is unknown: their files and the pending directory
                // stay for
                // remove_orphan_files, which decides by what the snapshots reference.
                settle = false;
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
            Set<BucketConflicts.Bucket> rewritten =
                    overwrite || !BucketConflicts.applies(table)
                            ? Set.of()
                            : BucketConflicts.rewritten(messages);
            if (rewritten.isEmpty()) {
                return record(commitWhole(messages));
            }
            return record(commitChecked(messages, rewritten));
        }

        /** One Paimon commit of all parts, under Paimon's own conflict rules only. */
        private Outcome record(Outcome outcome) {
            for (Recording recording : RECORDINGS.get()) {
                recording
                        .snapshots
                        .computeIfAbsent(table.location().toString(), k -> new TreeSet<>())
                        .addAll(outcome.snapshots());
            }
            return outcome;
        }

        private Outcome commitWhole(List<CommitMessage> messages) {
            try {
                paimonCommit(table, messages);
            } catch (Throwable e) {
                return recover(messages, e);
            }
            return new Outcome(landedAfterSuccess(), false);
        }

        private List<Long> landedAfterSuccess() {
            try {
                return landed().ids;
            } catch (RuntimeException e) {
                // Paimon returned normally, so the commit landed; only reading back its snapshot
                // ids failed.
                LOG.warn(
                        "The commit of {} landed, but its snapshots could not be read back: {}",
                        what,
                        StrataErrors.rootMessage(e));
                return List.of();
            }
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
         * A commit whose compaction removes files or changes deletion vectors of {@code rewritten}
         * on a table whose reads skip level 0 (see {@link BucketConflicts}): the adding part lands
         * first under Paimon's rules; the compacting part only on a snapshot that no other commit
         * since this commit's baseline changed in those buckets. Paimon's strict mode ({@code
         * commit.strict-mode.last-safe-snapshot} = the snapshot just checked) makes Paimon refuse
         * the compacting part if another compaction lands between that check and the commit, so the
         * check and the commit are one step; after such a refusal the new snapshots are checked in
         * turn. A compacting part that conflicts is given up: a pure compaction then fails with
         * {@link ConcurrentChangeException} (nothing committed), and a statement whose rows landed
         * compacts its level-0 files again from the latest snapshot, so that what it committed is
         * visible when it returns.
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
                    return new Outcome(landedAfterSuccess(), false);
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
                        // Refused after other writers' compactions each time: a conflict.
                        conflict = recheck ? StrataErrors.rootMessage(e) : null;
                        break;
                    }
                    // Another compaction landed after the check: check the new snapshots.
                }
            }
            Landed landed = landedOrUndetermined(failure);
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
         * After the compaction of a statement whose rows landed (snapshots {@code landed}) was
         * given up: compacts the level-0 files of {@code buckets} from the latest snapshot on the
         * driver, committing through the same checked path, until it lands (reads of this table
         * skip level 0, so until then the statement's change is invisible).
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

        /** The adding ({@code append}) or the compacting part of each message. */
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
         * After a commit of {@code committed} (landed wholly, partly or not at all and cleaned up):
         * deletes the files of recorded task attempts whose messages are not among {@code
         * committed} (zombie or duplicate attempts), never a file {@code committed} names or the
         * latest snapshot references, then the pending directory. Failures are logged, not thrown:
         * the commit's own outcome stands, and the files are unreferenced, so remove_orphan_files
         * finds them.
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
         * Drops whole partitions (or, with {@code partitions} null, every row of the table) in one
         * OVERWRITE snapshot, writing no data file; nothing to commit when {@code partitions} is
         * empty. A failure that still landed the snapshot counts as success, as for {@link
         * #commit}.
         *
         * @param partitions partition specs (column name to Paimon's partition value string)
         * @throws CommitFailedException when the snapshot did not land
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
         * Deletes what the messages added, except what a snapshot of this commit already
         * references. Safe to call after {@link #commit} (it then does nothing) and when some tasks
         * never reported.
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

        /**
         * Gives up this commit without committing: deletes what {@code messages} and every recorded
         * task attempt would have added (as {@link #abort}), then the pending directory.
         */
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

        /** The snapshots since the baseline that this commit wrote. */
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

    /** Which parts of one commit landed. */
    private static final class Landed {
        final List<Long> ids = new ArrayList<>();
        boolean append;
        boolean compact;
        Long latest;

        /**
         * Names no clean-up may delete besides the messages' own inputs: the files of a part that
         * landed and the data and index files of the latest snapshot in the messages' partitions (a
         * file another writer's snapshot took over, or one whose snapshot expired meanwhile).
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
     * Which of {@code names} a snapshot of the table added, in the messages' partitions: files a
     * landed commit wrote and a later compaction replaced are still read by the older snapshots.
     * Reads the delta manifests of every snapshot, which only a clean-up of a writer's own
     * compacted files needs.
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
            Snapshot snapshot;
            try {
                snapshot = table.snapshotManager().tryGetSnapshot(id);
            } catch (FileNotFoundException e) {
                continue;
            }
            for (ManifestEntry entry :
                    table.store()
                            .newScan()
                            .withSnapshot(snapshot)
                            .withKind(ScanMode.DELTA)
                            .withPartitionFilter(partitions)
                            .plan()
                            .files()) {
                if (names.contains(entry.file().fileName())) {
                    found.add(entry.file().fileName());
                }
            }
        }
        return found;
    }

    /** Every file name {@code messages} add, compact away or delete. */
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
     * Deletes the new files of the selected parts of {@code messages}, except {@code keep} and the
     * messages' inputs (compaction inputs and deleted files: a compaction that only moves a file up
     * a level "adds" a file of the same name). When the adding part is cleaned up, a compaction
     * input that the messages themselves add (a writer compacting its own level-0 files, as on
     * deletion-vector tables) is not an input of the table but a file of this commit, and is
     * deleted too.
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
}
