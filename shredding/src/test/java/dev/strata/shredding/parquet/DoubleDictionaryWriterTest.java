package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.LocalOutputFile;
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
        Path file = dir.resolve(name + (strata ? "-strata" : "-parquet") + ".parquet");
        ParquetFileWriter out =
                new ParquetFileWriter(
                        new LocalOutputFile(file),
                        SCHEMA,
                        ParquetFileWriter.Mode.CREATE,
                        128L << 20,
                        ParquetWriter.MAX_PADDING_SIZE_DEFAULT,
                        null,
                        props);
        out.start();
        CodecFactory codecs =
                new CodecFactory(new Configuration(false), props.getPageSizeThreshold());
        ColumnDescriptor v = SCHEMA.getColumnDescription(new String[] {"v"});
        ColumnDescriptor w = SCHEMA.getColumnDescription(new String[] {"w"});
        ColumnDescriptor i = SCHEMA.getColumnDescription(new String[] {"i"});
        int row = 0;
        int group = 0;
        while (row < values.size()) {
            ColumnChunkPageWriteStore pages =
                    new ColumnChunkPageWriteStore(
                            codecs.getCompressor(CompressionCodecName.ZSTD),
                            SCHEMA,
                            props.getAllocator(),
                            props.getColumnIndexTruncateLength(),
                            props.getPageWriteChecksumEnabled(),
                            null,
                            group++);
            ColumnWriteStore columns = props.newColumnWriteStore(SCHEMA, pages, pages);
            ColumnWriter cv = columns.getColumnWriter(v);
            ColumnWriter cw = columns.getColumnWriter(w);
            ColumnWriter ci = columns.getColumnWriter(i);
            int end = Math.min(values.size(), row + rowsPerGroup);
            long rows = end - row;
            for (; row < end; row++) {
                Double x = values.get(row);
                if (x == null) {
                    cv.writeNull(0, 0);
                    cw.write(-1.5, 0, 0);
                } else {
                    cv.write(x, 0, 1);
                    cw.write(x * 3, 0, 0);
                }
                ci.write(row % 7, 0, 1);
                columns.endRecord();
            }
            out.startBlock(rows);
            columns.flush();
            pages.flushToFileWriter(out);
            out.endBlock();
            columns.close();
            pages.close();
        }
        out.end(java.util.Map.of());
        codecs.release();
        return Files.readAllBytes(file);
    }

    /** parquet-mr's own column reader over one file: per row group, each chunk's encodings. */
    private List<String> chunks(Path file) throws Exception {
        List<String> out = new ArrayList<>();
        try (ParquetFileReader r = open(file)) {
            for (BlockMetaData block : r.getFooter().getBlocks()) {
                for (ColumnChunkMetaData c : block.getColumns()) {
                    out.add(
                            c.getPath()
                                    + " "
                                    + c.getValueCount()
                                    + " "
                                    + new TreeSet<>(c.getEncodings()));
                }
            }
        }
        return out;
    }

    private static ParquetFileReader open(Path file) throws Exception {
        return ParquetFileReader.open(
                HadoopInputFile.fromPath(
                        new org.apache.hadoop.fs.Path(file.toString()), new Configuration(false)));
    }

    /**
     * {@code doubleToLongBits} of column {@code column}'s values (null for NULL), read by
     * parquet-mr.
     */
    private static List<Long> read(Path file, String column) throws Exception {
        List<Long> out = new ArrayList<>();
        try (ParquetFileReader r = open(file)) {
            ColumnDescriptor d = SCHEMA.getColumnDescription(new String[] {column});
            PageReadStore group;
            while ((group = r.readNextRowGroup()) != null) {
                ColumnReadStoreImpl store =
                        new ColumnReadStoreImpl(
                                group,
                                new GroupRecordConverter(SCHEMA).getRootConverter(),
                                SCHEMA,
                                r.getFooter().getFileMetaData().getCreatedBy());
                ColumnReader c = store.getColumnReader(d);
                for (long i = 0; i < c.getTotalValueCount(); i++) {
                    out.add(
                            c.getCurrentDefinitionLevel() == d.getMaxDefinitionLevel()
                                    ? Double.doubleToLongBits(c.getDouble())
                                    : null);
                    c.consume();
                }
            }
        }
        return out;
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
        assertThat(chunks(s)).as("chunks of %s", name).isEqualTo(chunks(p));
        assertThat(strata.length).as("bytes of %s", name).isLessThanOrEqualTo(parquet.length);
        lengths[0] = strata.length;
        lengths[1] = parquet.length;
        Set<Encoding> encodings = new TreeSet<>();
        try (ParquetFileReader r = open(s)) {
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
}
