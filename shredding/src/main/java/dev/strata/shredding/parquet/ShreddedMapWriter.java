package dev.strata.shredding.parquet;

import dev.strata.shredding.allocate.ColumnAllocator;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.FieldDictionary;
import dev.strata.shredding.layout.GroupPlacement;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.layout.ShreddedColumnMeta;
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
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Converts one non-null logical map per call into the physical shredded struct for one
 * column of one file, keeping the dictionary, the allocator and the per-key zone statistics.
 */
final class ShreddedMapWriter {

    private final String column;
    private final int k;
    private final DataType valueType;
    private final ValueKind kind;
    private final FieldDictionary dictionary = new FieldDictionary();
    private final ColumnAllocator allocator;
    private final ZoneAccumulator zones;
    /**
     * System property bounding the ownership segments a column records per row group (default
     * {@value GroupPlacement#DEFAULT_MAX_SEGMENTS}); more make the column fragmented, so readers use the mapping.
     */
    static final String MAX_SEGMENTS_PROPERTY = "strata.shredding.max-segments";
    /** S_g and O_g of every sealed row group, in file order (null: more ids than the footer records). */
    private final List<GroupPlacement> placements = new ArrayList<>();
    private final InternalArray.ElementGetter valueGetter;
    private final ValueWriters.ValueWriter valueWriter;
    private final String[] colNames;
    /** Value types written without boxing: {@link #PRIM_NONE} or one of the others. */
    private static final int PRIM_NONE = 0;
    private static final int PRIM_DOUBLE = 1;
    private static final int PRIM_FLOAT = 2;
    private static final int PRIM_LONG = 3;
    private static final int PRIM_INT = 4;
    private final int prim;
    /**
     * The column writer of {@code __field_mapping.list.element} of the current row group, or null to write
     * every element through the record consumer. See {@link #bindMappingWriter}.
     */
    private ColumnWriter mappingWriter;
    private int mappingRepetition;
    private int mappingDefinition;
    /** With {@link #mappingWriter}: the consumer's written-fields marker of this struct, null to write values through it. */
    private BitSet structMarker;
    private final ColumnWriter[] valueColumnWriters;
    private ColumnWriter overflowKeyWriter;
    private ColumnWriter overflowValueWriter;
    private int valueDefinition;
    private int structDefinition;
    private int[] ids = new int[16];
    private int[] lastIndexOfId = new int[64];

    ShreddedMapWriter(String column, DataType valueType, int k, PlacementPolicy policy) {
        this.column = column;
        this.k = k;
        this.valueType = valueType;
        this.kind = ValueKind.of(valueType);
        this.allocator = policy.newAllocator(k);
        this.allocator.maxSegmentsPerColumn(Integer.getInteger(MAX_SEGMENTS_PROPERTY, GroupPlacement.DEFAULT_MAX_SEGMENTS));
        this.zones = new ZoneAccumulator(kind);
        this.valueGetter = InternalArray.createElementGetter(valueType);
        this.valueWriter = ValueWriters.of(valueType);
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
        this.colNames = new String[k];
        this.valueColumnWriters = new ColumnWriter[k];
        for (int c = 0; c < k; c++) {
            colNames[c] = ParquetSchemas.colName(c);
        }
    }

    String column() {
        return column;
    }

