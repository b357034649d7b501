package dev.strata.shredding.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.testing.TestSeeds;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.format.FileFormatFactory;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.format.parquet.ParquetFileFormat;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows read by position from files written by Paimon's own Parquet writer equal the rows Paimon's
 * own reader returns at those positions, for every column type the reader decodes, with NULLs,
 * dictionary and PLAIN pages, V1 and V2 pages, several row groups, and values longer than one
 * inflated block; shapes it does not decode are declined (null), and a damaged page is an error
 * naming the file.
 */
class PositionReadsTest {

    private static final LocalFileIO IO = LocalFileIO.create();

    private static final RowType TYPE =
            RowType.of(
                    new DataType[] {
                        DataTypes.BIGINT().notNull(),
                        DataTypes.STRING(),
                        DataTypes.STRING(),
                        DataTypes.INT(),
                        DataTypes.DOUBLE(),
                        DataTypes.FLOAT(),
                        DataTypes.DECIMAL(10, 2),
                        DataTypes.DECIMAL(30, 5),
                        DataTypes.TIMESTAMP(3),
                        DataTypes.TIMESTAMP(6),
                        DataTypes.DATE(),
                        DataTypes.BYTES(),
                        DataTypes.TINYINT(),
                        DataTypes.SMALLINT(),
                        DataTypes.STRING().notNull()
                    },
                    new String[] {
                        "id", "text", "label", "n", "d", "f", "dec", "wide", "ts", "ts6", "day",
                        "raw", "tiny", "small", "req"
                    });

    @TempDir java.nio.file.Path tmp;

    @Test
    void everyDecodedTypeEqualsPaimonsReaderInV1Pages() throws Exception {
        check("v1", Map.of(), "zstd", true);
    }

    @Test
    void uncompressedPagesAndSeveralRowGroups() throws Exception {
        check("none", Map.of("parquet.block.size", "65536"), "none", true);
    }

    @Test
    void dictionaryColumnsOfV2PagesAreDecoded() throws Exception {
        Path file = write("v2", Map.of("parquet.writer.version", "v2"), "zstd", 3000, 1);
        List<InternalRow> all = paimonRows(file);
        // V2 pages keep their dictionary-encoded columns; PLAIN fallbacks become DELTA encodings.
        RowType dictionaryOnly = TYPE.project("label", "n", "tiny");
        long[] positions = positions(all.size(), 200, TestSeeds.random("position-reads-v2"));
        Map<Long, InternalRow> read =
                PositionReads.read(IO, file, IO.getFileSize(file), dictionaryOnly, positions, true);
        assertThat(read).isNotNull();
        assertEqual(read, all, dictionaryOnly, positions);
        assertThat(
                        PositionReads.read(
                                IO,
                                file,
                                IO.getFileSize(file),
                                TYPE.project("text"),
                                positions,
                                true))
                .as("DELTA_BYTE_ARRAY text is left to Paimon's reader")
                .isNull();
    }

    @Test
    void otherCodecsAndBooleansAreDeclined() throws Exception {
        Path snappy = write("snappy", Map.of(), "snappy", 500, 2);
        assertThat(
                        PositionReads.read(
                                IO, snappy, IO.getFileSize(snappy), TYPE, new long[] {3}, true))
                .isNull();
        RowType withBoolean =
                RowType.of(
                        new DataType[] {DataTypes.BIGINT(), DataTypes.BOOLEAN()},
                        new String[] {"id", "flag"});
        Path bools = tmpPath("bools");
        try (PositionOutputStream out = IO.newOutputStream(bools, false)) {
            FormatWriter w = format(Map.of()).createWriterFactory(withBoolean).create(out, "zstd");
            for (long i = 0; i < 100; i++) {
                w.addElement(GenericRow.of(i, i % 3 == 0));
            }
            w.close();
        }
        assertThat(
                        PositionReads.read(
                                IO,
                                bools,
                                IO.getFileSize(bools),
                                withBoolean,
                                new long[] {5},
                                true))
                .isNull();
        assertThat(
                        PositionReads.read(
                                        IO,
                                        bools,
                                        IO.getFileSize(bools),
                                        withBoolean.project("id"),
                                        new long[] {5},
                                        true)
                                .get(5L)
                                .getLong(0))
                .isEqualTo(5L);
    }

