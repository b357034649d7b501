package dev.strata.shredding.read;

import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.parquet.ParquetSchemas;
import dev.strata.shredding.pushdown.MapPredicate;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * Paimon's row path over a shredded data file: rows of {@code readType}, fields resolved by name
 * (falling back to {@code _KEY_<name>} in primary-key files; a column the file lacks reads as
 * NULL), with absolute file positions for deletion vectors. Shredded maps come whole or, for
 * selected keys, as the requested keys present in the row; a pruning predicate skips what cannot
 * match. Every file is read by {@link ShreddedColumns}, window by window with bounded memory; a
 * column that does not hold the read type is refused, naming it.
 */
public final class ShreddedParquetReader implements Closeable {

    private final ShreddedColumns columns;
    private final int arity;

    /** The selected rows of the columnar reader's window, and how many were returned. */
    private int selectedCount;

    private int selectedAt;
    private long position = -1;

    /** A reader that verifies page checksums ({@link PageChecksums}). */
    public ShreddedParquetReader(
            InputFile input,
            String file,
            RowType readType,
            Map<String, List<String>> selectedKeys,
            MapPredicate pruningPredicate,
            RoaringBitmap32 selection)
            throws IOException {
        this(input, file, readType, selectedKeys, pruningPredicate, selection, true);
    }

    /** As above; {@code verifyPages}: verify page checksums before decoding pages. */
    public ShreddedParquetReader(
            InputFile input,
            String file,
            RowType readType,
            Map<String, List<String>> selectedKeys,
            MapPredicate pruningPredicate,
            RoaringBitmap32 selection,
            boolean verifyPages)
            throws IOException {
        this.arity = readType.getFieldCount();
        ShreddedColumns c =
                new ShreddedColumns(
                        input,
                        file,
                        readType,
                        selectedKeys,
                        pruningPredicate,
                        selection,
                        verifyPages,
                        true);
        if (!c.readable()) {
            String why = c.unreadable();
            c.close();
            throw new IllegalStateException(
                    "Cannot read file "
                            + file
                            + " as "
                            + readType
                            + ": "
                            + why
                            + ". The file does not belong to this table's schema; check the table's schema history.");
        }
        this.columns = c;
    }

    /**
     * The physical columns a selected-keys read of one shredded map needs: __field_mapping, the
     * __col_c of ⋃ S(D(k)) ascending, and __overflow iff some D(k) ∈ O. Also used by the Spark
     * columnar reader.
     */
    public static GroupType selectedPhysical(
            GroupType physical, ShreddedColumnMeta meta, List<String> keys) {
        TreeSet<Integer> cols = new TreeSet<>();
        boolean overflow = false;
        for (String k : keys) {
            int id = meta.idOf(k);
            if (id < 0) {
                continue;
            }
            for (int c : meta.columnsOf(id)) {
                cols.add(c);
            }
            overflow |= meta.overflows(id);
        }
        List<Type> fields = new ArrayList<>();
        fields.add(physical.getType(ParquetSchemas.FIELD_MAPPING));
        for (int c : cols) {
            fields.add(physical.getType(ParquetSchemas.colName(c)));
        }
        if (overflow) {
            fields.add(physical.getType(ParquetSchemas.OVERFLOW));
        }
        return physical.withNewFields(fields);
    }

    public Map<String, ShreddedColumnMeta> shreddedColumns() {
        return columns.shreddedColumns();
    }

    /** The next row, or null at the end; its absolute position is then {@link #position()}. */
    public InternalRow next() throws IOException {
        while (selectedAt == selectedCount) {
            selectedCount = columns.nextWindow();
            selectedAt = 0;
            if (selectedCount == 0) {
                return null;
            }
        }
        int x = selectedAt++;
        int r = columns.row(x);
        position = columns.position(x);
        Object[] values = new Object[arity];
        for (int i = 0; i < arity; i++) {
            values[i] = columns.field(i).get(r);
        }
        return GenericRow.of(values);
    }

    public long position() {
        return position;
    }

    @Override
    public void close() throws IOException {
        columns.close();
    }
}
