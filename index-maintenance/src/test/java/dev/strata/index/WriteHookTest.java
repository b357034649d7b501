package dev.strata.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.fixtures.OnDisk;
import dev.strata.index.fixtures.PkTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteHookTest {

    @TempDir Path dir;

    private static List<GenericRow> rows(int from, int count) {
        return PkTable.rows(from, count, i -> "document " + i + " about lake storage");
    }

    @Test
    void compactionCommitsDataAndArchiveInOneCompactSnapshot() throws Exception {
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(rows(0, 10), null);
            long before = t.latestSnapshotId();
            List<CommitMessage> messages;
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                messages = t.compact(hook);
            }
            CommitMessageImpl m = (CommitMessageImpl) messages.get(0);
            assertThat(m.compactIncrement().newIndexFiles())
                    .extracting(IndexFileMeta::indexType)
                    .contains("pk-full-text");
            assertThat(m.newFilesIncrement().newIndexFiles()).isEmpty();
            Snapshot latest = t.table().snapshotManager().latestSnapshot();
            assertThat(latest.id()).isEqualTo(before + 1);
            assertThat(latest.commitKind()).isEqualTo(Snapshot.CommitKind.COMPACT);
            assertThat(t.archives()).hasSize(1);
        }
    }

    @Test
    void abortDeletesGeneratedArchivesAndDriverCleanupDeletesUncommittedOnes() throws Exception {
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(rows(0, 10), null);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.prepareCompaction(hook);
                assertThat(OnDisk.archiveFiles(t.table())).hasSize(1);
                hook.abort();
                assertThat(OnDisk.archiveFiles(t.table())).isEmpty();
            }
        }
    }

    @Test
    void failureInOneBucketAbortsTheOtherBucketsOfTheSameCall() throws Exception {
        Map<String, String> options = PkTable.defaultOptions();
        options.put("bucket", "2");
        try (PkTable t = PkTable.create(dir, options)) {
            t.write(rows(0, 40), null);
            org.apache.paimon.table.FileStoreTable table = t.table();
            List<CommitMessage> compaction;
            try (org.apache.paimon.table.sink.TableWriteImpl<?> write =
                    (org.apache.paimon.table.sink.TableWriteImpl<?>)
                            table.newBatchWriteBuilder().newWrite()) {
                write.withIOManager(
                        org.apache.paimon.disk.IOManager.create(dir.resolve("io").toString()));
                write.compact(org.apache.paimon.data.BinaryRow.EMPTY_ROW, 0, true);
                write.compact(org.apache.paimon.data.BinaryRow.EMPTY_ROW, 1, true);
                compaction = write.prepareCommit();
            }
            assertThat(compaction).hasSize(2);
            // Bucket 1's new data file vanishes before the index is built: its build fails.
            CommitMessageImpl second =
                    (CommitMessageImpl)
                            compaction.stream()
                                    .filter(m -> ((CommitMessageImpl) m).bucket() == 1)
                                    .findFirst()
                                    .get();
            org.apache.paimon.io.DataFileMeta lost =
                    second.compactIncrement().compactAfter().get(0);
            table.fileIO()
                    .delete(
                            table.store()
                                    .pathFactory()
                                    .createDataFilePathFactory(
                                            org.apache.paimon.data.BinaryRow.EMPTY_ROW, 1)
                                    .toPath(lost),
                            false);
            List<CommitMessage> ordered = new ArrayList<>();
            compaction.stream()
                    .filter(m -> ((CommitMessageImpl) m).bucket() == 0)
                    .forEach(ordered::add);
            ordered.add(second);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(table, t.latestSnapshotId(), null)) {
                org.assertj.core.api.Assertions.assertThatThrownBy(
                                () -> hook.prepareCommit(ordered, true))
                        .hasMessageContaining(lost.fileName());
                assertThat(OnDisk.archiveFiles(table))
                        .as("bucket 0's archive was deleted by the abort")
                        .isEmpty();
                assertThat(hook.archives(org.apache.paimon.data.BinaryRow.EMPTY_ROW, 0)).isEmpty();
            }
        }
    }

    @Test
    void nonBlockingWritesPublishFinishedBuildsInALaterCommit() throws Exception {
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(rows(0, 10), null);
            t.compact(null);
            assertThat(t.archives()).isEmpty();
            // One build thread: a task queued behind a build ends after it, so the test waits on
            // the build itself rather than polling.
            java.util.concurrent.ExecutorService builds =
                    java.util.concurrent.Executors.newSingleThreadExecutor();
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), builds)) {
                // The top level has no archive: the first write starts its build in the background.
                t.write(rows(100, 1), hook);
                assertThat(hook.buildNotCompleted())
                        .as("the build runs in the background")
                        .isTrue();
                for (int round = 0; round < 10 && hook.buildNotCompleted(); round++) {
                    builds.submit(() -> {}).get(60, java.util.concurrent.TimeUnit.SECONDS);
                    // A commit with nothing new harvests the finished build (and starts the next
                    // level's, if any).
                    t.write(new ArrayList<>(), hook);
                }
                assertThat(hook.buildNotCompleted()).isFalse();
            } finally {
                builds.shutdownNow();
            }
            PkFullTextSearcher searcher = PkFullTextSearcher.create(t.table());
            assertThat(
                            searcher.currentArchives(
                                    t.latestSnapshotId(),
                                    org.apache.paimon.data.BinaryRow.EMPTY_ROW,
                                    0))
                    .isNotEmpty();
        }
    }

    @Test
    void changingTheAnalyzerMakesArchivesStale() throws Exception {
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(
                    java.util.Collections.singletonList(PkTable.row(1, "the disks were failing")),
                    null);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            IndexFileMeta standard = t.archives().get(0);
            PkFullTextSearcher before = PkFullTextSearcher.create(t.table());
            assertThat(
                            before.search(
                                            t.latestSnapshotId(),
                                            org.apache.paimon.data.BinaryRow.EMPTY_ROW,
                                            0,
                                            "fail",
                                            5)
                                    .hits())
                    .isEmpty();

            org.apache.paimon.data.BinaryRow none = org.apache.paimon.data.BinaryRow.EMPTY_ROW;
            assertThat(
                            PkFullTextRebuild.run(
                                            t.table(), t.latestSnapshotId(), none, 0, false, null)
                                    .messages())
                    .isEmpty();
            t.setOption("fields.body.strata-full-text.index.options", "{\"analyzer\":\"english\"}");
            // Same data files, other analyzer: the archive is stale and a (non-forced) rebuild
            // replaces it.
            PkFullTextRebuild.Result rebuild =
                    PkFullTextRebuild.run(t.table(), t.latestSnapshotId(), none, 0, false, null);
            assertThat(rebuild.report()).extracting(LevelReport::action).containsExactly("built");
            t.commit(rebuild.messages());
            assertThat(t.archives()).hasSize(1).doesNotContain(standard);
            PkFullTextSearcher after = PkFullTextSearcher.create(t.table());
            assertThat(
                            after.search(
                                            t.latestSnapshotId(),
                                            org.apache.paimon.data.BinaryRow.EMPTY_ROW,
                                            0,
                                            "fail",
                                            5)
                                    .hits())
                    .hasSize(1);
        }
    }

    @Test
    void postponeBucketMessagesPassThroughUntouched() throws Exception {
        Map<String, String> options = PkTable.defaultOptions();
        options.put("bucket", "-2");
        try (PkTable t = PkTable.create(dir, options)) {
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                List<CommitMessage> messages = t.write(rows(0, 5), hook);
                assertThat(messages).isNotEmpty();
                for (CommitMessage m : messages) {
                    CommitMessageImpl c = (CommitMessageImpl) m;
                    assertThat(c.bucket()).isNegative();
                    assertThat(c.newFilesIncrement().newIndexFiles()).isEmpty();
                }
            }
        }
    }
}
