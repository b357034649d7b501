package dev.strata.shredding.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.TestSeeds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ColumnCursor} against the rows that were written, read in windows of random sizes: files
 * written by parquet-mr itself with V1 and V2 pages, dictionary on and off (so PLAIN, dictionary,
 * BYTE_STREAM_SPLIT and the DELTA encodings of V2 pages all occur), small pages (many per chunk,
 * some without values, so windows span pages) and several row groups; every column's repetition and
 * definition levels and every value must be what the rows say.
 */
class ColumnCursorTest {

    private static final MessageType SCHEMA =
            MessageTypeParser.parseMessageType(
                    "message t {"
                            + " optional int64 id; optional int32 n; optional double d; optional binary s (UTF8);"
                            + " optional group m (MAP) { repeated group key_value { required int32 key; optional double value; } } }");

    @TempDir Path dir;

    private record Row(
            Long id,
            Integer n,
            Double d,
            String s,
            List<int[]> keys,
            List<Double> values,
            boolean nullMap) {}

    @ParameterizedTest(name = "{0} dictionary={1} byteStreamSplit={2}")
    @CsvSource({
        "PARQUET_1_0, true, false",
        "PARQUET_1_0, false, false",
        "PARQUET_1_0, false, true",
        "PARQUET_2_0, true, false",
        "PARQUET_2_0, false, false",
        "PARQUET_2_0, false, true"
    })
    void levelsAndValuesAreTheWrittenOnes(
            WriterVersion version, boolean dictionary, boolean byteStreamSplit) throws IOException {
        long seed = TestSeeds.seed("columnCursor");
        Random random = new Random(seed);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            List<int[]> keys = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            boolean nullMap = random.nextInt(10) == 0;
            for (int e = nullMap ? 0 : random.nextInt(4); e > 0; e--) {
                keys.add(new int[] {random.nextInt(dictionary ? 20 : 100000)});
                values.add(random.nextInt(8) == 0 ? null : random.nextDouble());
            }
            rows.add(
                    new Row(
                            random.nextInt(9) == 0 ? null : random.nextLong(),
                            random.nextInt(9) == 0
                                    ? null
                                    : random.nextInt(dictionary ? 10 : Integer.MAX_VALUE),
                            random.nextInt(9) == 0
                                    ? null
                                    : (dictionary ? random.nextInt(5) : random.nextGaussian()),
                            random.nextInt(9) == 0
                                    ? null
                                    : "v" + random.nextInt(dictionary ? 7 : 1000000) + "é",
                            keys,
                            values,
                            nullMap));
        }
        org.apache.hadoop.fs.Path file =
                new org.apache.hadoop.fs.Path(dir.resolve("t.parquet").toUri());
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer =
                ExampleParquetWriter.builder(file)
                        .withType(SCHEMA)
                        .withConf(new Configuration())
                        .withWriterVersion(version)
                        .withDictionaryEncoding(dictionary)
                        .withByteStreamSplitEncoding(byteStreamSplit)
                        .withPageSize(512)
                        .withPageRowCountLimit(100)
                        .withRowGroupSize(16 * 1024L)
                        .withCompressionCodec(CompressionCodecName.GZIP)
                        .build()) {
            for (Row r : rows) {
                Group g = groups.newGroup();
                if (r.id() != null) {
                    g.append("id", r.id());
                }
                if (r.n() != null) {
                    g.append("n", r.n());
                }
                if (r.d() != null) {
                    g.append("d", r.d());
                }
                if (r.s() != null) {
                    g.append("s", r.s());
                }
                if (!r.nullMap()) {
                    Group m = g.addGroup("m");
                    for (int e = 0; e < r.keys().size(); e++) {
                        Group kv = m.addGroup("key_value");
                        kv.append("key", r.keys().get(e)[0]);
                        if (r.values().get(e) != null) {
                            kv.append("value", r.values().get(e));
                        }
                    }
                }
                writer.write(g);
            }
        }

        List<Levels> actual = new ArrayList<>();
        for (int c = 0; c < SCHEMA.getColumns().size(); c++) {
            actual.add(new Levels());
        }
        int rowGroups = 0;
        try (ParquetFileReader reader =
                ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration()))) {
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                rowGroups++;
                int groupRows = Math.toIntExact(pages.getRowCount());
                for (int c = 0; c < SCHEMA.getColumns().size(); c++) {
                    ColumnDescriptor d = SCHEMA.getColumns().get(c);
                    ColumnCursor cursor =
                            new ColumnCursor(pages.getPageReader(d), d, file.toString());
                    for (int row = 0; row < groupRows; ) {
                        int n =
                                Math.min(
                                        groupRows - row, 1 + random.nextInt(c % 2 == 0 ? 37 : 400));
                        cursor.next(n);
                        assertThat(cursor.rows).isEqualTo(n);
                        actual.get(c).add(cursor, d);
                        row += n;
                    }
                    assertThat(cursor.atEnd()).as("chunk ends with the row group").isTrue();
                }
            }
        }
        assertThat(rowGroups).as("row groups").isGreaterThan(2);
        List<Levels> expected = expected(rows);
        String[] names = {"id", "n", "d", "s", "m.key", "m.value"};
        for (int c = 0; c < names.length; c++) {
            assertThat(actual.get(c).text)
                    .as("%s (%s)", names[c], TestSeeds.describe("columnCursor", seed))
                    .isEqualTo(expected.get(c).text);
        }
    }

    /** Levels and values of one column as text, "rep/def[=value]" per entry. */
    private static final class Levels {
        final List<String> text = new ArrayList<>();

        void add(ColumnCursor chunk, ColumnDescriptor d) throws IOException {
            int ordinal = 0;
            for (int r = 0; r < chunk.rows; r++) {
                assertThat(chunk.rep[chunk.rowStart[r]])
                        .as("a row starts at repetition level 0")
                        .isZero();
            }
            for (int e = 0; e < chunk.entries; e++) {
                int rep = chunk.rep[e];
                int def = chunk.def[e];
                String value = "";
                if (chunk.hasValue(e)) {
                    int o = ordinal++;
                    switch (d.getPrimitiveType().getPrimitiveTypeName()) {
                        case INT32:
                            value = "=" + chunk.getInt(o);
                            break;
                        case INT64:
                            value = "=" + chunk.getLong(o);
                            break;
                        case DOUBLE:
                            value = "=" + chunk.getDouble(o);
                            break;
                        default:
                            value = "=" + new String(chunk.getBytes(o), StandardCharsets.UTF_8);
                    }
                }
                text.add(rep + "/" + def + value);
            }
            assertThat(ordinal).isEqualTo(chunk.values);
        }

        void add(int rep, int def, Object value) {
            text.add(rep + "/" + def + (value == null ? "" : "=" + value));
        }
    }

    private static List<Levels> expected(List<Row> rows) {
        List<Levels> out = new ArrayList<>();
        for (int c = 0; c < 6; c++) {
            out.add(new Levels());
        }
        for (Row r : rows) {
            out.get(0).add(0, r.id() == null ? 0 : 1, r.id());
            out.get(1).add(0, r.n() == null ? 0 : 1, r.n());
            out.get(2).add(0, r.d() == null ? 0 : 1, r.d());
            out.get(3).add(0, r.s() == null ? 0 : 1, r.s());
            if (r.nullMap() || r.keys().isEmpty()) {
                out.get(4).add(0, r.nullMap() ? 0 : 1, null);
                out.get(5).add(0, r.nullMap() ? 0 : 1, null);
            }
            for (int e = 0; e < r.keys().size(); e++) {
                int rep = e == 0 ? 0 : 1;
                out.get(4).add(rep, 2, r.keys().get(e)[0]);
                Double v = r.values().get(e);
                out.get(5).add(rep, v == null ? 2 : 3, v);
            }
        }
        return out;
    }
}
