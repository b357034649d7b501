package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.testing.maps.GeneratedMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.fs.Path;
import org.apache.paimon.table.FileStoreTable;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.junit.jupiter.api.Test;

/**
 * A table created with only the storage-layout option takes no more bytes than the same rows in
 * Paimon's default MAP layout and reads back the same rows: 30 000 rows x 40 keys of
 * high-cardinality DOUBLE values (4 decimals). Before pages were compressed as one zstd frame each,
 * this table was 1.04x.
 *
 * <p>Low-cardinality values (2 decimals) read back the same too (41 000 rows x 30 keys). Their
 * bytes depend on the file size: every shared column carries a dictionary of its own (all 10 000
 * distinct values) where Paimon's layout has one per file, so only files of ~100 000 rows and more
 * are at most Paimon's bytes. That bound (200 000 rows x 30 keys in two files) is checked by the
 * benchmark {@code ShreddedBytesBreakdown}, which prints where the bytes go.
 */
class ShreddedBytesTest extends PaimonTablesTestBase {

    /**
     * Rows of {@code width} keys from a 2 000-key universe ("hot" in every row), values with {@code
     * decimals} decimals.
     */
    static List<GeneratedMap> rows(int n, int width, int decimals) {
        Random random = new Random(20261201L + decimals);
        int scale = decimals == 4 ? 10_000 : 100;
        List<GeneratedMap> out = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            List<String> keys = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            int family = r % (2000 / width);
            for (int i = 0; i < width; i++) {
                keys.add(i == 0 ? "hot" : "key_" + (family * width + i));
                values.add(random.nextInt(100 * scale) / (double) scale);
            }
            out.add(GeneratedMap.of(keys, values));
        }
        return out;
    }

    private static long dataBytes(FileStoreTable t) throws Exception {
        long bytes = 0;
        for (Path p : PaimonTables.dataFiles(t, "parquet")) {
            bytes += t.fileIO().getFileSize(p);
        }
        return bytes;
    }

    @Test
    void shreddedTableIsNoLargerThanPaimonsDefaultLayout() throws Exception {
        int width = 40;
        int decimals = 4;
        List<GeneratedMap> maps = rows(30_000, width, decimals);
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        FileStoreTable shredded =
                tables.create(
                        "s" + decimals + "_" + width,
                        PaimonTables.Kind.APPEND,
                        Map.of(ShreddingOptions.layoutKey("m"), "shared-shredding"),
                        Map.of());
        FileStoreTable plain =
                tables.create(
                        "p" + decimals + "_" + width,
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of());
        tables.write(shredded, ids, maps);
        tables.write(plain, ids, maps);

        long shreddedBytes = dataBytes(shredded);
        long plainBytes = dataBytes(plain);
        assertThat(shreddedBytes)
                .as(
                        "bytes of the shredded table vs Paimon's default layout (%d vs %d, %.3fx)",
                        shreddedBytes, plainBytes, shreddedBytes / (double) plainBytes)
                .isLessThanOrEqualTo(plainBytes);
        assertReadsBack(shredded, plain);
    }

    /**
     * The shredded table reads back the default-layout table's rows, through Strata's reader and
     * through parquet-mr's record assembly, a reader independent of Strata's.
     */
    private static void assertReadsBack(FileStoreTable shredded, FileStoreTable plain)
            throws Exception {
        Map<Long, List<String>> expected = PaimonTables.readAll(plain);
        assertThat(PaimonTables.readAll(shredded)).isEqualTo(expected);
        Map<Long, List<String>> assembled = new java.util.TreeMap<>();
        for (Path p : PaimonTables.dataFiles(shredded, "parquet")) {
            assembled.putAll(
                    FileRoundTrip.assembledRows(shredded.fileIO(), p, PaimonTables.ROW_TYPE));
        }
        assertThat(assembled).isEqualTo(expected);
    }

    /**
     * {@code __field_mapping}'s pages span the same rows as the value columns' pages (the 20
     * 000-row limit): zstd compresses each page as one frame, so pages cut at 1 MB of raw ints (~7
     * 700 rows of 30 keys) re-learned the rows' key patterns three times as often. The
     * low-cardinality rows read back as Paimon's default layout returns them.
     */
    @Test
    void lowCardinalityRowsReadBackAndFieldMappingPagesSpanTheValueColumnsRows() throws Exception {
        // Three value pages (20 000 rows each) where 1 MB mapping pages would make six.
        List<GeneratedMap> maps = rows(41_000, 30, 2);
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        FileStoreTable shredded =
                tables.create(
                        "pages",
                        PaimonTables.Kind.APPEND,
                        Map.of(ShreddingOptions.layoutKey("m"), "shared-shredding"),
                        Map.of());
        FileStoreTable plain =
                tables.create(
                        "pages_plain",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of());
        tables.write(shredded, ids, maps);
        tables.write(plain, ids, maps);
        assertReadsBack(shredded, plain);
        List<Path> files = PaimonTables.dataFiles(shredded, "parquet");
        assertThat(files).isNotEmpty();
        for (Path p : files) {
            try (ParquetFileReader r =
                    ParquetFileReader.open(
                            PaimonFiles.inputFile(
                                    shredded.fileIO(), p, shredded.fileIO().getFileSize(p)),
                            PaimonFiles.readOptions())) {
                for (BlockMetaData block : r.getFooter().getBlocks()) {
                    Map<String, Integer> pages = new java.util.TreeMap<>();
                    for (ColumnChunkMetaData c : block.getColumns()) {
                        pages.put(c.getPath().toDotString(), r.readOffsetIndex(c).getPageCount());
                    }
                    assertThat(pages.get("m.__field_mapping.list.element"))
                            .as("pages per chunk in %s: %s", p.getName(), pages)
                            .isEqualTo(pages.get("m.__col_0"))
                            .isEqualTo((int) ((block.getRowCount() + 19_999) / 20_000));
                }
            }
        }
    }
}
