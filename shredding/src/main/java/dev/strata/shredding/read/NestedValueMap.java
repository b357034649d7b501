package dev.strata.shredding.read;

import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.parquet.ArrayBackedMap;
import dev.strata.shredding.parquet.ParquetSchemas;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * A shredded map whose values are nested (ROW, ARRAY or MAP values), for the row path, whole or by
 * selected keys: each {@code __col_c} is assembled as a {@link NestedField} of the value type and
 * the overflow as one of {@code MAP<INT, V>}; the row's {@code __field_mapping} says which key each
 * column holds, by the rule of {@link FieldMappingWindow}. With selected keys a row's map holds the
 * requested keys present, in request order; only the columns of S(k) of the requested keys are
 * read, and the overflow only when a key is in O.
 */
final class NestedValueMap extends ShreddedColumns.Field {

    private final String name;
    private final String file;
    private final ShreddedColumnMeta meta;
    private final DataType valueType;
    private final List<String> selected;
    private final BinaryString[] keyStrings;

    /** The requested keys' ids (-1: not in the file) and strings; null for a whole map. */
    private final int[] selectedIds;

    private final BinaryString[] selectedStrings;
    private FieldMappingWindow mapping;

    /** The read value columns, by column index (null where not read), and the overflow. */
    private NestedField[] cols;

    private NestedField overflow;

    NestedValueMap(
            String name,
            String file,
            ShreddedColumnMeta meta,
            DataType valueType,
            List<String> selected) {
        this.name = name;
        this.file = file;
        this.meta = meta;
        this.valueType = valueType;
        this.selected = selected;
        List<String> keys = meta.keys();
        this.keyStrings = new BinaryString[keys.size()];
        for (int i = 0; i < keyStrings.length; i++) {
            keyStrings[i] = BinaryString.fromString(keys.get(i));
        }
        if (selected == null) {
            selectedIds = null;
            selectedStrings = null;
        } else {
            selectedIds = new int[selected.size()];
            selectedStrings = new BinaryString[selected.size()];
            for (int j = 0; j < selectedIds.length; j++) {
                selectedIds[j] = meta.idOf(selected.get(j));
                selectedStrings[j] =
                        BinaryString.fromBytes(selected.get(j).getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /** Whether every value column of {@code physical} can be assembled as {@code valueType}. */
    static boolean assembles(
            String name, GroupType physical, DataType valueType, MessageType schema, String file) {
        for (Type t : physical.getFields()) {
            if (t.getName().startsWith(ParquetSchemas.COL_PREFIX)
                    && NestedField.at(new String[] {name, t.getName()}, file, valueType, schema)
                            == null) {
                return false;
            }
            if (t.getName().equals(ParquetSchemas.OVERFLOW)
                    && NestedField.at(
                                    new String[] {name, t.getName()},
                                    file,
                                    DataTypes.MAP(DataTypes.INT().notNull(), valueType),
                                    schema)
                            == null) {
                return false;
            }
        }
        return true;
    }

    @Override
    Type groupType(int group, BlockMetaData block, GroupType fileType) {
        GroupType physical = fileType.getType(name).asGroupType();
        return selected == null
                ? physical
                : ShreddedParquetReader.selectedPhysical(physical, meta, selected);
    }

    @Override
    void load(PageReadStore pages, MessageType schema) throws IOException {
        GroupType physical = schema.getType(name).asGroupType();
        boolean mapOptional = physical.getRepetition() == Type.Repetition.OPTIONAL;
        GroupType fm = physical.getType(ParquetSchemas.FIELD_MAPPING).asGroupType();
        ColumnDescriptor d =
                schema.getColumnDescription(
                        new String[] {
                            name,
                            ParquetSchemas.FIELD_MAPPING,
                            fm.getType(0).getName(),
                            fm.getType(0).asGroupType().getType(0).getName()
                        });
        mapping = FieldMappingWindow.open(pages, d, file, name, meta.numColumns(), mapOptional);
        cols = new NestedField[meta.numColumns()];
        overflow = null;
        for (Type t : physical.getFields()) {
            String field = t.getName();
            NestedField f = null;
            if (field.startsWith(ParquetSchemas.COL_PREFIX)) {
                int c;
                try {
                    c = Integer.parseInt(field.substring(ParquetSchemas.COL_PREFIX.length()));
                } catch (NumberFormatException e) {
                    c = -1;
                }
                if (c < 0 || c >= cols.length) {
                    throw corrupt(
                            "its physical field "
                                    + field
                                    + " is not one of the footer's "
                                    + cols.length
                                    + " columns");
                }
                f = cols[c] = NestedField.at(new String[] {name, field}, file, valueType, schema);
            } else if (field.equals(ParquetSchemas.OVERFLOW)) {
                f =
                        overflow =
                                NestedField.at(
                                        new String[] {name, field},
                                        file,
                                        DataTypes.MAP(DataTypes.INT().notNull(), valueType),
                                        schema);
            } else {
                continue;
            }
            if (f == null) {
                throw corrupt(
                        "its physical field "
                                + field
                                + " does not hold values of type "
                                + valueType);
            }
            f.load(pages, schema);
        }
    }

    @Override
    void window(int from, int n) throws IOException {
        mapping.window(from, n);
        for (NestedField c : cols) {
            if (c != null) {
                c.window(from, n);
            }
        }
        if (overflow != null) {
            overflow.window(from, n);
        }
    }

    @Override
    void finishGroup(int rows) throws IOException {
        if (!mapping.atEnd()) {
            throw corrupt("a chunk holds more than the row group's " + rows + " rows");
        }
        for (NestedField c : cols) {
            if (c != null) {
                c.finishGroup(rows);
            }
        }
        if (overflow != null) {
            overflow.finishGroup(rows);
        }
    }

    @Override
    public Object get(int r) {
        if (mapping.isNull(r)) {
            return null;
        }
        InternalMap ovf = overflow == null ? null : (InternalMap) overflow.get(r);
        Object[] ovfValues = ovf == null ? null : ((GenericArray) ovf.valueArray()).toObjectArray();
        if (selected == null) {
            List<Object> keys = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            for (int c = 0; c < cols.length; c++) {
                int id = mapping.id(r, c);
                if (id >= 0 && id < keyStrings.length && cols[c] != null) {
                    keys.add(keyStrings[id]);
                    values.add(cols[c].get(r));
                }
            }
            for (int i = 0; ovf != null && i < ovf.size(); i++) {
                int id = ovf.keyArray().getInt(i);
                if (id >= 0 && id < keyStrings.length) {
                    keys.add(keyStrings[id]);
                    values.add(ovfValues[i]);
                }
            }
            return new ArrayBackedMap(keys.toArray(), values.toArray());
        }
        List<Object> keys = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (int j = 0; j < selectedIds.length; j++) {
            int id = selectedIds[j];
            if (id < 0) {
                continue;
            }
            boolean found = false;
            for (int c = 0; c < cols.length && !found; c++) {
                if (cols[c] != null && mapping.id(r, c) == id) {
                    keys.add(selectedStrings[j]);
                    values.add(cols[c].get(r));
                    found = true;
                }
            }
            for (int i = 0; !found && ovf != null && i < ovf.size(); i++) {
                if (ovf.keyArray().getInt(i) == id) {
                    keys.add(selectedStrings[j]);
                    values.add(ovfValues[i]);
                    found = true;
                }
            }
        }
        return new ArrayBackedMap(keys.toArray(), values.toArray());
    }

    private DamagedFileException corrupt(String what) {
        return new DamagedFileException(file, "map column " + name + ": " + what, null);
    }
}
