package dev.strata.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeaders;
import dev.strata.index.archive.DataFileTextReader;
import dev.strata.index.archive.LuceneArchiveBuilder;
import dev.strata.index.archive.TextReader;
import dev.strata.index.fixtures.PkTable;
import dev.strata.index.options.FullTextDefinition;
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
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archives store each document's primary key (format version 2), so a search answers primary-key
 * columns of its hits without reading a data file; archives of version 1 (no keys) still answer, by
 * reading the rows. The oracle is the table's live rows as Paimon's own reader returns them.
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

    @Test
    void hitsCarryTheirKeysAndKeyColumnsAreAnsweredWithoutTheDataFiles() throws Exception {
        try (PkTable t = table(dir)) {
            FileStoreTable table = t.table();
            ArchiveFiles files = ArchiveFiles.of(table, BinaryRow.EMPTY_ROW, 0);
            assertThat(t.archives()).isNotEmpty();
            for (IndexFileMeta archive : t.archives()) {
                assertThat(new ArchiveHeaders(false).header(files, archive).keyed())
                        .as("archive %s stores keys", archive.fileName())
                        .isTrue();
            }
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

    @Test
    void anArchiveWithoutKeysIsSearchedByReadingRowsAndARebuildRewritesItWithKeys()
            throws Exception {
        try (PkTable t = table(dir)) {
            FileStoreTable table = t.table();
            FullTextDefinition def = PkFullTextIndex.definition(table);
            TextReader.Factory keyed =
                    DataFileTextReader.factory(table, BinaryRow.EMPTY_ROW, 0, def.field());
            // A reader factory that reads no keys builds a version 1 archive, as Strata wrote
            // before archives stored keys; it replaces the current archive in a commit.
            TextReader.Factory keyless = keyed::open;
            ArchiveFiles files = ArchiveFiles.of(table, BinaryRow.EMPTY_ROW, 0);
            List<IndexFileMeta> current = t.archives();
            IndexFileMeta v1 =
                    new LuceneArchiveBuilder(
                                    files, keyless, def.fieldId(), def.analyzer(), null, 16)
                            .build(t.dataFiles());
            assertThat(new ArchiveHeaders(false).header(files, v1).keyed()).isFalse();
            t.commit(
                    List.of(
                            new CommitMessageImpl(
                                    BinaryRow.EMPTY_ROW,
                                    0,
                                    1,
                                    new DataIncrement(
                                            List.of(),
                                            List.of(),
                                            List.of(),
                                            List.of(v1),
                                            new ArrayList<>(current)),
                                    CompactIncrement.emptyIncrement())));
            assertThat(t.archives()).containsExactly(v1);

            TreeSet<Long> even = expected(t, "even");
            PkFullTextSearcher.PreparedBucket bucket =
                    PkFullTextSearcher.create(t.table())
                            .prepare(
                                    t.table().snapshotManager().latestSnapshot(),
                                    BinaryRow.EMPTY_ROW,
                                    0,
                                    false);
            List<SearchHit> hits = bucket.search("even", 10_000, null).hits();
            assertThat(hits).isNotEmpty().allSatisfy(h -> assertThat(h.key()).isNull());
            assertThat(ids(bucket.rows(hits, List.of("id")))).isEqualTo(even);
            assertThat(bucket.rows(hits, List.of())).hasSize(hits.size()).doesNotContainNull();

            PkFullTextRebuild.Result rebuild =
                    PkFullTextRebuild.run(
                            t.table(), t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, false, null);
            assertThat(rebuild.report()).extracting(LevelReport::action).contains("built");
            t.commit(rebuild.messages());
            assertThat(t.archives())
                    .isNotEmpty()
                    .allSatisfy(
                            a ->
                                    assertThat(new ArchiveHeaders(false).header(files, a).keyed())
                                            .isTrue());
            List<SearchHit> keyedHits =
                    PkFullTextSearcher.create(t.table())
                            .prepare(
                                    t.table().snapshotManager().latestSnapshot(),
                                    BinaryRow.EMPTY_ROW,
                                    0,
                                    false)
                            .search("even", 10_000, null)
                            .hits();
            TreeSet<Long> keys = new TreeSet<>();
            keyedHits.forEach(h -> keys.add(h.key().getLong(0)));
            assertThat(keys).isEqualTo(even);
        }
    }
}
