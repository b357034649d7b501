package dev.strata.shredding.parquet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.MapType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Column-wise row assembly for the common shape: top-level primitive columns and shredded maps with a
 * primitive value type. It walks each leaf column's repetition/definition levels directly instead of
 * parquet-mr's record assembly (which calls group converters for every one of the K mapping elements),
 * and feeds the same {@link ShreddedConverter} assembly, so both paths return identical rows. Files with
 * other shapes use the record path.
 */
final class ColumnarAssembler {

    /** Whether every planned field has a shape this assembler handles. */
    static boolean supports(List<RowConverters.FieldPlan> plans, MessageType requested) {
        for (RowConverters.FieldPlan plan : plans) {
            if (!requested.containsField(plan.fileName)) {
                continue;
            }
            Type t = requested.getType(plan.fileName);
            if (plan.meta != null) {
                if (!isPrimitive(((MapType) plan.type).getValueType())) {
                    return false;
                }
            } else if (!t.isPrimitive() || !isPrimitive(plan.type)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPrimitive(DataType t) {
        switch (t.getTypeRoot()) {
            case ARRAY:
            case MAP:
            case ROW:
            case MULTISET:
                return false;
            default:
                return true;
        }
    }

    /** One leaf column: its reader, where a value lands, and its maximum definition level. */
    private static final class Leaf {
        final ColumnDescriptor descriptor;
        final int maxDef;
        ColumnReader reader;
        Object value;

        Leaf(ColumnDescriptor descriptor) {
            this.descriptor = descriptor;
            this.maxDef = descriptor.getMaxDefinitionLevel();
        }
    }

    private abstract static class Field {
        abstract Object read();
    }

    private final MessageType requested;
    private final int arity;
    private final List<Field> fields = new ArrayList<>();
    private final int[] outputIndex;
    private final Map<String, Leaf> leaves = new HashMap<>();
    private final GroupConverter root;

    ColumnarAssembler(MessageType requested, List<RowConverters.FieldPlan> plans, int arity, String file) {
        this.requested = requested;
        this.arity = arity;
        for (ColumnDescriptor d : requested.getColumns()) {
            leaves.put(String.join("\u0000", d.getPath()), new Leaf(d));
        }
        List<Integer> outs = new ArrayList<>();
        Map<String, Converter> leafConverters = new HashMap<>();
        for (RowConverters.FieldPlan plan : plans) {
            if (!requested.containsField(plan.fileName)) {
                continue;
            }
            Type t = requested.getType(plan.fileName);
            outs.add(plan.outputIndex);
            if (plan.meta == null) {
                Leaf leaf = leaf(plan.fileName);
                leafConverters.put(key(plan.fileName), RowConverters.converter(t, plan.type, v -> leaf.value = v));
                fields.add(new Field() {
                    @Override
                    Object read() {
                        leaf.value = null;
                        if (leaf.reader.getCurrentDefinitionLevel() == leaf.maxDef) {
                            leaf.reader.writeCurrentValueToConverter();
                        }
                        leaf.reader.consume();
                        return leaf.value;
                    }
                });
            } else {
                fields.add(shredded(plan, t.asGroupType(), file, leafConverters));
            }
        }
        this.outputIndex = outs.stream().mapToInt(Integer::intValue).toArray();
        this.root = (GroupConverter) mirror(requested, new ArrayList<>(), leafConverters);
    }

    private static String key(String... path) {
        return String.join("\u0000", path);
    }

    private Leaf leaf(String... path) {
        return leaves.get(key(path));
    }

    private Field shredded(RowConverters.FieldPlan plan, GroupType physical, String file, Map<String, Converter> leafConverters) {
        String m = plan.fileName;
        DataType valueType = ((MapType) plan.type).getValueType();
        Object[] result = new Object[1];
        ShreddedConverter target = new ShreddedConverter(physical, valueType, plan.meta, plan.selectedKeys, v -> result[0] = v, m, file);
        Leaf mapping = leaf(m, ParquetSchemas.FIELD_MAPPING, "list", "element");
        List<Leaf> cols = new ArrayList<>();
        List<Integer> colIndexes = new ArrayList<>();
        Leaf ovfKey = null;
        Leaf ovfValue = null;
        for (Type t : physical.getFields()) {
            String name = t.getName();
            if (name.startsWith(ParquetSchemas.COL_PREFIX)) {
                Leaf leaf = leaf(m, name);
                leafConverters.put(key(m, name), RowConverters.converter(t, valueType, v -> leaf.value = v));
                cols.add(leaf);
                colIndexes.add(Integer.parseInt(name.substring(ParquetSchemas.COL_PREFIX.length())));
            } else if (name.equals(ParquetSchemas.OVERFLOW)) {
                ovfKey = leaf(m, ParquetSchemas.OVERFLOW, "key_value", "key");
                ovfValue = leaf(m, ParquetSchemas.OVERFLOW, "key_value", "value");
                Leaf v = ovfValue;
                GroupType kv = t.asGroupType().getType(0).asGroupType();
                leafConverters.put(key(m, ParquetSchemas.OVERFLOW, "key_value", "value"),
                        RowConverters.converter(kv.getType(1), valueType, x -> v.value = x));
            }
        }
        Leaf ok = ovfKey;
        Leaf ov = ovfValue;
        int[] colIdx = colIndexes.stream().mapToInt(Integer::intValue).toArray();
        return new Field() {
            @Override
            Object read() {
                ColumnReader mr = mapping.reader;
                if (mr.getCurrentDefinitionLevel() == 0) {
                    mr.consume();
                    for (Leaf c : cols) {
                        c.reader.consume();
                    }
                    if (ok != null) {
                        ok.reader.consume();
                        ov.reader.consume();
                    }
                    return null;
                }
                target.beginRow();
                int position = 0;
                boolean first = true;
                while (first || mr.getCurrentRepetitionLevel() == 1) {
                    first = false;
                    int dl = mr.getCurrentDefinitionLevel();
                    if (dl == mapping.maxDef) {
                        target.mappingValue(mr.getInteger());
                    } else if (dl == mapping.maxDef - 1) {
                        throw target.nullMappingElement(position);
                    }
                    position++;
                    mr.consume();
                }
                for (int i = 0; i < cols.size(); i++) {
                    Leaf c = cols.get(i);
                    c.value = null;
                    if (c.reader.getCurrentDefinitionLevel() == c.maxDef) {
                        c.reader.writeCurrentValueToConverter();
                    }
                    c.reader.consume();
                    target.columnValue(colIdx[i], c.value);
                }
                if (ok != null) {
                    boolean firstEntry = true;
                    while (firstEntry || ok.reader.getCurrentRepetitionLevel() == 1) {
                        firstEntry = false;
                        if (ok.reader.getCurrentDefinitionLevel() == ok.maxDef) {
                            int id = ok.reader.getInteger();
                            ov.value = null;
                            if (ov.reader.getCurrentDefinitionLevel() == ov.maxDef) {
                                ov.reader.writeCurrentValueToConverter();
                            }
                            target.overflowEntry(id, ov.value);
                        }
                        ok.reader.consume();
                        ov.reader.consume();
                    }
                }
                target.finishRow();
                return result[0];
            }
        };
    }

    /** A converter tree shaped like {@code type} whose leaves are the registered converters (or no-ops). */
    private static Converter mirror(Type type, List<String> path, Map<String, Converter> leafConverters) {
        if (type.isPrimitive()) {
            Converter c = leafConverters.get(String.join("\u0000", path));
            return c != null ? c : RowConverters.ignoring(type);
        }
        GroupType g = type.asGroupType();
        Converter[] children = new Converter[g.getFieldCount()];
        for (int i = 0; i < children.length; i++) {
            List<String> p = new ArrayList<>(path);
            p.add(g.getType(i).getName());
            children[i] = mirror(g.getType(i), p, leafConverters);
        }
        return new GroupConverter() {
            @Override
            public Converter getConverter(int fieldIndex) {
                return children[fieldIndex];
            }

            @Override
            public void start() {}

            @Override
            public void end() {}
        };
    }

    /** Binds the column readers of a row group. */
    void startRowGroup(PageReadStore pages, String createdBy) {
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, root, requested, createdBy);
        for (Leaf leaf : leaves.values()) {
            leaf.reader = store.getColumnReader(leaf.descriptor);
        }
    }

    InternalRow next() {
        Object[] values = new Object[arity];
        for (int i = 0; i < fields.size(); i++) {
            values[outputIndex[i]] = fields.get(i).read();
        }
        return GenericRow.of(values);
    }
}
