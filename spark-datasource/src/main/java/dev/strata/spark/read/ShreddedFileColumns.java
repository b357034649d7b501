package dev.strata.spark.read;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.parquet.GroupKeyPlan;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ParquetSchemas;
import dev.strata.shredding.parquet.ShreddedParquetReader;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.pushdown.MapPruner;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * Column-at-a-time reader of one shredded data file into Spark vectors, for the columns
 * {@link ColumnarReads} accepts. A selected-key map column reads {@code __field_mapping}, the
 * {@code __col_c} of S(k) of its keys and {@code __overflow} when a key is in O (spec §7.2), and
 * rebuilds, per row, a map of the requested keys present in the row in request order (spec §8,
 * "Selected keys": the first column of S(k) whose mapping holds k's id, else the first overflow entry);
 * so {@code m['k']} is the full map's. File and row-group skipping use the shredding module's
 * {@link MapPruner}; its counters go to {@link ShreddedReadMetrics}. Layout metadata and pruning stay in
 * the shredding module; this class only decodes values into Spark's vectors.
 */
final class ShreddedFileColumns implements Closeable {

    private final String file;
    private final ParquetFileReader reader;
    private MessageType requested;
    private final List<FieldReader> fields = new ArrayList<>();
    private final List<BlockMetaData> blocks;
    private final MapPruner pruner;
    private long subColumns;
    private int nextBlock;
    private long rowsLeftInGroup;
    private boolean skipFile;
    private boolean started;

    /** Opens the file; {@link #readable()} says whether every read column can be decoded here. */
    ShreddedFileColumns(FileIO fileIO, String path, long size, RowType readType, Map<String, List<String>> selectedKeys,
            MapPredicate pruningPredicate) throws IOException {
        this.file = path;
        ParquetReadOptions options = ParquetReadOptions.builder().useColumnIndexFilter(false).useStatsFilter(false)
                .useDictionaryFilter(false).useRecordFilter(false).useBloomFilter(false).build();
        this.reader = ParquetFileReader.open(PaimonFiles.inputFile(fileIO, new Path(path), size), options);
        boolean opened = false;
        try {
            this.blocks = reader.getRowGroups();
            this.pruner = plan(readType, selectedKeys, pruningPredicate);
            opened = true;
        } finally {
            if (!opened) {
                reader.close();
            }
        }
    }

    /** Decides the requested schema and the field readers; returns the pruner (null without a predicate). */
    private MapPruner plan(RowType readType, Map<String, List<String>> selectedKeys, MapPredicate pruningPredicate) {
        String path = file;
        MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
        Map<String, String> kv = reader.getFooter().getFileMetaData().getKeyValueMetaData();
        Map<String, ShreddedColumnMeta> metas = new HashMap<>();
        for (Type t : fileSchema.getFields()) {
            String text = ParquetSchemas.looksShredded(t) ? kv.get(ShreddingFooter.footerKey(t.getName())) : null;
            if (text != null) {
                metas.put(t.getName(), ShreddingFooter.decode(text, t.getName(), path));
            }
        }
        List<Type> requestedFields = new ArrayList<>();
        long leaves = 0;
        boolean ok = true;
        for (DataField f : readType.getFields()) {
            if (!fileSchema.containsField(f.name())) {
                ok = false;
                break;
            }
            Type t = fileSchema.getType(f.name());
            if (f.type() instanceof MapType) {
                ShreddedColumnMeta meta = metas.get(f.name());
                List<String> keys = selectedKeys.get(f.name());
                if (meta == null || keys == null || t.isPrimitive()) {
                    ok = false;
                    break;
                }
                GroupType physical = ShreddedParquetReader.selectedPhysical(t.asGroupType(), meta, keys);
                requestedFields.add(physical);
                leaves += leafCount(physical);
                fields.add(new MapKeysReader(path, f.name(), meta, keys, physical, ((MapType) f.type()).getValueType()));
            } else {
                if (!t.isPrimitive()) {
                    ok = false;
                    break;
                }
                requestedFields.add(t);
                fields.add(new PrimitiveReader(f.name(), f.type()));
            }
        }
        this.subColumns = leaves;
        this.requested = ok ? new MessageType(fileSchema.getName(), requestedFields) : null;
        if (!ok) {
            fields.clear();
            return null;
        }
        reader.setRequestedSchema(requested);
        return pruningPredicate == null ? null : new MapPruner(pruningPredicate, metas, fileSchema);
    }

    boolean readable() {
        return requested != null;
    }

    /** Reads up to {@code max} rows into the vectors from row {@code offset}; returns the rows read, 0 at the end. */
    int read(WritableColumnVector[] vectors, int offset, int max) throws IOException {
        if (!started) {
            started = true;
            skipFile = pruner != null && pruner.fileCannotMatch();
            if (skipFile) {
                ShreddedReadMetrics.record(0, 1, 0, 0, 0, 0, 0);
            } else {
                ShreddedReadMetrics.record(1, 0, blocks.size(), 0, 0, subColumns, 0);
            }
        }
        if (skipFile) {
            return 0;
        }
        while (rowsLeftInGroup == 0) {
            if (nextBlock >= blocks.size()) {
                return 0;
            }
            int g = nextBlock++;
            if (pruner != null && pruner.rowGroupCannotMatch(blocks.get(g), g, true)) {
                ShreddedReadMetrics.record(0, 0, 0, 1, 0, 0, 0);
                reader.skipNextRowGroup();
                continue;
            }
            MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
            List<Type> groupFields = new ArrayList<>(fields.size());
            for (FieldReader fr : fields) {
                groupFields.add(fr.groupType(g, blocks.get(g), fileSchema));
            }
            MessageType groupSchema = new MessageType(fileSchema.getName(), groupFields);
            reader.setRequestedSchema(groupSchema);
            PageReadStore pages = reader.readNextRowGroup();
            ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, new NoopGroupConverter(groupSchema), groupSchema,
                    reader.getFooter().getFileMetaData().getCreatedBy());
            for (FieldReader fr : fields) {
                fr.open(store, groupSchema, pages, blocks.get(g));
            }
            rowsLeftInGroup = pages.getRowCount();
        }
        int n = (int) Math.min(max, rowsLeftInGroup);
        for (int i = 0; i < fields.size(); i++) {
            fields.get(i).read(vectors[i], offset, n);
        }
        rowsLeftInGroup -= n;
        return n;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }

    private static int leafCount(Type t) {
        if (t.isPrimitive()) {
            return 1;
        }
        int n = 0;
        for (Type c : t.asGroupType().getFields()) {
            n += leafCount(c);
        }
        return n;
    }

    private static ColumnReader columnReader(ColumnReadStoreImpl store, MessageType schema, String... path) {
        ColumnDescriptor d = schema.getColumnDescription(path);
        return store.getColumnReader(d);
    }

    /** Decodes one output column. */
    private interface FieldReader {
        /** The field as this row group needs it, given the field's type in the file. */
        default Type groupType(int group, BlockMetaData block, GroupType fileType) {
            return fileType;
        }

        void open(ColumnReadStoreImpl store, MessageType schema, PageReadStore pages, BlockMetaData block) throws IOException;

        void read(WritableColumnVector v, int offset, int n);
    }

    private static final class PrimitiveReader implements FieldReader {
        private final String name;
        private final DataType type;
        private ColumnReader cr;
        private int maxDef;

        PrimitiveReader(String name, DataType type) {
            this.name = name;
            this.type = type;
        }

        @Override
        public Type groupType(int group, BlockMetaData block, GroupType fileType) {
            return fileType.getType(name);
        }

        @Override
        public void open(ColumnReadStoreImpl store, MessageType schema, PageReadStore pages, BlockMetaData block) {
            cr = columnReader(store, schema, name);
            maxDef = schema.getColumnDescription(new String[] {name}).getMaxDefinitionLevel();
        }

        @Override
        public void read(WritableColumnVector v, int offset, int n) {
            for (int i = offset; i < offset + n; i++) {
                if (cr.getCurrentDefinitionLevel() < maxDef) {
                    v.putNull(i);
                } else {
                    switch (type.getTypeRoot()) {
                        case BIGINT:
                            v.putLong(i, cr.getLong());
                            break;
                        case INTEGER:
                            v.putInt(i, cr.getInteger());
                            break;
                        case DOUBLE:
                            v.putDouble(i, cr.getDouble());
                            break;
                        default:
                            byte[] b = cr.getBinary().getBytes();
                            v.putByteArray(i, b, 0, b.length);
                    }
                }
                cr.consume();
            }
        }
    }

    /**
     * A selected-key map column. Definition levels: m 1, mapping list 2, entry 3, element 4; __col_c 2;
     * overflow key 3, value 4. Each row group reads what its {@link GroupKeyPlan} says: S_g(k) and O_g when the
     * footer records the group's placement, and no {@code __field_mapping} when the footer's ownership segments
     * tell in which rows each column may hold each key.
     */
    private static final class MapKeysReader implements FieldReader {
        private final String name;
        private final int k;
        private final List<String> keys;
        private final byte[][] keyBytes;
        private final int[] ids;
        private final GroupType physical;
        private final ShreddedColumnMeta meta;
        private final DataType valueType;
        private final String file;
        private GroupKeyPlan plan;
        private ColumnReader mapping;
        private int[] cols;
        /** Column index → position in {@link #colReaders}, -1 when not read in this group. */
        private final int[] readerOf;
        private ColumnReader[] colReaders;
        private boolean overflow;
        private ColumnReader ovfKey;
        private ColumnReader ovfValue;
        private final int[] mappingRow;
        private final Object[] colValues;
        private final boolean[] colPresent;
        private MappingChunk fastMapping;
        private int fastRow;
        /** Row index within the group, and per key and column the next range to look at (without the mapping). */
        private int groupRow;
        private int[][] rangeAt;
        private long mappingTotal;
        private long mappingRead;
        private long ovfTotal;
        private long ovfRead;
        /** Per requested key, whether this row's overflow held it (first entry wins) and that entry's value. */
        private boolean[] ovfFound;
        private Object[] ovfValue0;

        MapKeysReader(String file, String name, ShreddedColumnMeta meta, List<String> keys, GroupType physical,
                DataType valueType) {
            this.file = file;
            this.name = name;
            this.meta = meta;
            this.k = meta.numColumns();
            this.keys = keys;
            this.physical = physical;
            this.valueType = valueType;
            this.keyBytes = new byte[keys.size()][];
            this.ids = new int[keys.size()];
            for (int j = 0; j < keys.size(); j++) {
                keyBytes[j] = keys.get(j).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                ids[j] = meta.idOf(keys.get(j));
            }
            this.readerOf = new int[k];
            this.mappingRow = new int[k];
            this.colValues = new Object[k];
            this.colPresent = new boolean[k];
            this.ovfFound = new boolean[keys.size()];
            this.ovfValue0 = new Object[keys.size()];
        }

        @Override
        public Type groupType(int group, BlockMetaData block, GroupType fileType) {
            plan = GroupKeyPlan.of(fileType.getType(name).asGroupType(), meta, keys, group, block);
            return plan.requested();
        }

        @Override
        public void open(ColumnReadStoreImpl store, MessageType schema, PageReadStore pages, BlockMetaData block)
                throws IOException {
            GroupType requested = schema.getType(name).asGroupType();
            fastMapping = null;
            mapping = null;
            if (plan.mappingNeeded()) {
                GroupType fm = requested.getType(ParquetSchemas.FIELD_MAPPING).asGroupType();
                String listName = fm.getType(0).getName();
                String elementName = fm.getType(0).asGroupType().getType(0).getName();
                String[] path = {name, ParquetSchemas.FIELD_MAPPING, listName, elementName};
                ColumnDescriptor descriptor = schema.getColumnDescription(path);
                ColumnChunkMetaData chunk = null;
                for (ColumnChunkMetaData c : block.getColumns()) {
                    if (c.getPath().equals(ColumnPath.get(path))) {
                        chunk = c;
                    }
                }
                if (chunk != null && MappingChunk.decodable(chunk)) {
                    fastMapping = MappingChunk.decode(pages.getPageReader(descriptor), descriptor,
                            (int) pages.getRowCount(), file);
                    fastRow = 0;
                } else {
                    mapping = store.getColumnReader(descriptor);
                    mappingTotal = mapping.getTotalValueCount();
                    mappingRead = 0;
                }
            }
            List<Integer> cs = new ArrayList<>();
            for (Type t : requested.getFields()) {
                if (t.getName().startsWith(ParquetSchemas.COL_PREFIX)) {
                    cs.add(Integer.parseInt(t.getName().substring(ParquetSchemas.COL_PREFIX.length())));
                }
            }
            cols = cs.stream().mapToInt(Integer::intValue).toArray();
            java.util.Arrays.fill(readerOf, -1);
            colReaders = new ColumnReader[cols.length];
            for (int i = 0; i < cols.length; i++) {
                colReaders[i] = columnReader(store, schema, name, ParquetSchemas.colName(cols[i]));
                readerOf[cols[i]] = i;
            }
            groupRow = 0;
            rangeAt = new int[keys.size()][];
            for (int j = 0; j < keys.size(); j++) {
                rangeAt[j] = new int[plan.columnsOf(j).length];
            }
            overflow = requested.containsField(ParquetSchemas.OVERFLOW);
            if (overflow) {
                GroupType ov = requested.getType(ParquetSchemas.OVERFLOW).asGroupType();
                GroupType kvType = ov.getType(0).asGroupType();
                ovfKey = columnReader(store, schema, name, ParquetSchemas.OVERFLOW, kvType.getName(),
                        kvType.getType(0).getName());
                ovfValue = columnReader(store, schema, name, ParquetSchemas.OVERFLOW, kvType.getName(),
                        kvType.getType(1).getName());
                ovfTotal = ovfKey.getTotalValueCount();
                ovfRead = 0;
            }
        }

        private Object value(ColumnReader cr) {
            switch (valueType.getTypeRoot()) {
                case BIGINT:
                    return cr.getLong();
                case INTEGER:
                    return cr.getInteger();
                case DOUBLE:
                    return cr.getDouble();
                default:
                    return cr.getBinary().getBytes();
            }
        }

        @Override
        public void read(WritableColumnVector v, int offset, int n) {
            WritableColumnVector kv = v.getChild(0);
            WritableColumnVector vv = v.getChild(1);
            boolean byMapping = plan.mappingNeeded();
            for (int row = offset; row < offset + n; row++) {
                boolean isNull = false;
                if (byMapping) {
                    isNull = readMappingRow();
                }
                for (int i = 0; i < cols.length; i++) {
                    ColumnReader cr = colReaders[i];
                    int def = cr.getCurrentDefinitionLevel();
                    colPresent[cols[i]] = def == 2;
                    colValues[cols[i]] = def == 2 ? value(cr) : null;
                    if (!byMapping && i == 0) {
                        isNull = def == 0;
                    }
                    cr.consume();
                }
                if (overflow) {
                    java.util.Arrays.fill(ovfFound, false);
                    if (!byMapping && cols.length == 0) {
                        isNull = ovfKey.getCurrentDefinitionLevel() == 0;
                    }
                    do {
                        boolean entry = ovfKey.getCurrentDefinitionLevel() >= 3;
                        if (entry) {
                            // Only entries of requested keys are decoded; the overflow mostly holds other keys.
                            int id = ovfKey.getInteger();
                            boolean present = ovfValue.getCurrentDefinitionLevel() == 4;
                            Object decoded = null;
                            boolean read = false;
                            for (int j = 0; j < ids.length; j++) {
                                if (ids[j] == id && !ovfFound[j] && plan.overflowOf(j)) {
                                    if (present && !read) {
                                        decoded = value(ovfValue);
                                        read = true;
                                    }
                                    ovfFound[j] = true;
                                    ovfValue0[j] = decoded;
                                }
                            }
                            if (present && !read) {
                                ovfValue.skip(); // parquet-mr's consume() does not step over an unread value
                            }
                        }
                        ovfKey.consume();
                        ovfValue.consume();
                        ovfRead++;
                    } while (ovfRead < ovfTotal && ovfKey.getCurrentRepetitionLevel() > 0);
                }
                int r = groupRow++;
                if (isNull) {
                    v.putNull(row);
                    continue;
                }
                int start = kv.getElementsAppended();
                int present = 0;
                for (int j = 0; j < keys.size(); j++) {
                    if (ids[j] < 0) {
                        continue;
                    }
                    boolean found = false;
                    Object val = null;
                    int[] jc = plan.columnsOf(j);
                    for (int i = 0; i < jc.length; i++) {
                        int c = jc[i];
                        if (byMapping ? mappingRow[c] == ids[j] : colPresent[c] && inRange(j, i, r)) {
                            found = true;
                            val = colValues[c];
                            break;
                        }
                    }
                    if (!found && overflow && ovfFound[j]) {
                        found = true;
                        val = ovfValue0[j];
                    }
                    if (found) {
                        kv.appendByteArray(keyBytes[j], 0, keyBytes[j].length);
                        append(vv, val);
                        present++;
                    }
                }
                v.putArray(row, start, present);
            }
        }

        /** Whether group row r lies in a range where key j's i-th column may hold it; rows arrive ascending. */
        private boolean inRange(int j, int i, int r) {
            int[] ranges = plan.rangesOf(j, i);
            int at = rangeAt[j][i];
            while (at < ranges.length && ranges[at + 1] <= r) {
                at += 2;
            }
            rangeAt[j][i] = at;
            return at < ranges.length && ranges[at] <= r;
        }

        /** Reads the row's K mapping entries into {@link #mappingRow}; returns whether the map is NULL. */
        private boolean readMappingRow() {
            boolean isNull;
            int count = 0;
            if (fastMapping != null) {
                int r = fastRow++;
                isNull = fastMapping.nullRow[r];
                count = Math.min(k, fastMapping.rowStarts[r + 1] - fastMapping.rowStarts[r]);
                System.arraycopy(fastMapping.values, fastMapping.rowStarts[r], mappingRow, 0, count);
            } else {
                isNull = mapping.getCurrentDefinitionLevel() == 0;
                do {
                    if (mapping.getCurrentDefinitionLevel() == 4 && count < k) {
                        mappingRow[count] = mapping.getInteger();
                    } else if (count < k) {
                        mappingRow[count] = -1;
                    }
                    count++;
                    mapping.consume();
                    mappingRead++;
                } while (mappingRead < mappingTotal && mapping.getCurrentRepetitionLevel() > 0);
            }
            for (int i = count; i < k; i++) {
                mappingRow[i] = -1;
            }
            return isNull;
        }

        private void append(WritableColumnVector vv, Object val) {
            if (val == null) {
                vv.appendNull();
                return;
            }
            switch (valueType.getTypeRoot()) {
                case BIGINT:
                    vv.appendLong((Long) val);
                    return;
                case INTEGER:
                    vv.appendInt((Integer) val);
                    return;
                case DOUBLE:
                    vv.appendDouble((Double) val);
                    return;
                default:
                    byte[] b = (byte[]) val;
                    vv.appendByteArray(b, 0, b.length);
            }
        }
    }

    /** A converter tree that accepts nothing: values are pulled from the column readers directly. */
    private static final class NoopGroupConverter extends GroupConverter {
        private final Converter[] children;

        NoopGroupConverter(GroupType type) {
            children = new Converter[type.getFieldCount()];
            for (int i = 0; i < children.length; i++) {
                Type t = type.getType(i);
                children[i] = t.isPrimitive() ? new PrimitiveConverter() {} : new NoopGroupConverter(t.asGroupType());
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {}

        @Override
        public void end() {}
    }
}
