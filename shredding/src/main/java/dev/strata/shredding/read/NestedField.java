package dev.strata.shredding.read;

import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.parquet.ArrayBackedMap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * A read column of nested type for the row path: ROW, ARRAY, MULTISET (a map of element to INT
 * count) or a plain-layout MAP, nested to any depth; older two-level lists are read too. A row's
 * value is assembled from its leaves' level entries (Dremel's record assembly): a node is NULL
 * where its first leaf's definition level is below the node's, a list or map is empty where it
 * reaches the list but not its repeated group, and has another element while its first leaf's next
 * entry repeats at the repeated group's level. Reading a node consumes exactly its entries in every
 * leaf under it. ROW fields the file lacks read as NULL. With selected keys a map holds each
 * requested key's first entry.
 */
final class NestedField extends ShreddedColumns.Field {

    private final String name;
    private final String file;
    private final Node root;

    /** The leaves' column paths, depth first: every node's leaves are {@code [lo, hi)}. */
    private final List<String[]> paths = new ArrayList<>();

    private ColumnCursor[] cursors;

    /** Per leaf and window entry, the ordinal of the entry's value, -1 where it holds none. */
    private int[][] ordinals;

    private int[] pos;

    private NestedField(
            String[] path,
            String file,
            DataType type,
            Type fileType,
            MessageType schema,
            List<String> selectedKeys) {
        this.name = String.join(".", path);
        this.file = file;
        Node r = build(type, fileType, path, schema);
        if (r != null && selectedKeys != null) {
            r =
                    r instanceof MapNode
                                    && ((MapNode) r).key instanceof Leaf
                                    && isString(((MapNode) r).keyType)
                            ? ((MapNode) r).select(selectedKeys)
                            : null;
        }
        this.root = r;
    }

    /** The reader of column {@code name} as {@code type}, or null when the file's shape differs. */
    static NestedField of(
            String name,
            String file,
            DataType type,
            MessageType schema,
            List<String> selectedKeys) {
        return at(new String[] {name}, file, type, schema, selectedKeys);
    }

    /** As {@link #of}, for the field at {@code path} (a shredded map's value column). */
    static NestedField at(String[] path, String file, DataType type, MessageType schema) {
        return at(path, file, type, schema, null);
    }

    private static NestedField at(
            String[] path,
            String file,
            DataType type,
            MessageType schema,
            List<String> selectedKeys) {
        Type t = schema;
        for (String p : path) {
            if (t.isPrimitive() || !t.asGroupType().containsField(p)) {
                return null;
            }
            t = t.asGroupType().getType(p);
        }
        NestedField f = new NestedField(path, file, type, t, schema, selectedKeys);
        return f.root == null || f.paths.isEmpty() ? null : f;
    }

    private static boolean isString(DataType t) {
        return t.getTypeRoot() == DataTypeRoot.VARCHAR || t.getTypeRoot() == DataTypeRoot.CHAR;
    }

