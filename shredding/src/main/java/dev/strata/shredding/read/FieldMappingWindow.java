package dev.strata.shredding.read;

import dev.strata.shredding.io.DamagedFileException;
import java.io.IOException;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;

/**
 * The {@code __field_mapping} of a shredded map column, decoded a window at a time, and the one
 * statement of where key k of row r is, which every reader of the layout follows:
 *
 * <ul>
 *   <li>a NULL map has no keys; every other row's mapping holds exactly K ids, none NULL (a row
 *       that does not fails naming the file, as Paimon's reader does);
 *   <li>column c of row r holds the key whose id is the mapping's c-th id, if that id is in the
 *       file's key dictionary (-1, or any id outside it, marks an unused column);
 *   <li>key k's value in row r is that of the first of k's columns S(k) (the footer's), in
 *       ascending order, holding k's id, else of the row's first overflow entry naming it, else k
 *       is absent; a whole map lists its columns in that order, then every overflow entry in file
 *       order.
 * </ul>
 */
final class FieldMappingWindow {

    private final ColumnCursor cursor;
    private final String file;
    private final String column;
    private final int k;
    private final boolean mapOptional;
    private final int maxDef;

    private boolean[] nullMap = new boolean[0];

    /** Per window row, the K ids of its mapping from {@code row * K} (undefined for NULL maps). */
    private int[] ids = new int[0];

    private FieldMappingWindow(
            ColumnCursor cursor, String file, String column, int k, boolean mapOptional) {
        this.cursor = cursor;
        this.file = file;
        this.column = column;
        this.k = k;
        this.mapOptional = mapOptional;
        this.maxDef = cursor.maxDef;
    }

    /** The mapping at {@code d} of map {@code column} (K columns) in one row group. */
    static FieldMappingWindow open(
            PageReadStore pages,
            ColumnDescriptor d,
            String file,
            String column,
            int k,
            boolean mapOptional)
            throws IOException {
        checkLevels(d, file, mapOptional);
        return new FieldMappingWindow(
                new ColumnCursor(pages.getPageReader(d), d, file), file, column, k, mapOptional);
    }

    /** Checks the levels of a mapping: repetition 1, definition 4 (3 in a required map). */
    static void checkLevels(ColumnDescriptor d, String file, boolean mapOptional)
            throws DamagedFileException {
        int expected = mapOptional ? 4 : 3;
        if (d.getMaxRepetitionLevel() != 1 || d.getMaxDefinitionLevel() != expected) {
            throw new DamagedFileException(
                    file,
                    "__field_mapping levels",
                    "repetition level 1 and definition level " + expected,
                    "repetition level "
                            + d.getMaxRepetitionLevel()
                            + " and definition level "
                            + d.getMaxDefinitionLevel(),
                    DamagedFileException.NOT_WRITTEN_BY_STRATA,
                    null);
        }
    }

    /** Decodes group rows {@code [from, from + n)} and checks that each holds K ids or none. */
    void window(int from, int n) throws IOException {
        cursor.seek(from);
        cursor.next(n);
        if (nullMap.length < n) {
            nullMap = new boolean[n];
        }
        if (ids.length < n * k) {
            ids = new int[Math.max(n * k, ids.length * 2)];
        }
        int[] starts = cursor.rowStart;
        int[] def = cursor.def;
        int[] values = cursor.ints;
        int value = 0;
        for (int r = 0; r < n; r++) {
            int base = starts[r];
            int size = starts[r + 1] - base;
            boolean isNull = mapOptional && def[base] == 0;
            nullMap[r] = isNull;
            if (isNull) {
                continue;
            }
            int present = 0;
            for (int e = base; e < base + size; e++) {
                present += def[e] == maxDef ? 1 : 0;
            }
            if (size != k || present != k) {
                throw notK(from + r, present);
            }
            System.arraycopy(values, value, ids, r * k, k);
            value += k;
        }
    }

    boolean isNull(int r) {
        return nullMap[r];
    }

    int[] ids() {
        return ids;
    }

    /** The id of column c in window row r (the map must not be NULL). */
    int id(int r, int c) {
        return ids[r * k + c];
    }

    /** Whether the chunk holds no rows after the group's. */
    boolean atEnd() throws IOException {
        return cursor.atEnd();
    }

    private DamagedFileException notK(int row, int present) {
        return new DamagedFileException(
                file,
                "__field_mapping of map column "
                        + column
                        + ": row "
                        + row
                        + " of its row group does not hold exactly K="
                        + k
                        + " ids (it holds "
                        + present
                        + ")",
                null);
    }
}
