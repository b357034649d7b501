package dev.strata.shredding.parquet;

import dev.strata.shredding.allocate.ColumnAllocator;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.BinaryStrings;
import dev.strata.shredding.layout.FieldDictionary;
import dev.strata.shredding.layout.GroupPlacement;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.layout.ValueKind;
import dev.strata.shredding.layout.ZoneAccumulator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeFamily;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;

/** Writes one column's non-null maps as the shredded struct, keeping D, placement and zones. */
final class ShreddedMapWriter {

    private final String column;
    private final int k;
    private final DataType valueType;
    private final ValueKind kind;
    private final FieldDictionary dictionary = new FieldDictionary();
    private final ColumnAllocator allocator;
    private final ZoneAccumulator zones;

    /** S_g and O_g of every sealed row group in file order (null: more ids than recorded). */
    private final List<GroupPlacement> placements = new ArrayList<>();

    private final InternalArray.ElementGetter valueGetter;

    /** Value types whose zone statistics are taken without boxing, or {@link #PRIM_NONE}. */
    private static final int PRIM_NONE = 0;

    private static final int PRIM_DOUBLE = 1;
    private static final int PRIM_FLOAT = 2;
    private static final int PRIM_LONG = 3;
    private static final int PRIM_INT = 4;
    private final int prim;

    /** CHAR/VARCHAR values: zone bounds are taken from the string's bytes in place. */
    private final boolean stringValues;

    private ColumnWriter mappingWriter;

    private int mappingRepetition;
    private int mappingDefinition;

    /** Writers of {@code __col_c}, of the overflow key and of the overflow value. */
    private final ValueWriters.Node[] valueColumns;

    /** For a primitive value type, each {@code __col_c}'s column writer in this row group. */
    private final ColumnWriter[] primitiveWriters;

    private ColumnWriter overflowKeyWriter;
    private int overflowEntryDefinition;
    private final ValueWriters.Node overflowValue;

    /** Definition level of a present (non-null) shredded struct. */
    private static final int STRUCT_DEFINITION = 1;

    private int[] ids = new int[16];
    private int[] lastIndexOfId = new int[64];

    /**
     * Rows whose primitive value columns are held back and then written column by column: a row
     * touches all K column writers (levels, statistics, dictionary), which do not stay in the CPU
     * caches together, while a run of one column's values does.
     */
    static final int BATCH_ROWS = 256;

    /** At most this many entries held back, so a wide K holds fewer rows. */
    private static final int MAX_HELD_ENTRIES = 16_384;

    /** Most rows held back before {@link #writeHeld}: {@link #BATCH_ROWS}, fewer for a wide K. */
    final int maxHeldRows;

    /**
     * Held-back entries, row-major (row i's column c at {@code i * k + c}); null if not batching.
     */
    private final byte[] heldDefinition;

    private final double[] heldDoubles;
    private final long[] heldLongs;
    private int held;

    ShreddedMapWriter(
            String column,
            DataType valueType,
            int k,
            PlacementPolicy policy,
            int maxSegments,
            GroupType parquet) {
        this.column = column;
        this.k = k;
        this.valueType = valueType;
        this.kind = ValueKind.of(valueType);
        this.allocator = policy.newAllocator(k);
        this.allocator.maxSegmentsPerColumn(maxSegments);
        this.zones = new ZoneAccumulator(kind);
        this.valueGetter = InternalArray.createElementGetter(valueType);
        switch (valueType.getTypeRoot()) {
            case DOUBLE:
                prim = PRIM_DOUBLE;
                break;
            case FLOAT:
                prim = PRIM_FLOAT;
                break;
            case BIGINT:
                prim = PRIM_LONG;
                break;
            case INTEGER:
                prim = PRIM_INT;
                break;
            default:
                prim = PRIM_NONE;
        }
        this.stringValues = valueType.is(DataTypeFamily.CHARACTER_STRING);
        this.maxHeldRows = Math.max(1, Math.min(BATCH_ROWS, MAX_HELD_ENTRIES / Math.max(1, k)));
        int entries = maxHeldRows * k;
        this.heldDefinition = prim == PRIM_NONE ? null : new byte[entries];
        this.heldDoubles = prim == PRIM_DOUBLE ? new double[entries] : null;
        this.heldLongs = prim == PRIM_NONE || prim == PRIM_DOUBLE ? null : new long[entries];
        List<String> path = List.of(column);
        this.valueColumns = new ValueWriters.Node[k];
        this.primitiveWriters = new ColumnWriter[k];
        for (int c = 0; c < k; c++) {
            valueColumns[c] =
                    ValueWriters.of(
                            valueType,
                            parquet.getType(ParquetSchemas.colName(c)),
                            path,
                            STRUCT_DEFINITION,
                            0);
        }
        GroupType keyValue =
                parquet.getType(ParquetSchemas.OVERFLOW).asGroupType().getType(0).asGroupType();
        // __overflow and key_value present: the key is required, the value optional.
        this.overflowEntryDefinition = STRUCT_DEFINITION + 2;
        this.overflowValue =
                ValueWriters.of(
                        valueType,
                        keyValue.getType(1),
                        List.of(column, ParquetSchemas.OVERFLOW, keyValue.getName()),
                        overflowEntryDefinition,
                        1);
    }