    /** The node reading {@code t} (at {@code path}) as {@code type}, or null on a mismatch. */
    private Node build(DataType type, Type t, String[] path, MessageType schema) {
        int def = schema.getMaxDefinitionLevel(path);
        switch (type.getTypeRoot()) {
            case ROW:
                {
                    if (t.isPrimitive()) {
                        return null;
                    }
                    GroupType g = t.asGroupType();
                    int lo = paths.size();
                    List<DataField> fields = ((RowType) type).getFields();
                    Node[] children = new Node[fields.size()];
                    for (int i = 0; i < children.length; i++) {
                        DataField f = fields.get(i);
                        children[i] =
                                g.containsField(f.name())
                                        ? build(
                                                f.type(),
                                                g.getType(f.name()),
                                                append(path, f.name()),
                                                schema)
                                        : MISSING;
                        if (children[i] == null) {
                            return null;
                        }
                    }
                    if (paths.size() == lo) {
                        return null;
                    }
                    return new RowNode(lo, paths.size(), def, children);
                }
            case ARRAY:
                {
                    Type repeated = repeatedChild(t);
                    if (repeated == null) {
                        return null;
                    }
                    String[] rpath = append(path, repeated.getName());
                    boolean threeLevel =
                            !repeated.isPrimitive()
                                    && repeated.asGroupType().getFieldCount() == 1
                                    && !repeated.getName().equals("array")
                                    && !repeated.getName().equals(t.getName() + "_tuple");
                    DataType elementType = ((ArrayType) type).getElementType();
                    int lo = paths.size();
                    Node element =
                            threeLevel
                                    ? build(
                                            elementType,
                                            repeated.asGroupType().getType(0),
                                            append(
                                                    rpath,
                                                    repeated.asGroupType().getType(0).getName()),
                                            schema)
                                    : build(elementType, repeated, rpath, schema);
                    if (element == null) {
                        return null;
                    }
                    return new ListNode(
                            lo,
                            paths.size(),
                            def,
                            schema.getMaxDefinitionLevel(rpath),
                            schema.getMaxRepetitionLevel(rpath),
                            element);
                }
            case MAP:
            case MULTISET:
                {
                    Type repeated = repeatedChild(t);
                    if (repeated == null
                            || repeated.isPrimitive()
                            || repeated.asGroupType().getFieldCount() != 2) {
                        return null;
                    }
                    GroupType kv = repeated.asGroupType();
                    String[] rpath = append(path, kv.getName());
                    DataType keyType =
                            type instanceof MapType
                                    ? ((MapType) type).getKeyType()
                                    : ((MultisetType) type).getElementType();
                    DataType valueType =
                            type instanceof MapType
                                    ? ((MapType) type).getValueType()
                                    : org.apache.paimon.types.DataTypes.INT();
                    int lo = paths.size();
                    Node key =
                            build(
                                    keyType,
                                    kv.getType(0),
                                    append(rpath, kv.getType(0).getName()),
                                    schema);
                    Node value =
                            key == null
                                    ? null
                                    : build(
                                            valueType,
                                            kv.getType(1),
                                            append(rpath, kv.getType(1).getName()),
                                            schema);
                    if (value == null) {
                        return null;
                    }
                    return new MapNode(
                            lo,
                            paths.size(),
                            def,
                            schema.getMaxDefinitionLevel(rpath),
                            schema.getMaxRepetitionLevel(rpath),
                            key,
                            value,
                            keyType);
                }
            default:
                {
                    if (!t.isPrimitive()) {
                        return null;
                    }
                    PrimitiveType p = t.asPrimitiveType();
                    // A two-level list's element is the repeated primitive itself.
                    PaimonValues.Value value =
                            PaimonValues.of(
                                    type,
                                    p.getRepetition() == Type.Repetition.REPEATED
                                            ? Types.optional(p.getPrimitiveTypeName())
                                                    .length(p.getTypeLength())
                                                    .as(p.getLogicalTypeAnnotation())
                                                    .named(p.getName())
                                            : p);
                    if (value == null) {
                        return null;
                    }
                    paths.add(path);
                    return new Leaf(paths.size() - 1, value);
                }
        }
    }

    /** The one repeated field of a LIST or MAP group, or null for another shape. */
    private static Type repeatedChild(Type t) {
        if (t.isPrimitive()
                || t.getRepetition() == Type.Repetition.REPEATED
                || t.asGroupType().getFieldCount() != 1) {
            return null;
        }
        Type r = t.asGroupType().getType(0);
        return r.getRepetition() == Type.Repetition.REPEATED ? r : null;
    }

    private static String[] append(String[] path, String name) {
        String[] p = Arrays.copyOf(path, path.length + 1);
        p[path.length] = name;
        return p;
    }

    @Override
    Type groupType(int group, BlockMetaData block, GroupType fileType) {
        return fileType.getType(paths.get(0)[0]);
    }

    @Override
    void load(PageReadStore pages, MessageType schema) throws IOException {
        int n = paths.size();
        cursors = new ColumnCursor[n];
        if (ordinals == null) {
            ordinals = new int[n][0];
            pos = new int[n];
        }
        for (int i = 0; i < n; i++) {
            ColumnDescriptor d = schema.getColumnDescription(paths.get(i));
            cursors[i] = new ColumnCursor(pages.getPageReader(d), d, file);
        }
    }

    @Override
    void window(int from, int n) throws IOException {
        for (int i = 0; i < cursors.length; i++) {
            ColumnCursor c = cursors[i];
            c.seek(from);
            c.next(n);
            int[] ords =
                    ordinals[i].length < c.entries
                            ? (ordinals[i] = new int[Math.max(c.entries, ordinals[i].length * 2)])
                            : ordinals[i];
            int next = 0;
            for (int e = 0; e < c.entries; e++) {
                ords[e] = c.def[e] == c.maxDef ? next++ : -1;
            }
        }
    }

    @Override
    void finishGroup(int rows) throws IOException {
        for (ColumnCursor c : cursors) {
            if (!c.atEnd()) {
                throw corrupt("a chunk holds more than the row group's " + rows + " rows");
            }
        }
    }

    @Override
    public Object get(int r) {
        for (int i = 0; i < cursors.length; i++) {
            pos[i] = cursors[i].rowStart[r];
        }
        Object value = root.read(this);
        for (int i = 0; i < cursors.length; i++) {
            if (pos[i] != cursors[i].rowStart[r + 1]) {
                throw corrupt(
                                "window row "
                                        + r
                                        + " holds "
                                        + (cursors[i].rowStart[r + 1] - cursors[i].rowStart[r])
                                        + " level entries in leaf "
                                        + String.join(".", paths.get(i))
                                        + " but its value used "
                                        + (pos[i] - cursors[i].rowStart[r]))
                        .unchecked();
            }
        }
        return value;
    }

