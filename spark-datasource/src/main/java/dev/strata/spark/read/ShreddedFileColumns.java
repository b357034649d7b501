package dev.strata.spark.read;

import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.read.ShreddedColumns;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * Copies what {@link ShreddedColumns} decodes from one shredded file into Spark vectors; a
 * selected-key map column becomes a map of the requested keys present, in request order.
 */
final class ShreddedFileColumns implements Closeable {

    private final ShreddedColumns columns;
    private final KeyColumns keyColumns;

    /** Per key column, its key's index among the map field's requested keys, or -1. */
    private final int[] keyIndexes;

    /** The current window's selected rows, and how many were returned. */
    private int selectedCount;

    private int selectedAt;

    /** {@link #readable()} says whether every read column can be decoded here. */
    ShreddedFileColumns(
            FileIO fileIO,
            String path,
            long size,
            KeyColumns keyColumns,
            Map<String, List<String>> selectedKeys,
            MapPredicate pruningPredicate,
            boolean verifyPages)
            throws IOException {
        this.columns =
                new ShreddedColumns(
                        PaimonFiles.inputFile(fileIO, new Path(path), size),
                        path,
                        keyColumns.readType(),
                        selectedKeys,
                        pruningPredicate,
                        verifyPages);
        this.keyColumns = keyColumns;
        this.keyIndexes = new int[keyColumns.count()];
        if (columns.readable()) {
            for (int c = 0; c < keyIndexes.length; c++) {
                keyIndexes[c] =
                        ((ShreddedColumns.MapKeys) columns.field(keyColumns.mapOrdinal(c)))
                                .keyIndex(keyColumns.key(c));
            }
        }
    }

    boolean readable() {
        return columns.readable();
    }

    /** Returns the rows read, 0 at the end; rows the pushed predicate rules out are skipped. */
    int read(WritableColumnVector[] vectors, int offset, int max) throws IOException {
        while (selectedAt == selectedCount) {
            selectedCount = columns.nextWindow();
            selectedAt = 0;
            if (selectedCount == 0) {
                return 0;
            }
        }
        int n = Math.min(max, selectedCount - selectedAt);
        int returned = keyColumns.returned();
        for (int i = 0; i < returned; i++) {
            ShreddedColumns.Field f = columns.field(i);
            if (f instanceof ShreddedColumns.MapKeys) {
                writeMap((ShreddedColumns.MapKeys) f, vectors[i], offset, n);
            } else {
                writePrimitive((ShreddedColumns.Primitive) f, vectors[i], offset, n);
            }
        }
        for (int c = 0; c < keyIndexes.length; c++) {
            writeKey(
                    (ShreddedColumns.MapKeys) columns.field(keyColumns.mapOrdinal(c)),
                    keyIndexes[c],
                    vectors[returned + c],
                    offset,
                    n);
        }
        selectedAt += n;
        return n;
    }

    private void writePrimitive(
            ShreddedColumns.Primitive f, WritableColumnVector v, int offset, int n) {
        ColumnarType type = ColumnarType.accepted(f.type());
        for (int x = 0; x < n; x++) {
            int r = columns.row(selectedAt + x);
            int row = offset + x;
            if (f.isNull(r)) {
                v.putNull(row);
            } else {
                type.put(v, row, f, r);
            }
        }
    }

    private void writeMap(ShreddedColumns.MapKeys f, WritableColumnVector v, int offset, int n) {
        WritableColumnVector kv = v.getChild(0);
        WritableColumnVector vv = v.getChild(1);
        ColumnarType type = ColumnarType.accepted(f.valueType());
        int keys = f.keyCount();
        for (int x = 0; x < n; x++) {
            int r = columns.row(selectedAt + x);
            int row = offset + x;
            if (f.isNullMap(r)) {
                v.putNull(row);
                continue;
            }
            int start = kv.getElementsAppended();
            int present = 0;
            for (int j = 0; j < keys; j++) {
                if (!f.contains(j, r)) {
                    continue;
                }
                byte[] key = f.keyBytes(j);
                kv.appendByteArray(key, 0, key.length);
                present++;
                if (f.isNullValue(j, r)) {
                    vv.appendNull();
                } else {
                    type.append(vv, f, j, r);
                }
            }
            v.putArray(row, start, present);
        }
    }

    /** NULL when absent. */
    private void writeKey(
            ShreddedColumns.MapKeys f, int j, WritableColumnVector v, int offset, int n) {
        if (j < 0) {
            v.putNulls(offset, n);
            return;
        }
        ColumnarType type = ColumnarType.accepted(f.valueType());
        for (int x = 0; x < n; x++) {
            int r = columns.row(selectedAt + x);
            int row = offset + x;
            if (f.isNullMap(r) || !f.contains(j, r) || f.isNullValue(j, r)) {
                v.putNull(row);
            } else {
                type.put(v, row, f, j, r);
            }
        }
    }

    @Override
    public void close() throws IOException {
        columns.close();
    }
}
