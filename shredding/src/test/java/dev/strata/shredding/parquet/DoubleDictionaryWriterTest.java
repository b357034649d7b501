package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DoubleDictionaryWriter} against parquet-column's own DOUBLE dictionary writer: the same
 * rows written both ways read back through parquet-mr's column reader (bit for bit, NaNs of any
 * pattern as one: parquet-mr's own dictionary may merge them), every chunk takes the same encodings
 * (the same dictionary and fallback decisions), and Strata's file is never larger (smaller when a
 * dictionary is used: its entries are in value order). Covered: values that stay dictionary-encoded
 * (with NULLs, NaNs of two bit patterns, 0.0 and -0.0, infinities), values that fall back at the
 * first page (compression not satisfying), a dictionary that outgrows its page size in the middle
 * of a chunk, both fallbacks (PLAIN and BYTE_STREAM_SPLIT), both writer versions and several row
 * groups.
 */
class DoubleDictionaryWriterTest {

    @TempDir Path dir;

    private static final MessageType SCHEMA =
            MessageTypeParser.parseMessageType(
                    "message m { optional double v; required double w; optional int32 i; }");

    /** NULL, two NaN bit patterns, signed zeros and infinities among two-decimal values. */
    private static Double twoDecimals(Random r, int distinct) {
        switch (r.nextInt(40)) {
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
                return r.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
            default:
                return r.nextInt(distinct) / 100.0;
        }
    }

    private byte[] write(
            String name,
            List<Double> values,
            boolean strata,
            ParquetProperties.WriterVersion version,
            int dictionaryPageBytes,
            boolean byteStreamSplit,
            int rowsPerGroup)
            throws Exception {
        ParquetProperties.Builder b =
                ParquetProperties.builder()
                        .withDictionaryEncoding(true)
                        .withDictionaryPageSize(dictionaryPageBytes)
                        .withPageRowCountLimit(1_000)
                        .withByteStreamSplitEncoding(byteStreamSplit)
                        .withPageWriteChecksumEnabled(true)
                        .withWriterVersion(version);
        if (strata) {
            b.withValuesWriterFactory(new DoubleDictionaryWriter.Factory());
        }
        ParquetProperties props = b.build();
        Path file =
                ColumnFiles.write(
                        dir.resolve(name + (strata ? "-strata" : "-parquet") + ".parquet"),
                        SCHEMA,
                        props,
                        values.size(),
                        rowsPerGroup,
                        (row, writers) -> {
                            Double x = values.get(row);
                            if (x == null) {
                                writers[0].writeNull(0, 0);
                                writers[1].write(-1.5, 0, 0);
                            } else {
                                writers[0].write(x, 0, 1);
                                writers[1].write(x * 3, 0, 0);
                            }
                            writers[2].write(row % 7, 0, 1);
                        });
        return Files.readAllBytes(file);
    }

    /**
     * {@code doubleToLongBits} of column {@code column}'s values (null for NULL), read by
     * parquet-mr.
     */
    private static List<Long> read(Path file, String column) throws Exception {
        return ColumnFiles.read(file, SCHEMA, column, r -> Double.doubleToLongBits(r.getDouble()));
    }

    private static List<Long> bits(List<Double> values) {
        List<Long> out = new ArrayList<>();
        for (Double v : values) {
            out.add(v == null ? null : Long.valueOf(Double.doubleToLongBits(v)));
        }
        return out;
    }

    /**
     * Writes the file both ways and asserts that parquet-mr reads back the values written (bit for
     * bit) from both, that every chunk took the same encodings (the same fallback decisions), and
     * that Strata's file is no larger. Returns the encodings of {@code v} and the two lengths.
     */
    private Set<Encoding> sameValues(
            String name,
            List<Double> values,
            ParquetProperties.WriterVersion version,
            int dictionaryPageBytes,
            boolean byteStreamSplit,
            int rowsPerGroup,
            long[] lengths)
            throws Exception {
        byte[] parquet =
                write(
                        name,
                        values,
                        false,
                        version,
                        dictionaryPageBytes,
                        byteStreamSplit,
                        rowsPerGroup);
        byte[] strata =
                write(
                        name,
                        values,
                        true,
                        version,
                        dictionaryPageBytes,
                        byteStreamSplit,
                        rowsPerGroup);
        Path p = dir.resolve(name + "-parquet.parquet");
        Path s = dir.resolve(name + "-strata.parquet");
        List<Double> tripled = new ArrayList<>();
        for (Double v : values) {
            tripled.add(v == null ? -1.5 : v * 3);
        }
        for (Path f : List.of(p, s)) {
            assertThat(read(f, "v")).as("v of %s", f.getFileName()).isEqualTo(bits(values));
            assertThat(read(f, "w")).as("w of %s", f.getFileName()).isEqualTo(bits(tripled));
        }
        assertThat(ColumnFiles.chunks(s)).as("chunks of %s", name).isEqualTo(ColumnFiles.chunks(p));
        assertThat(strata.length).as("bytes of %s", name).isLessThanOrEqualTo(parquet.length);
        lengths[0] = strata.length;
        lengths[1] = parquet.length;
        Set<Encoding> encodings = new TreeSet<>();
        try (ParquetFileReader r = ColumnFiles.open(s)) {
            for (BlockMetaData block : r.getFooter().getBlocks()) {
                encodings.addAll(block.getColumns().get(0).getEncodings());
            }
        }
        return encodings;
    }

