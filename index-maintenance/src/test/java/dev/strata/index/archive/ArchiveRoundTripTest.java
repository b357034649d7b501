package dev.strata.index.archive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.PkFullTextWriteHook;
import dev.strata.index.fixtures.PkTable;
import dev.strata.index.search.SearchHit;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.text.TextCorpus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.index.CheckIndex;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArchiveRoundTripTest {

    @TempDir Path dir;

    @Test
    void everyNonNullRowIsFoundByItsTokenAndMapsBackToItsPosition() throws Exception {
        long seed = TestSeeds.seed("ArchiveRoundTripTest");
        Random random = new Random(seed);
        TextCorpus corpus = new TextCorpus(500);
        Map<String, String> options = PkTable.defaultOptions();
        options.put("target-file-size", "8 kb");
        // Non-overlapping level-0 files would only be moved up (and stay APPEND, so not indexable).
        options.put("compaction.force-rewrite-all-files", "true");
        try (PkTable t = PkTable.create(dir, options)) {
            Map<Long, String> expected = new HashMap<>();
            for (int batch = 0; batch < 3; batch++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int i = 0; i < 150; i++) {
                    long id = batch * 150L + i;
                    String text =
                            random.nextInt(10) == 0
                                    ? null
                                    : "uniq" + id + " " + corpus.document(random, 5, 30);
                    expected.put(id, text);
                    rows.add(PkTable.row(id, text));
                }
                t.write(rows, null);
            }
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            List<DataFileMeta> files = t.dataFiles();
            List<IndexFileMeta> archives = t.archives();
            assertThat(files.size())
                    .as("several files at the top level (target-file-size)")
                    .isGreaterThan(1);
            assertThat(archives).hasSize(1);
            IndexFileMeta archive = archives.get(0);
            assertThat(archive.indexType()).isEqualTo("pk-full-text");
            assertThat(archive.globalIndexMeta()).isNull();
            assertThat(archive.rowCount()).isEqualTo(450);
            assertThat(archive.fileName()).startsWith("index-");

            ArchiveFiles archiveFiles = ArchiveFiles.of(t.table(), BinaryRow.EMPTY_ROW, 0);
            assertThat(t.table().fileIO().getFileSize(archiveFiles.path(archive)))
                    .isEqualTo(archive.fileSize());
            try (ArchiveReader reader = ArchiveReader.open(archiveFiles, archive)) {
                ArchiveHeader header = reader.header();
                assertThat(header.textFieldId()).isEqualTo(1);
                assertThat(header.rowCount()).isEqualTo(450);
                long nonNull =
                        expected.values().stream().filter(java.util.Objects::nonNull).count();
                assertThat(header.docCount()).isEqualTo(nonNull);
                assertThat(header.sourceMeta().sourceFiles()).hasSize(files.size());
                List<String> names = new ArrayList<>();
                files.forEach(f -> names.add(f.fileName()));
                Collections.sort(names);
                List<String> recorded = new ArrayList<>();
                header.sourceMeta().sourceFiles().forEach(s -> recorded.add(s.fileName()));
                assertThat(recorded).isEqualTo(names);
                CheckIndex.Status status;
                try (CheckIndex check = new CheckIndex(reader.directory())) {
                    status = check.checkIndex();
                }
                assertThat(status.clean).as("CheckIndex on the packed index").isTrue();
            }

            PkFullTextSearcher searcher = PkFullTextSearcher.create(t.table());
            long snapshot = t.latestSnapshotId();
            for (Map.Entry<Long, String> e : expected.entrySet()) {
                List<SearchHit> hits =
                        searcher.search(snapshot, BinaryRow.EMPTY_ROW, 0, "uniq" + e.getKey(), 5)
                                .hits();
                if (e.getValue() == null) {
                    assertThat(hits).as("null text of id %s", e.getKey()).isEmpty();
                    continue;
                }
                assertThat(hits).as("hits of id %s", e.getKey()).hasSize(1);
                SearchHit hit = hits.get(0);
                List<InternalRow> rows =
                        searcher.readRows(
                                snapshot,
                                BinaryRow.EMPTY_ROW,
                                0,
                                hit.fileName(),
                                new long[] {hit.position()},
                                Arrays.asList("id", "body"));
                assertThat(rows.get(0).getLong(0)).isEqualTo(e.getKey());
                assertThat(rows.get(0).getString(1).toString()).isEqualTo(e.getValue());
            }
        }
    }
}
