package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DOUBLE columns of one row group share one value table ({@link
 * DoubleDictionaryWriter.SharedValues}) while each keeps a dictionary of its own: several columns
 * with overlapping, disjoint and growing value sets (random two-decimal values with NULLs, NaNs of
 * two bit patterns, 0.0 and -0.0, infinities and repeats), one of them falling back to PLAIN in the
 * middle of a chunk while the others stay dictionary-encoded, over several row groups and pages.
 * The oracle is parquet-mr: its own reader must return the values written (bit for bit, NaNs as
 * parquet-mr's PLAIN writer canonicalises them) from Strata's file and from the same rows written
 * with parquet-column's default writers, and every chunk of both files must take the same
 * encodings; Strata's file is never larger.
 */
class SharedDoubleDictionaryTest {

    @TempDir Path dir;

    private static final MessageType SCHEMA =
            MessageTypeParser.parseMessageType(
                    "message m { optional double a; optional double b; optional double c;"
                            + " required double d; optional double e; optional double f; }");

    private static final String[] COLUMNS = {"a", "b", "c", "d", "e", "f"};

    /** Row {@code row}'s value of column {@code c} (null: NULL). */
    private static Double value(Random r, int c, int row) {
        switch (c) {
            case 0: // 2 000 two-decimal values
                return special(r, r.nextInt(2_000) / 100.0);
            case 1: // overlaps a, and a range of its own
                return special(r, (r.nextInt(3_000) - 1_000) / 100.0);
            case 2: // the same values as a, repeated in runs
                return row % 7 < 4 ? Double.valueOf(1.25) : special(r, r.nextInt(2_000) / 100.0);
            case 3: // required, disjoint from the others, negative
                return -1e6 - r.nextInt(500) / 4.0;
            case 4: // few values, many of them special
                return r.nextInt(4) == 0 ? null : special(r, r.nextInt(5) - 2.0);
            default: // repeats at first, then a new value per row: falls back mid-chunk
                return row % 20_000 < 6_000 ? Double.valueOf(r.nextInt(100)) : r.nextDouble();
        }
    }

    private static Double special(Random r, double v) {
        switch (r.nextInt(60)) {
            case 0:
                return null;
            case 1:
                return Double.NaN;
            case 2:
                return Double.longBitsToDouble(0x7ff8000000000123L);
            case 3:
                return 0.0;
            case 4:
                return -0.0;
            case 5:
                return Double.POSITIVE_INFINITY;
            case 6:
                return Double.NEGATIVE_INFINITY;
            default:
                return v;
        }
    }

    private static List<List<Double>> rows(long seed, int n) {
        Random r = new Random(seed);
        List<List<Double>> rows = new ArrayList<>();
        for (int row = 0; row < n; row++) {
            List<Double> values = new ArrayList<>();
            for (int c = 0; c < COLUMNS.length; c++) {
                values.add(value(r, c, row));
            }
            rows.add(values);
        }
        return rows;
    }

    private Path write(String name, List<List<Double>> rows, boolean strata, int rowsPerGroup)
            throws Exception {
        return write(name, rows, strata, false, rowsPerGroup);
    }

    /** {@code reorder}: with {@link DictionaryOrderPages} in front of parquet's page store. */
    private Path write(
            String name, List<List<Double>> rows, boolean strata, boolean reorder, int rowsPerGroup)
            throws Exception {
        ParquetProperties.Builder b =
                ParquetProperties.builder()
                        .withDictionaryEncoding(true)
                        .withDictionaryPageSize(32 * 1024)
                        .withPageRowCountLimit(2_500)
                        .withPageWriteChecksumEnabled(true)
                        .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0);
        if (strata) {
            b.withValuesWriterFactory(new DoubleDictionaryWriter.Factory());
        }
        ParquetProperties props = b.build();
        return ColumnFiles.write(
                dir.resolve(
                        name
                                + (strata ? "-strata" : "-parquet")
                                + (reorder ? "-ordered" : "")
                                + ".parquet"),
                SCHEMA,
                props,
                rows.size(),
                rowsPerGroup,
                (row, writers) -> {
                    for (int c = 0; c < COLUMNS.length; c++) {
                        Double x = rows.get(row).get(c);
                        int present = c == 3 ? 0 : 1;
                        if (x == null) {
                            writers[c].writeNull(0, 0);
                        } else {
                            writers[c].write(x, 0, present);
                        }
                    }
                },
                reorder ? DictionaryOrderPages::new : (pages, compressor) -> pages);
    }

    /** Raw bits of column {@code c}'s values in file order (null for NULL), read by parquet-mr. */
    private static List<Long> read(Path file, int c) throws Exception {
        return ColumnFiles.read(
                file, SCHEMA, COLUMNS[c], r -> Double.doubleToRawLongBits(r.getDouble()));
    }

    @Test
    void columnsSharingOneTableKeepTheirOwnDictionaries() throws Exception {
        List<List<Double>> rows = rows(13, 60_000);
        Path strata = write("shared", rows, true, 20_000);
        Path parquet = write("shared", rows, false, 20_000);
        for (int c = 0; c < COLUMNS.length; c++) {
            List<Long> expected = new ArrayList<>();
            for (List<Double> row : rows) {
                Double x = row.get(c);
                expected.add(x == null ? null : Double.doubleToRawLongBits(x));
            }
            // parquet-mr's PLAIN writer stores every NaN as the canonical one (doubleToLongBits),
            // in dictionary pages too: NaNs compare canonically, everything else bit for bit.
            assertThat(canonical(read(strata, c)))
                    .as("column %s of Strata's file", COLUMNS[c])
                    .isEqualTo(canonical(expected));
            assertThat(canonical(read(parquet, c)))
                    .as("column %s of parquet-mr's file", COLUMNS[c])
                    .isEqualTo(canonical(expected));
        }
        List<String> chunks = ColumnFiles.chunks(strata);
        assertThat(chunks).isEqualTo(ColumnFiles.chunks(parquet));
        // The data set covers what it claims: f falls back in the middle of a chunk, the others
        // stay dictionary-encoded in every row group.
        for (String chunk : chunks) {
            assertThat(chunk).contains(Encoding.PLAIN_DICTIONARY.name());
            if (chunk.startsWith("[f]")) {
                assertThat(chunk).contains(Encoding.PLAIN + ",");
            }
        }
        assertThat(Files.size(strata)).isLessThanOrEqualTo(Files.size(parquet));
    }

    /**
     * The same rows with each chunk's dictionary reordered once it is complete ({@link
     * DictionaryOrderPages}): parquet-mr still reads every value back, including the column that
     * falls back to PLAIN mid-chunk (its PLAIN pages held behind renumbered dictionary pages), the
     * chunks keep parquet-mr's encodings, and the dictionary pages together take fewer bytes.
     */
    @Test
    void reorderedDictionariesReadBackThroughParquetMr() throws Exception {
        List<List<Double>> rows = rows(17, 60_000);
        Path ordered = write("ordered", rows, true, true, 20_000);
        Path asWritten = write("ordered", rows, true, false, 20_000);
        Path parquet = write("ordered", rows, false, 20_000);
        for (int c = 0; c < COLUMNS.length; c++) {
            List<Long> expected = new ArrayList<>();
            for (List<Double> row : rows) {
                Double x = row.get(c);
                expected.add(x == null ? null : Double.doubleToRawLongBits(x));
            }
            assertThat(canonical(read(ordered, c)))
                    .as("column %s of the reordered file", COLUMNS[c])
                    .isEqualTo(canonical(expected));
        }
        assertThat(ColumnFiles.chunks(ordered)).isEqualTo(ColumnFiles.chunks(parquet));
        long orderedDictionaries = dictionaryBytes(ordered);
        long writtenDictionaries = dictionaryBytes(asWritten);
        assertThat(orderedDictionaries)
                .as("compressed dictionary pages, reordered vs as written")
                .isLessThan(writtenDictionaries);
        assertThat(Files.size(ordered)).isLessThan(Files.size(asWritten));
    }

    /** Compressed bytes of the file's dictionary pages (chunk start to first data page). */
    private static long dictionaryBytes(Path file) throws Exception {
        long bytes = 0;
        try (org.apache.parquet.hadoop.ParquetFileReader r = ColumnFiles.open(file)) {
            for (org.apache.parquet.hadoop.metadata.BlockMetaData block :
                    r.getFooter().getBlocks()) {
                for (org.apache.parquet.hadoop.metadata.ColumnChunkMetaData c :
                        block.getColumns()) {
                    if (c.hasDictionaryPage()) {
                        bytes += c.getFirstDataPageOffset() - c.getDictionaryPageOffset();
                    }
                }
            }
        }
        return bytes;
    }

    private static List<Long> canonical(List<Long> bits) {
        List<Long> out = new ArrayList<>();
        for (Long b : bits) {
            out.add(b == null ? null : Double.doubleToLongBits(Double.longBitsToDouble(b)));
        }
        return out;
    }
}
