package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.NestedValues;
import dev.strata.shredding.read.ShreddedParquetReader;
import dev.strata.testing.TestSeeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.format.FileFormatFactory;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.format.parquet.ParquetFileFormat;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.options.MemorySize;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file written by stock Paimon's Parquet writer (Paimon's own Parquet schema for ARRAY, ROW, MAP
 * and MULTISET, and INT96 for TIMESTAMP(7..9)), with several row groups, is read by the columnar
 * reader exactly as Paimon's Parquet reader reads it.
 */
class PaimonWrittenNestedTest {

    @TempDir java.nio.file.Path tmp;

    @Test
    void nestedColumnsAndInt96OfPaimonsWriterReadColumnarAsPaimonReadsThem() throws Exception {
        long seed = TestSeeds.seed("paimonWrittenNested");
        String why = TestSeeds.describe("paimonWrittenNested", seed);
        Random random = new Random(seed);
        List<DataField> fields = new ArrayList<>();
        fields.add(new DataField(0, "id", DataTypes.INT()));
        fields.add(new DataField(1, "t9", DataTypes.TIMESTAMP(9)));
        fields.add(new DataField(2, "t7", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(7)));
        fields.add(new DataField(3, "ta", DataTypes.ARRAY(DataTypes.TIMESTAMP(9))));
        for (int c = 0; c < NestedValues.SHAPES.length; c++) {
            fields.add(new DataField(4 + c, "n" + c, NestedValues.SHAPES[c]));
        }
        // MULTISET: Paimon writes it as a map of element to INT count (Strata's writer does not
        // store it).
        fields.add(new DataField(90, "ms", DataTypes.MULTISET(DataTypes.STRING())));
        RowType type = new RowType(fields);
        List<InternalRow> written = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            Object[] v = new Object[type.getFieldCount()];
            v[0] = i;
            v[1] = random.nextInt(6) == 0 ? null : timestamp(random);
            v[2] = random.nextInt(6) == 0 ? null : timestamp(random);
            Object[] items = new Object[random.nextInt(4)];
            for (int j = 0; j < items.length; j++) {
                items[j] = random.nextInt(5) == 0 ? null : timestamp(random);
            }
            v[3] = random.nextInt(6) == 0 ? null : new GenericArray(items);
            for (int c = 0; c < NestedValues.SHAPES.length; c++) {
                v[4 + c] = NestedValues.random(NestedValues.SHAPES[c], random);
            }
            v[4 + NestedValues.SHAPES.length] =
                    NestedValues.random(DataTypes.MULTISET(DataTypes.STRING()), random);
            written.add(GenericRow.of(v));
        }
        Options options = new Options();
        // Paimon passes its format options to parquet-hadoop: small pages and row groups.
        options.set("parquet.page.size", "2048");
        options.set("parquet.block.size", "65536");
        ParquetFileFormat format =
                new ParquetFileFormat(
                        new FileFormatFactory.FormatContext(
                                options, 1024, 1024, MemorySize.parse("64 kb")));
        Path path = new Path(tmp.toUri().toString(), "paimon.parquet");
        try (PositionOutputStream out = FileRoundTrip.IO.newOutputStream(path, false)) {
            FormatWriter w = format.createWriterFactory(type).create(out, "zstd");
            for (InternalRow r : written) {
                w.addElement(r);
            }
            w.close();
        }
        long size = FileRoundTrip.IO.getFileSize(path);
        try (ParquetFileReader r =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(FileRoundTrip.IO, path, size),
                        PaimonFiles.readOptions())) {
            assertThat(
                            r.getFooter()
                                    .getFileMetaData()
                                    .getSchema()
                                    .getType("t9")
                                    .asPrimitiveType()
                                    .getPrimitiveTypeName())
                    .as("Paimon writes TIMESTAMP(9) as INT96")
                    .isEqualTo(PrimitiveTypeName.INT96);
            assertThat(r.getRowGroups()).as("row groups").hasSizeGreaterThan(1);
        }
        List<String> expected = new ArrayList<>();
        try (RecordReader<InternalRow> r =
                format.createReaderFactory(type, type, List.of())
                        .createReader(new FormatReaderContext(FileRoundTrip.IO, path, size))) {
            r.forEachRemaining(row -> expected.add(NestedValues.render(row, type)));
        }
        assertThat(expected).hasSize(written.size());
        List<String> actual = new ArrayList<>();
        try (ShreddedParquetReader r =
                new ShreddedParquetReader(
                        PaimonFiles.inputFile(FileRoundTrip.IO, path, size),
                        path.toString(),
                        type,
                        Map.of(),
                        null,
                        null)) {
            InternalRow row;
            while ((row = r.next()) != null) {
                actual.add(NestedValues.render(row, type));
            }
        }
        assertThat(actual).as(why).isEqualTo(expected);
    }

    private static Timestamp timestamp(Random random) {
        return Timestamp.fromEpochMillis(
                random.nextInt(2) == 0
                        ? -86_400_000L * random.nextInt(40_000)
                        : 1_700_000_000_000L + random.nextInt(1_000_000_000),
                random.nextInt(1_000_000));
    }
}
