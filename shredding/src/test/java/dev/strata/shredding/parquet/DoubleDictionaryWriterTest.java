package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DoubleDictionaryWriter} writes exactly the bytes parquet-column's own DOUBLE dictionary
 * writer writes: the same file written once with parquet-column's default values writers and once
 * with {@link DoubleDictionaryWriter.Factory}, compared byte for byte, for values that stay
 * dictionary-encoded (with NULLs, NaNs of two bit patterns, 0.0 and -0.0, infinities), values that
 * fall back at the first page (compression not satisfying), a dictionary that outgrows its page
 * size in the middle of a chunk, both fallbacks (PLAIN and BYTE_STREAM_SPLIT), both writer versions
 * and several row groups.
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

    /** Writes the file both ways, asserts equal bytes, and returns the encodings of {@code v}. */
    private Set<Encoding> sameBytes(
            String name,
            List<Double> values,
            ParquetProperties.WriterVersion version,
            int dictionaryPageBytes,
            boolean byteStreamSplit,
            int rowsPerGroup)
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
        int first = java.util.Arrays.mismatch(strata, parquet);
        assertThat(first)
                .as(
                        "first differing byte of file %s (%d vs %d bytes)%s",
                        name, strata.length, parquet.length, first < 0 ? "" : describe(name))
                .isEqualTo(-1);
        Set<Encoding> encodings = new java.util.TreeSet<>();
        try (ParquetFileReader r =
                ParquetFileReader.open(
                        HadoopInputFile.fromPath(
                                new org.apache.hadoop.fs.Path(
                                        dir.resolve(name + "-strata.parquet").toString()),
                                new Configuration(false)))) {
            for (BlockMetaData block : r.getFooter().getBlocks()) {
                encodings.addAll(block.getColumns().get(0).getEncodings());
            }
        }
        return encodings;
    }

    /** Each column chunk's sizes and encodings in both files, for a failure message. */
    private String describe(String name) throws Exception {
        StringBuilder b = new StringBuilder();
        for (String kind : new String[] {"-parquet", "-strata"}) {
            try (ParquetFileReader r =
                    ParquetFileReader.open(
                            HadoopInputFile.fromPath(
                                    new org.apache.hadoop.fs.Path(
                                            dir.resolve(name + kind + ".parquet").toString()),
                                    new Configuration(false)))) {
                for (BlockMetaData block : r.getFooter().getBlocks()) {
                    for (var c : block.getColumns()) {
                        b.append('\n')
                                .append(kind)
                                .append(' ')
                                .append(c.getPath())
                                .append(' ')
                                .append(c.getTotalSize())
                                .append(' ')
                                .append(c.getEncodings())
                                .append(" dict@")
                                .append(c.getDictionaryPageOffset());
                    }
                }
            }
        }
        return b.toString();
    }

    @Test
    void fewDistinctValuesStayDictionaryEncoded() throws Exception {
        Random r = new Random(7);
        List<Double> values = new ArrayList<>();
        for (int n = 0; n < 30_000; n++) {
            values.add(twoDecimals(r, 500));
        }
        for (ParquetProperties.WriterVersion version : ParquetProperties.WriterVersion.values()) {
            Set<Encoding> encodings =
                    sameBytes("few-" + version, values, version, 1 << 20, false, 12_000);
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
                    sameBytes(
                            "many-" + split,
                            values,
                            ParquetProperties.WriterVersion.PARQUET_1_0,
                            1 << 20,
                            split,
                            20_000);
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
                        sameBytes("grow-" + version + split, values, version, 4096, split, 25_000);
                assertThat(encodings)
                        .contains(split ? Encoding.BYTE_STREAM_SPLIT : Encoding.PLAIN)
                        .containsAnyOf(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);
            }
        }
    }
}