    String column() {
        return column;
    }

    /** Hands the allocator the key ids of the file's first non-NULL maps, before any is written. */
    void plan(List<InternalMap> maps) {
        List<int[]> rows = new ArrayList<>(maps.size());
        for (InternalMap map : maps) {
            InternalArray keys = map.keyArray();
            int[] row = new int[map.size()];
            for (int i = 0; i < row.length; i++) {
                if (keys.isNullAt(i)) {
                    throw new IllegalArgumentException(
                            "Shared-shredding MAP keys cannot be null for field: " + column);
                }
                row[i] = dictionary.idOf(keys.getString(i));
            }
            rows.add(row);
        }
        allocator.plan(rows);
    }

    /** Writes a NULL map: every leaf of the struct gets a NULL at the top level. */
    void writeNull() {
        mappingWriter.writeNull(0, 0);
        if (heldDefinition != null) {
            Arrays.fill(heldDefinition, held * k, (held + 1) * k, (byte) 0);
            held++;
        } else {
            for (ValueWriters.Node c : valueColumns) {
                c.writeNull(0, 0);
            }
        }
        overflowKeyWriter.writeNull(0, 0);
        overflowValue.writeNull(0, 0);
    }

    /** Writes one non-null map, row {@code rowInGroup} of the group (NULL maps counted). */
    void write(InternalMap map, long rowInGroup) {
        int n = map.size();
        InternalArray keys = map.keyArray();
        InternalArray values = map.valueArray();
        if (ids.length < n) {
            ids = new int[Math.max(n, ids.length * 2)];
        }
        for (int i = 0; i < n; i++) {
            if (keys.isNullAt(i)) {
                throw new IllegalArgumentException(
                        "Shared-shredding MAP keys cannot be null for field: " + column);
            }
            BinaryString key = keys.getString(i);
            int id = dictionary.idOf(key);
            ids[i] = id;
            if (id >= lastIndexOfId.length) {
                lastIndexOfId =
                        Arrays.copyOf(lastIndexOfId, Math.max(id + 1, lastIndexOfId.length * 2));
            }
            lastIndexOfId[id] = i;
        }
        allocator.allocate(ids, n, rowInGroup <= Integer.MAX_VALUE ? (int) rowInGroup : -1);
        int[] mapping = allocator.mapping();
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            if (lastIndexOfId[id] == i) {
                addZone(id, values, i);
            }
        }
        // K present ids: the first starts the record (r = 0), the others repeat the list.
        ColumnWriter m = mappingWriter;
        int d = mappingDefinition;
        m.write(mapping[0], 0, d);
        int r = mappingRepetition;
        for (int c = 1; c < k; c++) {
            m.write(mapping[c], r, d);
        }
        // Column c's entry value; NULL at the struct's level for an empty slot or NULL value.
        if (prim != PRIM_NONE) {
            writePrimitiveColumns(mapping, values);
        } else {
            for (int c = 0; c < k; c++) {
                int id = mapping[c];
                int index = id < 0 ? -1 : lastIndexOfId[id];
                if (index < 0 || values.isNullAt(index)) {
                    valueColumns[c].writeNull(0, STRUCT_DEFINITION);
                } else {
                    valueColumns[c].write(values, index, 0);
                }
            }
        }
        int overflowCount = allocator.overflowCount();
        if (overflowCount == 0) {
            overflowKeyWriter.writeNull(0, STRUCT_DEFINITION);
            overflowValue.writeNull(0, STRUCT_DEFINITION);
            return;
        }
        int[] overflow = allocator.overflowIds();
        int entry = overflowEntryDefinition;
        for (int i = 0; i < overflowCount; i++) {
            int id = overflow[i];
            int ri = i == 0 ? 0 : 1;
            overflowKeyWriter.write(id, ri, entry);
            int index = lastIndexOfId[id];
            if (values.isNullAt(index)) {
                overflowValue.writeNull(ri, entry);
            } else {
                overflowValue.write(values, index, ri);
            }
        }
    }

    private void addZone(int id, InternalArray values, int i) {
        if (values.isNullAt(i)) {
            zones.add(id, true, null);
            return;
        }
        switch (prim) {
            case PRIM_DOUBLE:
                zones.addDouble(id, values.getDouble(i));
                break;
            case PRIM_FLOAT:
                zones.addDouble(id, values.getFloat(i));
                break;
            case PRIM_LONG:
                zones.addLong(id, values.getLong(i));
                break;
            case PRIM_INT:
                zones.addLong(id, values.getInt(i));
                break;
            default:
                if (stringValues) {
                    BinaryString v = values.getString(i);
                    byte[] heap = BinaryStrings.heapArray(v);
                    if (heap != null) {
                        zones.addBytes(id, heap, v.getOffset(), v.getSizeInBytes());
                    } else {
                        byte[] bytes = v.toBytes();
                        zones.addBytes(id, bytes, 0, bytes.length);
                    }
                    return;
                }
                zones.add(
                        id,
                        false,
                        ValueWriters.toDomain(valueType, valueGetter.getElementOrNull(values, i)));
        }
    }

    /** Holds back the row's entries of a DOUBLE/FLOAT/BIGINT/INT map's value columns. */
    private void writePrimitiveColumns(int[] mapping, InternalArray values) {
        byte[] definition = heldDefinition;
        int at = held * k;
        byte dValue = STRUCT_DEFINITION + 1;
        for (int c = 0; c < k; c++, at++) {
            int id = mapping[c];
            int index = id < 0 ? -1 : lastIndexOfId[id];
            if (index < 0 || values.isNullAt(index)) {
                definition[at] = STRUCT_DEFINITION;
                continue;
            }
            definition[at] = dValue;
            switch (prim) {
                case PRIM_DOUBLE:
                    heldDoubles[at] = values.getDouble(index);
                    break;
                case PRIM_FLOAT:
                    heldLongs[at] = Float.floatToRawIntBits(values.getFloat(index));
                    break;
                case PRIM_LONG:
                    heldLongs[at] = values.getLong(index);
                    break;
                default:
                    heldLongs[at] = values.getInt(index);
            }
        }
        held++;
    }

    /** Whether rows' value entries are held back until {@link #writeHeld}. */
    boolean holdsRows() {
        return heldDefinition != null;
    }

    /** Writes the held-back rows' value entries, one column at a time. */
    void writeHeld() {
        int n = held;
        if (n == 0) {
            return;
        }
        byte[] definition = heldDefinition;
        int dValue = STRUCT_DEFINITION + 1;
        for (int c = 0; c < k; c++) {
            ColumnWriter w = primitiveWriters[c];
            for (int i = 0, at = c; i < n; i++, at += k) {
                int d = definition[at];
                if (d != dValue) {
                    w.writeNull(0, d);
                    continue;
                }
                switch (prim) {
                    case PRIM_DOUBLE:
                        w.write(heldDoubles[at], 0, dValue);
                        break;
                    case PRIM_FLOAT:
                        w.write(Float.intBitsToFloat((int) heldLongs[at]), 0, dValue);
                        break;
                    case PRIM_LONG:
                        w.write(heldLongs[at], 0, dValue);
                        break;
                    default:
                        w.write((int) heldLongs[at], 0, dValue);
                }
            }
        }
        held = 0;
    }

    void bind(ColumnWriteStore store, MessageType schema) {
        ColumnDescriptor d =
                schema.getColumnDescription(
                        new String[] {column, ParquetSchemas.FIELD_MAPPING, "list", "element"});
        mappingRepetition = d.getMaxRepetitionLevel();
        mappingDefinition = d.getMaxDefinitionLevel();
        mappingWriter = store.getColumnWriter(d);
        for (int c = 0; c < k; c++) {
            valueColumns[c].bind(store, schema);
            if (prim != PRIM_NONE) {
                ColumnDescriptor v =
                        schema.getColumnDescription(
                                new String[] {column, ParquetSchemas.colName(c)});
                if (v.getMaxDefinitionLevel() != STRUCT_DEFINITION + 1
                        || v.getMaxRepetitionLevel() != 0) {
                    throw new IllegalStateException(
                            "Cannot write shredded column "
                                    + column
                                    + ": value column "
                                    + c
                                    + " has levels (r "
                                    + v.getMaxRepetitionLevel()
                                    + ", d "
                                    + v.getMaxDefinitionLevel()
                                    + "), expected (0, "
                                    + (STRUCT_DEFINITION + 1)
                                    + ").");
                }
                primitiveWriters[c] = store.getColumnWriter(v);
            }
        }
        ColumnDescriptor key =
                schema.getColumnDescription(
                        new String[] {column, ParquetSchemas.OVERFLOW, "key_value", "key"});
        if (key.getMaxDefinitionLevel() != overflowEntryDefinition) {
            throw new IllegalStateException(
                    "Cannot write shredded column "
                            + column
                            + ": overflow key definition level "
                            + key.getMaxDefinitionLevel()
                            + ", expected "
                            + overflowEntryDefinition
                            + ".");
        }
        overflowKeyWriter = store.getColumnWriter(key);
        overflowValue.bind(store, schema);
    }

    void sealRowGroup(long rows) {
        zones.sealRowGroup(rows);
        placements.add(
                allocator.sealGroup(
                        ShreddingFooter.MAX_PLACEMENT_IDS,
                        rows <= Integer.MAX_VALUE ? (int) rows : -1));
    }

    int maxRowWidth() {
        return allocator.maxRowWidth();
    }

    ShreddedColumnMeta meta() {
        List<String> keys = new ArrayList<>(dictionary.keys());
        int[][] cols = new int[keys.size()][];
        for (int id = 0; id < keys.size(); id++) {
            BitSet s = allocator.columnsOfId(id);
            cols[id] = s.stream().toArray();
        }
        return new ShreddedColumnMeta(
                k,
                allocator.maxRowWidth(),
                kind,
                keys,
                cols,
                allocator.overflowSet(),
                zones.sealedGroups(),
                placements);
    }
}
