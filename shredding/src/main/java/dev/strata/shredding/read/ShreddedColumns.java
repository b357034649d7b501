package dev.strata.shredding.read;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.layout.ArrowSchemaFooter;
import dev.strata.shredding.layout.KeyZones;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.parquet.ArrayBackedMap;
import dev.strata.shredding.parquet.GroupKeyPlan;
import dev.strata.shredding.parquet.PageChecksums;
import dev.strata.shredding.parquet.ParquetSchemas;
import dev.strata.shredding.parquet.ShreddedFooters;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.pushdown.MapPruner;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Column-at-a-time reader of one shredded data file, window by window, used by the Spark columnar
 * path and by Paimon's row path ({@code ShreddedParquetReader}). A selected-key map column reads
 * {@code __field_mapping}, the {@code __col_c} of S(k) of its keys and {@code __overflow} when a
 * key is in O: a key's value is in the first column of S(k) whose mapping holds k's id in that row,
 * else in the row's first overflow entry naming k, so {@code m['k']} is the full map's.
 *
 * <p>Memory: windows of at most {@value #MAX_WINDOW_ROWS} rows and about {@value #WINDOW_ENTRIES}
 * level entries per column, decoding only the pages overlapping the window, so the heap holds one
 * window's values and one row group's compressed chunks, not the decoded group.
 *
 * <p>Skipping: {@link MapPruner} for files and row groups, the column index for row ranges (read
 * with {@code readFilteredRowGroup}), then {@link RowFilter} per window.
 */
public final class ShreddedColumns implements Closeable {

    static final int MAX_WINDOW_ROWS = 4096;
    static final int WINDOW_ENTRIES = 1 << 20;

    /** Selections of at most this many rows are read as row ranges ({@link #selectedRanges}). */
    static final int MAX_SELECTED_FOR_RANGES = 4096;

    /** Paimon's prefix of a primary-key file's key columns. */
    private static final String KEY_PREFIX = "_KEY_";

    private final String file;
    private final ParquetFileReader reader;
    private final InputFile input;
    private MessageType requested;
    private final List<Field> fields = new ArrayList<>();
    private final List<BlockMetaData> blocks;
    private final MapPruner pruner;
    private final Map<String, ShreddedColumnMeta> metas;
    private final RoaringBitmap32 selection;
    private long subColumns;

    private String unreadable;

    /** Absolute positions of the current group's and window's first rows. */
    private long groupStart;

    private long windowStart;

    /** Over the file's physical columns; null without a pruning predicate. */
    private FilterPredicate pageFilter;

    private final Set<ColumnPath> filePaths = new HashSet<>();

    /** The current group's row ranges the page index cannot rule out (null: every row). */
    private List<RowRanges.Range> ranges;

    private int range;
    private int nextBlock;
    private int group = -1;
    private final RowFilter filter;
    private int groupRows;
    private int groupRow;
    private int window;
    private int[] selected = new int[0];
    private boolean skipFile;
    private boolean started;

    /** Opens the file and plans the read of {@code readType} for the Spark columnar path. */
    public ShreddedColumns(
            InputFile input,
            String file,
            RowType readType,
            Map<String, List<String>> selectedKeys,
            MapPredicate pruningPredicate,
            boolean verifyPages)
            throws IOException {
        this(input, file, readType, selectedKeys, pruningPredicate, null, verifyPages, false);
    }

    /**
     * As above, for Paimon's row path when {@code rows} is true: a column may also be a whole
     * shredded map, a plain or nested column, one the file lacks (NULL) or a {@code _KEY_<name>}
     * column. Only rows whose position is in {@code selection} (null: all) are selected.
     */
    public ShreddedColumns(
            InputFile input,
            String file,
            RowType readType,
            Map<String, List<String>> selectedKeys,
            MapPredicate pruningPredicate,
            RoaringBitmap32 selection,
            boolean verifyPages,
            boolean rows)
            throws IOException {
        this.file = file;
        this.input = input;
        this.selection = selection;
        ShreddedFooters.Opened opened0 = ShreddedFooters.open(input, file, verifyPages);
        this.reader = opened0.reader;
        boolean opened = false;
        try {
            this.blocks = reader.getRowGroups();
            this.metas = checkedMetas(opened0.metas);
            this.pruner =
                    plan(
                            readType,
                            selectedKeys == null ? Map.of() : selectedKeys,
                            pruningPredicate,
                            rows);
            List<MapKeys> maps = new ArrayList<>();
            for (Field f : fields) {
                if (f instanceof MapKeys) {
                    maps.add((MapKeys) f);
                }
            }
            this.filter =
                    pruningPredicate == null || requested == null
                            ? null
                            : RowFilter.of(pruningPredicate, maps);
            opened = true;
        } finally {
            if (!opened) {
                reader.close();
            }
        }
    }

    /** Checks that every shredded column has footer metadata whose zones match the row groups. */
    private Map<String, ShreddedColumnMeta> checkedMetas(Map<String, ShreddedColumnMeta> metas) {
        MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
        for (Type t : fileSchema.getFields()) {
            if (!ParquetSchemas.looksShredded(t)) {
                continue;
            }
            ShreddedColumnMeta meta = metas.get(t.getName());
            if (meta == null) {
                throw new DamagedFileException(
                                file,
                                "shredded column '"
                                        + t.getName()
                                        + "': the footer has neither Paimon's shared-shredding"
                                        + " keys for it in "
                                        + ArrowSchemaFooter.KEY
                                        + " nor Strata's entry "
                                        + ShreddingFooter.footerKey(t.getName())
                                        + " of version "
                                        + ShreddingFooter.VERSION,
                                null,
                                null,
                                DamagedFileException.NOT_WRITTEN_BY_STRATA,
                                null)
                        .unchecked();
            }
            if (meta.zonesRecorded()) {
                List<KeyZones> zones = meta.zones();
                boolean match = zones.size() == blocks.size();
                for (int i = 0; match && i < zones.size(); i++) {
                    match = zones.get(i).rowCount() == blocks.get(i).getRowCount();
                }
                if (!match) {
                    throw new DamagedFileException(
                                    file,
                                    "shredded column '"
                                            + t.getName()
                                            + "': the footer metadata describes "
                                            + zones.size()
                                            + " row groups but the file has "
                                            + blocks.size()
                                            + " (or their row counts differ)",
                                    null)
                            .unchecked();
                }
            }
        }
        return metas;
    }

    public Map<String, ShreddedColumnMeta> shreddedColumns() {
        return metas;
    }

    private MapPruner plan(
            RowType readType,
            Map<String, List<String>> selectedKeys,
            MapPredicate pruningPredicate,
            boolean rows) {
        MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
        List<Type> requestedFields = new ArrayList<>();
        long leaves = 0;
        boolean ok = true;
        for (DataField f : readType.getFields()) {
            String name =
                    fileSchema.containsField(f.name())
                            ? f.name()
                            : rows && fileSchema.containsField(KEY_PREFIX + f.name())
                                    ? KEY_PREFIX + f.name()
                                    : null;
            if (name == null) {
                if (!rows) {
                    unreadable = "the file has no column '" + f.name() + "'";
                    ok = false;
                    break;
                }
                fields.add(new Missing());
                continue;
            }
            Type t = fileSchema.getType(name);
            ShreddedColumnMeta meta = metas.get(name);
            if (meta != null && !(f.type() instanceof MapType)) {
                throw new IllegalStateException(
                        "Cannot read column '"
                                + f.name()
                                + "' of file "
                                + file
                                + " as "
                                + f.type()
                                + ": the file stores it as a shredded MAP. The file does not belong to this table.");
            }
            if (f.type() instanceof MapType && meta == null && rows) {
                Field plain =
                        PlainMap.of(this, name, (MapType) f.type(), t, selectedKeys.get(f.name()));
                if (plain == null) {
                    plain =
                            NestedField.of(
                                    name, file, f.type(), fileSchema, selectedKeys.get(f.name()));
                }
                if (plain == null) {
                    unreadable = mismatch(f, t);
                    ok = false;
                    break;
                }
                requestedFields.add(t);
                fields.add(plain);
                continue;
            }
            if (f.type() instanceof MapType) {
                List<String> keys = selectedKeys.get(f.name());
                DataType valueType = ((MapType) f.type()).getValueType();
                if (rows
                        && meta != null
                        && !t.isPrimitive()
                        && !valuesDecodable(t.asGroupType(), valueType)
                        && NestedValueMap.assembles(
                                name, t.asGroupType(), valueType, fileSchema, file)) {
                    GroupType physical =
                            keys == null
                                    ? t.asGroupType()
                                    : ShreddedParquetReader.selectedPhysical(
                                            t.asGroupType(), meta, keys);
                    requestedFields.add(physical);
                    leaves += ParquetSchemas.leafCount(physical);
                    fields.add(new NestedValueMap(name, file, meta, valueType, keys));
                    continue;
                }
                if (meta == null
                        || t.isPrimitive()
                        || !valuesDecodable(t.asGroupType(), valueType)
                        || (keys == null && !rows)) {
                    unreadable = mismatch(f, t);
                    ok = false;
                    break;
                }
                if (keys == null) {
                    requestedFields.add(t);
                    leaves += ParquetSchemas.leafCount(t.asGroupType());
                    fields.add(new FullMap(name, meta, valueType));
                    continue;
                }
                GroupType physical =
                        ShreddedParquetReader.selectedPhysical(t.asGroupType(), meta, keys);
                requestedFields.add(physical);
                leaves += ParquetSchemas.leafCount(physical);
                fields.add(new MapKeys(name, meta, keys, valueType));
            } else {
                PaimonValues.Value value = PaimonValues.of(f.type(), t);
                Field nested =
                        value == null && rows
                                ? NestedField.of(name, file, f.type(), fileSchema, null)
                                : null;
                if (value == null && nested == null) {
                    unreadable = mismatch(f, t);
                    ok = false;
                    break;
                }
                requestedFields.add(t);
                fields.add(nested != null ? nested : new Primitive(name, f.type(), value));
            }
        }
        this.subColumns = leaves;
        this.requested = ok ? new MessageType(fileSchema.getName(), requestedFields) : null;
        if (!ok) {
            fields.clear();
            return null;
        }
        reader.setRequestedSchema(requested);
        if (pruningPredicate == null) {
            return null;
        }
        MapPruner p = new MapPruner(pruningPredicate, metas, fileSchema);
        pageFilter = p.pageFilter();
        for (ColumnDescriptor d : fileSchema.getColumns()) {
            filePaths.add(ColumnPath.get(d.getPath()));
        }
        return p;
    }

    /** Whether {@code __col_c} and the overflow's values all decode as {@code valueType}. */
    private static boolean valuesDecodable(GroupType physical, DataType valueType) {
        for (Type t : physical.getFields()) {
            if (t.getName().startsWith(ParquetSchemas.COL_PREFIX)
                    && PaimonValues.of(valueType, t) == null) {
                return false;
            }
            if (t.getName().equals(ParquetSchemas.OVERFLOW)) {
                GroupType kv = t.asGroupType().getType(0).asGroupType();
                if (kv.getFieldCount() < 2 || PaimonValues.of(valueType, kv.getType(1)) == null) {
                    return false;
                }
            }
        }
        return true;
    }

    public boolean readable() {
        return requested != null;
    }

    /** Why {@link #readable()} is false, naming the column; else null. */
    public String unreadable() {
        return unreadable;
    }

    private static String mismatch(DataField f, Type t) {
        return "column '"
                + f.name()
                + "' is stored as "
                + t.toString().trim().replaceAll("\\s+", " ")
                + ", which does not hold values of the read type "
                + f.type();
    }

    /** The reader of read field i ({@link Primitive} or {@link MapKeys} for the columnar path). */
    public Field field(int i) {
        return fields.get(i);
    }

    /** The window row of the x-th selected row of the current window. */
    public int row(int x) {
        return selected[x];
    }

    /** The absolute position in the file of the x-th selected row of the current window. */
    public long position(int x) {
        return windowStart + selected[x];
    }

    /** Decodes the next window with rows the predicate may keep; returns how many, 0 at the end. */
    public int nextWindow() throws IOException {
        if (!started) {
            started = true;
            skipFile = pruner != null && pruner.fileCannotMatch();
            if (skipFile) {
                ShreddedReadMetrics.fileSkipped();
            } else {
                ShreddedReadMetrics.fileRead(blocks.size(), subColumns);
            }
        }
        if (skipFile) {
            return 0;
        }
        while (true) {
            if (ranges != null) {
                while (range < ranges.size() && ranges.get(range).to < groupRow) {
                    range++;
                }
                groupRow =
                        range < ranges.size()
                                ? (int) Math.max(groupRow, ranges.get(range).from)
                                : groupRows;
            }
            if (groupRow == groupRows) {
                if (group >= 0) {
                    if (ranges == null) {
                        for (Field f : fields) {
                            f.finishGroup(groupRows);
                        }
                    }
                    group = -1;
                }
                if (!advanceGroup()) {
                    return 0;
                }
                continue;
            }
            int end = ranges == null ? groupRows : (int) ranges.get(range).to + 1;
            int n = Math.min(window, end - groupRow);
            try {
                for (Field f : fields) {
                    f.window(groupRow, n);
                }
            } catch (ParquetDecodingException e) {
                throw PageChecksums.diagnose(input, file, reader.getFooter(), group, e);
            }
            windowStart = groupStart + groupRow;
            groupRow += n;
            if (selected.length < n) {
                selected = new int[n];
            }
            int count = filter == null ? RowFilter.all(n, selected) : filter.select(n, selected);
            if (selection != null) {
                int kept = 0;
                for (int x = 0; x < count; x++) {
                    if (selection.contains(Math.toIntExact(windowStart + selected[x]))) {
                        selected[kept++] = selected[x];
                    }
                }
                count = kept;
            }
            if (count > 0) {
                return count;
            }
        }
    }

    /** Opens the next row group the pruner cannot rule out; false when there is none. */
    private boolean advanceGroup() throws IOException {
        while (nextBlock < blocks.size()) {
            int g = nextBlock++;
            BlockMetaData block = blocks.get(g);
            long start = block.getRowIndexOffset() >= 0 ? block.getRowIndexOffset() : rowOffset(g);
            if (selection != null && !selection.intersects(start, start + block.getRowCount())) {
                ShreddedReadMetrics.rowGroupSkipped(false);
                continue;
            }
            if (pruner != null && pruner.rowGroupCannotMatch(block, g, true)) {
                ShreddedReadMetrics.rowGroupSkipped(!pruner.rowGroupCannotMatch(block, g, false));
                continue;
            }
            MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
            List<Type> groupFields = new ArrayList<>(fields.size());
            for (Field f : fields) {
                Type t = f.groupType(g, block, fileSchema);
                if (t != null) {
                    groupFields.add(t);
                }
            }
            MessageType groupSchema = new MessageType(fileSchema.getName(), groupFields);
            // Before the group's column index store is made: parquet-mr keeps it per row group
            // with the columns requested then, and reading filtered pages of a column it lacks
            // finds no offset index.
            reader.setRequestedSchema(groupSchema);
            RowRanges rows = null;
            if (pageFilter != null && hasColumnIndexes(block)) {
                rows =
                        ColumnIndexFilter.calculateRowRanges(
                                FilterCompat.get(pageFilter),
                                reader.getColumnIndexStore(g),
                                filePaths,
                                block.getRowCount());
                if (rows.rowCount() == 0) {
                    ShreddedReadMetrics.rowGroupSkipped(false);
                    ShreddedReadMetrics.rowsSkippedByPageIndex(block.getRowCount());
                    continue;
                }
                if (rows.rowCount() == block.getRowCount()) {
                    rows = null;
                } else {
                    ShreddedReadMetrics.rowsSkippedByPageIndex(
                            block.getRowCount() - rows.rowCount());
                }
            }
            RowRanges selected = selectedRanges(block, start, groupSchema);
            if (selected != null) {
                rows = rows == null ? selected : RowRanges.intersection(rows, selected);
                if (rows.rowCount() == 0) {
                    continue;
                }
            }
            PageReadStore pages;
            try {
                pages =
                        rows == null
                                ? reader.readRowGroup(g)
                                : reader.readFilteredRowGroup(g, rows);
                groupRows = Math.toIntExact(block.getRowCount());
                for (Field f : fields) {
                    f.load(pages, groupSchema);
                }
            } catch (ParquetDecodingException e) {
                throw PageChecksums.diagnose(input, file, reader.getFooter(), g, e);
            }
            ranges = rows == null ? null : rows.getRanges();
            range = 0;
            group = g;
            groupStart = start;
            groupRow = 0;
            window = windowRows(block, groupSchema, groupRows);
            return true;
        }
        return false;
    }

    /**
     * The rows of a group of {@code block.getRowCount()} rows from file position {@code start} that
     * a sparse {@link #selection} keeps, as row ranges of the group, so that only the pages holding
     * them are read and decompressed (a row read by position costs one page a column, not the
     * column chunk). Null, reading the group whole, when there is no selection, it keeps more than
     * {@value #MAX_SELECTED_FOR_RANGES} rows of the file, or a read column has no offset index.
     */
    private RowRanges selectedRanges(BlockMetaData block, long start, MessageType groupSchema) {
        if (selection == null || selection.getCardinality() > MAX_SELECTED_FOR_RANGES) {
            return null;
        }
        for (ColumnChunkMetaData c : block.getColumns()) {
            if (groupSchema.containsPath(c.getPath().toArray())
                    && c.getOffsetIndexReference() == null) {
                return null;
            }
        }
        long end = start + block.getRowCount();
        List<long[]> runs = new ArrayList<>();
        long next = start > Integer.MAX_VALUE ? -1 : selection.nextValue((int) start);
        while (next >= 0 && next < end) {
            long first = next;
            long last = next;
            while (last + 1 < end
                    && last + 1 <= Integer.MAX_VALUE
                    && selection.nextValue((int) (last + 1)) == last + 1) {
                last++;
            }
            runs.add(new long[] {first - start, last - start});
            next = last + 1 > Integer.MAX_VALUE ? -1 : selection.nextValue((int) (last + 1));
        }
        // Parquet makes row ranges from pages of an offset index: each run is such a "page".
        OffsetIndex asPages =
                new OffsetIndex() {
                    @Override
                    public int getPageCount() {
                        return runs.size();
                    }

                    @Override
                    public long getOffset(int page) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public int getCompressedPageSize(int page) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public long getFirstRowIndex(int page) {
                        return runs.get(page)[0];
                    }

                    @Override
                    public long getLastRowIndex(int page, long rowGroupRowCount) {
                        return runs.get(page)[1];
                    }
                };
        return RowRanges.create(
                block.getRowCount(), IntStream.range(0, runs.size()).iterator(), asPages);
    }

    private static boolean hasColumnIndexes(BlockMetaData block) {
        for (ColumnChunkMetaData c : block.getColumns()) {
            if (c.getColumnIndexReference() != null) {
                return true;
            }
        }
        return false;
    }

    private long rowOffset(int g) {
        long off = 0;
        for (int i = 0; i < g; i++) {
            off += blocks.get(i).getRowCount();
        }
        return off;
    }

    static int windowRows(BlockMetaData block, MessageType groupSchema, int rows) {
        long perRow = 1;
        for (ColumnChunkMetaData c : block.getColumns()) {
            if (rows > 0 && groupSchema.containsPath(c.getPath().toArray())) {
                perRow = Math.max(perRow, (c.getValueCount() + rows - 1) / rows);
            }
        }
        return (int) Math.max(1, Math.min(MAX_WINDOW_ROWS, WINDOW_ENTRIES / perRow));
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }

    private ColumnCursor cursor(PageReadStore pages, MessageType schema, String... path)
            throws IOException {
        ColumnDescriptor d = schema.getColumnDescription(path);
        return new ColumnCursor(pages.getPageReader(d), d, file);
    }

    private DamagedFileException corrupt(String column, String what) {
        return new DamagedFileException(file, "column " + column + ": " + what, null);
    }

    /** The column of {@code __field_mapping}'s list elements in the group's request. */
    private static ColumnDescriptor fieldMapping(MessageType schema, GroupType group, String name) {
        GroupType list = group.getType(ParquetSchemas.FIELD_MAPPING).asGroupType();
        GroupType repeated = list.getType(0).asGroupType();
        return schema.getColumnDescription(
                new String[] {
                    name,
                    ParquetSchemas.FIELD_MAPPING,
                    repeated.getName(),
                    repeated.getType(0).getName()
                });
    }

    /** The map's {@code __overflow} in the group's request, or null when it has none. */
    private Entries openOverflow(
            PageReadStore pages, MessageType schema, GroupType group, String name)
            throws IOException {
        if (!group.containsField(ParquetSchemas.OVERFLOW)) {
            return null;
        }
        GroupType kv =
                group.getType(ParquetSchemas.OVERFLOW).asGroupType().getType(0).asGroupType();
        return entries(pages, schema, name, "the overflow's", kv, name, ParquetSchemas.OVERFLOW);
    }

    /** Key and value cursors of map {@code name}'s group {@code kv} under path {@code groups}. */
    private Entries entries(
            PageReadStore pages,
            MessageType schema,
            String name,
            String whose,
            GroupType kv,
            String... groups)
            throws IOException {
        String[] keyPath = Arrays.copyOf(groups, groups.length + 2);
        keyPath[groups.length] = kv.getName();
        String[] valuePath = keyPath.clone();
        keyPath[groups.length + 1] = kv.getType(0).getName();
        valuePath[groups.length + 1] = kv.getType(1).getName();
        return new Entries(
                name,
                whose,
                cursor(pages, schema, keyPath),
                cursor(pages, schema, valuePath),
                kv.getType(1));
    }

    /** A map's key-value group in one row group; key and value windows hold equal entries. */
    private final class Entries {
        final ColumnCursor keys;
        final ColumnCursor values;

        final Type valueField;

        private final String name;
        private final String whose;

        private Entries(
                String name,
                String whose,
                ColumnCursor keys,
                ColumnCursor values,
                Type valueField) {
            this.name = name;
            this.whose = whose;
            this.keys = keys;
            this.values = values;
            this.valueField = valueField;
        }

        /** Decodes group rows {@code [from, from + n)} of both cursors. */
        void window(int from, int n) throws IOException {
            keys.seek(from);
            keys.next(n);
            values.seek(from);
            values.next(n);
            if (keys.entries != values.entries) {
                throw corrupt(
                        name,
                        whose
                                + " key and value columns hold "
                                + keys.entries
                                + " and "
                                + values.entries
                                + " level entries in rows "
                                + from
                                + " to "
                                + (from + n)
                                + "; they must match");
            }
        }
    }

    /** Reads one output column, a window at a time. */
    public abstract static class Field {
        Field() {}

        /** The field as row group {@code group} needs it, given the file's schema. */
        abstract Type groupType(int group, BlockMetaData block, GroupType fileType);

        /** Opens the group's chunks of this field ({@code schema} is the group's request). */
        abstract void load(PageReadStore pages, MessageType schema) throws IOException;

        /** Decodes group rows {@code [from, from + n)}. */
        abstract void window(int from, int n) throws IOException;

        /** Checks that the group's chunks hold no rows after its {@code rows} rows. */
        abstract void finishGroup(int rows) throws IOException;

        /** The Paimon value of window row r (row path); a map is an {@link ArrayBackedMap}. */
        public abstract Object get(int r);
    }

    /** A read column the file does not have: NULL in every row. */
    final class Missing extends Field {
        @Override
        Type groupType(int group, BlockMetaData block, GroupType fileType) {
            return null;
        }

        @Override
        void load(PageReadStore pages, MessageType schema) {}

        @Override
        void window(int from, int n) {}

        @Override
        void finishGroup(int rows) {}

        @Override
        public Object get(int r) {
            return null;
        }
    }

    /** A top-level primitive column; values by window row. */
    public final class Primitive extends Field {
        private final String name;
        private final DataType type;
        private final PaimonValues.Value value;
        private ColumnCursor cursor;

        /** Per window row, the ordinal of its value, -1 for NULL. */
        private int[] ordinals = new int[0];

        Primitive(String name, DataType type, PaimonValues.Value value) {
            this.name = name;
            this.type = type;
            this.value = value;
        }

        @Override
        public Object get(int r) {
            int o = ordinals[r];
            return o < 0 ? null : value.get(cursor, o);
        }

        public DataType type() {
            return type;
        }

        @Override
        Type groupType(int group, BlockMetaData block, GroupType fileType) {
            return fileType.getType(name);
        }

        @Override
        void load(PageReadStore pages, MessageType schema) throws IOException {
            cursor = cursor(pages, schema, name);
        }

        @Override
        void window(int from, int n) throws IOException {
            cursor.seek(from);
            cursor.next(n);
            if (ordinals.length < n) {
                ordinals = new int[n];
            }
            int next = 0;
            for (int r = 0; r < n; r++) {
                ordinals[r] = cursor.hasValue(r) ? next++ : -1;
            }
        }

        @Override
        void finishGroup(int rows) throws IOException {
            if (!cursor.atEnd()) {
                throw corrupt(name, "its chunk holds more than the row group's " + rows + " rows");
            }
        }

        public boolean isNull(int r) {
            return ordinals[r] < 0;
        }

        public int getInt(int r) {
            return cursor.getInt(ordinals[r]);
        }

        public long getLong(int r) {
            return cursor.getLong(ordinals[r]);
        }

        public double getDouble(int r) {
            return cursor.getDouble(ordinals[r]);
        }

        public byte[] getBytes(int r) {
            return cursor.getBytes(ordinals[r]);
        }
    }

    /** A selected-key map column, read per row group as its {@link GroupKeyPlan} says. */
    public final class MapKeys extends Field {
        private final String name;
        private final List<String> keys;
        private final byte[][] keyBytes;
        private final BinaryString[] keyStrings;
        private final int[] ids;

        /** Key id → the first requested key with that id, -1 for ids not requested. */
        private final int[] keyOfId;

        private final ShreddedColumnMeta meta;
        private final DataType valueType;
        private GroupKeyPlan plan;
        private boolean mapOptional;
        private FieldMappingWindow mapping;

        /** Replaces {@link #mapping} when the group's keys sit in few columns. */
        private MappingProbe probe;

        /** Column → its position among the probed columns, -1 when not probed. */
        private int[] probeIndex = new int[0];

        /** Probe position i's hits: posRows, posIds[posStart[i] .. posStart[i + 1] - 1]. */
        private int[] posStart = new int[0];

        private int[] posFill = new int[0];
        private int[] posRows = new int[0];
        private int[] posIds = new int[0];

        private BlockMetaData block;

        /** Column index → position in {@link #chunks}, -1 when not read in this group. */
        private final int[] readerOf;

        /** The read {@code __col_c} cursors in ascending c, then the overflow's values if read. */
        private ColumnCursor[] chunks;

        private int[] chunkColumn = new int[0];

        /** Whether value cursors decode only the probe's rows ({@link ColumnCursor#gather}). */
        private boolean gathering;

        private int[] gatherRows = new int[0];

        private PaimonValues.Value[] chunkValues;

        private int cols;
        private Entries overflow;

        /** Per read value column and window row, the value's ordinal; -1 for NULL. */
        private int[][] colOrdinals;

        private boolean[] nullMap = new boolean[0];

        /** Per key and window row: its value's chunk (-1: absent) and ordinal (-1: NULL). */
        private final int[][] source;

        private final int[][] ordinal;

        MapKeys(String name, ShreddedColumnMeta meta, List<String> keys, DataType valueType) {
            this.name = name;
            this.meta = meta;
            this.keys = keys;
            this.valueType = valueType;
            this.keyBytes = new byte[keys.size()][];
            this.keyStrings = new BinaryString[keys.size()];
            this.ids = new int[keys.size()];
            for (int j = 0; j < keys.size(); j++) {
                keyBytes[j] = keys.get(j).getBytes(StandardCharsets.UTF_8);
                keyStrings[j] = BinaryString.fromBytes(keyBytes[j]);
                ids[j] = meta.idOf(keys.get(j));
            }
            int maxId = -1;
            for (int id : ids) {
                maxId = Math.max(maxId, id);
            }
            // Sized to every id of the file so the overflow loop's bounds check always passes.
            this.keyOfId = new int[Math.max(maxId + 1, meta.keys().size())];
            Arrays.fill(keyOfId, -1);
            for (int j = keys.size() - 1; j >= 0; j--) {
                if (ids[j] >= 0) {
                    keyOfId[ids[j]] = j;
                }
            }
            this.readerOf = new int[meta.numColumns()];
            this.source = new int[keys.size()][0];
            this.ordinal = new int[keys.size()][0];
        }

        String name() {
            return name;
        }

        public DataType valueType() {
            return valueType;
        }

        public int keyCount() {
            return keys.size();
        }

        public byte[] keyBytes(int j) {
            return keyBytes[j];
        }

        /** Position of {@code key} among the requested keys, or -1. */
        public int keyIndex(String key) {
            return keys.indexOf(key);
        }

        public boolean isNullMap(int r) {
            return nullMap[r];
        }

        /** Whether requested key j is in the map of window row r (its value may be NULL). */
        public boolean contains(int j, int r) {
            return source[j][r] >= 0;
        }

        /** Whether key j's value in row r is NULL (or the key absent). */
        public boolean isNullValue(int j, int r) {
            return source[j][r] < 0 || ordinal[j][r] < 0;
        }

        public int getInt(int j, int r) {
            return chunks[source[j][r]].getInt(ordinal[j][r]);
        }

        public long getLong(int j, int r) {
            return chunks[source[j][r]].getLong(ordinal[j][r]);
        }

        public double getDouble(int j, int r) {
            return chunks[source[j][r]].getDouble(ordinal[j][r]);
        }

        public byte[] getBytes(int j, int r) {
            return chunks[source[j][r]].getBytes(ordinal[j][r]);
        }

        /** Key j's value cursor in window row r, or null when absent or NULL. */
        ColumnCursor valueChunk(int j, int r) {
            int s = source[j][r];
            return s < 0 || ordinal[j][r] < 0 ? null : chunks[s];
        }

        int valueOrdinal(int j, int r) {
            return ordinal[j][r];
        }

        @Override
        Type groupType(int group, BlockMetaData block, GroupType fileType) {
            plan = GroupKeyPlan.of(fileType.getType(name).asGroupType(), meta, keys, group, block);
            this.block = block;
            return plan.requested();
        }

        @Override
        void load(PageReadStore pages, MessageType schema) throws IOException {
            GroupType requested = schema.getType(name).asGroupType();
            mapOptional = requested.getRepetition() == Type.Repetition.OPTIONAL;
            mapping = null;
            if (plan.mappingNeeded()) {
                ColumnDescriptor d = fieldMapping(schema, requested, name);
                FieldMappingWindow.checkLevels(d, file, mapOptional);
                int[] probed = probedColumns();
                probe = null;
                if (mapOptional && MappingProbe.canProbe(chunkOf(d), meta.numColumns())) {
                    probe =
                            new MappingProbe(
                                    pages.getPageReader(d),
                                    d,
                                    file,
                                    meta.numColumns(),
                                    probed,
                                    keyOfId);
                    if (probeIndex.length < meta.numColumns()) {
                        probeIndex = new int[meta.numColumns()];
                    }
                    Arrays.fill(probeIndex, -1);
                    for (int i = 0; i < probed.length; i++) {
                        probeIndex[probed[i]] = i;
                    }
                } else {
                    mapping =
                            FieldMappingWindow.open(
                                    pages, d, file, name, meta.numColumns(), mapOptional);
                }
            } else {
                probe = null;
            }
            List<ColumnCursor> read = new ArrayList<>();
            List<PaimonValues.Value> values = new ArrayList<>();
            Arrays.fill(readerOf, -1);
            for (Type t : requested.getFields()) {
                if (t.getName().startsWith(ParquetSchemas.COL_PREFIX)) {
                    int c =
                            Integer.parseInt(
                                    t.getName().substring(ParquetSchemas.COL_PREFIX.length()));
                    readerOf[c] = read.size();
                    read.add(cursor(pages, schema, name, t.getName()));
                    values.add(PaimonValues.of(valueType, t));
                }
            }
            cols = read.size();
            if (chunkColumn.length < cols) {
                chunkColumn = new int[cols];
            }
            for (int c = 0; c < readerOf.length; c++) {
                if (readerOf[c] >= 0) {
                    chunkColumn[readerOf[c]] = c;
                }
            }
            gathering = probe != null;
            for (int i = 0; i < cols && gathering; i++) {
                gathering = probeIndex[chunkColumn[i]] >= 0;
            }
            overflow = openOverflow(pages, schema, requested, name);
            if (overflow != null) {
                read.add(overflow.values);
                values.add(PaimonValues.of(valueType, overflow.valueField));
            }
            chunks = read.toArray(new ColumnCursor[0]);
            chunkValues = values.toArray(new PaimonValues.Value[0]);
            if (colOrdinals == null || colOrdinals.length < cols) {
                colOrdinals = new int[cols][0];
            }
        }

        /** The requested keys present in row r, in request order; null for a NULL map. */
        @Override
        public Object get(int r) {
            if (nullMap[r]) {
                return null;
            }
            int present = 0;
            for (int j = 0; j < keys.size(); j++) {
                present += source[j][r] >= 0 ? 1 : 0;
            }
            Object[] outKeys = new Object[present];
            Object[] outValues = new Object[present];
            int at = 0;
            for (int j = 0; j < keys.size(); j++) {
                int s = source[j][r];
                if (s >= 0) {
                    int o = ordinal[j][r];
                    outKeys[at] = keyStrings[j];
                    outValues[at++] = o < 0 ? null : chunkValues[s].get(chunks[s], o);
                }
            }
            return new ArrayBackedMap(outKeys, outValues);
        }

        /** The columns the group's plan reads for the selected keys, ascending. */
        private int[] probedColumns() {
            java.util.TreeSet<Integer> union = new java.util.TreeSet<>();
            for (int j = 0; j < keys.size(); j++) {
                if (ids[j] >= 0) {
                    for (int c : plan.columnsOf(j)) {
                        union.add(c);
                    }
                }
            }
            return union.stream().mapToInt(Integer::intValue).toArray();
        }

        private ColumnChunkMetaData chunkOf(ColumnDescriptor d) {
            for (ColumnChunkMetaData c : block.getColumns()) {
                if (Arrays.equals(c.getPath().toArray(), d.getPath())) {
                    return c;
                }
            }
            throw corrupt(name, "the row group has no chunk for " + Arrays.toString(d.getPath()))
                    .unchecked();
        }

        @Override
        void window(int from, int n) throws IOException {
            if (mapping != null) {
                mapping.window(from, n);
            }
            if (probe != null) {
                probe.seek(from);
                probe.next(n);
                hitsByPosition();
            }
            for (int i = 0; i < cols; i++) {
                ColumnCursor col = chunks[i];
                int[] ords =
                        colOrdinals[i].length < n ? (colOrdinals[i] = new int[n]) : colOrdinals[i];
                int next = 0;
                if (gathering) {
                    int count = rowsNamingAKey(probeIndex[chunkColumn[i]], n);
                    int passed = col.gather(from, n, gatherRows, count);
                    if (passed > 0) {
                        ShreddedReadMetrics.valuePagesSkipped(passed);
                    }
                    // Only the gathered rows can hold a value.
                    Arrays.fill(ords, 0, n, -1);
                    for (int x = 0; x < count; x++) {
                        int r = gatherRows[x];
                        if (col.hasValue(r)) {
                            ords[r] = next++;
                        }
                    }
                } else {
                    col.seek(from);
                    col.next(n);
                    for (int r = 0; r < n; r++) {
                        ords[r] = col.hasValue(r) ? next++ : -1;
                    }
                }
            }
            if (overflow != null) {
                overflow.window(from, n);
            }
            if (nullMap.length < n) {
                nullMap = new boolean[n];
            }
            Arrays.fill(nullMap, 0, n, false);
            if (mapOptional) {
                ColumnCursor levels =
                        cols > 0 ? chunks[0] : overflow != null ? overflow.keys : null;
                if (mapping != null) {
                    for (int r = 0; r < n; r++) {
                        nullMap[r] = mapping.isNull(r);
                    }
                } else if (probe != null) {
                    for (int r = 0; r < n; r++) {
                        nullMap[r] = probe.firstDef[r] == 0;
                    }
                } else if (levels != null) {
                    for (int r = 0; r < n; r++) {
                        nullMap[r] = levels.def[levels.rowStart[r]] == 0;
                    }
                }
            }
            for (int j = 0; j < keys.size(); j++) {
                if (source[j].length < n) {
                    source[j] = new int[n];
                    ordinal[j] = new int[n];
                }
                Arrays.fill(source[j], 0, n, -1);
                if (ids[j] < 0) {
                    continue;
                }
                int[] jc = plan.columnsOf(j);
                for (int i = 0; i < jc.length; i++) {
                    int ci = readerOf[jc[i]];
                    if (probe != null) {
                        fromProbe(j, probeIndex[jc[i]], ci, colOrdinals[ci]);
                    } else if (mapping != null) {
                        fromMapping(j, jc[i], ci, colOrdinals[ci], n);
                    } else {
                        fromRanges(j, ci, colOrdinals[ci], plan.rangesOf(j, i), from, n);
                    }
                }
            }
            if (overflow != null) {
                fromOverflow(cols, n);
            }
        }

        /** Sorts the probe's hits by probed position (a counting sort: rows stay ascending). */
        private void hitsByPosition() {
            int p = probe.probedCount();
            int h = probe.hits;
            if (posStart.length < p + 1) {
                posStart = new int[p + 1];
                posFill = new int[p];
            }
            Arrays.fill(posStart, 0, p + 1, 0);
            int[] index = probe.hitIndex;
            for (int x = 0; x < h; x++) {
                posStart[index[x] + 1]++;
            }
            for (int i = 0; i < p; i++) {
                posStart[i + 1] += posStart[i];
            }
            if (posRows.length < h) {
                posRows = new int[Math.max(h, posRows.length * 2)];
                posIds = new int[posRows.length];
            }
            System.arraycopy(posStart, 0, posFill, 0, p);
            int[] rows = probe.hitRow;
            int[] hitIds = probe.hitId;
            for (int x = 0; x < h; x++) {
                int at = posFill[index[x]]++;
                posRows[at] = rows[x];
                posIds[at] = hitIds[x];
            }
        }

        /** Copies to {@link #gatherRows} the rows whose probe entry i is a requested key. */
        private int rowsNamingAKey(int i, int n) {
            if (gatherRows.length < n) {
                gatherRows = new int[n];
            }
            int start = posStart[i];
            int count = posStart[i + 1] - start;
            System.arraycopy(posRows, start, gatherRows, 0, count);
            return count;
        }

        @Override
        void finishGroup(int rows) throws IOException {
            for (int i = 0; i < chunks.length; i++) {
                ColumnCursor c = chunks[i];
                if (gathering && i < cols) {
                    long passed = c.skipTo(rows);
                    if (passed > 0) {
                        ShreddedReadMetrics.valuePagesSkipped(passed);
                    }
                }
                if (!c.atEnd()) {
                    throw corrupt(
                            name, "a chunk holds more than the row group's " + rows + " rows");
                }
            }
            if ((mapping != null && !mapping.atEnd())
                    || (probe != null && !probe.atEnd())
                    || (overflow != null && !overflow.keys.atEnd())) {
                throw corrupt(name, "a chunk holds more than the row group's " + rows + " rows");
            }
        }

        /** Key j is in column c of row r where the row's mapping names it there. */
        private void fromMapping(int j, int c, int ci, int[] ords, int n) {
            int[] src = source[j];
            int[] ord = ordinal[j];
            int[] mapped = mapping.ids();
            int k = meta.numColumns();
            int id = ids[j];
            for (int r = 0, at = c; r < n; r++, at += k) {
                if (src[r] < 0 && !nullMap[r] && mapped[at] == id) {
                    src[r] = ci;
                    ord[r] = ords[r];
                }
            }
        }

        /** As {@link #fromMapping}, from the probe (i: c's probe position). */
        private void fromProbe(int j, int i, int ci, int[] ords) {
            int[] src = source[j];
            int[] ord = ordinal[j];
            int id = ids[j];
            for (int x = posStart[i], end = posStart[i + 1]; x < end; x++) {
                int r = posRows[x];
                if (posIds[x] == id && src[r] < 0) {
                    src[r] = ci;
                    ord[r] = ords[r];
                }
            }
        }

        /** Without the mapping: inside key j's row ranges, a column's non-NULL value is key j's. */
        private void fromRanges(int j, int ci, int[] ords, int[] ranges, int from, int n) {
            int[] src = source[j];
            int[] ord = ordinal[j];
            for (int x = 0; x + 1 < ranges.length; x += 2) {
                int start = Math.max(0, ranges[x] - from);
                int end = Math.min(ranges[x + 1] - from, n);
                for (int r = start; r < end; r++) {
                    if (src[r] < 0 && ords[r] >= 0) {
                        src[r] = ci;
                        ord[r] = ords[r];
                    }
                }
            }
        }

        /**
         * Rows where a requested key is in no read column take the row's first overflow entry
         * naming it. The loop has no data-dependent branch (rows with overflow entries come at
         * random); only a requested key's entry branches into {@link #claim}.
         */
        private void fromOverflow(int chunkIndex, int n) {
            ColumnCursor ovfKeys = overflow.keys;
            ColumnCursor ovfValues = overflow.values;
            int entries = ovfKeys.entries;
            int[] keyIds = ovfKeys.ints;
            int[] rep = ovfKeys.rep;
            int[] keyDef = ovfKeys.def;
            int[] valueDef = ovfValues.def;
            int keyMax = ovfKeys.maxDef;
            int valueMax = ovfValues.maxDef;
            int[] lookup = keyOfId;
            int row = -1;
            int keyOrdinal = 0;
            int valueOrdinal = 0;
            for (int e = 0; e < entries; e++) {
                row += rep[e] == 0 ? 1 : 0;
                int keyed = keyDef[e] == keyMax ? 1 : 0;
                int hasValue = valueDef[e] == valueMax ? 1 : 0;
                int id = keyIds[keyOrdinal];
                keyOrdinal += keyed;
                int first = id >= 0 && id < lookup.length ? lookup[id] : -1;
                if ((keyed & (first >>> 31 ^ 1)) != 0) {
                    claim(first, id, row, hasValue != 0 ? valueOrdinal : -1, chunkIndex, n);
                }
                valueOrdinal += hasValue;
            }
        }

        /** Gives row {@code row}'s overflow entry to the requested keys with that id. */
        private void claim(int first, int id, int row, int valueOrdinal, int chunkIndex, int n) {
            if (row < 0 || row >= n) {
                throw corrupt(
                                name,
                                "an overflow entry falls in row " + row + " of a window of " + n)
                        .unchecked();
            }
            for (int j = first; j < ids.length; j++) {
                if (ids[j] == id && plan.overflowOf(j) && source[j][row] < 0) {
                    source[j][row] = chunkIndex;
                    ordinal[j][row] = valueOrdinal;
                }
            }
        }
    }

    /**
     * A whole shredded map (row path without selected keys): per row, the keys its mapping places
     * in the {@code __col_c}, in column order, then its overflow entries. A non-NULL row's mapping
     * has K non-NULL elements; ids outside the key dictionary (-1: unused column) hold no entry.
     */
    final class FullMap extends Field {
        private final String name;
        private final ShreddedColumnMeta meta;
        private final DataType valueType;
        private final BinaryString[] keyStrings;
        private final int k;
        private boolean mapOptional;
        private FieldMappingWindow mapping;

        /** {@code __col_0 .. __col_{K-1}}, then the overflow's values if the file has it. */
        private ColumnCursor[] chunks;

        private PaimonValues.Value[] chunkValues;
        private Entries overflow;
        private int[][] colOrdinals;
        private boolean[] nullMap = new boolean[0];

        /** Per window row r, its entries {@code [entryStart[r], entryStart[r + 1])}. */
        private int[] entryStart = new int[1];

        private int[] entryId = new int[0];
        private int[] entryChunk = new int[0];
        private int[] entryOrdinal = new int[0];

        FullMap(String name, ShreddedColumnMeta meta, DataType valueType) {
            this.name = name;
            this.meta = meta;
            this.valueType = valueType;
            this.k = meta.numColumns();
            List<String> keys = meta.keys();
            this.keyStrings = new BinaryString[keys.size()];
            for (int i = 0; i < keyStrings.length; i++) {
                keyStrings[i] = BinaryString.fromString(keys.get(i));
            }
        }

        @Override
        Type groupType(int group, BlockMetaData block, GroupType fileType) {
            return fileType.getType(name);
        }

        @Override
        void load(PageReadStore pages, MessageType schema) throws IOException {
            GroupType physical = schema.getType(name).asGroupType();
            mapOptional = physical.getRepetition() == Type.Repetition.OPTIONAL;
            mapping =
                    FieldMappingWindow.open(
                            pages,
                            fieldMapping(schema, physical, name),
                            file,
                            name,
                            k,
                            mapOptional);
            ColumnCursor[] read = new ColumnCursor[k + 1];
            PaimonValues.Value[] values = new PaimonValues.Value[k + 1];
            for (Type t : physical.getFields()) {
                String field = t.getName();
                if (field.startsWith(ParquetSchemas.COL_PREFIX)) {
                    int c;
                    try {
                        c = Integer.parseInt(field.substring(ParquetSchemas.COL_PREFIX.length()));
                    } catch (NumberFormatException e) {
                        c = -1;
                    }
                    if (c < 0 || c >= k || read[c] != null) {
                        throw corrupt(
                                name,
                                "its physical field "
                                        + field
                                        + " is not one of __col_0 .. __col_"
                                        + (k - 1)
                                        + " of the footer's "
                                        + k
                                        + " columns");
                    }
                    read[c] = cursor(pages, schema, name, field);
                    values[c] = PaimonValues.of(valueType, t);
                }
            }
            for (int c = 0; c < k; c++) {
                if (read[c] == null) {
                    throw corrupt(
                            name,
                            "its physical column " + ParquetSchemas.colName(c) + " is missing");
                }
            }
            overflow = openOverflow(pages, schema, physical, name);
            if (overflow != null) {
                read[k] = overflow.values;
                values[k] = PaimonValues.of(valueType, overflow.valueField);
                chunks = read;
            } else {
                chunks = Arrays.copyOf(read, k);
            }
            chunkValues = values;
            if (colOrdinals == null) {
                colOrdinals = new int[k][0];
            }
        }

        @Override
        void window(int from, int n) throws IOException {
            mapping.window(from, n);
            for (int c = 0; c < k; c++) {
                ColumnCursor col = chunks[c];
                col.seek(from);
                col.next(n);
                int[] ords =
                        colOrdinals[c].length < n ? (colOrdinals[c] = new int[n]) : colOrdinals[c];
                int next = 0;
                for (int r = 0; r < n; r++) {
                    ords[r] = col.hasValue(r) ? next++ : -1;
                }
            }
            if (overflow != null) {
                overflow.window(from, n);
            }
            ColumnCursor ovfKeys = overflow == null ? null : overflow.keys;
            ColumnCursor ovfValues = overflow == null ? null : overflow.values;
            if (nullMap.length < n) {
                nullMap = new boolean[n];
            }
            if (entryStart.length < n + 1) {
                entryStart = new int[n + 1];
            }
            int capacity = k * n + (ovfKeys == null ? 0 : ovfKeys.entries);
            if (entryId.length < capacity) {
                entryId = new int[capacity];
                entryChunk = new int[capacity];
                entryOrdinal = new int[capacity];
            }
            int[] ids = mapping.ids();
            int entries = 0;
            int ovfEntry = 0;
            int keyOrdinal = 0;
            int valueOrdinal = 0;
            for (int r = 0; r < n; r++) {
                entryStart[r] = entries;
                nullMap[r] = mapping.isNull(r);
                if (!nullMap[r]) {
                    for (int c = 0; c < k; c++) {
                        int id = ids[r * k + c];
                        if (id >= 0 && id < keyStrings.length) {
                            entryId[entries] = id;
                            entryChunk[entries] = c;
                            entryOrdinal[entries++] = colOrdinals[c][r];
                        }
                    }
                }
                if (ovfKeys != null) {
                    int end = ovfKeys.rowStart[r + 1];
                    for (; ovfEntry < end; ovfEntry++) {
                        boolean keyed = ovfKeys.def[ovfEntry] == ovfKeys.maxDef;
                        boolean hasValue = ovfValues.def[ovfEntry] == ovfValues.maxDef;
                        if (keyed) {
                            int id = ovfKeys.ints[keyOrdinal++];
                            if (id >= 0 && id < keyStrings.length && !nullMap[r]) {
                                entryId[entries] = id;
                                entryChunk[entries] = k;
                                entryOrdinal[entries++] = hasValue ? valueOrdinal : -1;
                            }
                        }
                        valueOrdinal += hasValue ? 1 : 0;
                    }
                }
            }
            entryStart[n] = entries;
        }

        @Override
        void finishGroup(int rows) throws IOException {
            for (ColumnCursor c : chunks) {
                if (!c.atEnd()) {
                    throw corrupt(
                            name, "a chunk holds more than the row group's " + rows + " rows");
                }
            }
            if (!mapping.atEnd() || (overflow != null && !overflow.keys.atEnd())) {
                throw corrupt(name, "a chunk holds more than the row group's " + rows + " rows");
            }
        }

        @Override
        public Object get(int r) {
            if (nullMap[r]) {
                return null;
            }
            int start = entryStart[r];
            int size = entryStart[r + 1] - start;
            Object[] outKeys = new Object[size];
            Object[] outValues = new Object[size];
            for (int i = 0; i < size; i++) {
                int e = start + i;
                int chunk = entryChunk[e];
                int o = entryOrdinal[e];
                outKeys[i] = keyStrings[entryId[e]];
                outValues[i] = o < 0 ? null : chunkValues[chunk].get(chunks[chunk], o);
            }
            return new ArrayBackedMap(outKeys, outValues);
        }
    }

    /** A plain-layout map of primitive keys and values (row path), as Paimon reads it. */
    static final class PlainMap extends Field {
        private final ShreddedColumns reader;
        private final String name;
        private final PaimonValues.Value keyValue;
        private final PaimonValues.Value valueValue;
        private final BinaryString[] selected;
        private final byte[][] selectedBytes;
        private boolean mapOptional;
        private Entries entries;
        private ColumnCursor keys;
        private ColumnCursor values;

        /** Per window entry the ordinal of its key (-1: no entry) and of its value (-1: NULL). */
        private int[] keyOrdinal = new int[0];

        private int[] valueOrdinal = new int[0];

        private PlainMap(
                ShreddedColumns reader,
                String name,
                PaimonValues.Value keyValue,
                PaimonValues.Value valueValue,
                List<String> selectedKeys) {
            this.reader = reader;
            this.name = name;
            this.keyValue = keyValue;
            this.valueValue = valueValue;
            if (selectedKeys == null) {
                this.selected = null;
                this.selectedBytes = null;
            } else {
                this.selected = new BinaryString[selectedKeys.size()];
                this.selectedBytes = new byte[selectedKeys.size()][];
                for (int j = 0; j < selected.length; j++) {
                    selectedBytes[j] = selectedKeys.get(j).getBytes(StandardCharsets.UTF_8);
                    selected[j] = BinaryString.fromBytes(selectedBytes[j]);
                }
            }
        }

        /** The reader of a plain map of primitive keys and values, or null for any other shape. */
        static PlainMap of(
                ShreddedColumns reader,
                String name,
                MapType type,
                Type file,
                List<String> selectedKeys) {
            if (file.isPrimitive()
                    || file.getRepetition() == Type.Repetition.REPEATED
                    || file.asGroupType().getFieldCount() != 1) {
                return null;
            }
            Type kv = file.asGroupType().getType(0);
            if (kv.isPrimitive()
                    || kv.getRepetition() != Type.Repetition.REPEATED
                    || kv.asGroupType().getFieldCount() != 2) {
                return null;
            }
            Type key = kv.asGroupType().getType(0);
            PaimonValues.Value keyValue = PaimonValues.of(type.getKeyType(), key);
            PaimonValues.Value valueValue =
                    PaimonValues.of(type.getValueType(), kv.asGroupType().getType(1));
            boolean stringKeys =
                    type.getKeyType().getTypeRoot() == org.apache.paimon.types.DataTypeRoot.VARCHAR
                            || type.getKeyType().getTypeRoot()
                                    == org.apache.paimon.types.DataTypeRoot.CHAR;
            if (keyValue == null
                    || valueValue == null
                    || key.getRepetition() != Type.Repetition.REQUIRED
                    || (selectedKeys != null && !stringKeys)) {
                return null;
            }
            return new PlainMap(reader, name, keyValue, valueValue, selectedKeys);
        }

        @Override
        Type groupType(int group, BlockMetaData block, GroupType fileType) {
            return fileType.getType(name);
        }

        @Override
        void load(PageReadStore pages, MessageType schema) throws IOException {
            GroupType map = schema.getType(name).asGroupType();
            mapOptional = map.getRepetition() == Type.Repetition.OPTIONAL;
            entries =
                    reader.entries(pages, schema, name, "its", map.getType(0).asGroupType(), name);
            keys = entries.keys;
            values = entries.values;
        }

        @Override
        void window(int from, int n) throws IOException {
            entries.window(from, n);
            if (keyOrdinal.length < keys.entries) {
                keyOrdinal = new int[keys.entries];
                valueOrdinal = new int[keys.entries];
            }
            int k = 0;
            int v = 0;
            for (int e = 0; e < keys.entries; e++) {
                keyOrdinal[e] = keys.def[e] == keys.maxDef ? k++ : -1;
                valueOrdinal[e] = values.def[e] == values.maxDef ? v++ : -1;
            }
        }

        @Override
        void finishGroup(int rows) throws IOException {
            if (!keys.atEnd() || !values.atEnd()) {
                throw reader.corrupt(
                        name, "a chunk holds more than the row group's " + rows + " rows");
            }
        }

        @Override
        public Object get(int r) {
            int start = keys.rowStart[r];
            int end = keys.rowStart[r + 1];
            if (mapOptional && keys.def[start] == 0) {
                return null;
            }
            if (selected == null) {
                int size = keyOrdinal[start] < 0 ? 0 : end - start;
                Object[] outKeys = new Object[size];
                Object[] outValues = new Object[size];
                for (int i = 0; i < size; i++) {
                    outKeys[i] = keyValue.get(keys, keyOrdinal[start + i]);
                    int o = valueOrdinal[start + i];
                    outValues[i] = o < 0 ? null : valueValue.get(values, o);
                }
                return new ArrayBackedMap(outKeys, outValues);
            }
            List<Object> outKeys = new ArrayList<>(selected.length);
            List<Object> outValues = new ArrayList<>(selected.length);
            for (int j = 0; j < selected.length; j++) {
                for (int e = start; e < end; e++) {
                    if (keyOrdinal[e] >= 0
                            && Arrays.equals(keys.getBytes(keyOrdinal[e]), selectedBytes[j])) {
                        outKeys.add(selected[j]);
                        int o = valueOrdinal[e];
                        outValues.add(o < 0 ? null : valueValue.get(values, o));
                        break;
                    }
                }
            }
            return new ArrayBackedMap(outKeys.toArray(), outValues.toArray());
        }
    }
}