    @Test
    void aDamagedPageIsAnErrorNamingTheFile() throws Exception {
        // Uncompressed, so that the text is found in the file's bytes.
        Path file = write("damaged", Map.of(), "none", 2000, 3);
        List<InternalRow> all = paimonRows(file);
        // A byte in the middle of the text column's data (not a header), changed.
        int r = 1000;
        while (textOf(all.get(r)).length() < 10) {
            r++;
        }
        byte[] stored = textOf(all.get(r)).getBytes(StandardCharsets.UTF_8);
        byte[] changed = stored.clone();
        changed[5] ^= 0x5a;
        FileRoundTrip.replaceOnce(java.nio.file.Path.of(file.toUri()), stored, changed);
        RowType text = TYPE.project("text");
        assertThatThrownBy(
                        () -> {
                            for (long p = 0; p < all.size(); p += 97) {
                                PositionReads.read(
                                        IO, file, IO.getFileSize(file), text, new long[] {p}, true);
                            }
                        })
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining(file.getName())
                .hasMessageContaining("text")
                .hasMessageContaining("checksum");
    }

    @Test
    void rowsHoldingValuesEqualPaimonsReaderAndOnlyTheirPagesAreRead() throws Exception {
        Random random = TestSeeds.random("position-reads-matching");
        Path file = write("matching", Map.of("parquet.block.size", "65536"), "zstd", 6000, 11);
        List<InternalRow> all = paimonRows(file);
        for (String column : List.of("id", "label", "n", "day", "req")) {
            int c = TYPE.getFieldIndex(column);
            RowType type = TYPE.project(column);
            InternalRow.FieldGetter getter = InternalRow.createFieldGetter(TYPE.getTypeAt(c), c);
            for (int round = 0; round < 5; round++) {
                java.util.Set<Object> values = new java.util.HashSet<>();
                for (int i = 0; i < 1 + random.nextInt(4); i++) {
                    Object v = getter.getFieldOrNull(all.get(random.nextInt(all.size())));
                    if (v != null) {
                        values.add(v);
                    }
                }
                values.add(column.equals("id") ? (Object) 3L : absent(TYPE.getTypeAt(c)));
                java.util.TreeMap<Long, Object> expected = new java.util.TreeMap<>();
                for (int p = 0; p < all.size(); p++) {
                    Object v = getter.getFieldOrNull(all.get(p));
                    if (v != null && values.contains(v)) {
                        expected.put((long) p, v);
                    }
                }
                Map<Long, Object> found =
                        PositionReads.matching(
                                IO, file, IO.getFileSize(file), type, values, 100_000, true);
                assertThat(found).as("column %s values %s", column, values).isEqualTo(expected);
                if (expected.size() > 1) {
                    assertThat(
                                    PositionReads.matching(
                                            IO,
                                            file,
                                            IO.getFileSize(file),
                                            type,
                                            values,
                                            expected.size() - 1,
                                            true))
                            .as("more rows than asked for")
                            .isNull();
                }
            }
        }
        // Doubles and decimals are left to Paimon's reader.
        assertThat(
                        PositionReads.matching(
                                IO,
                                file,
                                IO.getFileSize(file),
                                TYPE.project("d"),
                                java.util.Set.of(1.0),
                                10,
                                true))
                .isNull();
        // One id: the pages its bounds rule out are not read.
        dev.strata.testing.io.FailingFileIO io = new dev.strata.testing.io.FailingFileIO();
        io.arm(Long.MAX_VALUE);
        Object id = getter(TYPE, "id").getFieldOrNull(all.get(4321));
        assertThat(
                        PositionReads.matching(
                                io,
                                file,
                                IO.getFileSize(file),
                                TYPE.project("id"),
                                java.util.Set.of(id),
                                10,
                                true))
                .containsExactly(Map.entry(4321L, id));
        assertThat(io.bytesRead()).isLessThan(IO.getFileSize(file) / 10);
    }

