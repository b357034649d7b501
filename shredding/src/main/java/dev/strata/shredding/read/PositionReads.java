package dev.strata.shredding.read;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import dev.strata.shredding.cache.BoundedCache;
import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.parquet.PageChecksums;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedFooters;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.RowType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * A few rows of flat Parquet columns read by position, each value from the one page holding it (the
 * offset index says which): the page's stored bytes are read and their checksum verified, then
 * decompressed only up to the row (zstd decodes a stream), the values before it passed undecoded. A
 * row of a text column costs a fraction of its ~1 MB page, where a reader of row ranges inflates
 * and decodes the page whole. Columns of other shapes (nested, repeated, BOOLEAN, codecs other than
 * zstd or none, encodings other than PLAIN and dictionary, no offset index) are left to a general
 * reader: {@link #read} then returns null. {@link #matching} finds the positions of the rows
 * holding given key values the same way, reading only the pages whose column-index bounds can hold
 * one.
 */
public final class PositionReads {

    /** Parsed offset indexes by file, length, row group and column; data files never change. */
    private static final BoundedCache<String, OffsetIndex> OFFSET_INDEXES = BoundedCache.of(1024);

    /** Parsed column indexes (page bounds), keyed likewise. */
    private static final BoundedCache<String, ColumnIndex> COLUMN_INDEXES = BoundedCache.of(1024);

    private static final Set<Encoding> DECODED =
            EnumSet.of(
                    Encoding.PLAIN,
                    Encoding.RLE,
                    Encoding.BIT_PACKED,
                    Encoding.PLAIN_DICTIONARY,
                    Encoding.RLE_DICTIONARY);

    private PositionReads() {}

    /**
     * The rows of {@code readType}'s columns (top-level columns of the file, by name) at {@code
     * positions} (distinct, within the file) of the Parquet file {@code path}, by position; null
     * when a column is not one this reader decodes. Pages whose checksum differs, and pages that
     * end before a value, are a {@link DamagedFileException} naming the file.
     */
    public static Map<Long, InternalRow> read(
            FileIO fileIO,
            Path path,
            long length,
            RowType readType,
            long[] positions,
            boolean verifyPages)
            throws IOException {
        InputFile input = PaimonFiles.inputFile(fileIO, path, length);
        String file = path.toString();
        long[] sorted = positions.clone();
        Arrays.sort(sorted);
        Map<Long, Object[]> values = new HashMap<>();
        for (long p : sorted) {
            values.put(p, new Object[readType.getFieldCount()]);
        }
        ShreddedFooters.Opened opened = ShreddedFooters.open(input, file, false);
        try (ParquetFileReader reader = opened.reader;
                SeekableInputStream in = input.newStream()) {
            List<BlockMetaData> blocks = reader.getFooter().getBlocks();
            List<Column> columns = columns(reader, readType);
            if (columns == null) {
                return null;
            }
            long[] groupStarts = new long[blocks.size() + 1];
            for (int g = 0; g < blocks.size(); g++) {
                BlockMetaData b = blocks.get(g);
                groupStarts[g + 1] =
                        (b.getRowIndexOffset() >= 0 ? b.getRowIndexOffset() : groupStarts[g])
                                + b.getRowCount();
                groupStarts[g] = groupStarts[g + 1] - b.getRowCount();
            }
            for (Column c : columns) {
                ColumnReads reads = new ColumnReads(input, file, in, reader, c, verifyPages);
                try {
                    for (long p : sorted) {
                        int g = group(groupStarts, p, file);
                        values.get(p)[c.field] = reads.value(g, blocks.get(g), p - groupStarts[g]);
                    }
                } finally {
                    reads.close();
                }
            }
        } catch (Unsupported e) {
            return null;
        }
        Map<Long, InternalRow> rows = new HashMap<>();
        values.forEach((p, v) -> rows.put(p, GenericRow.of(v)));
        return rows;
    }

    /**
     * The rows (deleted ones included) of the Parquet file {@code path} whose column {@code column}
     * (one top-level INT, BIGINT, DATE or STRING column of the file, by name) holds one of {@code
     * values} (Paimon's objects of its type): their positions, ascending, each with the matched
     * object of {@code values}. Only the pages whose column-index bounds can hold a value are read.
     * Null when there are more than {@code max}, or the column or file is not one this reader
     * decodes.
     */
    public static Map<Long, Object> matching(
            FileIO fileIO,
            Path path,
            long length,
            RowType column,
            Set<Object> values,
            int max,
            boolean verifyPages)
            throws IOException {
        InputFile input = PaimonFiles.inputFile(fileIO, path, length);
        String file = path.toString();
        Map<Long, Object> found = new java.util.TreeMap<>();
        ShreddedFooters.Opened opened = ShreddedFooters.open(input, file, false);
        try (ParquetFileReader reader = opened.reader;
                SeekableInputStream in = input.newStream()) {
            List<Column> columns = columns(reader, column);
            if (columns == null) {
                return null;
            }
            Targets targets = Targets.of(columns.get(0).type, values);
            if (targets == null) {
                return null;
            }
            List<BlockMetaData> blocks = reader.getFooter().getBlocks();
            long groupStart = 0;
            ColumnReads reads =
                    new ColumnReads(input, file, in, reader, columns.get(0), verifyPages);
            try {
                for (int g = 0; g < blocks.size(); g++) {
                    BlockMetaData block = blocks.get(g);
                    if (block.getRowIndexOffset() >= 0) {
                        groupStart = block.getRowIndexOffset();
                    }
                    if (!reads.match(g, block, groupStart, targets, found, max)) {
                        return null;
                    }
                    groupStart += block.getRowCount();
                }
            } finally {
                reads.close();
            }
        } catch (Unsupported e) {
            return null;
        }
        return found;
    }

    /**
     * The read columns of {@code readType}, top-level flat columns of the file that this reader
     * decodes in every row group; null if one is not.
     */
    private static List<Column> columns(ParquetFileReader reader, RowType readType) {
        List<BlockMetaData> blocks = reader.getFooter().getBlocks();
        MessageType schema = reader.getFooter().getFileMetaData().getSchema();
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < readType.getFieldCount(); i++) {
            String name = readType.getFields().get(i).name();
            if (!schema.containsField(name)) {
                return null;
            }
            Type t = schema.getType(name);
            PaimonValues.Value value = PaimonValues.of(readType.getTypeAt(i), t);
            if (value == null
                    || !t.isPrimitive()
                    || t.isRepetition(Type.Repetition.REPEATED)
                    || t.asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BOOLEAN) {
                return null;
            }
            int chunk = leafIndex(schema, name);
            for (BlockMetaData b : blocks) {
                ColumnChunkMetaData c = b.getColumns().get(chunk);
                if (c.getOffsetIndexReference() == null
                        || !DECODED.containsAll(c.getEncodings())
                        || (c.getCodec() != CompressionCodecName.ZSTD
                                && c.getCodec() != CompressionCodecName.UNCOMPRESSED)) {
                    return null;
                }
            }
            columns.add(new Column(i, name, chunk, t.asPrimitiveType(), value));
        }
        return columns;
    }

    /**
     * The column chunk index of top-level primitive column {@code name}: row groups hold one chunk
     * per leaf, so a MAP, ARRAY or ROW column before it takes as many indexes as it has leaves.
     */
    private static int leafIndex(MessageType schema, String name) {
        List<ColumnDescriptor> leaves = schema.getColumns();
        for (int i = 0; i < leaves.size(); i++) {
            String[] path = leaves.get(i).getPath();
            if (path.length == 1 && path[0].equals(name)) {
                return i;
            }
        }
        throw new Unsupported();
    }

    /**
     * Looked-up values as the column's Parquet values: INT32 and INT64 as longs, BINARY as bytes
     * (ordered as unsigned bytes, as Parquet orders strings), with the caller's objects.
     */
    private static final class Targets {
        final long[] longs;
        final byte[][] bytes;
        final Object[] objects;

        private Targets(long[] longs, byte[][] bytes, Object[] objects) {
            this.longs = longs;
            this.bytes = bytes;
            this.objects = objects;
        }

        /** Null when the column's type is not an integer or a string. */
        static Targets of(PrimitiveType type, Set<Object> values) {
            Object[] objects = values.toArray();
            switch (type.getPrimitiveTypeName()) {
                case INT32:
                case INT64:
                    if (type.getLogicalTypeAnnotation() != null
                            && !(type.getLogicalTypeAnnotation()
                                    instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation)
                            && !(type.getLogicalTypeAnnotation()
                                    instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation)) {
                        return null;
                    }
                    for (Object o : objects) {
                        if (!(o instanceof Integer) && !(o instanceof Long)) {
                            return null;
                        }
                    }
                    // Ascending, so that each value of a page is looked up by binary search.
                    Arrays.sort(
                            objects,
                            (a, b) ->
                                    Long.compare(
                                            ((Number) a).longValue(), ((Number) b).longValue()));
                    long[] longs = new long[objects.length];
                    for (int i = 0; i < objects.length; i++) {
                        longs[i] = ((Number) objects[i]).longValue();
                    }
                    return new Targets(longs, null, objects);
                case BINARY:
                    if (!(type.getLogicalTypeAnnotation()
                            instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation)) {
                        return null;
                    }
                    byte[][] bytes = new byte[objects.length][];
                    for (int i = 0; i < objects.length; i++) {
                        if (!(objects[i] instanceof BinaryString)) {
                            return null;
                        }
                        bytes[i] = ((BinaryString) objects[i]).toBytes();
                    }
                    return new Targets(null, bytes, objects);
                default:
                    return null;
            }
        }

        /** The index of {@code v} among the integer targets, or -1. */
        int indexOf(long v) {
            if (longs.length == 0 || v < longs[0] || v > longs[longs.length - 1]) {
                return -1;
            }
            int i = Arrays.binarySearch(longs, v);
            return i < 0 ? -1 : i;
        }

        /** Whether a value may lie within the page bounds {@code min} to {@code max}. */
        boolean within(ByteBuffer min, ByteBuffer max, boolean int32) {
            if (longs != null) {
                long lo = integer(min, int32);
                long hi = integer(max, int32);
                for (long v : longs) {
                    if (v >= lo && v <= hi) {
                        return true;
                    }
                }
                return false;
            }
            byte[] lo = bytesOf(min);
            byte[] hi = bytesOf(max);
            for (byte[] v : bytes) {
                if (Arrays.compareUnsigned(v, lo) >= 0 && Arrays.compareUnsigned(v, hi) <= 0) {
                    return true;
                }
            }
            return false;
        }

        /** A PLAIN-encoded INT32 or INT64 bound, read without changing the index's buffer. */
        private static long integer(ByteBuffer b, boolean int32) {
            ByteBuffer le = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            return int32 ? le.getInt(le.position()) : le.getLong(le.position());
        }

        private static byte[] bytesOf(ByteBuffer b) {
            byte[] out = new byte[b.remaining()];
            b.duplicate().get(out);
            return out;
        }

        /** The caller's object equal to the value in {@code reads}' slot, or null. */
        Object match(ColumnReads reads, boolean int32) {
            if (longs != null) {
                int i = indexOf(int32 ? reads.getInt(0) : reads.getLong(0));
                return i < 0 ? null : objects[i];
            }
            byte[] v = reads.getBytes(0);
            for (int i = 0; i < bytes.length; i++) {
                if (Arrays.equals(bytes[i], v)) {
                    return objects[i];
                }
            }
            return null;
        }
    }

    /** Names page {@code p} (-1: the dictionary page) of row group {@code g} in errors. */
    private static String where(int g, int p) {
        return (p < 0 ? "the dictionary page" : "page " + p) + " of row group " + g;
    }

    private static int group(long[] groupStarts, long position, String file)
            throws DamagedFileException {
        for (int g = 0; g + 1 < groupStarts.length; g++) {
            if (position >= groupStarts[g] && position < groupStarts[g + 1]) {
                return g;
            }
        }
        throw new DamagedFileException(
                file,
                "row "
                        + position
                        + " is in no row group (the file has "
                        + groupStarts[groupStarts.length - 1]
                        + " rows)",
                null);
    }

    /** A read column: its field in the read type, its chunk index and Parquet type. */
    private record Column(
            int field, String name, int chunk, PrimitiveType type, PaimonValues.Value value) {}

    /** A page this reader does not decode: the whole read goes to a general reader. */
    private static final class Unsupported extends RuntimeException {
        Unsupported() {
            super(null, null, false, false);
        }
    }

    /** The reads of one column: the page last opened stays open for the next position. */
    private static final class ColumnReads implements PaimonValues.Decoded {
        private final InputFile input;
        private final String file;
        private final SeekableInputStream in;
        private final ParquetFileReader reader;
        private final Column column;
        private final boolean verify;
        private final CRC32 crc = new CRC32();
        private final int maxDef;
        private final PrimitiveTypeName physical;
        private final int width;

        private int openGroup = -1;
        private CompressionCodecName codec;
        private OffsetIndex index;
        private Dictionary dictionary;
        private int openPage = -1;
        private Page page;

        // The decoded value (PaimonValues.Decoded, one slot).
        private int intValue;
        private long longValue;
        private double doubleValue;
        private byte[] bytesValue;

        ColumnReads(
                InputFile input,
                String file,
                SeekableInputStream in,
                ParquetFileReader reader,
                Column column,
                boolean verify) {
            this.input = input;
            this.file = file;
            this.in = in;
            this.reader = reader;
            this.column = column;
            this.verify = verify;
            this.maxDef = column.type.isRepetition(Type.Repetition.OPTIONAL) ? 1 : 0;
            this.physical = column.type.getPrimitiveTypeName();
            this.width =
                    switch (physical) {
                        case INT32, FLOAT -> 4;
                        case INT64, DOUBLE -> 8;
                        case INT96 -> 12;
                        case FIXED_LEN_BYTE_ARRAY -> column.type.getTypeLength();
                        default -> -1; // BINARY: length-prefixed
                    };
        }

        /** The value at row {@code row} of group {@code g}, as Paimon's object, or null. */
        Object value(int g, BlockMetaData block, long row) throws IOException {
            ColumnChunkMetaData chunk = block.getColumns().get(column.chunk);
            if (g != openGroup) {
                openGroup(g, chunk);
            }
            int p = pageOf(row, block.getRowCount());
            if (p != openPage || row < page.firstRow + page.entry) {
                close();
                openPage = p;
                page = openPage(g, chunk, p);
            }
            return page.value(Math.toIntExact(row - page.firstRow)) ? convert() : null;
        }

        /**
         * Adds to {@code found} the group's rows (from file position {@code groupStart}) holding a
         * target, reading the pages whose column-index bounds can hold one; false past {@code max}.
         */
        boolean match(
                int g,
                BlockMetaData block,
                long groupStart,
                Targets targets,
                Map<Long, Object> found,
                int max)
                throws IOException {
            ColumnChunkMetaData chunk = block.getColumns().get(column.chunk);
            if (chunk.getValueCount() == 0) {
                return true;
            }
            openGroup(g, chunk);
            ColumnIndex bounds = columnIndex(g, chunk);
            // Each call copies the column index's lists.
            List<Boolean> nullPages = bounds.getNullPages();
            List<ByteBuffer> mins = bounds.getMinValues();
            List<ByteBuffer> maxs = bounds.getMaxValues();
            boolean int32 = physical == PrimitiveTypeName.INT32;
            for (int p = 0; p < index.getPageCount(); p++) {
                if (nullPages.get(p) || !targets.within(mins.get(p), maxs.get(p), int32)) {
                    continue;
                }
                close();
                openPage = p;
                page = openPage(g, chunk, p);
                page.data.ensure(page.data.size, this, g, p); // every value is read
                if (page.plainIntegers() && targets.longs != null) {
                    // A key column (NOT NULL, PLAIN): its values compared in place.
                    ByteBuffer b = page.data.buffer;
                    int at = page.valuePos;
                    if (ascending(b, at, page.entries, int32)) {
                        // A sorted run's leading key column: each target found by binary search
                        // instead of each value looked up among the targets.
                        if (!matchAscending(b, at, page, groupStart, targets, found, max, int32)) {
                            return false;
                        }
                        continue;
                    }
                    for (int e = 0; e < page.entries; e++) {
                        int i = targets.indexOf(integerAt(b, at, e, int32));
                        if (i >= 0) {
                            if (found.size() == max) {
                                return false;
                            }
                            found.put(groupStart + page.firstRow + e, targets.objects[i]);
                        }
                    }
                    continue;
                }
                for (int e = 0; e < page.entries; e++) {
                    if (page.value(e)) {
                        Object hit = targets.match(this, int32);
                        if (hit != null) {
                            if (found.size() == max) {
                                return false;
                            }
                            found.put(groupStart + page.firstRow + e, hit);
                        }
                    }
                }
            }
            return true;
        }

        /** Whether the page's {@code n} integers from {@code at} are in ascending order. */
        private static boolean ascending(ByteBuffer b, int at, int n, boolean int32) {
            for (int e = 1; e < n; e++) {
                if (integerAt(b, at, e, int32) < integerAt(b, at, e - 1, int32)) {
                    return false;
                }
            }
            return true;
        }

        /**
         * {@link #match}'s adding of an ascending page's rows holding a target (in row order, as
         * the targets are sorted); false past {@code max}.
         */
        private static boolean matchAscending(
                ByteBuffer b,
                int at,
                Page page,
                long groupStart,
                Targets targets,
                Map<Long, Object> found,
                int max,
                boolean int32) {
            int n = page.entries;
            for (int t = 0; t < targets.longs.length; t++) {
                long v = targets.longs[t];
                int lo = 0;
                int hi = n;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (integerAt(b, at, mid, int32) < v) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                for (int e = lo; e < n && integerAt(b, at, e, int32) == v; e++) {
                    if (found.size() == max) {
                        return false;
                    }
                    found.put(groupStart + page.firstRow + e, targets.objects[t]);
                }
            }
            return true;
        }

        private static long integerAt(ByteBuffer b, int at, int e, boolean int32) {
            return int32 ? b.getInt(at + 4 * e) : b.getLong(at + 8 * e);
        }

        private ColumnIndex columnIndex(int g, ColumnChunkMetaData chunk) throws IOException {
            String key = file + "|" + input.getLength() + "|" + g + "|" + column.chunk;
            ColumnIndex cached = COLUMN_INDEXES.get(key);
            if (cached == null) {
                cached = reader.readColumnIndex(chunk);
                if (cached == null || cached.getNullPages().size() != index.getPageCount()) {
                    throw new Unsupported();
                }
                COLUMN_INDEXES.put(key, cached);
            }
            return cached;
        }

        /** Makes row group {@code g} the current one, no page open. */
        private void openGroup(int g, ColumnChunkMetaData chunk) throws IOException {
            close();
            openGroup = g;
            codec = chunk.getCodec();
            index = offsetIndex(g, chunk);
            dictionary = null;
            openPage = -1;
        }

        /** Releases the open page's decompressor. */
        void close() {
            if (page != null) {
                page.data.close();
                page = null;
            }
        }

        private Object convert() {
            return column.value.get(this, 0);
        }

        private OffsetIndex offsetIndex(int g, ColumnChunkMetaData chunk) throws IOException {
            String key = file + "|" + input.getLength() + "|" + g + "|" + column.chunk;
            OffsetIndex cached = OFFSET_INDEXES.get(key);
            if (cached == null) {
                cached = reader.readOffsetIndex(chunk);
                if (cached == null) {
                    throw new Unsupported();
                }
                OFFSET_INDEXES.put(key, cached);
            }
            return cached;
        }

        private int pageOf(long row, long groupRows) throws DamagedFileException {
            int lo = 0;
            int hi = index.getPageCount() - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (index.getFirstRowIndex(mid) <= row) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            if (index.getPageCount() == 0
                    || index.getFirstRowIndex(lo) > row
                    || index.getLastRowIndex(lo, groupRows) < row) {
                throw damaged("no page of the offset index holds group row " + row, null);
            }
            return lo;
        }

        private Page openPage(int g, ColumnChunkMetaData chunk, int p) throws IOException {
            byte[] stored = readFully(index.getOffset(p), index.getCompressedPageSize(p));
            ByteArrayInputStream bytes = new ByteArrayInputStream(stored);
            PageHeader header = header(bytes, g, p);
            int at = stored.length - bytes.available();
            if (header.getCompressed_page_size() != bytes.available()) {
                // A writer whose offset index counts pages otherwise: Paimon's reader reads it.
                throw new Unsupported();
            }
            verify(header, stored, at, g);
            if (header.getType() == PageType.DATA_PAGE) {
                DataPageHeader h = header.getData_page_header();
                if (maxDef > 0
                        && h.getDefinition_level_encoding()
                                != org.apache.parquet.format.Encoding.RLE) {
                    throw new Unsupported();
                }
                Inflated data =
                        inflate(stored, at, stored.length - at, header.getUncompressed_page_size());
                int levelsEnd = 0;
                HybridInts def = null;
                if (maxDef > 0) {
                    data.ensure(4, this, g, p);
                    int len = data.buffer.getInt(0);
                    levelsEnd = 4 + len;
                    data.ensure(levelsEnd, this, g, p);
                    def = new HybridInts(data.buffer, 4, levelsEnd, 1);
                }
                return new Page(
                        index.getFirstRowIndex(p),
                        h.getNum_values(),
                        def,
                        data,
                        levelsEnd,
                        encoding(h.getEncoding(), g, chunk),
                        g,
                        p);
            }
            if (header.getType() == PageType.DATA_PAGE_V2) {
                DataPageHeaderV2 h = header.getData_page_header_v2();
                int levels =
                        h.getRepetition_levels_byte_length() + h.getDefinition_levels_byte_length();
                if (h.getRepetition_levels_byte_length() != 0 || levels > stored.length - at) {
                    throw damaged(where(g, p) + " has bad level lengths", null);
                }
                HybridInts def =
                        maxDef == 0
                                ? null
                                : new HybridInts(
                                        ByteBuffer.wrap(stored).order(ByteOrder.LITTLE_ENDIAN),
                                        at,
                                        at + levels,
                                        1);
                int valueBytes = header.getUncompressed_page_size() - levels;
                Inflated data =
                        h.isSetIs_compressed() && !h.isIs_compressed()
                                ? inflate(stored, at + levels, stored.length - at - levels, -1)
                                : inflate(
                                        stored,
                                        at + levels,
                                        stored.length - at - levels,
                                        valueBytes);
                return new Page(
                        index.getFirstRowIndex(p),
                        h.getNum_values(),
                        def,
                        data,
                        0,
                        encoding(h.getEncoding(), g, chunk),
                        g,
                        p);
            }
            throw damaged(where(g, p) + " is a " + header.getType(), null);
        }

        /** Null for PLAIN values; the chunk's dictionary for dictionary-encoded ones. */
        private Dictionary encoding(
                org.apache.parquet.format.Encoding encoding, int g, ColumnChunkMetaData chunk)
                throws IOException {
            switch (encoding) {
                case PLAIN:
                    return null;
                case PLAIN_DICTIONARY:
                case RLE_DICTIONARY:
                    if (dictionary == null) {
                        dictionary = readDictionary(g, chunk);
                    }
                    return dictionary;
                default:
                    throw new Unsupported();
            }
        }

        private Dictionary readDictionary(int g, ColumnChunkMetaData chunk) throws IOException {
            // Writers that leave the dictionary's offset unset put it first in the chunk.
            long start =
                    chunk.getDictionaryPageOffset() > 0
                            ? chunk.getDictionaryPageOffset()
                            : chunk.getFirstDataPageOffset();
            long end = index.getOffset(0);
            if (!chunk.hasDictionaryPage() || start <= 0 || start >= end) {
                throw new Unsupported(); // Paimon's reader reports what is wrong
            }
            byte[] stored = readFully(start, Math.toIntExact(end - start));
            ByteArrayInputStream bytes = new ByteArrayInputStream(stored);
            PageHeader header = header(bytes, g, -1);
            int at = stored.length - bytes.available();
            if (header.getType() != PageType.DICTIONARY_PAGE
                    || header.getCompressed_page_size() > bytes.available()) {
                throw damaged("row group " + g + " has no readable dictionary page", null);
            }
            verify(header, stored, at, g);
            Inflated data =
                    inflate(
                            stored,
                            at,
                            header.getCompressed_page_size(),
                            header.getUncompressed_page_size());
            data.ensure(header.getUncompressed_page_size(), this, g, -1);
            int count = header.getDictionary_page_header().getNum_values();
            int[] offsets = new int[count + 1];
            int pos = 0;
            for (int i = 0; i < count; i++) {
                offsets[i] = pos;
                pos += width > 0 ? width : 4 + binaryLength(data, pos, g, -1);
            }
            offsets[count] = pos;
            if (pos > data.filled) {
                throw damaged(where(g, -1) + " ends early", null);
            }
            return new Dictionary(data, offsets);
        }

        private byte[] readFully(long offset, int length) throws IOException {
            byte[] b = new byte[length];
            in.seek(offset);
            in.readFully(b);
            return b;
        }

        private PageHeader header(ByteArrayInputStream bytes, int g, int p)
                throws DamagedFileException {
            try {
                return Util.readPageHeader(bytes);
            } catch (IOException | RuntimeException e) {
                throw damaged(where(g, p) + " has an unreadable header", e);
            }
        }

        private void verify(PageHeader header, byte[] stored, int at, int g)
                throws DamagedFileException {
            if (verify) {
                PageChecksums.verifyPage(file, column.name, g, header, stored, at, crc, null);
            }
        }

        private Inflated inflate(byte[] stored, int at, int length, int uncompressed)
                throws IOException {
            if (uncompressed < 0 || codec == CompressionCodecName.UNCOMPRESSED) {
                return new Inflated(Arrays.copyOfRange(stored, at, at + length), null);
            }
            return new Inflated(
                    new byte[uncompressed],
                    new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(stored, at, length)));
        }

        int binaryLength(Inflated data, int pos, int g, int p) throws IOException {
            data.ensure(pos + 4, this, g, p);
            int length = data.buffer.getInt(pos);
            if (length < 0 || length > data.size - pos - 4) {
                throw damaged(
                        where(g, p)
                                + " holds a value of "
                                + length
                                + " bytes at offset "
                                + pos
                                + " of "
                                + data.size,
                        null);
            }
            return length;
        }

        DamagedFileException damaged(String what, Throwable cause) {
            return new DamagedFileException(file, "column " + column.name + ": " + what, cause);
        }

        /** Reads the value at {@code pos} of {@code data} into the slot. */
        private void load(Inflated data, int pos, int g, int p) throws IOException {
            switch (physical) {
                case INT32 -> {
                    data.ensure(pos + 4, this, g, p);
                    intValue = data.buffer.getInt(pos);
                }
                case INT64 -> {
                    data.ensure(pos + 8, this, g, p);
                    longValue = data.buffer.getLong(pos);
                }
                case FLOAT -> {
                    data.ensure(pos + 4, this, g, p);
                    doubleValue = data.buffer.getFloat(pos);
                }
                case DOUBLE -> {
                    data.ensure(pos + 8, this, g, p);
                    doubleValue = data.buffer.getDouble(pos);
                }
                default -> {
                    int length = width > 0 ? width : binaryLength(data, pos, g, p);
                    int from = width > 0 ? pos : pos + 4;
                    data.ensure(from + length, this, g, p);
                    bytesValue = Arrays.copyOfRange(data.buffer.array(), from, from + length);
                }
            }
        }

        @Override
        public int getInt(int ordinal) {
            return intValue;
        }

        @Override
        public long getLong(int ordinal) {
            return longValue;
        }

        @Override
        public double getDouble(int ordinal) {
            return doubleValue;
        }

        @Override
        public byte[] getBytes(int ordinal) {
            return bytesValue;
        }

        /** A dictionary page's values: {@code offsets[i]} is where entry i starts. */
        private record Dictionary(Inflated data, int[] offsets) {}

        /** One open data page; its entries are read in order. */
        private final class Page {
            final long firstRow;
            final int entries;
            final HybridInts def;
            final Inflated data;
            final Dictionary dictionary;
            final HybridInts ids;
            final int g;
            final int p;

            /** The next entry, and where the next value starts (PLAIN) or its index. */
            int entry;

            int valuePos;

            Page(
                    long firstRow,
                    int entries,
                    HybridInts def,
                    Inflated data,
                    int valuesStart,
                    Dictionary dictionary,
                    int g,
                    int p)
                    throws IOException {
                this.firstRow = firstRow;
                this.entries = entries;
                this.def = def;
                this.data = data;
                this.dictionary = dictionary;
                this.g = g;
                this.p = p;
                this.valuePos = valuesStart;
                if (dictionary != null) {
                    data.ensure(data.size, ColumnReads.this, g, p);
                    if (valuesStart >= data.size) {
                        throw damaged(where(g, p) + " has no value ids", null);
                    }
                    ids =
                            new HybridInts(
                                    data.buffer,
                                    valuesStart + 1,
                                    data.size,
                                    data.buffer.get(valuesStart) & 0xFF);
                } else {
                    ids = null;
                }
            }

            /** Whether the page holds only PLAIN INT32 or INT64 values, none of them NULL. */
            boolean plainIntegers() throws DamagedFileException {
                boolean plain =
                        def == null
                                && ids == null
                                && entry == 0
                                && (physical == PrimitiveTypeName.INT32
                                        || physical == PrimitiveTypeName.INT64);
                if (plain && valuePos + (long) entries * width > data.size) {
                    throw damaged(where(g, p) + " ends before its " + entries + " values", null);
                }
                return plain;
            }

            /** Moves to entry {@code e} (not before the next) and loads it; false if NULL. */
            boolean value(int e) throws IOException {
                if (e < entry || e >= entries) {
                    throw damaged(where(g, p) + " has no entry " + e, null);
                }
                int skipped = e - entry;
                int defined = def == null ? skipped : def.skipCounting(skipped, maxDef);
                boolean present = def == null || def.next() == maxDef;
                entry = e + 1;
                if (ids != null) {
                    ids.skip(defined);
                    if (present) {
                        int id = ids.next();
                        if (id < 0 || id >= dictionary.offsets.length - 1) {
                            throw damaged(where(g, p) + " names dictionary entry " + id, null);
                        }
                        load(dictionary.data, dictionary.offsets[id], g, -1);
                    }
                    return present;
                }
                if (width > 0) {
                    valuePos += defined * width;
                } else {
                    for (int i = 0; i < defined; i++) {
                        valuePos += 4 + binaryLength(data, valuePos, g, p);
                    }
                }
                if (present) {
                    load(data, valuePos, g, p);
                    valuePos += width > 0 ? width : 4 + bytesValue.length;
                }
                return present;
            }
        }
    }

    /** A page's uncompressed bytes, inflated from its zstd frame only as far as they are read. */
    private static final class Inflated {
        final ByteBuffer buffer;
        final int size;
        private final InputStream zstd;
        int filled;

        Inflated(byte[] bytes, InputStream zstd) {
            this.buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            this.size = bytes.length;
            this.zstd = zstd;
            this.filled = zstd == null ? bytes.length : 0;
        }

        /** Releases the decompressor; the bytes inflated so far stay readable. */
        void close() {
            if (zstd != null) {
                try {
                    zstd.close();
                } catch (IOException e) {
                    // only native memory is released here
                }
            }
        }

        /** Makes the first {@code n} bytes available. */
        void ensure(int n, ColumnReads column, int g, int p) throws IOException {
            if (n <= filled) {
                return;
            }
            if (n > size) {
                throw column.damaged(
                        where(g, p)
                                + " ends at "
                                + size
                                + " bytes before a value reaching byte "
                                + n,
                        null);
            }
            // At least 64 KB at a time: zstd inflates whole blocks of up to 128 KB anyway.
            int want = Math.min(size, Math.max(n, filled + (64 << 10)));
            try {
                while (filled < want) {
                    int got = zstd.read(buffer.array(), filled, want - filled);
                    if (got < 0) {
                        break;
                    }
                    filled += got;
                }
            } catch (IOException e) {
                throw column.damaged(where(g, p) + " does not inflate", e);
            }
            if (filled < n) {
                throw column.damaged(
                        where(g, p) + " inflates to " + filled + " bytes, short of " + n, null);
            }
        }
    }
}
