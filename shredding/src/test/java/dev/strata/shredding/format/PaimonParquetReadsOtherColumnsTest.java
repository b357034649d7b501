package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormatFactory;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.parquet.ParquetFileFormat;
import org.apache.paimon.fs.Path;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine without shared-shredding support (stock Paimon 1.4's own Parquet reader, used directly,
 * not through Strata's format) still reads every other column of a file Strata wrote shredded.
 */
class PaimonParquetReadsOtherColumnsTest {

    @TempDir java.nio.file.Path tmp;

    @Test
    void paimonsOwnParquetReaderReadsTheIdsOfShreddedFiles() throws Exception {
        try (PaimonTables tables = new PaimonTables(tmp)) {
            readIds(tables);
        }
    }

    private void readIds(PaimonTables tables) throws Exception {
        MapDataGenerator gen =
                MapDataGenerator.builder(TestSeeds.seed("stock-reader"))
                        .keyUniverse(30)
                        .keysPerRow(2, 8)
                        .nullMapRate(0.1)
                        .emptyMapRate(0.1)
                        .build();
        FileStoreTable t =
                tables.create(
                        "stock",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(true, 3, "lru"),
                        java.util.Map.of());
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < 2000; i++) {
            ids.add(i * 3);
        }
        List<GeneratedMap> maps = gen.generate(ids.size());
        tables.write(t, ids, maps);
        assertThat(PaimonTables.fileLayouts(t)).containsOnlyKeys("parquet:shredded");

        RowType full = t.rowType();
        RowType idOnly = full.project("id");
        ParquetFileFormat stock =
                new ParquetFileFormat(
                        new FileFormatFactory.FormatContext(new Options(), 1024, 1024));
        TreeMap<Long, Integer> seen = new TreeMap<>();
        for (Path p : PaimonTables.dataFiles(t, "parquet")) {
            try (RecordReader<InternalRow> r =
                    stock.createReaderFactory(full, idOnly, List.of())
                            .createReader(
                                    new FormatReaderContext(
                                            t.fileIO(), p, t.fileIO().getFileSize(p)))) {
                r.forEachRemaining(row -> seen.merge(row.getLong(0), 1, Integer::sum));
            }
        }
        TreeMap<Long, Integer> expected = new TreeMap<>();
        ids.forEach(id -> expected.put(id, 1));
        assertThat(seen).isEqualTo(expected);
    }
}
