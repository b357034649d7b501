package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link IntDictionaryWriter} against parquet-column's own INT32 dictionary writer: the same rows
 * written both ways give byte-identical files (same ids, pages, dictionary pages and fallbacks),
 * and parquet-mr's reader returns the values written. Covered: {@code __field_mapping}-like ids (-1
 * for an empty slot, a 2 000-id universe) with NULLs, a required column with the extreme values, a
 * column whose dictionary outgrows its page in the middle of a chunk, a column of random values
 * that falls back at the first page, both writer versions and several row groups.
 */
class IntDictionaryWriterTest {

    @TempDir Path dir;

    private static final MessageType SCHEMA =
            MessageTypeParser.parseMessageType(
                    "message m { optional int32 a; required int32 b; optional int32 c;"
                            + " optional int32 d; }");

    private static final String[] COLUMNS = {"a", "b", "c", "d"};

    private static Integer value(Random r, int c, int row) {
        switch (c) {
            case 0:
                return r.nextInt(30) == 0 ? null : r.nextInt(2_001) - 1;
            case 1:
                switch (r.nextInt(5)) {
                    case 0:
                        return Integer.MIN_VALUE;
                    case 1:
                        return Integer.MAX_VALUE;
                    default:
                        return r.nextInt(300) - 150;
                }
            case 2:
                return row % 20_000 < 6_000 ? Integer.valueOf(r.nextInt(100)) : r.nextInt();
            default:
                return r.nextInt(10) == 0 ? null : r.nextInt();
        }
    }

    private Path write(
            String name,
            List<Integer[]> rows,
            boolean strata,
            ParquetProperties.WriterVersion version)
            throws Exception {
        ParquetProperties.Builder b =
                ParquetProperties.builder()
                        .withDictionaryEncoding(true)
                        .withDictionaryPageSize(16 * 1024)
                        .withPageRowCountLimit(2_500)
                        .withPageWriteChecksumEnabled(true)
                        .withWriterVersion(version);
        if (strata) {
            b.withValuesWriterFactory(new DoubleDictionaryWriter.Factory());
        }
        ParquetProperties props = b.build();
        return ColumnFiles.write(
                dir.resolve(name + (strata ? "-strata" : "-parquet") + ".parquet"),
                SCHEMA,
                props,
                rows.size(),
                20_000,
                (row, writers) -> {
                    for (int c = 0; c < COLUMNS.length; c++) {
                        Integer x = rows.get(row)[c];
                        if (x == null) {
                            writers[c].writeNull(0, 0);
                        } else {
                            writers[c].write(x, 0, c == 1 ? 0 : 1);
                        }
                    }
                });
    }

    private static List<Integer> read(Path file, int c) throws Exception {
        return ColumnFiles.read(file, SCHEMA, COLUMNS[c], ColumnReader::getInteger);
    }

    @Test
    void sameBytesAsParquetMrsIntDictionary() throws Exception {
        Random r = new Random(21);
        List<Integer[]> rows = new ArrayList<>();
        for (int row = 0; row < 60_000; row++) {
            Integer[] values = new Integer[COLUMNS.length];
            for (int c = 0; c < COLUMNS.length; c++) {
                values[c] = value(r, c, row);
            }
            rows.add(values);
        }
        for (ParquetProperties.WriterVersion version : ParquetProperties.WriterVersion.values()) {
            Path strata = write("int-" + version, rows, true, version);
            Path parquet = write("int-" + version, rows, false, version);
            for (int c = 0; c < COLUMNS.length; c++) {
                List<Integer> expected = new ArrayList<>();
                for (Integer[] row : rows) {
                    expected.add(row[c]);
                }
                assertThat(read(strata, c))
                        .as("column %s, %s", COLUMNS[c], version)
                        .isEqualTo(expected);
            }
            // The data set covers what it claims: a and b stay dictionary-encoded, c falls back in
            // the middle of each chunk, d at the first page.
            List<String> chunks = ColumnFiles.chunks(strata);
            assertThat(chunks).hasSize(3 * COLUMNS.length);
            for (String chunk : chunks) {
                boolean dictionary = chunk.contains("DICTIONARY");
                // Fallback pages: PLAIN in format v1, DELTA_BINARY_PACKED in v2 (whose dictionary
                // pages are PLAIN).
                boolean plain =
                        version == ParquetProperties.WriterVersion.PARQUET_1_0
                                ? chunk.matches(".*[\\[ ]PLAIN[,\\]].*")
                                : chunk.contains("DELTA_BINARY_PACKED");
                String column = chunk.substring(0, 3);
                assertThat(dictionary).as(chunk).isEqualTo(!column.equals("[d]"));
                assertThat(plain).as(chunk).isEqualTo(column.equals("[c]") || column.equals("[d]"));
            }
            assertThat(Files.readAllBytes(strata))
                    .as("bytes of %s", version)
                    .isEqualTo(Files.readAllBytes(parquet));
        }
    }
}
