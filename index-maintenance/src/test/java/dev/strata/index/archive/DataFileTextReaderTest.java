package dev.strata.index.archive;

import dev.strata.index.PkFullTextWriteHook;
import dev.strata.index.fixtures.PkTable;

import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.DataFileMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataFileTextReaderTest {

    @TempDir Path dir;

    @Test
    void readsOneTextPerPhysicalRowIncludingNullsAndIgnoresDeletionVectors() throws Exception {
        Map<String, String> options = PkTable.defaultOptions();
        options.put("file.format", "avro");
        try (PkTable t = PkTable.create(dir, options)) {
            t.write(Arrays.asList(PkTable.row(1, "first"), PkTable.row(2, null), PkTable.row(3, "third")), null);
            try (PkFullTextWriteHook hook = PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            // Deleting id 2 adds a deletion vector; the reader still returns every physical row.
            t.delete(Arrays.asList(2L), null);
            try (PkFullTextWriteHook hook = PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
                t.compact(hook);
            }
            DataFileMeta file = t.dataFiles().stream().filter(f -> f.level() > 0).findFirst().get();
            TextReader.Factory factory =
                    DataFileTextReader.factory(t.table(), BinaryRow.EMPTY_ROW, 0, t.table().rowType().getField("body"));
            try (TextReader reader = factory.open(file)) {
                assertThat(reader.rowCount()).isEqualTo(file.rowCount());
                StringBuilder seen = new StringBuilder();
                for (long i = 0; i < file.rowCount(); i++) {
                    seen.append(reader.readNextText()).append('|');
                }
                assertThat(seen.toString()).isIn("first|null|third|", "first|third|");
                assertThatThrownBy(reader::readNextText).hasMessageContaining("Read past data file");
            }
        }
    }
}
