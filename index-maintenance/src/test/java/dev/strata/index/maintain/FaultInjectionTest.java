package dev.strata.index.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.PkFullTextWriteHook;
import dev.strata.index.TestMaintainers;
import dev.strata.index.fixtures.OnDisk;
import dev.strata.index.fixtures.PkTable;
import dev.strata.testing.io.FailingFileIO;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fails one file-system operation at a time during a blocking commit preparation (reading the data
 * files, writing the archive, reading it back for acceptance) and checks that every failure leaves
 * no archive file behind and the maintainer exactly as before the call.
 */
class FaultInjectionTest {

    @TempDir Path dir;

    private final ExecutorService executor = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private static List<GenericRow> rows(int from, int count) {
        return PkTable.rows(
                from,
                count,
                i -> i % 5 == 0 ? null : "text of row " + i + " with paimon and lake words");
    }

    @Test
    void failureAtAnyStepLeavesNoArchiveAndTheMaintainerUnchanged() throws Exception {
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(rows(0, 30), null);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            t.write(rows(25, 20), null);
            long snapshot = t.latestSnapshotId();
            CommitMessageImpl compaction =
                    (CommitMessageImpl)
                            t.prepareCompaction(null).stream()
                                    .filter(m -> ((CommitMessageImpl) m).bucket() == 0)
                                    .findFirst()
                                    .get();

            FailingFileIO io = new FailingFileIO();
            FileStoreTable table = t.withFileIO(io);
            Set<String> baseline = OnDisk.archiveFiles(table);
            assertThat(baseline).hasSize(1);

            BucketMaintainer dry =
                    TestMaintainers.restore(
                            table, snapshot, TestMaintainers.builder(table), executor);
            io.arm(Long.MAX_VALUE);
            IndexCommit ok =
                    dry.prepareCommit(
                            compaction.newFilesIncrement(), compaction.compactIncrement(), true);
            io.disarm();
            long operations = io.operations();
            assertThat(ok.compactChange()).isPresent();
            ok.abort();
            assertThat(OnDisk.archiveFiles(table)).isEqualTo(baseline);
            assertThat(operations).isGreaterThan(10);

            long stride = Math.max(1, operations / 60);
            Set<String> failedKinds = new LinkedHashSet<>();
            int failures = 0;
            for (long failAt = 1; failAt <= operations; failAt += stride) {
                BucketMaintainer m =
                        TestMaintainers.restore(
                                table, snapshot, TestMaintainers.builder(table), executor);
                List<IndexFileMeta> payloads = m.payloads();
                List<IndexFileMeta> retired = m.retiredPayloads();
                Map<String, DataFileMeta> active = m.activeSourceFiles();
                io.arm(failAt);
                try {
                    IndexCommit commit =
                            m.prepareCommit(
                                    compaction.newFilesIncrement(),
                                    compaction.compactIncrement(),
                                    true);
                    io.disarm();
                    // The injected failure was absorbed (e.g. inside a reader's clean-up): the
                    // result must still be whole.
                    assertThat(commit.compactChange()).isPresent();
                    commit.abort();
                } catch (Exception e) {
                    io.disarm();
                    failures++;
                    assertThat(io.failedOperation()).as("failure at %s: %s", failAt, e).isNotNull();
                    failedKinds.add(io.failedOperation().split(" ")[0]);
                    assertThat(m.payloads())
                            .as("payloads after failure at %s", io.failedOperation())
                            .isEqualTo(payloads);
                    assertThat(m.retiredPayloads()).isEqualTo(retired);
                    assertThat(m.activeSourceFiles()).isEqualTo(active);
                    assertThat(m.buildNotCompleted()).isFalse();
                }
                assertThat(OnDisk.archiveFiles(table))
                        .as(
                                "archives on disk after failure at %s (%s)",
                                failAt, io.failedOperation())
                        .isEqualTo(baseline);
            }
            System.out.println(
                    "[strata] fault injection: "
                            + operations
                            + " operations, "
                            + failures
                            + " failed calls, kinds "
                            + failedKinds);
            assertThat(failures).isGreaterThan(0);
            assertThat(failedKinds).contains("create", "write", "open", "read");
        }
    }
}
