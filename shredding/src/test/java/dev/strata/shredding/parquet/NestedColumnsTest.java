package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.NestedValues;
import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.ShreddedReadMetrics.Counter;
import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.read.ShreddedParquetReader;
import dev.strata.testing.TestSeeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nested columns (ARRAY, ROW, their combinations, maps with nested values, in Strata's plain layout
 * next to a shredded map) of a file with several row groups and many small pages are read by the
 * columnar reader ({@code ShreddedColumns}), and every row equals the row written: whole, projected
 * in another order, with selected keys of a map with ROW values, and with a row selection (deletion
 * vectors).
 */
class NestedColumnsTest {

    private static final int ROWS = 4000;

    /** Nested value types of shredded maps. */
    private static final DataType[] NESTED_VALUES = {
        NestedValues.SHAPES[0],
        NestedValues.SHAPES[2],
        NestedValues.SHAPES[4],
        NestedValues.SHAPES[6]
    };

    @TempDir java.nio.file.Path tmp;

    private RowType type;
    private List<InternalRow> written;
    private Path path;
    private String why;

    @BeforeEach
    void write() throws Exception {
        long seed = TestSeeds.seed("nestedColumns");
        why = TestSeeds.describe("nestedColumns", seed);
        Random random = new Random(seed);
        List<DataField> fields = new ArrayList<>();
        fields.add(new DataField(0, "id", DataTypes.BIGINT()));
        fields.add(new DataField(1, "m", TestMaps.MAP_STRING_DOUBLE));
        for (int c = 0; c < NestedValues.SHAPES.length; c++) {
            fields.add(new DataField(2 + c, "n" + c, NestedValues.SHAPES[c]));
        }
        for (int v = 0; v < NESTED_VALUES.length; v++) {
            fields.add(
                    new DataField(
                            100 + v,
                            "s" + v,
                            DataTypes.MAP(DataTypes.STRING().notNull(), NESTED_VALUES[v])));
        }
        type = new RowType(fields);
        written = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            Object[] values = new Object[type.getFieldCount()];
            values[0] = (long) i;
            // One entry per row: a whole shredded map lists its entries in column order, not in
            // written order.
            // Keys run in blocks of 300 rows, so the page index can rule out pages for one key.
            values[1] =
                    random.nextInt(5) == 0
                            ? null
                            : new ArrayBackedMap(
                                    new Object[] {BinaryString.fromString("k" + (i / 300) % 9)},
                                    new Object[] {
                                        random.nextInt(4) == 0 ? null : random.nextDouble()
                                    });
            for (int c = 0; c < NestedValues.SHAPES.length; c++) {
                values[2 + c] = NestedValues.random(NestedValues.SHAPES[c], random);
            }
            for (int v = 0; v < NESTED_VALUES.length; v++) {
                values[2 + NestedValues.SHAPES.length + v] =
                        NestedValues.random(
                                DataTypes.MAP(DataTypes.STRING().notNull(), NESTED_VALUES[v]),
                                random);
            }
            written.add(GenericRow.of(values));
        }
        path = new Path(tmp.toUri().toString(), "nested.parquet");
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            ids.add(i);
        }
        Map<String, Integer> k = new java.util.HashMap<>(Map.of("m", 3));
        for (int v = 0; v < NESTED_VALUES.length; v++) {
            k.put("s" + v, 2); // keys s0 .. s59: most rows' keys go to the overflow
        }
        FileRoundTrip.write(
                path,
                type,
                k,
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(1500).pageRowLimit(64),
                ids,
                written::get);
        try (ParquetFileReader r =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(
                                FileRoundTrip.IO, path, FileRoundTrip.IO.getFileSize(path)))) {
            assertThat(r.getRowGroups()).as("row groups").hasSizeGreaterThan(2);
        }
    }

    @Test
    void everyNestedShapeReadsColumnarAsWritten() throws Exception {
        List<String> expected = new ArrayList<>();
        for (InternalRow r : written) {
            expected.add(NestedValues.render(r, type, true));
        }
        assertThat(read(type, Map.of(), null, true)).as(why).isEqualTo(expected);
    }

    @Test
    void aProjectionInAnotherOrderAndARowSelectionReadAsWritten() throws Exception {
        int[] projection = {7, 0, 4, 11, 3};
        RowType projected = type.project(projection);
        RoaringBitmap32 selection = new RoaringBitmap32();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            if (i % 3 != 0 && i % 7 != 1) {
                selection.add(i);
                expected.add(NestedValues.render(project(written.get(i), projection), projected));
            }
        }
        assertThat(read(projected, Map.of(), selection)).as(why).isEqualTo(expected);
    }

    @Test
    void selectedKeysOfAMapWithRowValuesAreTheRowsFirstEntriesWithThem() throws Exception {
        int column = 2 + 5; // MAP<STRING, ROW<p INT, q ARRAY<DOUBLE>>>
        RowType projected = type.project(new int[] {0, column});
        List<String> keys = List.of("s7", "s0", "none");
        List<String> expected = new ArrayList<>();
        for (InternalRow r : written) {
            Object[] values = {
                r.getLong(0),
                r.isNullAt(column) ? null : select(r.getMap(column), keys, projected.getTypeAt(1))
            };
            expected.add(NestedValues.render(GenericRow.of(values), projected));
        }
        assertThat(read(projected, Map.of("n5", keys), null)).as(why).isEqualTo(expected);
    }

    /**
     * A predicate on the shredded map lets the page index skip pages: the nested columns' cursors
     * then jump over pages (row ranges); every row returned is the row written at its position, and
     * every row in which the predicate holds is returned.
     */
    @Test
    void pagesSkippedByThePageIndexLeaveNestedRowsAtTheirPositions() throws Exception {
        MapPredicate p = MapPredicate.leaf("m", "k3", MapPredicate.Op.IS_NOT_NULL);
        List<Long> positions = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        try (ShreddedReadMetrics.Scope metrics = ShreddedReadMetrics.collect();
                ShreddedParquetReader r =
                        new ShreddedParquetReader(
                                PaimonFiles.inputFile(
                                        FileRoundTrip.IO, path, FileRoundTrip.IO.getFileSize(path)),
                                path.toString(),
                                type,
                                Map.of(),
                                p,
                                null,
                                true)) {
            InternalRow row;
            while ((row = r.next()) != null) {
                positions.add(r.position());
                rows.add(NestedValues.render(row, type, true));
            }
            assertThat(metrics.snapshot().get(Counter.ROWS_SKIPPED_BY_PAGE_INDEX))
                    .as("rows skipped by the page index")
                    .isPositive();
        }
        for (int x = 0; x < rows.size(); x++) {
            assertThat(rows.get(x))
                    .as(why + " position " + positions.get(x))
                    .isEqualTo(
                            NestedValues.render(
                                    written.get(Math.toIntExact(positions.get(x))), type, true));
        }
        for (int i = 0; i < ROWS; i++) {
            InternalRow w = written.get(i);
            boolean matches =
                    !w.isNullAt(1)
                            && w.getMap(1).keyArray().getString(0).toString().equals("k3")
                            && !w.getMap(1).valueArray().isNullAt(0);
            if (matches) {
                assertThat(positions).as(why + " matching row " + i).contains((long) i);
            }
        }
        assertThat(rows.size()).as("rows read").isLessThan(ROWS);
    }

    /** A ROW field the file lacks (added to the table after the file was written) reads as NULL. */
    @Test
    void aRowFieldTheFileLacksReadsAsNull() throws Exception {
        DataType widened =
                DataTypes.ROW(
                        DataTypes.FIELD(10, "x", DataTypes.INT()),
                        DataTypes.FIELD(31, "added", DataTypes.ARRAY(DataTypes.INT())),
                        DataTypes.FIELD(12, "z", DataTypes.DOUBLE()));
        RowType readType =
                new RowType(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT()),
                                new DataField(4, "n2", widened)));
        List<String> expected = new ArrayList<>();
        for (InternalRow r : written) {
            InternalRow row = r.isNullAt(4) ? null : r.getRow(4, 3);
            Object value =
                    row == null
                            ? null
                            : GenericRow.of(
                                    row.isNullAt(0) ? null : row.getInt(0),
                                    null,
                                    row.isNullAt(2) ? null : row.getDouble(2));
            expected.add(NestedValues.render(GenericRow.of(r.getLong(0), value), readType));
        }
        assertThat(read(readType, Map.of(), null)).as(why).isEqualTo(expected);
    }

    @Test
    void aColumnReadAsAnotherNestedTypeIsRefusedNamingIt() {
        RowType wrong =
                new RowType(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT()),
                                new DataField(
                                        2,
                                        "n0",
                                        DataTypes.ROW(DataTypes.FIELD(30, "x", DataTypes.INT())))));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> read(wrong, Map.of(), null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Cannot read file " + path)
                .hasMessageContaining("column 'n0' is stored as optional group n0 (LIST)")
                .hasMessageContaining("read type ROW<`x` INT>");
    }

    @Test
    void selectedKeysOfShreddedMapsWithNestedValuesAreTheirValues() throws Exception {
        int first = 2 + NestedValues.SHAPES.length;
        int[] projection = {0, first, first + 1, first + 2, first + 3};
        RowType projected = type.project(projection);
        List<String> keys = List.of("s7", "s0", "none", "s31");
        Map<String, List<String>> selection = new java.util.HashMap<>();
        for (int v = 0; v < NESTED_VALUES.length; v++) {
            selection.put("s" + v, keys);
        }
        List<String> expected = new ArrayList<>();
        for (InternalRow r : written) {
            Object[] values = new Object[projection.length];
            values[0] = r.getLong(0);
            for (int v = 1; v < projection.length; v++) {
                values[v] =
                        r.isNullAt(projection[v])
                                ? null
                                : select(r.getMap(projection[v]), keys, projected.getTypeAt(v));
            }
            expected.add(NestedValues.render(GenericRow.of(values), projected));
        }
        assertThat(read(projected, selection, null)).as(why).isEqualTo(expected);
    }

    private static InternalMap select(InternalMap m, List<String> keys, DataType mapType) {
        List<Object> outKeys = new ArrayList<>();
        List<Object> outValues = new ArrayList<>();
        DataType valueType = ((org.apache.paimon.types.MapType) mapType).getValueType();
        for (String k : keys) {
            for (int i = 0; i < m.size(); i++) {
                if (m.keyArray().getString(i).toString().equals(k)) {
                    outKeys.add(BinaryString.fromString(k));
                    outValues.add(
                            m.valueArray().isNullAt(i)
                                    ? null
                                    : org.apache.paimon.data.InternalArray.createElementGetter(
                                                    valueType)
                                            .getElementOrNull(m.valueArray(), i));
                    break;
                }
            }
        }
        return new ArrayBackedMap(outKeys.toArray(), outValues.toArray());
    }

    private static InternalRow project(InternalRow row, int[] projection) {
        Object[] values = new Object[projection.length];
        for (int i = 0; i < projection.length; i++) {
            values[i] = ((GenericRow) row).getField(projection[i]);
        }
        return GenericRow.of(values);
    }

    private List<String> read(
            RowType readType, Map<String, List<String>> keys, RoaringBitmap32 selection)
            throws Exception {
        return read(readType, keys, selection, false);
    }

    private List<String> read(
            RowType readType,
            Map<String, List<String>> keys,
            RoaringBitmap32 selection,
            boolean sortMaps)
            throws Exception {
        List<String> out = new ArrayList<>();
        try (ShreddedParquetReader r =
                new ShreddedParquetReader(
                        PaimonFiles.inputFile(
                                FileRoundTrip.IO, path, FileRoundTrip.IO.getFileSize(path)),
                        path.toString(),
                        readType,
                        keys,
                        null,
                        selection,
                        true)) {
            InternalRow row;
            while ((row = r.next()) != null) {
                out.add(NestedValues.render(row, readType, sortMaps));
            }
        }
        return out;
    }
}