    /** Writes one non-null map, the row at {@code rowInGroup} of the current row group (NULL maps counted). */
    void write(RecordConsumer rc, InternalMap map, long rowInGroup) {
        int n = map.size();
        InternalArray keys = map.keyArray();
        InternalArray values = map.valueArray();
        if (ids.length < n) {
            ids = new int[Math.max(n, ids.length * 2)];
        }
        for (int i = 0; i < n; i++) {
            if (keys.isNullAt(i)) {
                throw new IllegalArgumentException("Shared-shredding MAP keys cannot be null for field: " + column);
            }
            BinaryString key = keys.getString(i);
            int id = dictionary.idOf(key);
            ids[i] = id;
            if (id >= lastIndexOfId.length) {
                lastIndexOfId = Arrays.copyOf(lastIndexOfId, Math.max(id + 1, lastIndexOfId.length * 2));
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
        rc.startGroup();
        rc.startField(ParquetSchemas.FIELD_MAPPING, 0);
        rc.startGroup();
        rc.startField("list", 0);
        ColumnWriter direct = mappingWriter;
        int throughConsumer = direct == null ? k : 1;
        for (int c = 0; c < throughConsumer; c++) {
            rc.startGroup();
            rc.startField("element", 0);
            rc.addInteger(mapping[c]);
            rc.endField("element", 0);
            rc.endGroup();
        }
        if (direct != null) {
            // Elements 1..K-1 repeat the list (repetition level = the list's) and are present (full definition
            // level): exactly the (value, r, d) triples the record consumer would pass to this column writer, without
            // its per-element group bookkeeping. The first element went through the consumer, which also wrote any
            // cached NULLs of enclosing groups before it, so the column's order is unchanged.
            int r = mappingRepetition;
            int d = mappingDefinition;
            for (int c = 1; c < k; c++) {
                direct.write(mapping[c], r, d);
            }
        }
        rc.endField("list", 0);
        rc.endGroup();
        rc.endField(ParquetSchemas.FIELD_MAPPING, 0);
        BitSet marker = structMarker;
        int overflowCount = allocator.overflowCount();
        if (marker != null) {
            // The same triples the consumer would write, without its per-field calls: a value or a NULL at the
            // struct's level for every value column, and a NULL for both overflow leaves when nothing overflowed
            // (the consumer caches that group NULL and writes the same pair later; each column's order is the same).
            int dValue = valueDefinition;
            int dStruct = structDefinition;
            for (int c = 0; c < k; c++) {
                int id = mapping[c];
                ColumnWriter w = valueColumnWriters[c];
                int index = id < 0 ? -1 : lastIndexOfId[id];
                if (index < 0 || values.isNullAt(index)) {
                    w.writeNull(0, dStruct);
                } else {
                    switch (prim) {
                        case PRIM_DOUBLE:
                            w.write(values.getDouble(index), 0, dValue);
                            break;
                        case PRIM_FLOAT:
                            w.write(values.getFloat(index), 0, dValue);
                            break;
                        case PRIM_LONG:
                            w.write(values.getLong(index), 0, dValue);
                            break;
                        default:
                            w.write(values.getInt(index), 0, dValue);
                            break;
                    }
                }
            }
            marker.set(1, k + 1);
            if (overflowCount == 0) {
                overflowKeyWriter.writeNull(0, dStruct);
                overflowValueWriter.writeNull(0, dStruct);
                marker.set(k + 1);
            }
        }
        for (int c = 0; marker == null && c < k; c++) {
            int id = mapping[c];
            if (id < 0) {
                continue;
            }
            int index = lastIndexOfId[id];
            if (!values.isNullAt(index)) {
                rc.startField(colNames[c], c + 1);
                writeValue(rc, values, index);
                rc.endField(colNames[c], c + 1);
            }
        }
        if (overflowCount > 0) {
            int[] overflow = allocator.overflowIds();
            rc.startField(ParquetSchemas.OVERFLOW, k + 1);
            rc.startGroup();
            rc.startField("key_value", 0);
            for (int i = 0; i < overflowCount; i++) {
                int id = overflow[i];
                rc.startGroup();
                rc.startField("key", 0);
                rc.addInteger(id);
                rc.endField("key", 0);
                int index = lastIndexOfId[id];
                if (!values.isNullAt(index)) {
                    rc.startField("value", 1);
                    writeValue(rc, values, index);
                    rc.endField("value", 1);
                }
                rc.endGroup();
            }
            rc.endField("key_value", 0);
            rc.endGroup();
            rc.endField(ParquetSchemas.OVERFLOW, k + 1);
        }
        rc.endGroup();
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
                zones.add(id, false, ValueWriters.toDomain(valueType, valueGetter.getElementOrNull(values, i)));
        }
    }

    /** Writes the non-null value at {@code i}, as {@link ValueWriters} would, without boxing primitives. */
    private void writeValue(RecordConsumer rc, InternalArray values, int i) {
        switch (prim) {
            case PRIM_DOUBLE:
                rc.addDouble(values.getDouble(i));
                break;
            case PRIM_FLOAT:
                rc.addFloat(values.getFloat(i));
                break;
            case PRIM_LONG:
                rc.addLong(values.getLong(i));
                break;
            case PRIM_INT:
                rc.addInteger(values.getInt(i));
                break;
            default:
                valueWriter.write(rc, valueGetter.getElementOrNull(values, i));
        }
    }

    /**
     * Binds the mapping column writer of a new row group's column store (null: write through the record
     * consumer only). Called from {@code prepareForWrite}, which parquet-hadoop calls for every row group.
     */
    void bindMappingWriter(ColumnWriteStore store, MessageType schema, BitSet structFieldsWritten) {
        mappingWriter = null;
        structMarker = null;
        if (store == null) {
            return;
        }
        ColumnDescriptor d = schema.getColumnDescription(new String[] {column, ParquetSchemas.FIELD_MAPPING, "list", "element"});
        mappingRepetition = d.getMaxRepetitionLevel();
        mappingDefinition = d.getMaxDefinitionLevel();
        mappingWriter = store.getColumnWriter(d);
        if (structFieldsWritten == null || prim == PRIM_NONE) {
            return;
        }
        // Value columns and the absent overflow map of a primitive value type: one leaf each, not repeated, so the
        // record consumer would write (value, 0, maxDef) for a value and (NULL, 0, struct level) for a missing one.
        int structLevel = -1;
        for (int c = 0; c < k; c++) {
            ColumnDescriptor v = schema.getColumnDescription(new String[] {column, colNames[c]});
            if (v.getMaxRepetitionLevel() != 0) {
                return;
            }
            valueColumnWriters[c] = store.getColumnWriter(v);
            valueDefinition = v.getMaxDefinitionLevel();
            structLevel = valueDefinition - 1;
        }
        ColumnDescriptor ok = schema.getColumnDescription(new String[] {column, ParquetSchemas.OVERFLOW, "key_value", "key"});
        ColumnDescriptor ov = schema.getColumnDescription(new String[] {column, ParquetSchemas.OVERFLOW, "key_value", "value"});
        overflowKeyWriter = store.getColumnWriter(ok);
        overflowValueWriter = store.getColumnWriter(ov);
        structDefinition = structLevel;
        structMarker = structFieldsWritten;
    }

    void sealRowGroup(long rows) {
        zones.sealRowGroup(rows);
        placements.add(allocator.sealGroup(ShreddingFooter.MAX_PLACEMENT_IDS,
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
        return new ShreddedColumnMeta(k, allocator.maxRowWidth(), kind, keys, cols, allocator.overflowSet(),
                zones.sealedGroups(), placements);
    }
}