    /**
     * PLAIN NOT NULL integer columns, as a sorted run's key columns are (ascending, found by binary
     * search per target) and as other files' are (in any order, each value looked up): the rows
     * holding the targets, duplicates included, equal a scan of the rows written.
     */
    @Test
    void ascendingAndUnorderedIntegerColumnsMatchAsPaimonsReader() throws Exception {
        RowType type =
                RowType.of(
                        new DataType[] {
                            DataTypes.BIGINT().notNull(),
                            DataTypes.BIGINT().notNull(),
                            DataTypes.INT().notNull(),
                            DataTypes.INT().notNull()
                        },
                        new String[] {"asc", "any", "asc32", "any32"});
        Random random = TestSeeds.random("position-reads-key-columns");
        Path file = tmpPath("keys");
        List<InternalRow> all = new ArrayList<>();
        try (PositionOutputStream out = IO.newOutputStream(file, false)) {
            FormatWriter w =
                    format(Map.of("parquet.enable.dictionary", "false"))
                            .createWriterFactory(type)
                            .create(out, "zstd");
            for (int i = 0; i < 7000; i++) {
                // Runs of equal values in the ascending columns; repeats in the others.
                GenericRow row =
                        GenericRow.of(
                                (long) (i / 3) * 5 - 7000,
                                (long) random.nextInt(3000) - 1500,
                                i / 2 - 100,
                                random.nextInt(2000) - 1000);
                all.add(row);
                w.addElement(row);
            }
            w.close();
        }
        for (String column : type.getFieldNames()) {
            InternalRow.FieldGetter getter = getter(type, column);
            for (int round = 0; round < 8; round++) {
                java.util.Set<Object> values = new java.util.HashSet<>();
                for (int i = 0; i < 1 + random.nextInt(5); i++) {
                    values.add(getter.getFieldOrNull(all.get(random.nextInt(all.size()))));
                }
                values.add(column.endsWith("32") ? (Object) 1_000_000 : (Object) 1_000_000L);
                java.util.TreeMap<Long, Object> expected = new java.util.TreeMap<>();
                for (int p = 0; p < all.size(); p++) {
                    Object v = getter.getFieldOrNull(all.get(p));
                    if (values.contains(v)) {
                        expected.put((long) p, v);
                    }
                }
                RowType projected = type.project(column);
                assertThat(
                                PositionReads.matching(
                                        IO,
                                        file,
                                        IO.getFileSize(file),
                                        projected,
                                        values,
                                        100_000,
                                        true))
                        .as("column %s values %s", column, values)
                        .isEqualTo(expected);
                assertThat(
                                PositionReads.matching(
                                        IO,
                                        file,
                                        IO.getFileSize(file),
                                        projected,
                                        values,
                                        expected.size() - 1,
                                        true))
                        .as("column %s: more rows than asked for", column)
                        .isNull();
            }
        }
    }

