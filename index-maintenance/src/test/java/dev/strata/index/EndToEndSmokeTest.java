package dev.strata.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.fixtures.PkTable;
import dev.strata.index.search.SearchHit;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EndToEndSmokeTest {

    @TempDir Path dir;

    @Test
    void compactionPublishesArchiveInSameSnapshotAndSearchFindsRows() throws Exception {
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
            assertThat(t.archives()).hasSize(1);
            long snapshot = t.latestSnapshotId();
            PkFullTextSearcher searcher = PkFullTextSearcher.create(t.table());
            PkFullTextSearcher.BucketResult result =
                    searcher.search(snapshot, BinaryRow.EMPTY_ROW, 0, "paimon", 10);
            assertThat(result.hits()).hasSize(2);
            assertThat(result.unsearchableRows()).isZero();
            SearchHit first = result.hits().get(0);
            List<InternalRow> rows =
                    searcher.readRows(
                            snapshot,
                            BinaryRow.EMPTY_ROW,
                            0,
                            first.fileName(),
                            new long[] {first.position()},
                            Arrays.asList("id", "body"));
            assertThat(rows.get(0).getString(1).toString()).contains("paimon");
        }
    }
}
