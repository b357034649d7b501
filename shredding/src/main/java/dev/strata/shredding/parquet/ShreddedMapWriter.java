package dev.strata.shredding.parquet;

import dev.strata.shredding.allocate.ColumnAllocator;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.FieldDictionary;
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
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Converts one non-null logical map per call into the physical shredded struct (spec §5.2) for one
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
    private final InternalArray.ElementGetter valueGetter;
    private final ValueWriters.ValueWriter valueWriter;
    private final String[] colNames;
    private int[] ids = new int[16];
    private int[] lastIndexOfId = new int[64];

    ShreddedMapWriter(String column, DataType valueType, int k, PlacementPolicy policy) {
        this.column = column;
        this.k = k;
        this.valueType = valueType;
        this.kind = ValueKind.of(valueType);
        this.allocator = policy.newAllocator(k);
        this.zones = new ZoneAccumulator(kind);
        this.valueGetter = InternalArray.createElementGetter(valueType);
        this.valueWriter = ValueWriters.of(valueType);
        this.colNames = new String[k];
        for (int c = 0; c < k; c++) {
            colNames[c] = ParquetSchemas.colName(c);
        }
    }

    String column() {
        return column;
    }

    void write(RecordConsumer rc, InternalMap map) {
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
        allocator.allocate(ids, n);
        int[] mapping = allocator.mapping();
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            if (lastIndexOfId[id] == i) {
                Object v = valueGetter.getElementOrNull(values, i);
                zones.add(id, v == null, ValueWriters.toDomain(valueType, v));
            }
        }
        rc.startGroup();
        rc.startField(ParquetSchemas.FIELD_MAPPING, 0);
        rc.startGroup();
        rc.startField("list", 0);
        for (int c = 0; c < k; c++) {
            rc.startGroup();
            rc.startField("element", 0);
            rc.addInteger(mapping[c]);
            rc.endField("element", 0);
            rc.endGroup();
        }
        rc.endField("list", 0);
        rc.endGroup();
        rc.endField(ParquetSchemas.FIELD_MAPPING, 0);
        for (int c = 0; c < k; c++) {
            int id = mapping[c];
            if (id < 0) {
                continue;
            }
            Object v = valueGetter.getElementOrNull(values, lastIndexOfId[id]);
            if (v != null) {
                rc.startField(colNames[c], c + 1);
                valueWriter.write(rc, v);
                rc.endField(colNames[c], c + 1);
            }
        }
        int overflowCount = allocator.overflowCount();
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
                Object v = valueGetter.getElementOrNull(values, lastIndexOfId[id]);
                if (v != null) {
                    rc.startField("value", 1);
                    valueWriter.write(rc, v);
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

    void sealRowGroup(long rows) {
        zones.sealRowGroup(rows);
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
                zones.sealedGroups());
    }
}
