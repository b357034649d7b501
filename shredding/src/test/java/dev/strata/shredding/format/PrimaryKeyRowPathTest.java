package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Paimon's row path (merge-on-read of several sorted runs, deletion vectors, compaction rewrites)
 * over shredded files of every primitive type, top-level and as shredded map values, answers
 * exactly like stock Paimon's Parquet reader on a default-layout copy of the same writes (updates
 * and deletes included). These shapes are read by the columnar reader ({@code ShreddedColumns}).
 */
class PrimaryKeyRowPathTest extends PaimonTablesTestBase {

    private static final DataType[] TYPES = {
        DataTypes.BOOLEAN(),
        DataTypes.TINYINT(),
        DataTypes.SMALLINT(),
        DataTypes.INT(),
        DataTypes.BIGINT(),
        DataTypes.FLOAT(),
        DataTypes.DOUBLE(),
        DataTypes.DECIMAL(9, 2),
        DataTypes.DECIMAL(18, 4),
        DataTypes.DECIMAL(30, 6),
        DataTypes.STRING(),
        DataTypes.BYTES(),
        DataTypes.DATE(),
        DataTypes.TIME(),
        DataTypes.TIMESTAMP(3),
        DataTypes.TIMESTAMP(6),
        DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6)
    };
    private static final int IDS = 1000;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void mergesDeletionVectorsAndCompactionsMatchStockPaimon(boolean deletionVectors)
            throws Exception {
        long seed = TestSeeds.seed("pkRowPath-" + deletionVectors);
        String why = TestSeeds.describe("pkRowPath-" + deletionVectors, seed);
        Random random = new Random(seed);
        FileStoreTable shredded = create("s", true, deletionVectors);
        FileStoreTable plain = create("p", false, deletionVectors);
        RowType type = shredded.rowType();
        boolean severalRuns = false;
        long deletionFiles = 0;
        for (int batch = 0; batch < 5; batch++) {
            List<InternalRow> rows = new ArrayList<>();
            Set<Integer> ids = new HashSet<>();
            for (int i = 0; i < 400; i++) {
                int id = random.nextInt(IDS);
                if (ids.add(id)) {
                    rows.add(row(id, batch, random));
                }
            }
            write(shredded, rows);
            write(plain, rows);
            if (batch == 3) {
                compactBuckets(shredded, 2);
                compactBuckets(plain, 2);
            }
            assertThat(PaimonTables.fileLayouts(shredded))
                    .as(why)
                    .containsOnlyKeys("parquet:shredded");
            assertThat(readAll(shredded, type))
                    .as(why + " after batch " + batch)
                    .isEqualTo(readAll(plain, type));
            severalRuns |= filesInABucket(shredded) > 1;
            deletionFiles = Math.max(deletionFiles, PaimonTables.deletionFiles(shredded));
        }
        assertThat(severalRuns).as("a read merged several files of one bucket").isTrue();
        if (deletionVectors) {
            assertThat(deletionFiles).as("reads applied deletion vectors").isPositive();
        }
        // A projection in another order, as a compaction or a partial read asks for it.
        int[] projection = {TYPES.length + 3, 0, 2};
        assertThat(readAll(shredded, projection)).as(why).isEqualTo(readAll(plain, projection));
    }

    private FileStoreTable create(String name, boolean shredded, boolean deletionVectors)
            throws Exception {
        Schema.Builder b = Schema.newBuilder().column("id", DataTypes.INT().notNull());
        Map<String, String> options = new HashMap<>();
        for (int c = 0; c < TYPES.length; c++) {
            b.column("c" + c, TYPES[c]);
        }
        for (int c = 0; c < TYPES.length; c++) {
            b.column("m" + c, DataTypes.MAP(DataTypes.STRING().notNull(), TYPES[c]));
            if (shredded) {
                options.put(ShreddingOptions.layoutKey("m" + c), "shared-shredding");
                options.put(ShreddingOptions.maxColumnsKey("m" + c), "3");
            }
        }
        b.primaryKey("id").option("bucket", "2");
        // Sorted runs stay apart until the explicit compaction, so reads merge them.
        b.option("num-sorted-run.compaction-trigger", "20");
        b.option("deletion-vectors.enabled", Boolean.toString(deletionVectors));
        RowType rowType = b.build().rowType();
        ShreddingOptions.validate("db." + name, rowType, options);
        options.forEach(b::option);
        tables.catalog.createTable(Identifier.create("db", name), b.build(), false);
        return tables.table(name);
    }

    /**
     * Row {@code id} as batch {@code batch} writes it: a delete for some ids, else values of every
     * type.
     */
    private static InternalRow row(int id, int batch, Random random) {
        Object[] fields = new Object[1 + 2 * TYPES.length];
        fields[0] = id;
        int v = id * 7 + batch;
        for (int c = 0; c < TYPES.length; c++) {
            fields[1 + c] = random.nextInt(6) == 0 ? null : ValueTypesTest.sample(TYPES[c], v + c);
            int mode = random.nextInt(6);
            if (mode == 0) {
                fields[1 + TYPES.length + c] = null;
            } else if (mode == 1) {
                fields[1 + TYPES.length + c] = new ArrayBackedMap(new Object[0], new Object[0]);
            } else {
                int n = 1 + random.nextInt(6);
                Object[] keys = new Object[n];
                Object[] values = new Object[n];
                for (int k = 0; k < n; k++) {
                    // Distinct keys of a universe of 72, more than K = 3 columns hold: some go to
                    // the overflow.
                    keys[k] = BinaryString.fromString("k" + (k * 100 + random.nextInt(12)));
                    values[k] =
                            random.nextInt(8) == 0 ? null : ValueTypesTest.sample(TYPES[c], v + k);
                }
                fields[1 + TYPES.length + c] = new ArrayBackedMap(keys, values);
            }
        }
        GenericRow r = GenericRow.of(fields);
        if (batch > 0 && random.nextInt(10) == 0) {
            r.setRowKind(RowKind.DELETE);
        }
        return r;
    }

    /** id → the row rendered as text, through Paimon's own table read. */
    private static Map<Integer, String> readAll(FileStoreTable table, RowType type)
            throws Exception {
        Map<Integer, String> out = new TreeMap<>();
        ReadBuilder rb = table.newReadBuilder();
        try (RecordReader<InternalRow> r =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            r.forEachRemaining(
                    row -> {
                        String prev =
                                out.put(row.getInt(0), ValueTypesTest.render(null, row, type));
                        assertThat(prev).as("duplicate id %s", row.getInt(0)).isNull();
                    });
        }
        return out;
    }

    /** The projected rows rendered as text, sorted. */
    private static List<String> readAll(FileStoreTable table, int[] projection) throws Exception {
        List<String> out = new ArrayList<>();
        RowType projected = table.rowType().project(projection);
        ReadBuilder rb = table.newReadBuilder().withProjection(projection);
        try (RecordReader<InternalRow> r =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            r.forEachRemaining(row -> out.add(ValueTypesTest.render(null, row, projected)));
        }
        java.util.Collections.sort(out);
        return out;
    }

    /** The most data files one bucket's split holds. */
    private static int filesInABucket(FileStoreTable table) {
        int most = 0;
        for (Split s : table.newReadBuilder().newScan().plan().splits()) {
            List<DataFileMeta> files = ((DataSplit) s).dataFiles();
            most = Math.max(most, files.size());
        }
        return most;
    }
}
