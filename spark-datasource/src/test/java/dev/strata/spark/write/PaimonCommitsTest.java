package dev.strata.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.PkFullTextRebuild;
import dev.strata.testing.NewestSparkOnly;
import dev.strata.testing.io.FailingFileIO;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.ScanMode;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The commit-or-clean-up path against real Paimon tables: a commit whose compaction loses a race
 * keeps the rows it committed, and a commit failing at any file operation leaves either the old
 * state or the new one, with every file a snapshot references on disk.
 */
@NewestSparkOnly
class PaimonCommitsTest {

    @TempDir Path dir;

    @Test
    void compactionLosingARaceIsCompactedAgainSoItsRowsAreVisible() throws Exception {
        FileStoreTable table = createTable(LocalFileIO.create(), "race");
        commit(table, write(table, 0, 100, true));

        // Two writers start from the same snapshot; both fully compact the bucket, so both
        // compactions delete the same base file and the second one must lose.
        List<CommitMessage> first = write(table, 100, 150, true);
        List<CommitMessage> second = write(table, 150, 200, true);
        commit(table, first);

        PaimonCommits.Commit commit =
                PaimonCommits.prepare(table, null, "the second writer's rows");
        PaimonCommits.Outcome outcome;
        // The statement's own snapshots, as bin/strata-sql reports them: each once, in order
        // (the compaction run again is a commit of its own inside this one).
        try (PaimonCommits.Recording recording = PaimonCommits.record()) {
            outcome = commit.commit(second);
            assertThat(recording.snapshots(table)).isEqualTo(outcome.snapshots());
        }
        // Spark calls abort when a commit throws; a caller that does so anyway must not delete
        // committed files.
        commit.abort(second);

        // Reads of this deletion-vector table skip level 0: the given-up compaction was run
        // again, so the rows are visible without another commit.
        assertThat(outcome.compactionDropped()).isFalse();
        assertThat(outcome.snapshots()).as("rows, then their compaction run again").hasSize(2);
        assertEveryReferencedFileExists(table);
        assertThat(ids(table)).isEqualTo(range(0, 200));
    }

    /**
     * Paimon's overwrite deletes whatever the table holds when it commits: rows another writer
     * committed after the overwrite started would be lost without a trace. The overwrite is refused
     * instead (nothing committed, the other rows kept); without a concurrent write it lands.
     */
    @Test
    void anOverwriteRefusesRowsAnotherWriterCommittedAfterItStarted() throws Exception {
        FileStoreTable table = createTable(LocalFileIO.create(), "overwrite");
        commit(table, write(table, 0, 10, true));
        PaimonCommits.Commit overwrite = PaimonCommits.prepare(table, Map.of(), "the overwrite");
        List<CommitMessage> replacing = overwriteRows(table, 100, 110);
        commit(table, write(table, 10, 20, true));

        assertThatThrownBy(() -> overwrite.commit(replacing))
                .hasMessageContaining(
                        "Cannot commit the overwrite: another session wrote into the table after"
                                + " this statement started (snapshot 3, APPEND), and the overwrite"
                                + " would delete those rows. Nothing was committed");
        assertThat(ids(table)).isEqualTo(range(0, 20));

        PaimonCommits.prepare(table, Map.of(), "the overwrite")
                .commit(overwriteRows(table, 100, 110));
        assertThat(ids(table)).isEqualTo(range(100, 110));
    }

    private List<CommitMessage> overwriteRows(FileStoreTable table, long from, long to)
            throws Exception {
        try (BatchTableWrite write =
                table.newBatchWriteBuilder().withOverwrite(Map.of()).newWrite()) {
            write.withIOManager(IOManager.create(dir.resolve("io").toString()));
            for (long id = from; id < to; id++) {
                write.write(GenericRow.of(id, BinaryString.fromString("v" + id)));
            }
            write.compact(BinaryRow.EMPTY_ROW, 0, true);
            return write.prepareCommit();
        }
    }

