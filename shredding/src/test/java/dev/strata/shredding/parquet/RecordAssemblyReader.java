package dev.strata.shredding.parquet;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.layout.KeyZones;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.pushdown.MapPruner;
import dev.strata.shredding.read.ShreddedParquetReader;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;
import java.util.Set;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Test oracle: the rows of a shredded data file as parquet-mr's record assembly reads them ({@link
 * RowConverters}, {@link ShreddedConverter}), a decoder independent of the columnar reader ({@code
 * ShreddedColumns}). Fields resolve by name, falling back to {@code _KEY_<name>}; a pruning
 * predicate skips files, row groups and pages the page index rules out (no per-row filter).
 */
final class RecordAssemblyReader implements Closeable {

    private final String file;
    private final ParquetFileReader reader;
    private final InputFile input;
    private final MessageType requested;
    private final MessageColumnIO columnIO;
    private final RowConverters.Materializer materializer;
    private final List<BlockMetaData> blocks;
    private final MapPruner pruner;
    private final FilterPredicate pageFilter;
    private final Set<ColumnPath> paths = new HashSet<>();
    private final RoaringBitmap32 selection;
    private final Map<String, ShreddedColumnMeta> metas;
    private int nextBlock;
    private RecordReader<InternalRow> records;
    private long rowsLeftInGroup;
    private PrimitiveIterator.OfLong positions;
    private long position = -1;
    private long groupStart;
    private long groupRow;
    private boolean skipFile;

    RecordAssemblyReader(
            InputFile input,
            String file,
            RowType readType,
            Map<String, List<String>> selectedKeys,
            MapPredicate pruningPredicate,
            RoaringBitmap32 selection)
            throws IOException {
        this.file = file;
        this.input = input;
        this.selection = selection;
        this.metas = new HashMap<>();
        ShreddedFooters.Opened opened = ShreddedFooters.open(input, file, true);
        this.reader = opened.reader;
        boolean ok = false;
        try {
            MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
            this.blocks = reader.getRowGroups();
            for (Type t : fileSchema.getFields()) {
                if (ParquetSchemas.looksShredded(t)) {
                    ShreddedColumnMeta meta = opened.metas.get(t.getName());
                    if (meta == null) {
                        throw new IllegalStateException(
                                "Cannot read shredded column '"
                                        + t.getName()
                                        + "' of file "
                                        + file
                                        + ": footer metadata "
                                        + ShreddingFooter.footerKey(t.getName())
                                        + " is missing. The file is corrupt or was not written by Strata.");
                    }
                    checkZones(meta, t.getName());
                    metas.put(t.getName(), meta);
                }
            }
            Types.MessageTypeBuilder req = Types.buildMessage();
            List<RowConverters.FieldPlan> plans = new ArrayList<>();
            long subColumns = 0;
            for (int i = 0; i < readType.getFieldCount(); i++) {
                DataField f = readType.getFields().get(i);
                String name =
                        fileSchema.containsField(f.name())
                                ? f.name()
                                : fileSchema.containsField("_KEY_" + f.name())
                                        ? "_KEY_" + f.name()
                                        : null;
                if (name == null) {
                    continue;
                }
                Type t = fileSchema.getType(name);
                ShreddedColumnMeta meta = metas.get(name);
                List<String> keys = selectedKeys == null ? null : selectedKeys.get(f.name());
                if (meta != null) {
                    if (!(f.type() instanceof MapType)) {
                        throw new IllegalStateException(
                                "Cannot read column '"
                                        + f.name()
                                        + "' of file "
                                        + file
                                        + " as "
                                        + f.type()
                                        + ": the file stores it as a shredded MAP.");
                    }
                    GroupType physical =
                            keys == null
                                    ? t.asGroupType()
                                    : ShreddedParquetReader.selectedPhysical(
                                            t.asGroupType(), meta, keys);
                    req.addField(physical);
                    subColumns += ParquetSchemas.leafCount(physical);
                } else {
                    req.addField(t);
                }
                plans.add(new RowConverters.FieldPlan(i, name, f.type(), meta, keys));
            }
            this.requested = req.named(fileSchema.getName());
            this.columnIO = new ColumnIOFactory().getColumnIO(requested, fileSchema);
            this.materializer =
                    new RowConverters.Materializer(
                            requested, plans, readType.getFieldCount(), file);
            reader.setRequestedSchema(requested);
            if (pruningPredicate != null) {
                this.pruner = new MapPruner(pruningPredicate, metas, fileSchema);
                this.pageFilter = pruner.pageFilter();
                for (org.apache.parquet.column.ColumnDescriptor d : fileSchema.getColumns()) {
                    paths.add(ColumnPath.get(d.getPath()));
                }
            } else {
                this.pruner = null;
                this.pageFilter = null;
            }
            if (pruner != null && pruner.fileCannotMatch()) {
                skipFile = true;
                ShreddedReadMetrics.fileSkipped();
            } else {
                ShreddedReadMetrics.fileRead(blocks.size(), subColumns);
            }
            ok = true;
        } finally {
            if (!ok) {
                reader.close();
            }
        }
    }

