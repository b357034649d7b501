package dev.strata.spark.read;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.parquet.GroupKeyPlan;
import dev.strata.shredding.parquet.PageChecksums;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedFooters;
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
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * Column-at-a-time reader of one shredded data file into Spark vectors, for the columns
 * {@link ColumnarReads} accepts. A selected-key map column reads {@code __field_mapping}, the
 * {@code __col_c} of S(k) of its keys and {@code __overflow} when a key is in O, and
 * rebuilds, per row, a map of the requested keys present in the row in request order (,
 * "Selected keys": the first column of S(k) whose mapping holds k's id, else the first overflow entry);
 * so {@code m['k']} is the full map's. File and row-group skipping use the shredding module's
 * {@link MapPruner}; its counters go to {@link ShreddedReadMetrics}. Layout metadata and pruning stay in
 * the shredding module; this class only decodes values into Spark's vectors.
 */
final class ShreddedFileColumns implements Closeable {

    private final String file;
    private final ParquetFileReader reader;
    private final InputFile input;
    private MessageType requested;
    private final List<FieldReader> fields = new ArrayList<>();
    private final List<BlockMetaData> blocks;
    private final MapPruner pruner;
    private long subColumns;
    private int nextBlock;
    private final RowFilter filter;
    /** The current group's rows to return, ascending, and how many of them were returned. */
    private int[] selected;
    private int selectedCount;
    private int selectedAt;
    private boolean skipFile;
    private boolean started;

    /** Opens the file; {@link #readable()} says whether every read column can be decoded here. */
    ShreddedFileColumns(FileIO fileIO, String path, long size, RowType readType, Map<String, List<String>> selectedKeys,
            MapPredicate pruningPredicate, boolean verifyPages) throws IOException {
        this.file = path;
        this.input = PaimonFiles.inputFile(fileIO, new Path(path), size);
        ShreddedFooters.Opened opened0 = ShreddedFooters.open(input, path, verifyPages);
        this.reader = opened0.reader;
        boolean opened = false;
        try {
            this.blocks = reader.getRowGroups();
            this.pruner = plan(readType, selectedKeys, pruningPredicate, opened0.metas);
            List<MapKeysReader> maps = new ArrayList<>();
            for (FieldReader f : fields) {
                if (f instanceof MapKeysReader) {
                    maps.add((MapKeysReader) f);
                }
            }
            this.filter = pruningPredicate == null || requested == null ? null : RowFilter.of(pruningPredicate, maps);
            opened = true;
        } finally {
            if (!opened) {
                reader.close();
            }
        }
    }

    /** Decides the requested schema and the field readers; returns the pruner (null without a predicate). */
    private MapPruner plan(RowType readType, Map<String, List<String>> selectedKeys, MapPredicate pruningPredicate,
            Map<String, ShreddedColumnMeta> metas) {
        MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
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
                leaves += ParquetSchemas.leafCount(physical);
                fields.add(new MapKeysReader(f.name(), meta, keys, ((MapType) f.type()).getValueType()));
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

    /**
     * Reads up to {@code max} rows into the vectors from row {@code offset}; returns the rows read, 0 at the
     * end. Rows a row group holds but the pruning predicate rules out ({@link RowFilter}) are not returned.
     */
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
        while (selectedAt == selectedCount) {
            if (nextBlock >= blocks.size()) {
                return 0;
            }
            int g = nextBlock++;
            if (pruner != null && pruner.rowGroupCannotMatch(blocks.get(g), g, true)) {
                ShreddedReadMetrics.record(0, 0, 0, 1, 0, 0, 0);
                reader.skipNextRowGroup();
                continue;
            }
            loadGroup(g);
        }
        int n = Math.min(max, selectedCount - selectedAt);
        for (int i = 0; i < fields.size(); i++) {
            fields.get(i).write(vectors[i], offset, selected, selectedAt, n);
        }
        selectedAt += n;
        return n;
    }

    /** Reads row group g's requested chunks, decodes them and selects the rows the predicate may keep. */
    private void loadGroup(int g) throws IOException {
        MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
        List<Type> groupFields = new ArrayList<>(fields.size());
        for (FieldReader fr : fields) {
            groupFields.add(fr.groupType(g, blocks.get(g), fileSchema));
        }
        MessageType groupSchema = new MessageType(fileSchema.getName(), groupFields);
        reader.setRequestedSchema(groupSchema);
        PageReadStore pages;
        try {
            pages = reader.readNextRowGroup();
        } catch (ParquetDecodingException e) {
            throw PageChecksums.diagnose(input, file, reader.getFooter(), g, e);
        }
        int rows = Math.toIntExact(pages.getRowCount());
        for (FieldReader fr : fields) {
            fr.load(pages, groupSchema, rows);
        }
        if (selected == null || selected.length < rows) {
            selected = new int[rows];
        }
        selectedCount = filter == null ? RowFilter.all(rows, selected) : filter.select(rows, selected);
        selectedAt = 0;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }

    /** Decodes one output column, a row group at a time. */
    interface FieldReader {
        /** The field as row group {@code group} needs it, given the file's schema. */
        Type groupType(int group, BlockMetaData block, GroupType fileType);

        /** Decodes the group's chunks of this field from {@code pages} ({@code schema} is the group's request). */
        void load(PageReadStore pages, MessageType schema, int rows) throws IOException;

        /** Writes group rows {@code selected[from .. from + n)} into {@code v[offset ..]}. */
        void write(WritableColumnVector v, int offset, int[] selected, int from, int n);
    }

    private static DecodedChunk chunk(PageReadStore pages, MessageType schema, String file, String... path)
            throws IOException {
        ColumnDescriptor d = schema.getColumnDescription(path);
        return DecodedChunk.decode(pages.getPageReader(d), d, file);
    }

    /** Appends or puts one value of a decoded chunk; the value kinds {@link ColumnarReads} accepts. */
    private static void put(WritableColumnVector v, int row, DataType type, DecodedChunk chunk, int ordinal) {
        switch (type.getTypeRoot()) {
            case BIGINT:
                v.putLong(row, chunk.getLong(ordinal));
                return;
            case INTEGER:
                v.putInt(row, chunk.getInt(ordinal));
                return;
            case DOUBLE:
                v.putDouble(row, chunk.getDouble(ordinal));
                return;
            default:
                byte[] b = chunk.getBytes(ordinal);
                v.putByteArray(row, b, 0, b.length);
        }
    }

    private static void append(WritableColumnVector v, DataType type, DecodedChunk chunk, int ordinal) {
        switch (type.getTypeRoot()) {
            case BIGINT:
                v.appendLong(chunk.getLong(ordinal));
                return;
            case INTEGER:
                v.appendInt(chunk.getInt(ordinal));
                return;
            case DOUBLE:
                v.appendDouble(chunk.getDouble(ordinal));
                return;
            default:
                byte[] b = chunk.getBytes(ordinal);
                v.appendByteArray(b, 0, b.length);
        }
    }

    private final class PrimitiveReader implements FieldReader {
        private final String name;
        private final DataType type;
        private DecodedChunk chunk;
        /** Rows before {@link #cursorRow} hold {@link #cursorOrdinal} values; selected rows arrive ascending. */
        private int cursorRow;
        private int cursorOrdinal;

        PrimitiveReader(String name, DataType type) {
            this.name = name;
            this.type = type;
        }

        @Override
        public Type groupType(int group, BlockMetaData block, GroupType fileType) {
            return fileType.getType(name);
        }

        @Override
        public void load(PageReadStore pages, MessageType schema, int rows) throws IOException {
            chunk = chunk(pages, schema, file, name);
            cursorRow = 0;
            cursorOrdinal = 0;
        }

        @Override
        public void write(WritableColumnVector v, int offset, int[] selected, int from, int n) {
            for (int x = 0; x < n; x++) {
                int r = selected[from + x];
                while (cursorRow < r) {
                    cursorOrdinal += chunk.hasValue(cursorRow++) ? 1 : 0;
                }
                if (chunk.hasValue(r)) {
                    put(v, offset + x, type, chunk, cursorOrdinal);
                } else {
                    v.putNull(offset + x);
                }
            }
        }
    }

    /**
     * A selected-key map column. Each row group reads what its {@link GroupKeyPlan} says: S_g(k) and O_g
     * when the footer records the group's placement, and no {@code __field_mapping} when the footer's
     * ownership segments tell in which rows each column may hold each key. Loading a group resolves, per
     * requested key and row, where the key's value is ("Selected keys": the first column of
     * S(k) that holds k in that row, else the row's first overflow entry naming k) without decoding any
     * value; {@link RowFilter} then reads only the values its leaves test, and {@link #write} only the
     * values of the rows it keeps.
     */
    final class MapKeysReader implements FieldReader {
        private final String name;
        private final List<String> keys;
        private final byte[][] keyBytes;
        private final int[] ids;
        /** Key id → the first requested key with that id, -1 for ids not requested. */
        private final int[] keyOfId;
        private final ShreddedColumnMeta meta;
        private final DataType valueType;
        private GroupKeyPlan plan;
        /** Column index → position in {@link #chunks}, -1 when not read in this group. */
        private final int[] readerOf;
        /** The group's value chunks: the read {@code __col_c} in ascending c, then the overflow's values if read. */
        private DecodedChunk[] chunks;
        private boolean[] nullMap;
        /** Per key and row: the chunk holding the key's value (-1: key absent) and the value's ordinal (-1: NULL). */
        private int[][] source;
        private int[][] ordinal;

        MapKeysReader(String name, ShreddedColumnMeta meta, List<String> keys, DataType valueType) {
            this.name = name;
            this.meta = meta;
            this.keys = keys;
            this.valueType = valueType;
            this.keyBytes = new byte[keys.size()][];
            this.ids = new int[keys.size()];
            for (int j = 0; j < keys.size(); j++) {
                keyBytes[j] = keys.get(j).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                ids[j] = meta.idOf(keys.get(j));
            }
            int maxId = -1;
            for (int id : ids) {
                maxId = Math.max(maxId, id);
            }
            // Sized to every id of the file, so the overflow loop's bounds check is always true (predictable).
            this.keyOfId = new int[Math.max(maxId + 1, meta.keys().size())];
            java.util.Arrays.fill(keyOfId, -1);
            for (int j = keys.size() - 1; j >= 0; j--) {
                if (ids[j] >= 0) {
                    keyOfId[ids[j]] = j;
                }
            }
            this.readerOf = new int[meta.numColumns()];
            this.source = new int[keys.size()][];
            this.ordinal = new int[keys.size()][];
        }

        String name() {
            return name;
        }

        DataType valueType() {
            return valueType;
        }

        /** Position of {@code key} among the requested keys, or -1. */
        int keyIndex(String key) {
            return keys.indexOf(key);
        }

        /** The chunk holding key j's value in group row r, or null when the key is absent or its value NULL. */
        DecodedChunk valueChunk(int j, int r) {
            int s = source[j][r];
            return s < 0 || ordinal[j][r] < 0 ? null : chunks[s];
        }

        /** The value's ordinal in {@link #valueChunk}. */
        int valueOrdinal(int j, int r) {
            return ordinal[j][r];
        }

        @Override
        public Type groupType(int group, BlockMetaData block, GroupType fileType) {
            plan = GroupKeyPlan.of(fileType.getType(name).asGroupType(), meta, keys, group, block);
            return plan.requested();
        }

        @Override
        public void load(PageReadStore pages, MessageType schema, int rows) throws IOException {
            GroupType requested = schema.getType(name).asGroupType();
            boolean mapOptional = requested.getRepetition() == Type.Repetition.OPTIONAL;
            MappingChunk mapping = null;
            if (plan.mappingNeeded()) {
                GroupType fm = requested.getType(ParquetSchemas.FIELD_MAPPING).asGroupType();
                String listName = fm.getType(0).getName();
                String elementName = fm.getType(0).asGroupType().getType(0).getName();
                ColumnDescriptor d = schema.getColumnDescription(
                        new String[] {name, ParquetSchemas.FIELD_MAPPING, listName, elementName});
                mapping = MappingChunk.decode(pages.getPageReader(d), d, rows, file);
            }
            List<DecodedChunk> read = new ArrayList<>();
            List<int[]> ordinals = new ArrayList<>();
            java.util.Arrays.fill(readerOf, -1);
            for (Type t : requested.getFields()) {
                if (t.getName().startsWith(ParquetSchemas.COL_PREFIX)) {
                    int c = Integer.parseInt(t.getName().substring(ParquetSchemas.COL_PREFIX.length()));
                    DecodedChunk col = chunk(pages, schema, file, name, t.getName());
                    readerOf[c] = read.size();
                    read.add(col);
                    ordinals.add(rowOrdinals(col, rows));
                }
            }
            int cols = read.size();
            DecodedChunk ovfKeys = null;
            DecodedChunk ovfValues = null;
            if (requested.containsField(ParquetSchemas.OVERFLOW)) {
                GroupType kvType = requested.getType(ParquetSchemas.OVERFLOW).asGroupType().getType(0).asGroupType();
                ovfKeys = chunk(pages, schema, file, name, ParquetSchemas.OVERFLOW, kvType.getName(),
                        kvType.getType(0).getName());
                ovfValues = chunk(pages, schema, file, name, ParquetSchemas.OVERFLOW, kvType.getName(),
                        kvType.getType(1).getName());
                if (ovfKeys.entries != ovfValues.entries || ovfKeys.rep == null) {
                    throw new IllegalStateException("Cannot read map column " + name + " of " + file + ": the overflow's"
                            + " key and value columns hold " + ovfKeys.entries + " and " + ovfValues.entries
                            + " level entries; they must match. The file is corrupt.");
                }
                read.add(ovfValues);
            }
            chunks = read.toArray(new DecodedChunk[0]);

            nullMap = nullMap == null || nullMap.length < rows ? new boolean[rows] : nullMap;
            java.util.Arrays.fill(nullMap, 0, rows, false);
            if (mapOptional) {
                if (mapping != null) {
                    System.arraycopy(mapping.nullRow, 0, nullMap, 0, rows);
                } else if (cols > 0) {
                    int[] def = chunks[0].def;
                    for (int r = 0; r < rows; r++) {
                        nullMap[r] = def[r] == 0;
                    }
                } else if (ovfKeys != null) {
                    int row = -1;
                    for (int e = 0; e < ovfKeys.entries; e++) {
                        if (ovfKeys.rep[e] == 0) {
                            nullMap[++row] = ovfKeys.def[e] == 0;
                        }
                    }
                }
            }
            for (int j = 0; j < keys.size(); j++) {
                if (source[j] == null || source[j].length < rows) {
                    source[j] = new int[rows];
                    ordinal[j] = new int[rows];
                }
                java.util.Arrays.fill(source[j], 0, rows, -1);
                if (ids[j] < 0) {
                    continue;
                }
                int[] jc = plan.columnsOf(j);
                for (int i = 0; i < jc.length; i++) {
                    int ci = readerOf[jc[i]];
                    int[] ords = ordinals.get(ci);
                    if (mapping != null) {
                        fromMapping(j, jc[i], ci, ords, mapping, rows);
                    } else {
                        fromRanges(j, ci, ords, plan.rangesOf(j, i), rows);
                    }
                }
            }
            if (ovfKeys != null) {
                fromOverflow(ovfKeys, ovfValues, cols, rows);
            }
        }

        /** Per row, the ordinal of the row's value in a {@code __col_c} chunk, or -1 where it is NULL. */
        private int[] rowOrdinals(DecodedChunk col, int rows) {
            if (col.entries != rows) {
                throw new IllegalStateException("Cannot read map column " + name + " of " + file + ": a value column holds "
                        + col.entries + " entries in a row group of " + rows + " rows. The file is corrupt.");
            }
            int[] ords = new int[rows];
            int next = 0;
            for (int r = 0; r < rows; r++) {
                ords[r] = col.hasValue(r) ? next++ : -1;
            }
            return ords;
        }

        /** Key j is in column c of row r where the row's mapping names it there; its value may be NULL. */
        private void fromMapping(int j, int c, int ci, int[] ords, MappingChunk mapping, int rows) {
            int[] src = source[j];
            int[] ord = ordinal[j];
            for (int r = 0; r < rows; r++) {
                int base = mapping.rowStarts[r];
                if (src[r] < 0 && c < mapping.rowStarts[r + 1] - base && mapping.values[base + c] == ids[j]) {
                    src[r] = ci;
                    ord[r] = ords[r];
                }
            }
        }

        /** Without the mapping: inside key j's row ranges of a column, a non-NULL value is key j's. */
        private void fromRanges(int j, int ci, int[] ords, int[] ranges, int rows) {
            int[] src = source[j];
            int[] ord = ordinal[j];
            for (int x = 0; x + 1 < ranges.length; x += 2) {
                int end = Math.min(ranges[x + 1], rows);
                for (int r = Math.max(0, ranges[x]); r < end; r++) {
                    if (src[r] < 0 && ords[r] >= 0) {
                        src[r] = ci;
                        ord[r] = ords[r];
                    }
                }
            }
        }

        /**
         * Rows where a requested key is in no read column take the row's first overflow entry naming it. The
         * loop over all entries is kept free of data-dependent branches (rows without overflow entries come
         * at random, and a branch on them mispredicted often enough to triple the loop's cost); only an
         * entry of a requested key takes the branch into {@link #claim}.
         */
        private void fromOverflow(DecodedChunk ovfKeys, DecodedChunk ovfValues, int chunkIndex, int rows) {
            int n = ovfKeys.entries;
            int[] keyIds = ovfKeys.ints(1);
            int[] rep = ovfKeys.rep;
            int[] keyDef = ovfKeys.definitionLevels();
            int[] valueDef = ovfValues.definitionLevels();
            int keyMax = ovfKeys.maxDef;
            int valueMax = ovfValues.maxDef;
            int[] lookup = keyOfId;
            int row = -1;
            int keyOrdinal = 0;
            int valueOrdinal = 0;
            for (int e = 0; e < n; e++) {
                row += rep[e] == 0 ? 1 : 0;
                int keyed = keyDef[e] == keyMax ? 1 : 0;
                int hasValue = valueDef[e] == valueMax ? 1 : 0;
                int id = keyIds[keyOrdinal];
                keyOrdinal += keyed;
                int first = id >= 0 && id < lookup.length ? lookup[id] : -1;
                if ((keyed & (first >>> 31 ^ 1)) != 0) {
                    claim(first, id, row, hasValue != 0 ? valueOrdinal : -1, chunkIndex, rows);
                }
                valueOrdinal += hasValue;
            }
        }

        /** Gives the overflow entry (id, value ordinal) of group row {@code row} to the requested keys with that id. */
        private void claim(int first, int id, int row, int valueOrdinal, int chunkIndex, int rows) {
            if (row < 0 || row >= rows) {
                throw new IllegalStateException("Cannot read map column " + name + " of " + file + ": an overflow entry"
                        + " falls in row " + row + " of a row group of " + rows + " rows. The file is corrupt.");
            }
            for (int j = first; j < ids.length; j++) {
                if (ids[j] == id && plan.overflowOf(j) && source[j][row] < 0) {
                    source[j][row] = chunkIndex;
                    ordinal[j][row] = valueOrdinal;
                }
            }
        }

        @Override
        public void write(WritableColumnVector v, int offset, int[] selected, int from, int n) {
            WritableColumnVector kv = v.getChild(0);
            WritableColumnVector vv = v.getChild(1);
            for (int x = 0; x < n; x++) {
                int r = selected[from + x];
                int row = offset + x;
                if (nullMap[r]) {
                    v.putNull(row);
                    continue;
                }
                int start = kv.getElementsAppended();
                int present = 0;
                for (int j = 0; j < keys.size(); j++) {
                    int s = source[j][r];
                    if (s < 0) {
                        continue;
                    }
                    kv.appendByteArray(keyBytes[j], 0, keyBytes[j].length);
                    int o = ordinal[j][r];
                    if (o < 0) {
                        vv.appendNull();
                    } else {
                        append(vv, valueType, chunks[s], o);
                    }
                    present++;
                }
                v.putArray(row, start, present);
            }
        }
    }
}