    @Test
    void columnsAfterNestedColumnsAreReadFromTheirOwnChunks() throws Exception {
        // A MAP, a ROW of a ROW and an ARRAY of ROWs before the read columns: each takes as many
        // column chunks as it has leaves, so the read columns' chunks are not their field indexes.
        RowType nested =
                RowType.of(
                        new DataType[] {
                            DataTypes.BIGINT().notNull(),
                            DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()),
                            DataTypes.ROW(
                                    DataTypes.FIELD(10, "a", DataTypes.INT()),
                                    DataTypes.FIELD(
                                            11,
                                            "b",
                                            DataTypes.ROW(
                                                    DataTypes.FIELD(12, "c", DataTypes.INT()),
                                                    DataTypes.FIELD(13, "d", DataTypes.STRING())))),
                            DataTypes.ARRAY(
                                    DataTypes.ROW(
                                            DataTypes.FIELD(14, "p", DataTypes.INT()),
                                            DataTypes.FIELD(15, "q", DataTypes.STRING()))),
                            DataTypes.STRING(),
                            DataTypes.STRING(),
                            DataTypes.INT()
                        },
                        new String[] {"id", "m", "s", "arr", "vc", "extra", "n"});
        Random r = TestSeeds.random("position-reads-nested");
        Path file = tmpPath("nested");
        List<Object[]> written = new ArrayList<>();
        try (PositionOutputStream out = IO.newOutputStream(file, false)) {
            FormatWriter w = format(Map.of()).createWriterFactory(nested).create(out, "zstd");
            for (int i = 0; i < 3000; i++) {
                Object[] v = {
                    (long) i,
                    i % 3 == 0
                            ? null
                            : new org.apache.paimon.data.GenericMap(
                                    Map.of(BinaryString.fromString("k" + i % 7), i)),
                    GenericRow.of(i, GenericRow.of(-i, BinaryString.fromString("d" + i))),
                    new org.apache.paimon.data.GenericArray(
                            new Object[] {GenericRow.of(i, BinaryString.fromString("q"))}),
                    BinaryString.fromString("vc-" + r.nextInt(100)),
                    i % 5 == 0 ? null : BinaryString.fromString("extra-" + i),
                    r.nextInt(1000)
                };
                written.add(v);
                w.addElement(GenericRow.of(v));
            }
            w.close();
        }
        RowType read = nested.project("id", "vc", "extra", "n");
        long[] positions = positions(written.size(), 80, r);
        Map<Long, InternalRow> rows =
                PositionReads.read(IO, file, IO.getFileSize(file), read, positions, true);
        assertThat(rows).isNotNull().hasSize(positions.length);
        for (long p : positions) {
            Object[] expected = written.get((int) p);
            InternalRow actual = rows.get(p);
            assertThat(actual.getLong(0)).isEqualTo(expected[0]);
            assertThat(actual.getString(1)).as("vc of row %d", p).isEqualTo(expected[4]);
            assertThat(actual.isNullAt(2) ? null : actual.getString(2))
                    .as("extra of row %d", p)
                    .isEqualTo(expected[5]);
            assertThat(actual.getInt(3)).as("n of row %d", p).isEqualTo(expected[6]);
        }
        Map<Long, Object> found =
                PositionReads.matching(
                        IO,
                        file,
                        IO.getFileSize(file),
                        nested.project("extra"),
                        java.util.Set.of(BinaryString.fromString("extra-7")),
                        10,
                        true);
        assertThat(found).containsOnlyKeys(7L);
    }

    private static InternalRow.FieldGetter getter(RowType type, String column) {
        int c = type.getFieldIndex(column);
        return InternalRow.createFieldGetter(type.getTypeAt(c), c);
    }

    /** A value of {@code type} that no row holds. */
    private static Object absent(DataType type) {
        switch (type.getTypeRoot()) {
            case INTEGER:
            case DATE:
                return 1_000_000;
            default:
                return BinaryString.fromString("no such value");
        }
    }

    private void check(String name, Map<String, String> options, String codec, boolean verify)
            throws Exception {
        Random random = TestSeeds.random("position-reads-" + name);
        Path file = write(name, options, codec, 6000, random.nextLong());
        List<InternalRow> all = paimonRows(file);
        for (int round = 0; round < 4; round++) {
            long[] positions = positions(all.size(), 1 + random.nextInt(60), random);
            Map<Long, InternalRow> read =
                    PositionReads.read(IO, file, IO.getFileSize(file), TYPE, positions, verify);
            assertThat(read).as("every column of %s is decoded", name).isNotNull();
            assertEqual(read, all, TYPE, positions);
        }
        // Every row, in one call: consecutive rows of one page read in order.
        long[] every = new long[all.size()];
        Arrays.setAll(every, i -> i);
        assertEqual(
                PositionReads.read(IO, file, IO.getFileSize(file), TYPE, every, verify),
                all,
                TYPE,
                every);
    }

    private static long[] positions(int rows, int count, Random random) {
        TreeSet<Long> set = new TreeSet<>();
        while (set.size() < Math.min(count, rows)) {
            // Some neighbours, to read several rows of one page.
            long p = random.nextInt(rows);
            set.add(p);
            if (random.nextBoolean() && p + 1 < rows) {
                set.add(p + 1 + random.nextInt(Math.min(5, rows - (int) p - 1)));
            }
        }
        long[] out = set.stream().mapToLong(Long::longValue).toArray();
        // Callers need not sort.
        for (int i = out.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
        return out;
    }

    private static void assertEqual(
            Map<Long, InternalRow> read, List<InternalRow> all, RowType type, long[] positions) {
        assertThat(read).hasSize(positions.length);
        List<Integer> indexes = new ArrayList<>();
        for (DataField f : type.getFields()) {
            indexes.add(TYPE.getFieldIndex(f.name()));
        }
        for (long p : positions) {
            InternalRow expected = all.get((int) p);
            InternalRow actual = read.get(p);
            for (int i = 0; i < type.getFieldCount(); i++) {
                int full = indexes.get(i);
                Object e = value(TYPE.getTypeAt(full), expected, full);
                Object a = value(type.getTypeAt(i), actual, i);
                assertThat(a).as("row %d column %s", p, type.getFieldNames().get(i)).isEqualTo(e);
            }
        }
    }

    private static Object value(DataType type, InternalRow row, int i) {
        Object v = InternalRow.createFieldGetter(type, i).getFieldOrNull(row);
        return v instanceof byte[] ? Arrays.toString((byte[]) v) : v;
    }

    private static String textOf(InternalRow row) {
        return row.isNullAt(1) ? "" : row.getString(1).toString();
    }

    private Path tmpPath(String name) {
        return new Path(tmp.resolve(name + ".parquet").toUri());
    }

    private static ParquetFileFormat format(Map<String, String> options) {
        Options o = new Options();
        o.set("parquet.page.size", "4096");
        options.forEach(o::set);
        return new ParquetFileFormat(new FileFormatFactory.FormatContext(o, 1024, 1024));
    }

    /** {@code rows} rows of {@link #TYPE}, ~5 % NULL in nullable columns, a few 100 KB texts. */
    private Path write(String name, Map<String, String> options, String codec, int rows, long seed)
            throws Exception {
        Random r = new Random(seed);
        Path file = tmpPath(name);
        try (PositionOutputStream out = IO.newOutputStream(file, false)) {
            FormatWriter w = format(options).createWriterFactory(TYPE).create(out, codec);
            for (int i = 0; i < rows; i++) {
                Object[] v = new Object[TYPE.getFieldCount()];
                v[0] = (long) i * 7 - 1000;
                StringBuilder text = new StringBuilder();
                int words = i % 1500 == 7 ? 20000 : r.nextInt(40);
                for (int k = 0; k < words; k++) {
                    text.append("w").append(r.nextInt(100000)).append(' ');
                }
                v[1] = BinaryString.fromString(text.toString());
                v[2] = BinaryString.fromString("label-" + r.nextInt(12));
                v[3] = r.nextInt(50) - 25;
                v[4] = r.nextDouble() * 1e6;
                v[5] = r.nextFloat();
                v[6] = Decimal.fromBigDecimal(BigDecimal.valueOf(r.nextInt(1_000_000), 2), 10, 2);
                v[7] =
                        Decimal.fromBigDecimal(
                                new BigDecimal(
                                        new java.math.BigInteger(90, r)
                                                .subtract(java.math.BigInteger.ONE.shiftLeft(89)),
                                        5),
                                30,
                                5);
                v[8] = Timestamp.fromEpochMillis(1_700_000_000_000L + r.nextInt(1 << 30));
                v[9] = Timestamp.fromMicros(1_700_000_000_000_000L + r.nextLong() % 1_000_000_000L);
                v[10] = 19000 + r.nextInt(2000);
                byte[] raw = new byte[r.nextInt(20)];
                r.nextBytes(raw);
                v[11] = raw;
                v[12] = (byte) r.nextInt(3);
                v[13] = (short) r.nextInt(30000);
                v[14] = BinaryString.fromString(i % 10 == 0 ? "" : "r" + i);
                for (int c = 1; c < 14; c++) {
                    if (r.nextInt(20) == 0) {
                        v[c] = null;
                    }
                }
                w.addElement(GenericRow.of(v));
            }
            w.close();
        }
        return file;
    }

    /** Every row of the file as Paimon's own Parquet reader returns it, in order. */
    private static List<InternalRow> paimonRows(Path file) throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        InternalRowSerializer copier = new InternalRowSerializer(TYPE);
        try (RecordReader<InternalRow> r =
                format(Map.of())
                        .createReaderFactory(TYPE, TYPE, List.of())
                        .createReader(new FormatReaderContext(IO, file, IO.getFileSize(file)))) {
            r.forEachRemaining(row -> rows.add(copier.copy(row)));
        }
        return rows;
    }
}
