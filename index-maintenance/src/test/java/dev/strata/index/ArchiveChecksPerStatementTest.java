package dev.strata.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.fixtures.PkTable;
import dev.strata.index.search.CorpusStats;
import dev.strata.testing.io.FailingFileIO;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On object storage every status or footer read of an archive is a request: one statement's passes
 * over a bucket (classification, corpus statistics, the top-k) check each archive's identity once.
 */
class ArchiveChecksPerStatementTest {

    @TempDir Path dir;

    @Test
    void aSearchsPassesCheckEachArchiveOnce() throws Exception {
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(
                    Arrays.asList(
                            PkTable.row(0, "lake format"),
                            PkTable.row(1, "paimon full text search")),
                    null);
            t.write(Arrays.asList(PkTable.row(2, "apache paimon storage")), null);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            List<IndexFileMeta> archives = t.archives();
            assertThat(archives).isNotEmpty();
            FailingFileIO io = new FailingFileIO();
            FileStoreTable table = t.withFileIO(io);
            PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
            Snapshot snapshot = table.snapshotManager().snapshot(t.latestSnapshotId());
            // The first statement opens the archive (kept open for the next ones); the second
            // finds it open.
            assertThat(statement(searcher, snapshot).hits()).hasSize(2);
            io.armFileOperations(Long.MAX_VALUE, false);
            PkFullTextSearcher.BucketResult result = statement(searcher, snapshot);
            io.disarm();
            assertThat(result.hits()).hasSize(2);
            for (IndexFileMeta archive : archives) {
                assertThat(io.fileOperations())
                        .as("checks of %s in %s", archive.fileName(), io.fileOperations())
                        .filteredOn(op -> op.equals("status " + archive.fileName()))
                        .hasSize(1);
            }
        }
    }

    /** Classification, corpus statistics and the top 10 of bucket 0, as a statement runs them. */
    private static PkFullTextSearcher.BucketResult statement(
            PkFullTextSearcher searcher, Snapshot snapshot) throws Exception {
        PkFullTextSearcher.PreparedBucket bucket =
                searcher.prepare(snapshot, BinaryRow.EMPTY_ROW, 0, false);
        CorpusStats global = bucket.stats("paimon");
        return bucket.search("paimon", 10, global);
    }
}