    private void checkZones(ShreddedColumnMeta meta, String column) {
        if (!meta.zonesRecorded()) {
            return;
        }
        List<KeyZones> zones = meta.zones();
        List<BlockMetaData> bs = reader.getRowGroups();
        boolean match = zones.size() == bs.size();
        for (int i = 0; match && i < zones.size(); i++) {
            match = zones.get(i).rowCount() == bs.get(i).getRowCount();
        }
        if (!match) {
            throw new IllegalStateException(
                    "Cannot read shredded column '"
                            + column
                            + "' of file "
                            + file
                            + ": the footer metadata describes "
                            + zones.size()
                            + " row groups but the file has "
                            + bs.size()
                            + " (or their row counts differ). The file is corrupt.");
        }
    }

    /** The metadata of the file's shredded columns, by file column name. */
    public Map<String, ShreddedColumnMeta> shreddedColumns() {
        return metas;
    }

    /** The next row, or null at the end; its absolute position is then {@link #position()}. */
    public InternalRow next() throws IOException {
        if (skipFile) {
            return null;
        }
        while (true) {
            while (rowsLeftInGroup == 0) {
                if (!advanceGroup()) {
                    return null;
                }
            }
            InternalRow row = records.read();
            rowsLeftInGroup--;
            position =
                    positions != null ? positions.nextLong() + groupStart : groupStart + groupRow;
            groupRow++;
            if (selection != null && !selection.contains((int) position)) {
                continue;
            }
            return row;
        }
    }

    public long position() {
        return position;
    }

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
                boolean parquetAlone = pruner.rowGroupCannotMatch(block, g, false);
                ShreddedReadMetrics.rowGroupSkipped(!parquetAlone);
                continue;
            }
            PageReadStore pages;
            positions = null;
            if (pageFilter != null && hasColumnIndexes(block)) {
                RowRanges ranges =
                        ColumnIndexFilter.calculateRowRanges(
                                FilterCompat.get(pageFilter),
                                reader.getColumnIndexStore(g),
                                paths,
                                block.getRowCount());
                if (ranges.rowCount() == 0) {
                    ShreddedReadMetrics.rowGroupSkipped(false);
                    ShreddedReadMetrics.rowsSkippedByPageIndex(block.getRowCount());
                    continue;
                }
                if (ranges.rowCount() < block.getRowCount()) {
                    ShreddedReadMetrics.rowsSkippedByPageIndex(
                            block.getRowCount() - ranges.rowCount());
                    pages = readRowGroup(g, ranges);
                    positions = ranges.iterator();
                } else {
                    pages = readRowGroup(g, null);
                }
            } else {
                pages = readRowGroup(g, null);
            }
            records = columnIO.getRecordReader(pages, materializer, FilterCompat.NOOP);
            rowsLeftInGroup = pages.getRowCount();
            groupStart = start;
            groupRow = 0;
            return true;
        }
        return false;
    }

    /**
     * Reads row group g (only {@code ranges} when set); a page that fails its checksum is named in
     * the error.
     */
    private PageReadStore readRowGroup(int g, RowRanges ranges) throws IOException {
        try {
            return ranges == null ? reader.readRowGroup(g) : reader.readFilteredRowGroup(g, ranges);
        } catch (ParquetDecodingException e) {
            throw PageChecksums.diagnose(input, file, reader.getFooter(), g, e);
        }
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

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