    /**
     * A session drops the table and creates another one of the same name (or replaces it) while a
     * write runs: the write's files are in the old table's schema, and the new table's schema of
     * the same id would read them as its own columns. The commit is refused, the new table stays
     * without the write's rows, and its files are deleted.
     */
    @Test
    void aWriteIntoATableDroppedAndCreatedAgainMeanwhileCommitsNothing() throws Exception {
        FileStoreTable table = createTable(LocalFileIO.create(), "recreated");
        commit(table, write(table, 0, 10, false));
        List<CommitMessage> messages = write(table, 10, 20, false);

        LocalFileIO.create().delete(table.location(), true);
        new SchemaManager(LocalFileIO.create(), table.location())
                .createTable(
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT().notNull())
                                .column("v", DataTypes.BIGINT())
                                .primaryKey("id")
                                .option("bucket", "1")
                                .build());
        FileStoreTable created =
                FileStoreTableFactory.create(LocalFileIO.create(), table.location());

        assertThatThrownBy(
                        () -> PaimonCommits.prepare(table, null, "the old write").commit(messages))
                .hasMessageContaining(
                        "Cannot commit the old write: the table was dropped and created again, or"
                                + " replaced, while the statement ran (its schema 0 is another"
                                + " table's)")
                .hasMessageContaining("Nothing was committed");
        assertThat(created.snapshotManager().latestSnapshotIdFromFileSystem()).isNull();
        assertThat(ids(created)).isEmpty();
    }

    /**
     * Two compactions of one bucket planned from different snapshots, each moving its own level-0
     * file up to the same level: neither removes the other's inputs, but their outputs overlap in
     * that level, so Paimon refuses the second. That is a concurrent change (the caller plans the
     * compaction again), not a failure: a statement whose rows landed would otherwise stop
     * compacting them and report them as invisible.
     */
    @Test
    void aCompactionRefusedForAnotherWritersCompactedFilesIsAConcurrentChange() throws Exception {
        FileStoreTable table = createTable(LocalFileIO.create(), "levels");
        commit(table, write(table, 0, 100, true));
        Set<Long> even = new TreeSet<>();
        Set<Long> odd = new TreeSet<>();
        for (long id = 100; id < 200; id++) {
            (id % 2 == 0 ? even : odd).add(id);
        }
        try (BatchTableWrite first = table.newBatchWriteBuilder().newWrite()) {
            // The first writer restores the bucket now, before the second writer's rows exist.
            first.withIOManager(IOManager.create(dir.resolve("io").toString()));
            for (long id : even) {
                first.write(GenericRow.of(id, BinaryString.fromString("v" + id)));
            }
            FileStoreTable writeOnly = table.copy(Map.of("write-only", "true"));
            commit(writeOnly, write(writeOnly, odd));
            PaimonCommits.Commit compaction =
                    PaimonCommits.prepare(table, null, "the compaction of the odd rows");
            List<CommitMessage> compacted = write(table, Set.of());
            commit(table, first.prepareCommit());

            assertThatThrownBy(() -> compaction.commit(compacted))
                    .isInstanceOf(PaimonCommits.ConcurrentChangeException.class)
                    .hasMessageContaining("run it again");
            assertThat(existingFiles(table, compacted)).isEmpty();
        }
        assertEveryReferencedFileExists(table);
        Set<Long> visible = range(0, 100);
        visible.addAll(even);
        assertThat(ids(table)).as("the odd rows wait in level 0").isEqualTo(visible);
        commit(table, write(table, Set.of()));
        assertThat(ids(table)).isEqualTo(range(0, 200));
    }

    /**
     * A rename that replaces files (another engine's writer on a local warehouse, an object store
     * without a lock) lets another writer's snapshot of the same id replace this commit's after
     * Paimon returned. The statement must fail and leave nothing, not report rows that are gone.
     */
    @Test
    void aCommitWhoseSnapshotAnotherWriterReplacedFailsAndLeavesNothing() throws Exception {
        ReplacingFileIO io = new ReplacingFileIO();
        FileStoreTable table = createTable(io, "replaced");
        commit(table, write(table, 0, 10, true));
        // Rows alone (one Paimon commit), then rows with their compaction (rows land first).
        FileStoreTable writeOnly = table.copy(Map.of("write-only", "true"));
        for (List<CommitMessage> messages :
                List.of(write(writeOnly, 10, 20, false), write(table, 20, 30, false))) {
            io.armed = true;
            assertThatThrownBy(() -> PaimonCommits.commit(table, messages, "the write to t"))
                    .isInstanceOf(PaimonCommits.CommitFailedException.class)
                    .hasMessageContaining("another writer's snapshot of the same id replaced it")
                    .hasMessageContaining("run the statement again");
            assertThat(io.armed).as("a snapshot was replaced").isFalse();
            assertThat(existingFiles(table, messages)).isEmpty();
            assertEveryReferencedFileExists(table);
            assertThat(ids(table)).isEqualTo(range(0, 10));
        }
    }

    /**
     * The other writer's rename lands just after this commit read its own snapshot back, and the
     * table has a snapshot cache as a catalog gives it. The cached copy hid the replacement: the
     * statement's compaction was committed on top of its lost snapshot, and the other writer's
     * files dropped out of the table.
     */
    @Test
    void aSnapshotReplacedAfterItWasReadBackIsNotTrustedFromACache() throws Exception {
        ReplacingFileIO io = new ReplacingFileIO();
        FileStoreTable table = createTable(io, "replaced_late");
        table.setSnapshotCache(
                org.apache.paimon.shade.caffeine2.com.github.benmanes.caffeine.cache.Caffeine
                        .newBuilder()
                        .<org.apache.paimon.fs.Path, Snapshot>build());
        commit(table, write(table, 0, 10, true));
        List<CommitMessage> messages = write(table, 20, 30, true);
        io.afterRead = true;
        io.armed = true;
        boolean succeeded;
        try {
            PaimonCommits.commit(table, messages, "the write to t");
            succeeded = true;
        } catch (PaimonCommits.CommitFailedException e) {
            assertThat(e)
                    .hasMessageContaining("another writer's snapshot of the same id replaced it");
            succeeded = false;
        }
        assertThat(io.armed).as("a snapshot was replaced").isFalse();
        // Before: the statement's compaction was based on its own cached snapshot and deleted its
        // rows' file, which the other writer's snapshot on disk does not hold.
        FileStoreTable fresh = FileStoreTableFactory.create(LocalFileIO.create(), table.location());
        long latest = fresh.snapshotManager().latestSnapshotId();
        long replaced = Long.parseLong(io.renamed.getName().substring("snapshot-".length()));
        // (The replacing snapshot is a crafted copy; the commits after it are real.)
        for (long id = replaced + 1; id <= latest; id++) {
            Set<String> before = fileNames(fresh, id - 1, ScanMode.ALL, null);
            Set<String> deleted =
                    fileNames(
                            fresh, id, ScanMode.DELTA, org.apache.paimon.manifest.FileKind.DELETE);
            assertThat(before)
                    .as(
                            "snapshot %s deletes only files of snapshot %s as it is on disk",
                            id, id - 1)
                    .containsAll(deleted);
        }
        assertEveryReferencedFileExists(fresh);
        Set<Long> expected = range(0, 10);
        if (succeeded) {
            expected.addAll(range(20, 30));
        } else {
            assertThat(existingFiles(fresh, messages)).isEmpty();
        }
        assertThat(ids(fresh)).isEqualTo(expected);
    }

    private static Set<String> fileNames(
            FileStoreTable table,
            long snapshot,
            ScanMode mode,
            org.apache.paimon.manifest.FileKind kind) {
        Set<String> names = new TreeSet<>();
        for (ManifestEntry e :
                table.store().newScan().withSnapshot(snapshot).withKind(mode).plan().files()) {
            if (kind == null || e.kind() == kind) {
                names.add(e.file().fileName());
            }
        }
        return names;
    }

    /** Once armed, renames the next snapshot file into place and then another writer's over it. */
    private static final class ReplacingFileIO extends LocalFileIO {
        volatile boolean armed;

        /**
         * Replace the snapshot only at its second read after its rename: Paimon's commit reads it
         * back first (and commits again under the next id if it is not its own), the caller's
         * checks next.
         */
        volatile boolean afterRead;

        private int reads;

        private volatile org.apache.paimon.fs.Path renamed;

        @Override
        public boolean rename(org.apache.paimon.fs.Path src, org.apache.paimon.fs.Path dst)
                throws java.io.IOException {
            boolean done = super.rename(src, dst);
            if (done && armed && renamed == null && dst.getName().matches("snapshot-[0-9]+")) {
                if (afterRead) {
                    renamed = dst;
                } else {
                    replace(dst);
                }
            }
            return done;
        }

        @Override
        public String readFileUtf8(org.apache.paimon.fs.Path path) throws java.io.IOException {
            String content = super.readFileUtf8(path);
            if (armed && path.equals(renamed) && ++reads == 2) {
                replace(path);
            }
            return content;
        }

        private void replace(org.apache.paimon.fs.Path dst) throws java.io.IOException {
            armed = false;
            String name = dst.getName();
            long id = Long.parseLong(name.substring("snapshot-".length()));
            String previous =
                    super.readFileUtf8(
                            new org.apache.paimon.fs.Path(dst.getParent(), "snapshot-" + (id - 1)));
            String other =
                    previous.replaceFirst("\"id\"\\s*:\\s*[0-9]+", "\"id\" : " + id)
                            .replaceFirst(
                                    "\"commitUser\"\\s*:\\s*\"[^\"]*\"",
                                    "\"commitUser\" : \"another-engine\"");
            java.nio.file.Files.writeString(toFile(dst).toPath(), other);
        }
    }

    @Test
    void abortAfterALandedCommitDeletesNothing() throws Exception {
        FileStoreTable table = createTable(LocalFileIO.create(), "abort");
        PaimonCommits.Commit commit = PaimonCommits.prepare(table, null, "rows");
        List<CommitMessage> messages = write(table, 0, 20, true);
        commit.commit(messages);
        commit.abort(messages);
        PaimonCommits.prepare(table, null, "rows again").abort(messages);
        assertEveryReferencedFileExists(table);
        assertThat(ids(table)).isEqualTo(range(0, 20));
    }

    /**
     * Fails each step of a commit once (the first file operation of each run of the same step,
     * {@link #firstOfEachRun}), before and after carrying it out, for the three kinds of commit
     * Strata makes: a write (APPEND plus the writer's own COMPACT), a compaction and an archive
     * rebuild.
     */
    @ParameterizedTest(name = "{0} commit, failing after the operation: {1}")
    @CsvSource({
        "write, false",
        "write, true",
        "compaction, false",
        "compaction, true",
        "rebuild, false",
        "rebuild, true"
    })
    void failingAtAnyOperationLeavesTheOldOrTheNewState(String kind, boolean afterOperation)
            throws Exception {
        FailingFileIO io = new FailingFileIO();
        FileStoreTable table = createTable(io, "sweep-" + kind + "-" + afterOperation);
        commit(table, write(table, 0, 10, true));
        Set<Long> committed = new TreeSet<>(range(0, 10));
        long[] next = {10};
        // What one sweep step commits; rows it adds go into `adding`.
        Set<Long> adding = new TreeSet<>();
        java.util.concurrent.Callable<List<CommitMessage>> messagesOfStep =
                () -> {
                    adding.clear();
                    List<CommitMessage> messages;
                    if (kind.equals("write")) {
                        // Deletion vectors make the writer compact level 0 itself: an APPEND and a
                        // COMPACT part.
                        messages = write(table, next[0], next[0] + 5, false);
                        adding.addAll(range(next[0], next[0] + 5));
                    } else {
                        commit(table, write(table, next[0], next[0] + 5, false));
                        committed.addAll(range(next[0], next[0] + 5));
                        if (kind.equals("compaction")) {
                            messages = write(table, 0, 0, true);
                        } else {
                            PkFullTextRebuild.Result rebuild =
                                    PkFullTextRebuild.run(
                                            table,
                                            table.snapshotManager()
                                                    .latestSnapshotIdFromFileSystem(),
                                            BinaryRow.EMPTY_ROW,
                                            0,
                                            true,
                                            null);
                            assertThat(rebuild.messages())
                                    .as(
                                            rebuild.report().toString()
                                                    + " files "
                                                    + table.store().newScan().plan().files())
                                    .isNotEmpty();
                            messages = rebuild.messages();
                        }
                    }
                    next[0] += 5;
                    assertThat(messages).as("the step commits something").isNotEmpty();
                    return messages;
                };

        List<CommitMessage> counted = messagesOfStep.call();
        io.armFileOperations(Long.MAX_VALUE, false);
        try {
            PaimonCommits.commit(table, counted, "counting");
        } finally {
            io.disarm();
        }
        long operations = io.operations();
        committed.addAll(adding);

        for (long failAt : firstOfEachRun(io.fileOperations())) {
            List<CommitMessage> messages = messagesOfStep.call();
            Long before = table.snapshotManager().latestSnapshotIdFromFileSystem();
            io.armFileOperations(failAt, afterOperation);
            boolean landed;
            try {
                PaimonCommits.commit(table, messages, "sweep step " + failAt);
                landed = true;
            } catch (PaimonCommits.CommitFailedException e) {
                landed = false;
                assertThat(e).hasMessageContaining("sweep step " + failAt);
            } finally {
                io.disarm();
            }
            String step =
                    kind
                            + " commit failing at operation "
                            + failAt
                            + " of "
                            + operations
                            + " ("
                            + io.failedOperation()
                            + ", after="
                            + afterOperation
                            + ")";
            if (landed) {
                committed.addAll(adding);
            } else {
                assertThat(table.snapshotManager().latestSnapshotIdFromFileSystem())
                        .as(step + ": no snapshot")
                        .isEqualTo(before);
                assertThat(existingFiles(table, messages))
                        .as(step + ": the failed commit's files")
                        .isEmpty();
            }
            assertLatestReferencedFilesExist(table, step);
            assertThat(committed)
                    .as(step + ": visible rows were committed")
                    .containsAll(ids(table));
        }
        commit(table, write(table, 0, 0, true));
        assertEveryReferencedFileExists(table);
        assertThat(ids(table)).isEqualTo(committed);
    }

    @Test
    void aFailedCommitSaysSoAndDeletesItsFiles() throws Exception {
        FailingFileIO io = new FailingFileIO();
        FileStoreTable table = createTable(io, "failed");
        for (int failAt = 1; failAt < 2_000; failAt++) {
            List<CommitMessage> messages = write(table, 0, 10, false);
            io.armFileOperations(failAt, false);
            PaimonCommits.CommitFailedException failure = null;
            try {
                PaimonCommits.commit(table, messages, "the write to lake.db.failed");
            } catch (PaimonCommits.CommitFailedException e) {
                failure = e;
            } finally {
                io.disarm();
            }
            if (failure != null) {
                assertThat(failure)
                        .hasMessageStartingWith("Cannot commit the write to lake.db.failed: ")
                        .hasMessageContaining("No snapshot was created");
                assertThat(existingFiles(table, messages)).isEmpty();
                assertThat(table.snapshotManager().latestSnapshotIdFromFileSystem()).isNull();
                return;
            }
            assertThat(table.snapshotManager().latestSnapshotIdFromFileSystem())
                    .as("a commit that did not fail")
                    .isNotNull();
            table = createTable(io, "failed-" + failAt);
        }
        throw new AssertionError("no injected failure made the commit fail");
    }

    /**
     * The positions (1-based) of a commit's file operations that do not repeat the step just
     * before: a step is an operation on a kind of file ({@code open manifest-*}), and a run of the
     * same step ({@code open} of five manifests) or of the same pair of steps ({@code create},
     * {@code close} of each new manifest) fails the commit the same way at each of its operations,
     * so the sweep fails each run at its start (and where it ends) instead of at every operation.
     */
    static List<Long> firstOfEachRun(List<String> operations) {
        List<String> steps = new ArrayList<>();
        for (String operation : operations) {
            steps.add(
                    operation
                            .replaceAll(
                                    "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
                                    "*")
                            .replaceAll("[0-9]+", "*"));
        }
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            String next = i + 1 < steps.size() ? steps.get(i + 1) : null;
            boolean repeatsStep = i >= 1 && steps.get(i).equals(steps.get(i - 1));
            boolean repeatsPair =
                    i >= 2
                            && steps.get(i).equals(steps.get(i - 2))
                            && steps.get(i - 1).equals(next);
            if (!repeatsStep && !repeatsPair) {
                out.add(i + 1L);
            }
        }
        return out;
    }

    private FileStoreTable createTable(FileIO io, String name) throws Exception {
        org.apache.paimon.fs.Path path = new org.apache.paimon.fs.Path(dir.resolve(name).toUri());
        Schema schema =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("v", DataTypes.STRING())
                        .primaryKey("id")
                        .option("bucket", "1")
                        .option("deletion-vectors.enabled", "true")
                        .option("strata-full-text.index.columns", "v")
                        // Archives cover files compaction wrote; make a compaction rewrite a file
                        // it would only move up.
                        .option("compaction.force-rewrite-all-files", "true")
                        // Paimon retries a failed commit after a pause; keep the pauses short.
                        .option("commit.min-retry-wait", "1 ms")
                        .option("commit.max-retry-wait", "5 ms")
                        // Merge manifests after 5 instead of 30: every step of a sweep scans the
                        // table, and re-reading its many small manifests was most of the
                        // class's time; commits that merge put those writes in the sweep too.
                        .option("manifest.merge-min-count", "5")
                        .build();
        new SchemaManager(io, path).createTable(schema);
        return FileStoreTableFactory.create(io, path);
    }

    /**
     * Rows [from, to) written by one writer of the latest snapshot, optionally with a full
     * compaction.
     */
    private List<CommitMessage> write(
            FileStoreTable table, long from, long to, boolean fullCompaction) throws Exception {
        try (BatchTableWrite write = table.newBatchWriteBuilder().newWrite()) {
            write.withIOManager(IOManager.create(dir.resolve("io").toString()));
            for (long id = from; id < to; id++) {
                write.write(GenericRow.of(id, BinaryString.fromString("v" + id)));
            }
            if (fullCompaction) {
                write.compact(BinaryRow.EMPTY_ROW, 0, true);
            }
            return write.prepareCommit();
        }
    }

    /** Rows {@code ids} written by one writer of the latest snapshot, and its compaction. */
    private List<CommitMessage> write(FileStoreTable table, Set<Long> ids) throws Exception {
        try (BatchTableWrite write = table.newBatchWriteBuilder().newWrite()) {
            write.withIOManager(IOManager.create(dir.resolve("io").toString()));
            for (long id : ids) {
                write.write(GenericRow.of(id, BinaryString.fromString("v" + id)));
            }
            write.compact(BinaryRow.EMPTY_ROW, 0, false);
            return write.prepareCommit();
        }
    }

    private static void commit(FileStoreTable table, List<CommitMessage> messages) {
        PaimonCommits.commit(table, messages, "a test write");
    }

    private static Set<Long> ids(FileStoreTable table) throws Exception {
        ReadBuilder builder = table.newReadBuilder();
        Set<Long> ids = new TreeSet<>();
        try (RecordReader<org.apache.paimon.data.InternalRow> reader =
                builder.newRead().createReader(builder.newScan().plan())) {
            reader.forEachRemaining(row -> ids.add(row.getLong(0)));
        }
        return ids;
    }

    private static Set<Long> range(long from, long to) {
        Set<Long> ids = new TreeSet<>();
        for (long id = from; id < to; id++) {
            ids.add(id);
        }
        return ids;
    }

    /** Every data and index file of every snapshot exists. */
    private static void assertEveryReferencedFileExists(FileStoreTable table) throws Exception {
        Long latest = table.snapshotManager().latestSnapshotIdFromFileSystem();
        if (latest != null) {
            assertReferencedFilesExist(
                    table, table.snapshotManager().earliestSnapshotId(), latest, "every snapshot");
        }
    }

    private static void assertLatestReferencedFilesExist(FileStoreTable table, String step)
            throws Exception {
        Long latest = table.snapshotManager().latestSnapshotIdFromFileSystem();
        if (latest != null) {
            assertReferencedFilesExist(table, latest, latest, step);
        }
    }

    private static void assertReferencedFilesExist(
            FileStoreTable table, long earliest, long latest, String step) throws Exception {
        List<String> missing = new ArrayList<>();
        for (long id = earliest; id <= latest; id++) {
            Snapshot snapshot = table.snapshotManager().snapshot(id);
            for (ManifestEntry entry :
                    table.store().newScan().withSnapshot(snapshot).plan().files()) {
                org.apache.paimon.fs.Path path =
                        table.store()
                                .pathFactory()
                                .createDataFilePathFactory(entry.partition(), entry.bucket())
                                .toPath(entry.file());
                if (!table.fileIO().exists(path)) {
                    missing.add("snapshot " + id + ": " + path);
                }
            }
            if (snapshot.indexManifest() != null) {
                for (IndexManifestEntry entry :
                        table.store()
                                .newIndexFileHandler()
                                .readManifest(snapshot.indexManifest())) {
                    if (!table.store().newIndexFileHandler().existsIndexFile(entry)) {
                        missing.add("snapshot " + id + ": index " + entry.indexFile().fileName());
                    }
                }
            }
        }
        assertThat(missing).as(step + ": files referenced by snapshots").isEmpty();
    }

    /** The files the messages add that exist on disk. */
    private static List<String> existingFiles(FileStoreTable table, List<CommitMessage> messages)
            throws Exception {
        List<String> existing = new ArrayList<>();
        for (CommitMessage message : messages) {
            org.apache.paimon.table.sink.CommitMessageImpl m =
                    (org.apache.paimon.table.sink.CommitMessageImpl) message;
            List<org.apache.paimon.io.DataFileMeta> files =
                    new ArrayList<>(m.newFilesIncrement().newFiles());
            Set<String> inputs = new TreeSet<>();
            m.compactIncrement().compactBefore().forEach(f -> inputs.add(f.fileName()));
            files.addAll(m.compactIncrement().compactAfter());
            for (org.apache.paimon.io.DataFileMeta file : files) {
                org.apache.paimon.fs.Path path =
                        table.store()
                                .pathFactory()
                                .createDataFilePathFactory(m.partition(), m.bucket())
                                .toPath(file);
                if (!inputs.contains(file.fileName()) && table.fileIO().exists(path)) {
                    existing.add(path.toString());
                }
            }
            List<org.apache.paimon.index.IndexFileMeta> indexFiles =
                    new ArrayList<>(m.compactIncrement().newIndexFiles());
            indexFiles.addAll(m.newFilesIncrement().newIndexFiles());
            for (org.apache.paimon.index.IndexFileMeta file : indexFiles) {
                org.apache.paimon.fs.Path path =
                        table.store()
                                .pathFactory()
                                .indexFileFactory(m.partition(), m.bucket())
                                .toPath(file);
                if (table.fileIO().exists(path)) {
                    existing.add(path.toString());
                }
            }
        }
        return existing;
    }
}
