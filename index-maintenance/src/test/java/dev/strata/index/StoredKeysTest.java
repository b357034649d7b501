package dev.strata.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.fixtures.PkTable;
import dev.strata.index.search.SearchHit;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archives store each document's primary key, so a search answers primary-key columns of its hits
 * without reading a data file. The oracle is the table's live rows as Paimon's own reader returns
 * them.
 */
class StoredKeysTest {

    @TempDir Path dir;

    /** Rows with ids 0, 3, 6, ...; "common" in every text, "even" in those of even ids. */
    private static PkTable table(Path dir) throws Exception {
        PkTable t = PkTable.create(dir, PkTable.defaultOptions());
        Random random = new Random(11);
        List<GenericRow> rows = new ArrayList<>();
        for (long i = 0; i < 3000; i++) {
            long id = i * 3;
            String text =
                    random.nextInt(20) == 0
                            ? null
                            : "common " + (id % 2 == 0 ? "even " : "") + Long.toHexString(id);
            rows.add(PkTable.row(id, text));
        }
        t.write(rows, null);
        t.delete(Arrays.asList(6L, 600L, 3000L), null);
        try (PkFullTextWriteHook hook =
                PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
            t.compact(hook);
        }
        // Deleted after the archive was built: the deletion vector, not the archive, drops them.
        t.delete(Arrays.asList(12L, 1200L), null);
        try (PkFullTextWriteHook hook =
                PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
            t.compact(hook);
        }
        return t;
    }

    /** The live ids whose text holds {@code word}, by Paimon's reader. */
    private static TreeSet<Long> expected(PkTable t, String word) throws Exception {
        TreeSet<Long> ids = new TreeSet<>();
        t.liveRows()
                .forEach(
                        (id, text) -> {
                            if (text != null && Arrays.asList(text.split(" ")).contains(word)) {
                                ids.add(id);
                            }
                        });
        return ids;
    }

    private static TreeSet<Long> ids(List<InternalRow> rows) {
        TreeSet<Long> ids = new TreeSet<>();
        rows.forEach(
                r -> {
                    if (r != null) {
                        ids.add(r.getLong(0));
                    }
                });
        return ids;
    }

    /** Bytes of data files read for the rows of the "even" hits' {@code columns}. */
    private static long bytesRead(PkTable t, List<String> columns) throws Exception {
        dev.strata.testing.io.FailingFileIO io = new dev.strata.testing.io.FailingFileIO();
        FileStoreTable table = t.withFileIO(io);
        PkFullTextSearcher.PreparedBucket bucket =
                PkFullTextSearcher.create(table)
                        .prepare(
                                table.snapshotManager().latestSnapshot(),
                                BinaryRow.EMPTY_ROW,
                                0,
                                false);
        List<SearchHit> hits = bucket.search("even", 10_000, null).hits();
        long before = io.bytesRead();
        assertThat(bucket.rows(hits, columns)).doesNotContainNull();
        return io.bytesRead() - before;
    }

    @Test
    void hitsCarryTheirKeysAndKeyColumnsAreAnsweredWithoutTheDataFiles() throws Exception {
        try (PkTable t = table(dir)) {
            FileStoreTable table = t.table();
            assertThat(t.archives()).isNotEmpty();
            Snapshot snapshot = table.snapshotManager().latestSnapshot();
            PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
            PkFullTextSearcher.PreparedBucket bucket =
                    searcher.prepare(snapshot, BinaryRow.EMPTY_ROW, 0, false);
            TreeSet<Long> even = expected(t, "even");
            List<SearchHit> hits = bucket.search("even", 10_000, null).hits();

            TreeSet<Long> keys = new TreeSet<>();
            hits.forEach(h -> keys.add(h.key().getLong(0)));
            assertThat(keys).isEqualTo(even);
            // Each key is the one the data file holds at the hit's position.
            for (SearchHit h : hits.subList(0, 50)) {
                List<InternalRow> row =
                        bucket.readRows(h.fileName(), new long[] {h.position()}, List.of("id"));
                assertThat(row.get(0).getLong(0)).isEqualTo(h.key().getLong(0));
            }
            assertThat(ids(bucket.rows(hits, List.of("id")))).isEqualTo(even);

            // Key and value columns together: the keys from the archive, only the values read.
            java.util.Map<Long, String> live = t.liveRows();
            List<InternalRow> both = bucket.rows(hits, List.of("body", "id"));
            for (InternalRow r : both) {
                assertThat(r.getString(0).toString()).isEqualTo(live.get(r.getLong(1)));
            }
            assertThat(
                            ids(
                                    both.stream()
                                            .map(r -> (InternalRow) GenericRow.of(r.getLong(1)))
                                            .toList()))
                    .isEqualTo(even);
            assertThat(bytesRead(t, List.of("body", "id")))
                    .isEqualTo(bytesRead(t, List.of("body")));

            // With every data file's bytes destroyed, the key column still comes from the
            // archive; a value column has to be read and fails.
            for (DataFileMeta f : t.dataFiles()) {
                Path path =
                        Path.of(
                                table.store()
                                        .pathFactory()
                                        .createDataFilePathFactory(BinaryRow.EMPTY_ROW, 0)
                                        .toPath(f)
                                        .toUri()
                                        .getPath());
                try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw")) {
                    raf.write(new byte[(int) raf.length()]);
                }
            }
            assertThat(ids(bucket.rows(hits, List.of("id")))).isEqualTo(even);
            assertThat(bucket.rows(hits, List.of())).hasSize(hits.size()).doesNotContainNull();
            assertThatThrownBy(() -> bucket.rows(hits, List.of("id", "body")))
                    .isInstanceOf(Exception.class);
        }
    }
}
