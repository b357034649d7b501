package dev.strata.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.fixtures.OnDisk;
import dev.strata.index.fixtures.PkTable;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.index.IndexFileMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RebuildTest {

    @TempDir Path dir;

    private static List<GenericRow> rows(int from, int count) {
        return PkTable.rows(from, count, i -> "document " + i + " about lake storage");
    }

    @Test
    void buildsMissingArchivesKeepsCurrentOnesAndForceRebuildsAll() throws Exception {
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(rows(0, 30), null);
            t.compact(null);
            t.write(rows(10, 5), null);
            long snapshot = t.latestSnapshotId();
            long levels =
                    t.dataFiles().stream()
                            .filter(f -> f.level() > 0)
                            .map(f -> f.level())
                            .distinct()
                            .count();
            assertThat(levels).isGreaterThan(1);

            PkFullTextRebuild.Result first =
                    PkFullTextRebuild.run(t.table(), snapshot, BinaryRow.EMPTY_ROW, 0, false, null);
            assertThat(first.report())
                    .extracting(LevelReport::action)
                    .containsOnly("built")
                    .hasSize((int) levels);
            assertThat(first.report())
                    .allSatisfy(
                            r -> {
                                assertThat(r.rowsIndexed()).isPositive();
                                assertThat(r.archiveBytes()).isPositive();
                                assertThat(r.sourceFiles()).isEqualTo(1);
                            });
            t.commit(first.messages());
            List<IndexFileMeta> built = t.archives();
            assertThat(built).hasSize((int) levels);

            PkFullTextRebuild.Result again =
                    PkFullTextRebuild.run(
                            t.table(), t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, false, null);
            assertThat(again.messages()).isEmpty();
            assertThat(again.report()).extracting(LevelReport::action).containsOnly("kept");

            PkFullTextRebuild.Result forced =
                    PkFullTextRebuild.run(
                            t.table(), t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, true, null);
            assertThat(forced.report())
                    .extracting(LevelReport::action)
                    .containsOnly("built")
                    .hasSize((int) levels);
            t.commit(forced.messages());
            List<String> now =
                    t.archives().stream().map(IndexFileMeta::fileName).collect(Collectors.toList());
            assertThat(now)
                    .hasSize((int) levels)
                    .doesNotContainAnyElementsOf(
                            built.stream()
                                    .map(IndexFileMeta::fileName)
                                    .collect(Collectors.toList()));
        }
    }

    @Test
    void retiresArchiveWhoseSourcesNoLongerExistAndAbortDeletesBuilds() throws Exception {
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(rows(0, 30), null);
            t.compact(null);
            t.write(rows(10, 5), null);
            PkFullTextRebuild.Result first =
                    PkFullTextRebuild.run(
                            t.table(), t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, false, null);
            t.commit(first.messages());
            // A compaction without the hook moves everything to the top level: lower-level archives
            // lose their sources.
            t.compact(null);
            PkFullTextRebuild.Result second =
                    PkFullTextRebuild.run(
                            t.table(), t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, false, null);
            assertThat(second.report())
                    .extracting(LevelReport::action)
                    .contains("retired", "built");
            assertThat(
                            second.report().stream()
                                    .filter(r -> r.action().equals("retired"))
                                    .map(LevelReport::level))
                    .allSatisfy(level -> assertThat(level).isPositive());
            int onDisk = OnDisk.archiveFiles(t.table()).size();
            second.abort();
            assertThat(OnDisk.archiveFiles(t.table())).hasSize(onDisk - 1);
        }
    }
}
