package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.NestedValues;
import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.parquet.ArrayBackedMap;
import dev.strata.testing.TestSeeds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Paimon's row path (merges of several sorted runs, deletion vectors, compaction rewrites) over
 * shredded files with nested columns (ARRAY, ROW, their combinations, maps with nested values; NULL
 * at every level, empty arrays and maps) answers exactly like stock Paimon's Parquet reader on a
 * default-layout copy of the same writes, updates and deletes included.
 */
class NestedRowPathTest extends PaimonTablesTestBase {

    private static final int IDS = 2000;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void mergesDeletionVectorsAndCompactionsMatchStockPaimon(boolean deletionVectors)
            throws Exception {
        long seed = TestSeeds.seed("nestedRowPath-" + deletionVectors);
        String why = TestSeeds.describe("nestedRowPath-" + deletionVectors, seed);
        Random random = new Random(seed);
        FileStoreTable shredded = create("s", true, deletionVectors);
        FileStoreTable plain = create("p", false, deletionVectors);
        RowType type = shredded.rowType();
        for (int batch = 0; batch < 4; batch++) {
            List<InternalRow> rows = new ArrayList<>();
            Set<Integer> ids = new HashSet<>();
            for (int i = 0; i < 900; i++) {
                int id = random.nextInt(IDS);
                if (ids.add(id)) {
                    rows.add(row(id, batch, random));
                }
            }
            write(shredded, rows);
            write(plain, rows);
            if (batch == 2) {
                compactBuckets(shredded, 2);
                compactBuckets(plain, 2);
            }
            assertThat(PaimonTables.fileLayouts(shredded))
                    .as(why)
                    .containsOnlyKeys("parquet:shredded");
            assertThat(readAll(shredded, null))
                    .as(why + " after batch " + batch)
                    .isEqualTo(readAll(plain, null));
        }
        if (deletionVectors) {
            assertThat(PaimonTables.deletionFiles(shredded))
                    .as("reads applied deletion vectors")
                    .isPositive();
        }
        int[] projection = {8, 0, 4, NestedValues.SHAPES.length + 1, 6};
        assertThat(readAll(shredded, projection)).as(why).isEqualTo(readAll(plain, projection));
    }

    private FileStoreTable create(String name, boolean shredded, boolean deletionVectors)
            throws Exception {
        Schema.Builder b = Schema.newBuilder().column("id", DataTypes.INT().notNull());
        for (int c = 0; c < NestedValues.SHAPES.length; c++) {
            b.column("n" + c, NestedValues.SHAPES[c]);
        }
        b.column("m", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.INT()));
        Map<String, String> options = new HashMap<>();
        if (shredded) {
            options.put(ShreddingOptions.layoutKey("m"), "shared-shredding");
            options.put(ShreddingOptions.maxColumnsKey("m"), "2");
        }
        b.primaryKey("id").option("bucket", "2");
        b.option("num-sorted-run.compaction-trigger", "20");
        b.option("deletion-vectors.enabled", Boolean.toString(deletionVectors));
        RowType rowType = b.build().rowType();
        ShreddingOptions.validate("db." + name, rowType, options);
        options.forEach(b::option);
        tables.catalog.createTable(Identifier.create("db", name), b.build(), false);
        return tables.table(name);
    }

    private static InternalRow row(int id, int batch, Random random) {
        Object[] fields = new Object[NestedValues.SHAPES.length + 2];
        fields[0] = id;
        for (int c = 0; c < NestedValues.SHAPES.length; c++) {
            fields[1 + c] = NestedValues.random(NestedValues.SHAPES[c], random);
        }
        int n = random.nextInt(4);
        Object[] keys = new Object[n];
        Object[] values = new Object[n];
        for (int k = 0; k < n; k++) {
            keys[k] = BinaryString.fromString("k" + (k * 10 + random.nextInt(5)));
            values[k] = random.nextInt(6) == 0 ? null : random.nextInt();
        }
        fields[NestedValues.SHAPES.length + 1] =
                random.nextInt(6) == 0 ? null : new ArrayBackedMap(keys, values);
        GenericRow r = GenericRow.of(fields);
        if (batch > 0 && random.nextInt(10) == 0) {
            r.setRowKind(RowKind.DELETE);
        }
        return r;
    }

    /** id (the first read column) → the row rendered as text, through Paimon's own table read. */
    private static Map<Integer, String> readAll(FileStoreTable table, int[] projection)
            throws Exception {
        Map<Integer, String> out = new TreeMap<>();
        RowType type = projection == null ? table.rowType() : table.rowType().project(projection);
        int idAt = type.getFieldNames().indexOf("id");
        ReadBuilder rb =
                projection == null
                        ? table.newReadBuilder()
                        : table.newReadBuilder().withProjection(projection);
        try (RecordReader<InternalRow> r =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            r.forEachRemaining(
                    row -> {
                        String prev =
                                out.put(row.getInt(idAt), ValueTypesTest.render(null, row, type));
                        assertThat(prev).as("duplicate id %s", row.getInt(idAt)).isNull();
                    });
        }
        return out;
    }
}
