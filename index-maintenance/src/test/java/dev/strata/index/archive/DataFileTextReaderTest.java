package dev.strata.index.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.PkFullTextWriteHook;
import dev.strata.index.fixtures.PkTable;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.DataFileMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataFileTextReaderTest {

    @TempDir Path dir;

    @Test
    void readsOneTextPerPhysicalRowIncludingNullsAndIgnoresDeletionVectors() throws Exception {
        Map<String, String> options = PkTable.defaultOptions();
        options.put("file.format", "avro");
        try (PkTable t = PkTable.create(dir, options)) {
            t.write(
                    Arrays.asList(
                            PkTable.row(1, "first"), PkTable.row(2, null), PkTable.row(3, "third")),
                    null);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            // Deleting id 2 adds a deletion vector; the reader still returns every physical row.
            t.delete(Arrays.asList(2L), null);
            try (PkFullTextWriteHook hook =
                    PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            DataFileMeta file = t.dataFiles().stream().filter(f -> f.level() > 0).findFirst().get();
            TextReader.Factory factory =
                    DataFileTextReader.factory(
                            t.table(),
                            BinaryRow.EMPTY_ROW,
                            0,
                            t.table().rowType().getField("body"));
            try (TextReader reader = factory.open(file)) {
                assertThat(reader.rowCount()).isEqualTo(file.rowCount());
                StringBuilder seen = new StringBuilder();
                for (long i = 0; i < file.rowCount(); i++) {
                    seen.append(reader.readNextText()).append('|');
                }
                assertThat(seen.toString()).isIn("first|null|third|", "first|third|");
                assertThatThrownBy(reader::readNextText)
                        .hasMessageContaining("Read past data file");
            }
        }
    }

    private static DataFileMeta withRowCount(DataFileMeta f, long rows) {
        return DataFileMeta.create(
                f.fileName(),
                f.fileSize(),
                rows,
                f.minKey(),
                f.maxKey(),
                f.keyStats(),
                f.valueStats(),
                f.minSequenceNumber(),
                f.maxSequenceNumber(),
                f.schemaId(),
                f.level(),
                f.extraFiles(),
                f.deleteRowCount().orElse(null),
                f.embeddedIndex(),
                f.fileSource().orElse(null),
                f.valueStatsCols(),
                f.externalPath().orElse(null),
                f.firstRowId(),
                f.writeCols());
    }

    @Test
    void reportsFilesShorterOrLongerThanDeclared() throws Exception {
        try (PkTable t = PkTable.create(dir, PkTable.defaultOptions())) {
            t.write(
                    Arrays.asList(PkTable.row(1, "a"), PkTable.row(2, "b"), PkTable.row(3, "c")),
                    null);
            t.compact(null);
            DataFileMeta file = t.dataFiles().get(0);
            TextReader.Factory factory =
                    DataFileTextReader.factory(
                            t.table(),
                            BinaryRow.EMPTY_ROW,
                            0,
                            t.table().rowType().getField("body"));
            try (TextReader reader = factory.open(withRowCount(file, 4))) {
                reader.readNextText();
                reader.readNextText();
                reader.readNextText();
                assertThatThrownBy(reader::readNextText)
                        .hasMessageContaining("ended before its declared row count");
            }
            try (TextReader reader = factory.open(withRowCount(file, 2))) {
                reader.readNextText();
                assertThatThrownBy(reader::readNextText)
                        .hasMessageContaining("contains more rows than declared");
            }
            // The builder checks every reader against its source and deletes nothing it did not
            // write.
            LuceneArchiveBuilder builder =
                    new LuceneArchiveBuilder(
                            ArchiveFiles.of(t.table(), BinaryRow.EMPTY_ROW, 0),
                            factory,
                            1,
                            dev.strata.index.options.AnalyzerSettings.defaults(),
                            null,
                            16);
            assertThatThrownBy(() -> builder.build(Arrays.asList(withRowCount(file, 4))))
                    .hasMessageContaining("ended before its declared row count");
            assertThat(dev.strata.index.fixtures.OnDisk.archiveFiles(t.table())).isEmpty();
        }
    }
}
