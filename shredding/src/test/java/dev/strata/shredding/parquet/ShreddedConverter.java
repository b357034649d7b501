package dev.strata.shredding.parquet;

import dev.strata.shredding.layout.ShreddedColumnMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.types.DataType;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * Assembles a logical map from the physical shredded struct of one row. Whole-map reads emit the K
 * column slots in column order, then the overflow entries. Selected-key reads emit, in request
 * order, the requested keys present in the row (the first slot of S(id) holding the id, else the
 * first overflow entry), so {@code map[key]} is unchanged for every requested key. Test oracle only
 * ({@link RecordAssemblyReader}): the shredding module reads every file with its columnar reader.
 */
final class ShreddedConverter extends GroupConverter {

    private static final int UNSET = Integer.MIN_VALUE;

    private final RowConverters.Sink sink;
    private final ShreddedColumnMeta meta;
    private final String column;
    private final String file;
    private final int k;
    private final Converter[] children;
    private final BinaryString[] keyStrings;
    private final int[] mapping;
    private int mappingSize;
    private final Object[] colValues;
    private final boolean[] colRead;
    private final List<Integer> overflowKeys = new ArrayList<>();
    private final List<Object> overflowValues = new ArrayList<>();
    private boolean overflowSeen;
    private final int[] selectedIds;
    private final BinaryString[] selectedKeys;

    ShreddedConverter(
            GroupType physical,
            DataType valueType,
            ShreddedColumnMeta meta,
            List<String> selected,
            RowConverters.Sink sink,
            String column,
            String file) {
        this.sink = sink;
        this.meta = meta;
        this.column = column;
        this.file = file;
        this.k = meta.numColumns();
        this.mapping = new int[k];
        this.colValues = new Object[k];
        this.colRead = new boolean[k];
        List<String> keys = meta.keys();
        keyStrings = new BinaryString[keys.size()];
        for (int i = 0; i < keyStrings.length; i++) {
            keyStrings[i] = BinaryString.fromString(keys.get(i));
        }
        if (selected != null) {
            selectedIds = new int[selected.size()];
            selectedKeys = new BinaryString[selected.size()];
            for (int i = 0; i < selected.size(); i++) {
                selectedIds[i] = meta.idOf(selected.get(i));
                selectedKeys[i] = BinaryString.fromString(selected.get(i));
            }
        } else {
            selectedIds = null;
            selectedKeys = null;
        }
        children = new Converter[physical.getFieldCount()];
        if (physical.getFieldCount() == 0
                || !physical.getType(0).getName().equals(ParquetSchemas.FIELD_MAPPING)) {
            throw error("Shared-shredding physical struct must start with __field_mapping.");
        }
        for (int i = 0; i < physical.getFieldCount(); i++) {
            Type t = physical.getType(i);
            String name = t.getName();
            if (i == 0) {
                children[i] = mappingConverter(t.asGroupType());
            } else if (name.equals(ParquetSchemas.OVERFLOW)) {
                if (i != physical.getFieldCount() - 1) {
                    throw error(
                            "Unexpected shared-shredding physical field "
                                    + name
                                    + " before the last position.");
                }
                children[i] = overflowConverter(t.asGroupType(), valueType);
            } else if (name.startsWith(ParquetSchemas.COL_PREFIX)) {
                int c;
                try {
                    c = Integer.parseInt(name.substring(ParquetSchemas.COL_PREFIX.length()));
                } catch (NumberFormatException e) {
                    throw error("Unexpected shared-shredding physical field " + name + ".");
                }
                if (c < 0 || c >= k) {
                    throw error(
                            "Shared-shredding physical field "
                                    + name
                                    + " exceeds metadata num columns "
                                    + k
                                    + ".");
                }
                colRead[c] = true;
                children[i] = RowConverters.converter(t, valueType, v -> colValues[c] = v);
            } else {
                throw error("Unexpected shared-shredding physical field " + name + ".");
            }
        }
    }

    private IllegalStateException error(String message) {
        return new IllegalStateException(message + " (column '" + column + "', file " + file + ")");
    }

