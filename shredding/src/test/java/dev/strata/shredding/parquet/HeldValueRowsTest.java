package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.allocate.PlacementPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The writer holds back rows of a primitive-valued map's value columns and writes them a column at
 * a time: every row must come back as written (NULL maps, NULL values, NaNs, overflow), with row
 * groups cut inside a batch and K wide enough to shrink the batch, and pages cut at the row limit
 * must hold exactly that many rows, as when every record ended at once.
 */
class HeldValueRowsTest {

    private static final int ROWS = 2987;
    private static final int GROUP_ROWS = 1050;
    private static final int PAGE_ROWS = 100;

    @TempDir java.nio.file.Path tmp;

    /** {@code groupBytes}: 0 cuts row groups at {@link #GROUP_ROWS} rows, else by buffered size. */
    @ParameterizedTest(name = "{0} values, K = {1}, row groups of {2} bytes")
    @CsvSource({
        "DOUBLE, 4, 0",
        "DOUBLE, 4, 8000",
        "DOUBLE, 300, 0",
        "FLOAT, 6, 0",
        "INT, 40, 0",
        "BIGINT, 3, 0"
    })
    void rowsComeBackAsWrittenAndPagesKeepTheRowLimit(String typeName, int k, int groupBytes)
            throws Exception {
        DataType valueType = valueType(typeName);
        RowType rowType =
                RowType.of(
                        new DataType[] {
                            DataTypes.BIGINT(), DataTypes.MAP(DataTypes.STRING(), valueType)
                        },
                        new String[] {"id", "m"});
        List<InternalRow> rows = new ArrayList<>();
        List<List<String>> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            if (i % 97 == 5) {
                rows.add(GenericRow.of((long) i, null));
                expected.add(null);
                continue;
            }
            // Up to K + 3 distinct keys: some rows overflow.
            int n = 1 + (i * 7) % (k + 3);
            Object[] keys = new Object[n];
            Object[] values = new Object[n];
            List<String> entries = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                String key = "k" + (i + j) % (k + 9);
                keys[j] = BinaryString.fromString(key);
                values[j] = (i + j) % 11 == 0 ? null : value(typeName, i, j);
                entries.add(key + "=" + render(typeName, values[j]));
            }
            Collections.sort(entries);
            rows.add(GenericRow.of((long) i, new ArrayBackedMap(keys, values)));
            expected.add(entries);
        }
        Path path = new Path(tmp.toUri().toString(), typeName + "-" + k + ".parquet");
        FileRoundTrip.write(
                path,
                rowType,
                Map.of("m", k),
                PlacementPolicy.LRU,
                groupBytes == 0
                        ? new ShreddedParquetWriter.Settings()
                                .rowGroupRowLimit(GROUP_ROWS)
                                .pageRowLimit(PAGE_ROWS)
                        : new ShreddedParquetWriter.Settings()
                                .rowGroupBytes(groupBytes)
                                .pageRowLimit(PAGE_ROWS),
                rows,
                r -> r);

        Map<Long, List<String>> read =
                FileRoundTrip.assembledRows(
                        FileRoundTrip.IO, path, rowType, m -> entries(typeName, m));
        assertThat(read.keySet()).hasSize(ROWS);
        assertThat(new ArrayList<>(read.values())).isEqualTo(expected);

        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(
                                FileRoundTrip.IO, path, FileRoundTrip.IO.getFileSize(path)),
                        PaimonFiles.readOptions())) {
            List<BlockMetaData> blocks = reader.getFooter().getBlocks();
            if (groupBytes == 0) {
                assertThat(blocks).extracting(BlockMetaData::getRowCount).startsWith(1050L, 1050L);
            } else {
                // Cut where the size check fell, inside a batch (the batch divides PAGE_ROWS).
                assertThat(blocks.size()).isGreaterThan(2);
                assertThat(blocks.get(0).getRowCount() % PAGE_ROWS).isNotZero();
            }
            for (BlockMetaData block : blocks) {
                for (ColumnChunkMetaData column : block.getColumns()) {
                    if (!column.getPath().toDotString().startsWith("m.__col_")) {
                        continue;
                    }
                    OffsetIndex pages = reader.readOffsetIndex(column);
                    for (int p = 0; p + 1 < pages.getPageCount(); p++) {
                        assertThat(pages.getFirstRowIndex(p + 1) - pages.getFirstRowIndex(p))
                                .as("rows of page %d of %s", p, column.getPath())
                                .isEqualTo(PAGE_ROWS);
                    }
                }
            }
        }
    }

    private static DataType valueType(String name) {
        switch (name) {
            case "DOUBLE":
                return DataTypes.DOUBLE();
            case "FLOAT":
                return DataTypes.FLOAT();
            case "INT":
                return DataTypes.INT();
            default:
                return DataTypes.BIGINT();
        }
    }

    /** Distinct values per row and entry; DOUBLE and FLOAT include NaNs. */
    private static Object value(String type, int i, int j) {
        boolean nan = (i + j) % 13 == 0;
        switch (type) {
            case "DOUBLE":
                return nan ? Double.longBitsToDouble(0x7ff8000000000000L | i) : i + j / 8.0;
            case "FLOAT":
                return nan ? Float.intBitsToFloat(0x7fc00000 | i) : i - j / 4.0f;
            case "INT":
                return i * 31 - j;
            default:
                return ((long) i << 33) - j;
        }
    }

    /**
     * A value as its bits, so a rounding shows; NaNs as the canonical NaN, which parquet-mr's
     * encoders (PLAIN included) write for any NaN, as for Spark's own Parquet files.
     */
    private static String render(String type, Object v) {
        if (v == null) {
            return "null";
        }
        switch (type) {
            case "DOUBLE":
                return Long.toHexString(Double.doubleToLongBits((Double) v));
            case "FLOAT":
                return Integer.toHexString(Float.floatToIntBits((Float) v));
            default:
                return v.toString();
        }
    }

    private static List<String> entries(String type, InternalMap m) {
        InternalArray keys = m.keyArray();
        InternalArray values = m.valueArray();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < m.size(); i++) {
            Object v;
            if (values.isNullAt(i)) {
                v = null;
            } else if (type.equals("DOUBLE")) {
                v = values.getDouble(i);
            } else if (type.equals("FLOAT")) {
                v = values.getFloat(i);
            } else if (type.equals("INT")) {
                v = values.getInt(i);
            } else {
                v = values.getLong(i);
            }
            out.add(keys.getString(i) + "=" + render(type, v));
        }
        Collections.sort(out);
        return out;
    }
}