    @Test
    void fewDistinctValuesStayDictionaryEncoded() throws Exception {
        Random r = new Random(7);
        List<Double> values = new ArrayList<>();
        for (int n = 0; n < 30_000; n++) {
            values.add(twoDecimals(r, 500));
        }
        for (ParquetProperties.WriterVersion version : ParquetProperties.WriterVersion.values()) {
            long[] lengths = new long[2];
            Set<Encoding> encodings =
                    sameValues("few-" + version, values, version, 1 << 20, false, 12_000, lengths);
            // Entries in value order compress better than in order of appearance.
            assertThat(lengths[0]).as("bytes of few-%s", version).isLessThan(lengths[1]);
            // Format v2 writes the dictionary page itself as PLAIN.
            assertThat(encodings)
                    .containsAnyOf(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY)
                    .doesNotContain(
                            version == ParquetProperties.WriterVersion.PARQUET_1_0
                                    ? Encoding.PLAIN
                                    : Encoding.BYTE_STREAM_SPLIT);
        }
    }

    @Test
    void manyDistinctValuesFallBackAtTheFirstPage() throws Exception {
        Random r = new Random(8);
        List<Double> values = new ArrayList<>();
        for (int n = 0; n < 20_000; n++) {
            values.add(n % 50 == 0 ? null : r.nextDouble() * 1e6);
        }
        for (boolean split : new boolean[] {false, true}) {
            Set<Encoding> encodings =
                    sameValues(
                            "many-" + split,
                            values,
                            ParquetProperties.WriterVersion.PARQUET_1_0,
                            1 << 20,
                            split,
                            20_000,
                            new long[2]);
            assertThat(encodings)
                    .contains(split ? Encoding.BYTE_STREAM_SPLIT : Encoding.PLAIN)
                    .doesNotContain(Encoding.PLAIN_DICTIONARY);
        }
    }

    @Test
    void dictionaryOutgrowingItsPageFallsBackInTheMiddleOfAChunk() throws Exception {
        // The first pages repeat 200 values (dictionary encoding pays off), then new values grow
        // the dictionary past 4 KB (512 values): pages before the fallback stay dictionary-encoded.
        Random r = new Random(9);
        List<Double> values = new ArrayList<>();
        for (int n = 0; n < 40_000; n++) {
            Double x = twoDecimals(r, 10_000);
            if (n < 5_000 && x != null) {
                x = r.nextInt(200) / 4.0;
            }
            values.add(x);
        }
        for (ParquetProperties.WriterVersion version : ParquetProperties.WriterVersion.values()) {
            for (boolean split : new boolean[] {false, true}) {
                Set<Encoding> encodings =
                        sameValues(
                                "grow-" + version + split,
                                values,
                                version,
                                4096,
                                split,
                                25_000,
                                new long[2]);
                assertThat(encodings)
                        .contains(split ? Encoding.BYTE_STREAM_SPLIT : Encoding.PLAIN)
                        .containsAnyOf(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);
            }
        }
    }

    /**
     * Forty columns of distinct values fill the table their dictionaries share past {@link
     * DoubleDictionaryWriter#SHARED_LIMIT} long before any reaches its own limit: the largest fall
     * back, while a column of ten values keeps its dictionary. (Parquet's per-column limit alone
     * let K such columns hold K x 131 072 values at once.)
     */
    @Test
    void largestDictionariesFallBackOnceTheSharedTableIsFull() {
        StringBuilder schema = new StringBuilder("message m {");
        for (int c = 0; c <= 40; c++) {
            schema.append(" required double c").append(c).append(';');
        }
        MessageType type = MessageTypeParser.parseMessageType(schema.append(" }").toString());
        ParquetProperties props =
                ParquetProperties.builder()
                        .withDictionaryEncoding(true)
                        .withDictionaryPageSize(ParquetProperties.DEFAULT_DICTIONARY_PAGE_SIZE)
                        .withValuesWriterFactory(new DoubleDictionaryWriter.Factory())
                        .build();
        List<org.apache.parquet.column.values.ValuesWriter> writers = new ArrayList<>();
        for (org.apache.parquet.column.ColumnDescriptor d : type.getColumns()) {
            writers.add(props.getValuesWriterFactory().newValuesWriter(d));
        }
        int perColumn = DoubleDictionaryWriter.SHARED_LIMIT / 40 * 3 / 2;
        for (int i = 0; i < perColumn; i++) {
            for (int c = 0; c < 40; c++) {
                writers.get(c).writeDouble(c * 1e9 + i);
            }
            writers.get(40).writeDouble(i % 10);
        }
        int dictionaries = 0;
        for (int c = 0; c < 40; c++) {
            if (writers.get(c).getEncoding().usesDictionary()) {
                dictionaries++;
            }
        }
        assertThat(perColumn).isLessThan(ParquetProperties.DEFAULT_DICTIONARY_PAGE_SIZE / 8);
        assertThat(dictionaries).as("columns of distinct values still dictionary-encoded").isZero();
        assertThat(writers.get(40).getEncoding().usesDictionary()).isTrue();
    }
}