    private Converter mappingConverter(GroupType listType) {
        PrimitiveConverter element =
                new PrimitiveConverter() {
                    @Override
                    public void addInt(int value) {
                        mapping[mappingSize] = value;
                    }
                };
        GroupConverter repeated =
                new GroupConverter() {
                    @Override
                    public Converter getConverter(int fieldIndex) {
                        return element;
                    }

                    @Override
                    public void start() {
                        if (mappingSize >= k) {
                            throw error(
                                    "Shared-shredding field mapping size "
                                            + (mappingSize + 1)
                                            + " does not match metadata num columns "
                                            + k
                                            + ".");
                        }
                        mapping[mappingSize] = UNSET;
                    }

                    @Override
                    public void end() {
                        if (mapping[mappingSize] == UNSET) {
                            throw error(
                                    "Shared-shredding field mapping must not contain null at column "
                                            + mappingSize
                                            + ".");
                        }
                        mappingSize++;
                    }
                };
        return new GroupConverter() {
            @Override
            public Converter getConverter(int fieldIndex) {
                return repeated;
            }

            @Override
            public void start() {}

            @Override
            public void end() {}
        };
    }

    private Object pendingKey;
    private Object pendingValue;

    private Converter overflowConverter(GroupType mapType, DataType valueType) {
        GroupType kv = mapType.getType(0).asGroupType();
        PrimitiveConverter key =
                new PrimitiveConverter() {
                    @Override
                    public void addInt(int value) {
                        pendingKey = value;
                    }
                };
        Converter value = RowConverters.converter(kv.getType(1), valueType, v -> pendingValue = v);
        GroupConverter repeated =
                new GroupConverter() {
                    @Override
                    public Converter getConverter(int fieldIndex) {
                        return fieldIndex == 0 ? key : value;
                    }

                    @Override
                    public void start() {
                        pendingKey = null;
                        pendingValue = null;
                    }

                    @Override
                    public void end() {
                        overflowKeys.add((Integer) pendingKey);
                        overflowValues.add(pendingValue);
                    }
                };
        return new GroupConverter() {
            @Override
            public Converter getConverter(int fieldIndex) {
                return repeated;
            }

            @Override
            public void start() {
                overflowSeen = true;
            }

            @Override
            public void end() {}
        };
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return children[fieldIndex];
    }

    @Override
    public void start() {
        mappingSize = 0;
        Arrays.fill(colValues, null);
        overflowKeys.clear();
        overflowValues.clear();
        overflowSeen = false;
    }

    @Override
    public void end() {
        if (mappingSize != k) {
            throw error(
                    "Shared-shredding field mapping size "
                            + mappingSize
                            + " does not match metadata num columns "
                            + k
                            + ".");
        }
        sink.accept(selectedIds == null ? fullMap() : selectedMap());
    }

    private ArrayBackedMap fullMap() {
        int n = 0;
        for (int c = 0; c < k; c++) {
            if (mapping[c] >= 0 && mapping[c] < keyStrings.length) {
                n++;
            }
        }
        for (Integer id : overflowKeys) {
            if (id >= 0 && id < keyStrings.length) {
                n++;
            }
        }
        Object[] keys = new Object[n];
        Object[] values = new Object[n];
        int j = 0;
        for (int c = 0; c < k; c++) {
            int id = mapping[c];
            if (id >= 0 && id < keyStrings.length) {
                if (!colRead[c]) {
                    throw error(
                            "Shared-shredding physical column "
                                    + ParquetSchemas.colName(c)
                                    + " was not included in the read schema.");
                }
                keys[j] = keyStrings[id];
                values[j++] = colValues[c];
            }
        }
        for (int i = 0; i < overflowKeys.size(); i++) {
            int id = overflowKeys.get(i);
            if (id >= 0 && id < keyStrings.length) {
                keys[j] = keyStrings[id];
                values[j++] = overflowValues.get(i);
            }
        }
        return new ArrayBackedMap(keys, values);
    }

    private ArrayBackedMap selectedMap() {
        List<Object> keys = new ArrayList<>(selectedIds.length);
        List<Object> values = new ArrayList<>(selectedIds.length);
        outer:
        for (int s = 0; s < selectedIds.length; s++) {
            int id = selectedIds[s];
            if (id < 0) {
                continue;
            }
            for (int c : meta.columnsOf(id)) {
                if (mapping[c] == id) {
                    if (!colRead[c]) {
                        throw error(
                                "Shared-shredding physical column "
                                        + ParquetSchemas.colName(c)
                                        + " was not included in the read schema.");
                    }
                    keys.add(selectedKeys[s]);
                    values.add(colValues[c]);
                    continue outer;
                }
            }
            if (meta.overflows(id) && overflowSeen) {
                for (int i = 0; i < overflowKeys.size(); i++) {
                    if (overflowKeys.get(i) == id) {
                        keys.add(selectedKeys[s]);
                        values.add(overflowValues.get(i));
                        continue outer;
                    }
                }
            }
        }
        return new ArrayBackedMap(keys.toArray(), values.toArray());
    }
}