    private DamagedFileException corrupt(String what) {
        return new DamagedFileException(file, "column " + name + ": " + what, null);
    }

    private int peekDef(int i) {
        if (pos[i] >= cursors[i].entries) {
            throw corrupt("leaf " + String.join(".", paths.get(i)) + " ends inside a value")
                    .unchecked();
        }
        return cursors[i].def[pos[i]];
    }

    /** Whether leaf i's next entry repeats at level {@code rep}: another element of the list. */
    private boolean repeats(int i, int rep) {
        return pos[i] < cursors[i].entries && cursors[i].rep[pos[i]] == rep;
    }

    /** Consumes one entry of every leaf of {@code [lo, hi)}: a NULL or empty value above them. */
    private void skip(int lo, int hi) {
        for (int i = lo; i < hi; i++) {
            pos[i]++;
        }
    }

    /** One node of the read type; its leaves are {@code [lo, hi)}. */
    private abstract static class Node {
        final int lo;
        final int hi;

        Node(int lo, int hi) {
            this.lo = lo;
            this.hi = hi;
        }

        /** The node's next value, consuming its level entries. */
        abstract Object read(NestedField f);
    }

    /** A ROW field the file does not have: NULL, with no leaves. */
    private static final Node MISSING =
            new Node(0, 0) {
                @Override
                Object read(NestedField f) {
                    return null;
                }
            };

    private static final class Leaf extends Node {
        private final PaimonValues.Value value;

        Leaf(int leaf, PaimonValues.Value value) {
            super(leaf, leaf + 1);
            this.value = value;
        }

        @Override
        Object read(NestedField f) {
            int o = f.ordinals[lo][f.pos[lo]++];
            return o < 0 ? null : value.get(f.cursors[lo], o);
        }
    }

    private static final class RowNode extends Node {
        private final int def;
        private final Node[] children;

        RowNode(int lo, int hi, int def, Node[] children) {
            super(lo, hi);
            this.def = def;
            this.children = children;
        }

        @Override
        Object read(NestedField f) {
            if (f.peekDef(lo) < def) {
                f.skip(lo, hi);
                return null;
            }
            Object[] values = new Object[children.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = children[i].read(f);
            }
            return GenericRow.of(values);
        }
    }

    private static final class ListNode extends Node {
        private final int def;
        private final int elementDef;
        private final int rep;
        private final Node element;

        ListNode(int lo, int hi, int def, int elementDef, int rep, Node element) {
            super(lo, hi);
            this.def = def;
            this.elementDef = elementDef;
            this.rep = rep;
            this.element = element;
        }

        @Override
        Object read(NestedField f) {
            int d = f.peekDef(lo);
            if (d < elementDef) {
                f.skip(lo, hi);
                return d < def ? null : new GenericArray(new Object[0]);
            }
            List<Object> out = new ArrayList<>();
            do {
                out.add(element.read(f));
            } while (f.repeats(lo, rep));
            return new GenericArray(out.toArray());
        }
    }

    private static final class MapNode extends Node {
        private final int def;
        private final int entryDef;
        private final int rep;
        final Node key;
        private final Node value;
        final DataType keyType;

        /** With selected keys, the requested keys as Paimon strings and UTF-8 bytes; else null. */
        private BinaryString[] selected;

        MapNode(
                int lo,
                int hi,
                int def,
                int entryDef,
                int rep,
                Node key,
                Node value,
                DataType keyType) {
            super(lo, hi);
            this.def = def;
            this.entryDef = entryDef;
            this.rep = rep;
            this.key = key;
            this.value = value;
            this.keyType = keyType;
        }

        MapNode select(List<String> keys) {
            selected = new BinaryString[keys.size()];
            for (int j = 0; j < selected.length; j++) {
                selected[j] = BinaryString.fromBytes(keys.get(j).getBytes(StandardCharsets.UTF_8));
            }
            return this;
        }

        @Override
        Object read(NestedField f) {
            int d = f.peekDef(lo);
            if (d < entryDef) {
                f.skip(lo, hi);
                return d < def ? null : new ArrayBackedMap(new Object[0], new Object[0]);
            }
            List<Object> keys = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            do {
                keys.add(key.read(f));
                values.add(value.read(f));
            } while (f.repeats(lo, rep));
            if (selected == null) {
                return new ArrayBackedMap(keys.toArray(), values.toArray());
            }
            List<Object> outKeys = new ArrayList<>(selected.length);
            List<Object> outValues = new ArrayList<>(selected.length);
            for (BinaryString s : selected) {
                int at = keys.indexOf(s);
                if (at >= 0) {
                    outKeys.add(s);
                    outValues.add(values.get(at));
                }
            }
            return new ArrayBackedMap(outKeys.toArray(), outValues.toArray());
        }
    }
}
