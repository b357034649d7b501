package dev.strata.index.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.PkFullTextWriteHook;
import dev.strata.index.TestMaintainers;
import dev.strata.index.archive.ArchiveBuilder;
import dev.strata.index.fixtures.OnDisk;
import dev.strata.index.fixtures.PkTable;
import dev.strata.index.source.SourceFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BucketMaintainerTest {

    @TempDir Path dir;

    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private PkTable t;

    /** One step of a builder: given the sources and the real builder, produce an archive. */
    interface Step {
        IndexFileMeta build(List<DataFileMeta> sources, ArchiveBuilder real) throws IOException;
    }

    /**
     * The real Lucene builder, with scripted behaviour for its first calls, recording every call.
     */
    static final class ScriptedBuilder implements ArchiveBuilder {
        final ArchiveBuilder real;
        final Deque<Step> script = new ArrayDeque<>();
        final List<List<String>> calls = Collections.synchronizedList(new ArrayList<>());
        Step always;

        ScriptedBuilder(ArchiveBuilder real) {
            this.real = real;
        }

        @Override
        public IndexFileMeta build(List<DataFileMeta> sources) throws IOException {
            calls.add(sources.stream().map(DataFileMeta::fileName).collect(Collectors.toList()));
            Step step = script.poll();
            if (step == null) {
                step = always;
            }
            return step == null ? real.build(sources) : step.build(sources, real);
        }
    }

    @AfterEach
    void close() throws Exception {
        executor.shutdownNow();
        if (t != null) {
            t.close();
        }
    }

    private static List<GenericRow> rows(int from, int count) {
        return PkTable.rows(from, count, i -> "row number" + i + " paimon lake");
    }

    private static CommitMessageImpl bucket0(List<CommitMessage> messages) {
        return (CommitMessageImpl)
                messages.stream()
                        .filter(m -> ((CommitMessageImpl) m).bucket() == 0)
                        .findFirst()
                        .get();
    }

    private static List<String> names(List<IndexFileMeta> metas) {
        return metas.stream().map(IndexFileMeta::fileName).collect(Collectors.toList());
    }

    /**
     * A table whose latest snapshot has one indexed top-level file, then one more level-0 write.
     */
    private FileStoreTable indexedThenWritten() throws Exception {
        t = PkTable.create(dir, PkTable.defaultOptions());
        t.write(rows(0, 20), null);
        try (PkFullTextWriteHook hook =
                PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
            t.compact(hook);
        }
        assertThat(t.archives()).hasSize(1);
        t.write(rows(20, 10), null);
        return t.table();
    }

    private ScriptedBuilder builder() {
        return new ScriptedBuilder(TestMaintainers.builder(t.table()));
    }

    @Test
    void replacesArchiveInTheCompactionThatReplacedItsSource() throws Exception {
        FileStoreTable table = indexedThenWritten();
        IndexFileMeta old = t.archives().get(0);
        ScriptedBuilder builder = builder();
        BucketMaintainer m =
                TestMaintainers.restore(table, t.latestSnapshotId(), builder, executor);
        CommitMessageImpl compaction = bucket0(t.prepareCompaction(null));
        IndexCommit commit =
                m.prepareCommit(
                        compaction.newFilesIncrement(), compaction.compactIncrement(), true);

        DataFileMeta after = compaction.compactIncrement().compactAfter().get(0);
        assertThat(commit.appendChange()).isEmpty();
        IndexChange change = commit.compactChange().get();
        assertThat(change.removed()).containsExactly(old);
        assertThat(change.created()).hasSize(1);
        assertThat(builder.calls).containsExactly(Collections.singletonList(after.fileName()));
        assertThat(m.state().payloadBySourceFile()).containsOnlyKeys(after.fileName());
        assertThat(m.buildNotCompleted()).isFalse();
    }

    @Test
    void mergesSingleFileArchivesOfOneLevelIntoOneAndRetiresThem() throws Exception {
        Map<String, String> options = PkTable.defaultOptions();
        options.put("target-file-size", "4 kb");
        t = PkTable.create(dir, options);
        dev.strata.testing.text.TextCorpus corpus = new dev.strata.testing.text.TextCorpus(2000);
        java.util.Random random = new java.util.Random(42);
        for (int b = 0; b < 3; b++) {
            List<GenericRow> batch = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                batch.add(PkTable.row(b * 100 + i, corpus.document(random, 40, 80)));
            }
            t.write(batch, null);
        }
        t.compact(null);
        List<DataFileMeta> files = t.dataFiles();
        assertThat(files.size()).isGreaterThan(1);
        ScriptedBuilder builder = builder();
        List<IndexFileMeta> singles = new ArrayList<>();
        for (DataFileMeta f : files) {
            singles.add(builder.real.build(Collections.singletonList(f)));
        }
        BucketMaintainer m = TestMaintainers.restore(t.table(), files, singles, builder, executor);
        assertThat(m.payloads()).isEmpty();
        assertThat(m.retiredPayloads()).containsExactlyElementsOf(singles);
        assertThat(m.buildNotCompleted()).as("restore starts no build").isFalse();

        IndexCommit commit = m.prepareCommit(null, null, true);
        IndexChange change = commit.appendChange().get();
        assertThat(commit.compactChange()).isEmpty();
        assertThat(change.removed()).containsExactlyElementsOf(singles);
        assertThat(change.created()).hasSize(1);
        assertThat(m.payloads()).isEqualTo(change.created());
        List<SourceFile> sources =
                TestMaintainers.headers(t.table())
                        .header(change.created().get(0))
                        .sourceMeta()
                        .sourceFiles();
        assertThat(sources.stream().map(SourceFile::fileName).collect(Collectors.toList()))
                .isEqualTo(
                        files.stream()
                                .map(DataFileMeta::fileName)
                                .sorted()
                                .collect(Collectors.toList()));
    }

    @Test
    void failedBuildRollsBackAndIsNotRetriedUntilTheNextCall() throws Exception {
        t = PkTable.create(dir, PkTable.defaultOptions());
        t.write(rows(0, 10), null);
        t.compact(null);
        ScriptedBuilder builder = builder();
        builder.script.add(
                (sources, real) -> {
                    throw new IOException("first failure");
                });
        BucketMaintainer m =
                TestMaintainers.restore(t.table(), t.latestSnapshotId(), builder, executor);
        assertThatThrownBy(() -> m.prepareCommit(null, null, true))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("first failure");
        assertThat(builder.calls).hasSize(1);
        assertThat(m.payloads()).isEmpty();
        assertThat(m.buildNotCompleted()).isFalse();
        assertThat(OnDisk.archiveFiles(t.table())).isEmpty();

        IndexCommit second = m.prepareCommit(null, null, true);
        assertThat(second.appendChange().get().created()).hasSize(1);
        assertThat(second.appendChange().get().removed()).isEmpty();
        assertThat(builder.calls).hasSize(2);
    }

    @Test
    void nonBlockingCommitStartsBuildAndALaterCommitPublishesIt() throws Exception {
        FileStoreTable table = indexedThenWritten();
        IndexFileMeta old = t.archives().get(0);
        CountDownLatch release = new CountDownLatch(1);
        ScriptedBuilder builder = builder();
        builder.script.add(
                (sources, real) -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    return real.build(sources);
                });
        BucketMaintainer m =
                TestMaintainers.restore(table, t.latestSnapshotId(), builder, executor);
        CommitMessageImpl compaction = bucket0(t.prepareCompaction(null));
        IndexCommit first =
                m.prepareCommit(
                        compaction.newFilesIncrement(), compaction.compactIncrement(), false);
        assertThat(first.compactChange()).isEmpty();
        assertThat(first.appendChange()).isEmpty();
        assertThat(m.buildNotCompleted()).isTrue();
        assertThatThrownBy(() -> m.withExecutor(executor))
                .hasMessageContaining("Cannot replace executor during a full-text build");

        release.countDown();
        IndexCommit second = m.prepareCommit(null, null, true);
        assertThat(second.compactChange()).isEmpty();
        assertThat(second.appendChange().get().removed()).containsExactly(old);
        assertThat(second.appendChange().get().created()).hasSize(1);
        assertThat(m.buildNotCompleted()).isFalse();
    }

    @Test
    void abortRestoresStateAndDeletesTheGeneratedArchive() throws Exception {
        FileStoreTable table = indexedThenWritten();
        IndexFileMeta old = t.archives().get(0);
        BucketMaintainer m =
                TestMaintainers.restore(table, t.latestSnapshotId(), builder(), executor);
        CommitMessageImpl compaction = bucket0(t.prepareCompaction(null));
        IndexCommit commit =
                m.prepareCommit(
                        compaction.newFilesIncrement(), compaction.compactIncrement(), true);
        IndexFileMeta created = commit.compactChange().get().created().get(0);
        assertThat(OnDisk.archiveFiles(table)).contains(created.fileName());

        commit.abort();
        assertThat(m.payloads()).containsExactly(old);
        assertThat(OnDisk.archiveFiles(table)).containsExactly(old.fileName());
    }

    @Test
    void rejectsBuildForWrongSourcesAndRebuildsInTheSameCall() throws Exception {
        FileStoreTable table = indexedThenWritten();
        List<DataFileMeta> previous = TestMaintainers.dataFiles(table, t.latestSnapshotId());
        DataFileMeta oldTop = previous.stream().filter(f -> f.level() > 0).findFirst().get();
        ScriptedBuilder builder = builder();
        List<IndexFileMeta> rejected = new ArrayList<>();
        builder.script.add(
                (sources, real) -> {
                    IndexFileMeta wrong = real.build(Collections.singletonList(oldTop));
                    rejected.add(wrong);
                    return wrong;
                });
        BucketMaintainer m =
                TestMaintainers.restore(table, t.latestSnapshotId(), builder, executor);
        CommitMessageImpl compaction = bucket0(t.prepareCompaction(null));
        IndexCommit commit =
                m.prepareCommit(
                        compaction.newFilesIncrement(), compaction.compactIncrement(), true);
        IndexFileMeta accepted = commit.compactChange().get().created().get(0);
        assertThat(builder.calls).hasSize(2);
        assertThat(OnDisk.archiveFiles(table))
                .doesNotContain(rejected.get(0).fileName())
                .contains(accepted.fileName());

        commit.abort();
        assertThat(OnDisk.archiveFiles(table))
                .doesNotContain(accepted.fileName(), rejected.get(0).fileName());
    }

    @Test
    void givesUpOnABuilderThatNeverMatchesItsPlan() throws Exception {
        FileStoreTable table = indexedThenWritten();
        IndexFileMeta old = t.archives().get(0);
        DataFileMeta oldTop =
                TestMaintainers.dataFiles(table, t.latestSnapshotId()).stream()
                        .filter(f -> f.level() > 0)
                        .findFirst()
                        .get();
        ScriptedBuilder builder = builder();
        builder.always = (sources, real) -> real.build(Collections.singletonList(oldTop));
        BucketMaintainer m =
                TestMaintainers.restore(table, t.latestSnapshotId(), builder, executor);
        CommitMessageImpl compaction = bucket0(t.prepareCompaction(null));
        assertThatThrownBy(
                        () ->
                                m.prepareCommit(
                                        compaction.newFilesIncrement(),
                                        compaction.compactIncrement(),
                                        true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("giving up");
        assertThat(builder.calls).hasSize(BucketMaintainer.MAX_REJECTED_BUILDS + 1);
        assertThat(m.payloads()).containsExactly(old);
        assertThat(OnDisk.archiveFiles(table)).containsExactly(old.fileName());
    }

    @Test
    void dropsArchiveWhenItsLevelEmptiesWithoutBuilding() throws Exception {
        t = PkTable.create(dir, PkTable.defaultOptions());
        t.write(rows(0, 5), null);
        try (PkFullTextWriteHook hook =
                PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
            t.compact(hook);
        }
        IndexFileMeta archive = t.archives().get(0);
        DataFileMeta top = t.dataFiles().get(0);
        ScriptedBuilder builder = builder();
        BucketMaintainer m =
                TestMaintainers.restore(t.table(), t.latestSnapshotId(), builder, executor);
        IndexCommit commit =
                m.prepareCommit(
                        null,
                        new CompactIncrement(
                                Collections.singletonList(top),
                                Collections.emptyList(),
                                Collections.emptyList()),
                        true);
        assertThat(commit.compactChange().get().removed()).containsExactly(archive);
        assertThat(commit.compactChange().get().created()).isEmpty();
        assertThat(builder.calls).isEmpty();
        assertThat(m.payloads()).isEmpty();
    }

    @Test
    void rejectsEligibleFilesInTheAppendIncrement() throws Exception {
        t = PkTable.create(dir, PkTable.defaultOptions());
        t.write(rows(0, 5), null);
        t.compact(null);
        DataFileMeta top = t.dataFiles().get(0);
        BucketMaintainer m = TestMaintainers.restore(t.table(), (Long) null, builder(), executor);
        DataIncrement append =
                new DataIncrement(
                        Collections.singletonList(top),
                        Collections.emptyList(),
                        Collections.emptyList());
        assertThatThrownBy(() -> m.prepareCommit(append, null, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Append files must not be primary-key full-text index sources.");
    }

    @Test
    void closeCancelsPendingBuildAndLeavesNoArchive() throws Exception {
        t = PkTable.create(dir, PkTable.defaultOptions());
        t.write(rows(0, 5), null);
        t.compact(null);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        ScriptedBuilder builder = builder();
        builder.script.add(
                (sources, real) -> {
                    IndexFileMeta built = real.build(sources);
                    started.countDown();
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return built;
                });
        BucketMaintainer m =
                TestMaintainers.restore(t.table(), t.latestSnapshotId(), builder, executor);
        m.prepareCommit(null, null, false);
        started.await();
        m.close();
        executor.shutdown();
        executor.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(OnDisk.archiveFiles(t.table())).isEmpty();
        assertThat(m.buildNotCompleted()).isFalse();
    }
}
