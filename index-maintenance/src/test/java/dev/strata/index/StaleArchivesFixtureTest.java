package dev.strata.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.fixtures.StaleArchivesFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.CommitMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared stale-archives fixture: both archives are recognised as stale and a rebuild heals
 * them.
 */
class StaleArchivesFixtureTest {

    @TempDir Path dir;

    @Test
    void staleBySourcesAndByFormatVersionAreIgnoredAndRebuilt() throws Exception {
        Path warehouse = StaleArchivesFixture.copyTo(dir);
        Options options = new Options();
        options.set("warehouse", warehouse.toString());
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            FileStoreTable table =
                    (FileStoreTable) catalog.getTable(Identifier.create("fx", "docs"));
            long snapshot = table.snapshotManager().latestSnapshotId();
            PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
            List<CommitMessage> messages = new ArrayList<>();
            for (int bucket = 0; bucket < 2; bucket++) {
                assertThat(
                                table.store()
                                        .newIndexFileHandler()
                                        .scan(
                                                table.snapshotManager().snapshot(snapshot),
                                                "pk-full-text",
                                                BinaryRow.EMPTY_ROW,
                                                bucket))
                        .as("bucket %s has a recorded archive", bucket)
                        .hasSize(1);
                assertThat(searcher.currentArchives(snapshot, BinaryRow.EMPTY_ROW, bucket))
                        .as("bucket %s current", bucket)
                        .isEmpty();
                PkFullTextSearcher.BucketResult result =
                        searcher.search(snapshot, BinaryRow.EMPTY_ROW, bucket, "lake", 100);
                assertThat(result.hits()).isEmpty();
                assertThat(result.unsearchableRows()).isPositive();
                PkFullTextRebuild.Result rebuild =
                        PkFullTextRebuild.run(
                                table, snapshot, BinaryRow.EMPTY_ROW, bucket, false, null);
                assertThat(rebuild.report()).extracting(LevelReport::action).contains("built");
                messages.addAll(rebuild.messages());
            }
            try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
                commit.commit(messages);
            }
            long healed = table.snapshotManager().latestSnapshotId();
            int hits = 0;
            for (int bucket = 0; bucket < 2; bucket++) {
                List<IndexFileMeta> current =
                        searcher.currentArchives(healed, BinaryRow.EMPTY_ROW, bucket);
                assertThat(current).isNotEmpty();
                PkFullTextSearcher.BucketResult result =
                        searcher.search(healed, BinaryRow.EMPTY_ROW, bucket, "lake", 100);
                assertThat(result.unsearchableRows()).isZero();
                hits += result.hits().size();
            }
            assertThat(hits).isEqualTo(50);
        }
    }
}
