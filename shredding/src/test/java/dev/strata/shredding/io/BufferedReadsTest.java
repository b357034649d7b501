package dev.strata.shredding.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.format.StrataParquetFileFormatFactory;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedParquetWriter;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.io.FailingFileIO;
import dev.strata.testing.maps.GeneratedMap;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FileFormatFactory;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.fs.VectoredReadable;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet files are read through a buffer: the bytes are those of the file under any mix of seeks,
 * small and large reads, and reads by position; and parsing a file's offset indexes (Thrift, a byte
 * per call) makes a few read calls on Paimon's local stream, not one per byte.
 */
class BufferedReadsTest {

    @TempDir java.nio.file.Path tmp;

    @Test
    void offsetIndexesAreParsedFromBufferedBytes() throws Exception {
        Path path = new Path(tmp.toUri().toString(), "pages.parquet");
        int rows = 20_000;
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            ids.add(i);
        }
        FileRoundTrip.write(
                path,
                TestMaps.idAndMap(),
                Map.of("m", 4),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().pageRowLimit(20),
                ids,
                i ->
                        GenericRow.of(
                                (long) i,
                                TestMaps.toPaimon(
                                        GeneratedMap.of(
                                                List.of("a", "b" + i % 7),
                                                List.of(i * 1.5, -i * 0.5)))));
        FailingFileIO io = new FailingFileIO(); // armed to count opens, seeks and reads only
        long pages = 0;
        long length = io.getFileSize(path);
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(io, path, length), PaimonFiles.readOptions())) {
            io.arm(Long.MAX_VALUE);
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                for (ColumnChunkMetaData column : block.getColumns()) {
                    pages += reader.readOffsetIndex(column).getPageCount();
                }
            }
            long calls = io.operations();
            // Unbuffered, each page's entry took ~10 calls (a byte each).
            assertThat(pages).isGreaterThan(5_000);
            assertThat(calls).as("read calls for %d offset index entries", pages).isLessThan(200);
        }
    }

    @Test
    void paimonsReaderOpensFilesThroughTheBuffer() throws Exception {
        RowType type = RowType.of(DataTypes.BIGINT(), DataTypes.STRING());
        Options options = new Options();
        options.set("parquet.page.size", "512");
        FileFormat format =
                new StrataParquetFileFormatFactory()
                        .create(new FileFormatFactory.FormatContext(options, 1024, 1024));
        Path path = new Path(tmp.toUri().toString(), "plain.parquet");
        int rows = 20_000;
        try (PositionOutputStream out = LocalFileIO.create().newOutputStream(path, true)) {
            FormatWriter w = format.createWriterFactory(type).create(out, "zstd");
            for (int i = 0; i < rows; i++) {
                w.addElement(GenericRow.of((long) i, BinaryString.fromString("row " + i)));
            }
            w.close();
        }
        // A selection (as of a deletion vector) makes Paimon's reader read the offset indexes.
        RoaringBitmap32 selection = RoaringBitmap32.bitmapOf(3, 9_999, 19_998);
        FailingFileIO io = new FailingFileIO();
        io.arm(Long.MAX_VALUE);
        List<Long> ids = new ArrayList<>();
        try (RecordReader<InternalRow> reader =
                format.createReaderFactory(type, type, List.of())
                        .createReader(
                                new FormatReaderContext(
                                        io, path, io.getFileSize(path), selection))) {
            reader.forEachRemaining(r -> ids.add(r.getLong(0)));
        }
        assertThat(ids).containsExactly(3L, 9_999L, 19_998L);
        assertThat(io.operations()).isLessThan(100);
    }

    @Test
    void bytesAreTheFilesUnderRandomSeeksAndReads() throws Exception {
        long seed = TestSeeds.seed("bufferedReads");
        Random random = new Random(seed);
        String why = TestSeeds.describe("bufferedReads", seed);
        byte[] data = new byte[300_000];
        random.nextBytes(data);
        java.nio.file.Path file = tmp.resolve("random.bin");
        Files.write(file, data);
        LocalFileIO io = LocalFileIO.create();
        try (SeekableInputStream in = BufferedReads.of(io.newInputStream(new Path(file.toUri())))) {
            assertThat(in).isInstanceOf(VectoredReadable.class);
            long pos = 0;
            List<String> steps = new ArrayList<>();
            steps.add(why);
            for (int step = 0; step < 3_000; step++) {
                int kind = random.nextInt(6);
                if (kind == 0) {
                    // a seek near (often inside the buffer) or anywhere
                    pos =
                            random.nextBoolean()
                                    ? Math.max(
                                            0,
                                            Math.min(data.length, pos + random.nextInt(200) - 100))
                                    : random.nextInt(data.length + 1);
                    in.seek(pos);
                    steps.add("seek " + pos);
                } else if (kind == 1) {
                    int b = in.read();
                    steps.add("read() at " + pos);
                    assertThat(b)
                            .as("%s", steps)
                            .isEqualTo(pos < data.length ? data[(int) pos] & 0xFF : -1);
                    if (b >= 0) {
                        pos++;
                    }
                } else if (kind == 2) {
                    // by position: neither uses nor moves the stream's own position
                    int at = random.nextInt(data.length);
                    int len = Math.min(data.length - at, 1 + random.nextInt(20_000));
                    byte[] got = new byte[len];
                    ((VectoredReadable) in).preadFully(at, got, 0, len);
                    assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(data, at, at + len));
                } else {
                    int len = kind == 3 ? 1 + random.nextInt(16) : 1 + random.nextInt(20_000);
                    byte[] got = new byte[len];
                    int n = in.read(got, 0, len);
                    steps.add("read " + len + " at " + pos + " -> " + n);
                    if (pos == data.length) {
                        assertThat(n).as("%s", steps).isEqualTo(-1);
                    } else {
                        assertThat(n).as("%s", steps).isBetween(1, len);
                        assertThat(java.util.Arrays.copyOf(got, n))
                                .as("%s", steps)
                                .isEqualTo(
                                        java.util.Arrays.copyOfRange(
                                                data, (int) pos, (int) pos + n));
                        pos += n;
                    }
                }
                assertThat(in.getPos()).as("%s", steps).isEqualTo(pos);
                if (steps.size() > 20) {
                    steps.remove(1);
                }
            }
        }
    }
}
