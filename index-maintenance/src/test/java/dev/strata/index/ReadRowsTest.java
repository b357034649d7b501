package dev.strata.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.fixtures.PkTable;
import dev.strata.testing.io.FailingFileIO;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading hit rows by position: the row-selection path (Parquet files of the table's fields, or of
 * fewer: columns added since read as NULL) and the read-through path (other formats) return the
 * rows a full compaction put at those positions (the live rows in key order), also when the file
 * has many row groups and pages, with few calls on the file's stream.
 */
class ReadRowsTest {

    @TempDir Path dir;

    @Test
    void positionsReadBySelectionAndByReadingThroughMatchTheKeyOrder() throws Exception {
        Map<String, String> options = PkTable.defaultOptions();
        options.put("parquet.page.size", "1024");
        options.put("parquet.block.size", "16384");
        PkTable t = PkTable.create(dir, options);
        Random random = new Random(7);
        List<GenericRow> rows = new ArrayList<>();
        for (long id = 0; id < 6000; id++) {
            rows.add(
                    PkTable.row(
                            id * 3,
                            random.nextInt(5) == 0
                                    ? null
                                    : "body of " + id + " " + Long.toHexString(random.nextLong())));
        }
        t.write(rows, null);
        t.delete(Arrays.asList(30L, 9000L), null);
        t.compact(null);
        long schema = t.table().schema().id();
        check(t, random);
        assertThat(t.dataFiles()).allSatisfy(f -> assertThat(f.schemaId()).isEqualTo(schema));
        long selected = readsOfLastRow(t);
        // Parquet parses the file's indexes a byte per call; the file is read through a buffer.
        assertThat(callsToReadLastRow(t)).isLessThan(40);

        // A schema version that only changes options (ALTER TABLE ... SET TBLPROPERTIES) keeps
        // the files' fields: their rows are still read by selection, not from the file's start.
        t.setOption("snapshot.num-retained.min", "5");
        assertThat(t.table().schema().id()).isGreaterThan(schema);
        check(t, random);
        long afterOptions = readsOfLastRow(t);
        // (plus the older schema's file, read once to compare its fields)
        assertThat(afterOptions).isLessThanOrEqualTo(selected + 4096);

        // A column added since is absent from the file: still read by selection, as NULL.
        t.addColumn("extra", DataTypes.INT());
        check(t, random);
        assertThat(readsOfLastRow(t)).isLessThanOrEqualTo(afterOptions + 4096);
        DataFileMeta file = t.dataFiles().get(0);
        List<InternalRow> withExtra =
                readRows(t, t.table(), new long[] {0, file.rowCount() - 1}, "id", "extra");
        assertThat(withExtra).hasSize(2).allSatisfy(r -> assertThat(r.isNullAt(1)).isTrue());

        // A file that is not Parquet goes down the read-through path, which reads up to the row.
        t.setOption("file.format", "orc");
        t.compact(null);
        assertThat(t.dataFiles().get(0).fileFormat()).isEqualTo("orc");
        check(t, random);
        assertThat(readsOfLastRow(t)).isGreaterThan(3 * afterOptions);
    }

    /** Bytes read to read the last row of the table's one file. */
    private static long readsOfLastRow(PkTable t) throws Exception {
        FailingFileIO io = new FailingFileIO();
        DataFileMeta file = t.dataFiles().get(0);
        List<InternalRow> read =
                readRows(t, t.withFileIO(io), new long[] {file.rowCount() - 1}, "body", "id");
        assertThat(read).hasSize(1);
        return io.bytesRead();
    }

    /** Opens, seeks and reads of streams made to read the last row of the table's one file. */
    private static long callsToReadLastRow(PkTable t) throws Exception {
        FailingFileIO io = new FailingFileIO();
        io.arm(Long.MAX_VALUE);
        DataFileMeta file = t.dataFiles().get(0);
        assertThat(readRows(t, t.withFileIO(io), new long[] {file.rowCount() - 1}, "body", "id"))
                .hasSize(1);
        return io.operations();
    }

    /** Rows of the table's one file at {@code positions}, read through {@code table}. */
    private static List<InternalRow> readRows(
            PkTable t, FileStoreTable table, long[] positions, String... columns) throws Exception {
        return PkFullTextSearcher.create(table)
                .readRows(
                        t.latestSnapshotId(),
                        BinaryRow.EMPTY_ROW,
                        0,
                        t.dataFiles().get(0).fileName(),
                        positions,
                        Arrays.asList(columns));
    }

    private static void check(PkTable t, Random random) throws Exception {
        Map<Long, String> live = t.liveRows();
        List<Long> keyOrder = new ArrayList<>(new TreeMap<>(live).keySet());
        List<DataFileMeta> files = t.dataFiles();
        assertThat(files).hasSize(1);
        DataFileMeta file = files.get(0);
        assertThat(file.rowCount()).isEqualTo(keyOrder.size());
        long[] positions = new long[40];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = random.nextInt((int) file.rowCount());
        }
        positions[0] = file.rowCount() - 1;
        positions[1] = 0;
        List<InternalRow> read = readRows(t, t.table(), positions, "body", "id");
        for (int i = 0; i < positions.length; i++) {
            long id = keyOrder.get((int) positions[i]);
            InternalRow row = read.get(i);
            assertThat(row).as("row at %d", positions[i]).isNotNull();
            assertThat(row.getLong(1)).as("id at %d", positions[i]).isEqualTo(id);
            assertThat(row.isNullAt(0) ? null : row.getString(0).toString())
                    .isEqualTo(live.get(id));
        }
    }
}
