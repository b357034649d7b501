package dev.strata.shredding.parquet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriteStore;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Gives each dictionary-encoded DOUBLE column chunk the dictionary order that compresses best: the
 * chunk's data pages are held (encoded, uncompressed) until parquet's column writer hands over the
 * dictionary page, which is then compressed as written ({@link DoubleDictionaryWriter}) and in each
 * {@link Order}; the smallest wins. Each shared {@code __col_*} has its own dictionary, whose first
 * page sees only part of its values, so as written it is a sorted subset plus later values.
 *
 * <p>If a new order wins, the held pages' ids are renumbered: in place when every page was written
 * at the whole dictionary's width, else re-encoded, the order then taken only if its dictionary
 * plus the pages' estimated growth is smaller. Statistics and indexes stay parquet's. Other types,
 * non-dictionary chunks and v2 pages pass straight through; held pages count in {@link
 * PageWriter#getMemSize()}, so the row-group size check sees them.
 */
final class DictionaryOrderPages implements PageWriteStore {

    private final PageWriteStore delegate;
    private final CompressionCodecFactory.BytesInputCompressor compressor;
    private final Map<ColumnDescriptor, PageWriter> writers = new HashMap<>();

    DictionaryOrderPages(
            PageWriteStore delegate, CompressionCodecFactory.BytesInputCompressor compressor) {
        this.delegate = delegate;
        this.compressor = compressor;
    }

    @Override
    public PageWriter getPageWriter(ColumnDescriptor path) {
        return writers.computeIfAbsent(
                path,
                d ->
                        d.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.DOUBLE
                                ? new Holding(d, delegate.getPageWriter(d))
                                : delegate.getPageWriter(d));
    }

    /** One data page as parquet's column writer handed it over, its bytes copied. */
    private static final class HeldPage {
        byte[] bytes;
        final int valueCount;
        final int rowCount;
        final Statistics<?> statistics;
        final SizeStatistics sizeStatistics;
        final GeospatialStatistics geospatialStatistics;
        final Encoding rlEncoding;
        final Encoding dlEncoding;
        final Encoding valuesEncoding;

        /** Offset of the values section (bit-width byte, then the ids). */
        int valuesOffset = -1;

        /** The page's dictionary ids (NULLs have none), decoded when the chunk is reordered. */
        int[] ids;

        HeldPage(
                byte[] bytes,
                int valueCount,
                int rowCount,
                Statistics<?> statistics,
                SizeStatistics sizeStatistics,
                GeospatialStatistics geospatialStatistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding) {
            this.bytes = bytes;
            this.valueCount = valueCount;
            this.rowCount = rowCount;
            this.statistics = statistics;
            this.sizeStatistics = sizeStatistics;
            this.geospatialStatistics = geospatialStatistics;
            this.rlEncoding = rlEncoding;
            this.dlEncoding = dlEncoding;
            this.valuesEncoding = valuesEncoding;
        }
    }

    private final class Holding implements PageWriter {
        private final ColumnDescriptor column;
        private final PageWriter out;
        private final List<HeldPage> held = new ArrayList<>();
        private long heldBytes;

        /** Set when the chunk's first page is not dictionary-encoded: nothing to reorder. */
        private boolean passThrough;

        Holding(ColumnDescriptor column, PageWriter out) {
            this.column = column;
            this.out = out;
        }

        @Override
        public void writePage(
                BytesInput bytesInput,
                int valueCount,
                int rowCount,
                Statistics<?> statistics,
                SizeStatistics sizeStatistics,
                GeospatialStatistics geospatialStatistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding)
                throws IOException {
            if (held.isEmpty() && (passThrough || !valuesEncoding.usesDictionary())) {
                passThrough = true;
                out.writePage(
                        bytesInput,
                        valueCount,
                        rowCount,
                        statistics,
                        sizeStatistics,
                        geospatialStatistics,
                        rlEncoding,
                        dlEncoding,
                        valuesEncoding);
                return;
            }
            // The column writer reuses its buffers once this returns: keep a copy.
            byte[] bytes = bytesInput.toByteArray();
            held.add(
                    new HeldPage(
                            bytes,
                            valueCount,
                            rowCount,
                            statistics == null ? null : statistics.copy(),
                            sizeStatistics == null ? null : sizeStatistics.copy(),
                            geospatialStatistics,
                            rlEncoding,
                            dlEncoding,
                            valuesEncoding));
            heldBytes += bytes.length;
        }

        @Override
        public void writePage(
                BytesInput bytesInput,
                int valueCount,
                int rowCount,
                Statistics<?> statistics,
                SizeStatistics sizeStatistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding)
                throws IOException {
            writePage(
                    bytesInput,
                    valueCount,
                    rowCount,
                    statistics,
                    sizeStatistics,
                    null,
                    rlEncoding,
                    dlEncoding,
                    valuesEncoding);
        }

        @Override
        public void writePage(
                BytesInput bytesInput,
                int valueCount,
                int rowCount,
                Statistics<?> statistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding)
                throws IOException {
            writePage(
                    bytesInput,
                    valueCount,
                    rowCount,
                    statistics,
                    null,
                    null,
                    rlEncoding,
                    dlEncoding,
                    valuesEncoding);
        }

        @Override
        @Deprecated
        public void writePage(
                BytesInput bytesInput,
                int valueCount,
                Statistics<?> statistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding)
                throws IOException {
            release();
            out.writePage(
                    bytesInput, valueCount, statistics, rlEncoding, dlEncoding, valuesEncoding);
        }

        @Override
        public void writePageV2(
                int rowCount,
                int nullCount,
                int valueCount,
                BytesInput repetitionLevels,
                BytesInput definitionLevels,
                Encoding dataEncoding,
                BytesInput data,
                Statistics<?> statistics)
                throws IOException {
            release();
            out.writePageV2(
                    rowCount,
                    nullCount,
                    valueCount,
                    repetitionLevels,
                    definitionLevels,
                    dataEncoding,
                    data,
                    statistics);
        }

        @Override
        public void writePageV2(
                int rowCount,
                int nullCount,
                int valueCount,
                BytesInput repetitionLevels,
                BytesInput definitionLevels,
                Encoding dataEncoding,
                BytesInput data,
                Statistics<?> statistics,
                SizeStatistics sizeStatistics)
                throws IOException {
            release();
            out.writePageV2(
                    rowCount,
                    nullCount,
                    valueCount,
                    repetitionLevels,
                    definitionLevels,
                    dataEncoding,
                    data,
                    statistics,
                    sizeStatistics);
        }

        @Override
        public void writePageV2(
                int rowCount,
                int nullCount,
                int valueCount,
                BytesInput repetitionLevels,
                BytesInput definitionLevels,
                Encoding dataEncoding,
                BytesInput data,
                Statistics<?> statistics,
                SizeStatistics sizeStatistics,
                GeospatialStatistics geospatialStatistics)
                throws IOException {
            release();
            out.writePageV2(
                    rowCount,
                    nullCount,
                    valueCount,
                    repetitionLevels,
                    definitionLevels,
                    dataEncoding,
                    data,
                    statistics,
                    sizeStatistics,
                    geospatialStatistics);
        }

        @Override
        public void writeDictionaryPage(DictionaryPage dictionaryPage) throws IOException {
            DictionaryPage page = dictionaryPage;
            if (!held.isEmpty()) {
                page = reorder(dictionaryPage);
            }
            release();
            out.writeDictionaryPage(page);
        }

        /** Hands the held pages, as they are now, to parquet-hadoop's writer. */
        private void release() throws IOException {
            for (HeldPage p : held) {
                out.writePage(
                        BytesInput.from(p.bytes),
                        p.valueCount,
                        p.rowCount,
                        p.statistics,
                        p.sizeStatistics,
                        p.geospatialStatistics,
                        p.rlEncoding,
                        p.dlEncoding,
                        p.valuesEncoding);
            }
            held.clear();
            heldBytes = 0;
            passThrough = true;
        }

        /** The dictionary in its best order, the held pages' ids renumbered to match. */
        private DictionaryPage reorder(DictionaryPage page) throws IOException {
            int n = page.getDictionarySize();
            if (n < 2 || 8.0 * n < MIN_DICTIONARY_SHARE * heldBytes) {
                return page;
            }
            byte[] plain = page.getBytes().toByteArray();
            if (plain.length != 8 * n || !locateValues()) {
                return page;
            }
            // At the final width (the usual case) renumber in place; else decode ids to estimate.
            int fullWidth = BytesUtils.getWidthFromMaxInt(n - 1);
            boolean inPlace = true;
            for (HeldPage p : held) {
                if (p.valuesOffset >= 0 && (p.bytes[p.valuesOffset] & 0xFF) != fullWidth) {
                    inPlace = false;
                }
            }
            if (!inPlace && !decodeIds(n)) {
                return page;
            }
            ByteBuffer in = ByteBuffer.wrap(plain).order(ByteOrder.LITTLE_ENDIAN);
            long[] bits = new long[n];
            for (int i = 0; i < n; i++) {
                bits[i] = in.getLong(8 * i);
            }
            long best = compressor.compress(BytesInput.from(plain)).size();
            int[] bestNewId = null;
            byte[] bestPlain = null;
            ValueIds byBits = idsOfBits(bits);
            for (Order o : CANDIDATES) {
                int[] order = o.ids(bits, byBits);
                byte[] candidate = plainBytes(bits, order);
                int[] newId = new int[n];
                for (int i = 0; i < n; i++) {
                    newId[order[i]] = i;
                }
                long size = compressor.compress(BytesInput.from(candidate)).size();
                if (!inPlace) {
                    size += growth(newId);
                }
                if (size < best) {
                    best = size;
                    bestNewId = newId;
                    bestPlain = candidate;
                }
            }
            if (bestNewId == null) {
                return page;
            }
            for (HeldPage p : held) {
                if (p.valuesOffset < 0) {
                    continue;
                }
                if (inPlace) {
                    renumberInPlace(p, bestNewId);
                } else {
                    renumber(p, bestNewId);
                }
            }
            return new DictionaryPage(BytesInput.from(bestPlain), n, page.getEncoding());
        }

        /** Finds each held page's values section; false for a layout parquet v1 does not write. */
        private boolean locateValues() {
            for (HeldPage p : held) {
                if (!p.valuesEncoding.usesDictionary()) {
                    continue;
                }
                if ((column.getMaxRepetitionLevel() > 0 && p.rlEncoding != Encoding.RLE)
                        || (column.getMaxDefinitionLevel() > 0 && p.dlEncoding != Encoding.RLE)) {
                    return false;
                }
                ByteBuffer b = ByteBuffer.wrap(p.bytes).order(ByteOrder.LITTLE_ENDIAN);
                long pos = 0;
                if (column.getMaxRepetitionLevel() > 0) {
                    pos += 4L + b.getInt(0);
                }
                if (column.getMaxDefinitionLevel() > 0) {
                    if (pos + 4 > p.bytes.length) {
                        return false;
                    }
                    pos += 4L + b.getInt((int) pos);
                }
                if (pos >= p.bytes.length) {
                    return false;
                }
                int width = p.bytes[(int) pos] & 0xFF;
                if (width > 32 || !runsFill(p.bytes, (int) pos + 1, width)) {
                    return false;
                }
                p.valuesOffset = (int) pos;
            }
            return true;
        }

        /** Renumbers a page's ids in place at the same width, keeping its length and runs. */
        private void renumberInPlace(HeldPage p, int[] newId) {
            byte[] bytes = p.bytes;
            int width = bytes[p.valuesOffset] & 0xFF;
            BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(width);
            int valueBytes = (width + 7) / 8;
            int[] group = new int[8];
            int pos = p.valuesOffset + 1;
            while (pos < bytes.length) {
                long header = 0;
                int shift = 0;
                int b;
                do {
                    b = bytes[pos++] & 0xFF;
                    header |= (long) (b & 0x7F) << shift;
                    shift += 7;
                } while ((b & 0x80) != 0);
                if ((header & 1) == 1) {
                    long groups = header >>> 1;
                    for (long g = 0; g < groups; g++) {
                        packer.unpack8Values(bytes, pos, group, 0);
                        for (int i = 0; i < 8; i++) {
                            int id = group[i];
                            group[i] = id < newId.length ? newId[id] : 0;
                        }
                        Arrays.fill(bytes, pos, pos + width, (byte) 0);
                        packer.pack8Values(group, 0, bytes, pos);
                        pos += width;
                    }
                } else {
                    int id = 0;
                    for (int i = 0; i < valueBytes; i++) {
                        id |= (bytes[pos + i] & 0xFF) << (8 * i);
                    }
                    int renumbered = id < newId.length ? newId[id] : id;
                    for (int i = 0; i < valueBytes; i++) {
                        bytes[pos + i] = (byte) (renumbered >>> (8 * i));
                    }
                    pos += valueBytes;
                }
            }
        }

        /** Decodes the held pages' ids; false for a layout parquet's v1 writer does not produce. */
        private boolean decodeIds(int dictionarySize) throws IOException {
            int maxDef = column.getMaxDefinitionLevel();
            for (HeldPage p : held) {
                if (!p.valuesEncoding.usesDictionary()) {
                    continue;
                }
                if ((column.getMaxRepetitionLevel() > 0 && p.rlEncoding != Encoding.RLE)
                        || (maxDef > 0 && p.dlEncoding != Encoding.RLE)) {
                    return false;
                }
                ByteBuffer b = ByteBuffer.wrap(p.bytes).order(ByteOrder.LITTLE_ENDIAN);
                int pos = 0;
                if (column.getMaxRepetitionLevel() > 0) {
                    pos += 4 + b.getInt(pos);
                }
                int present = p.valueCount;
                if (maxDef > 0) {
                    int length = b.getInt(pos);
                    RunLengthBitPackingHybridDecoder levels =
                            new RunLengthBitPackingHybridDecoder(
                                    BytesUtils.getWidthFromMaxInt(maxDef),
                                    new ByteArrayInputStream(p.bytes, pos + 4, length));
                    present = 0;
                    for (int i = 0; i < p.valueCount; i++) {
                        if (levels.readInt() == maxDef) {
                            present++;
                        }
                    }
                    pos += 4 + length;
                }
                if (pos >= p.bytes.length) {
                    return false;
                }
                int width = p.bytes[pos] & 0xFF;
                RunLengthBitPackingHybridDecoder ids =
                        new RunLengthBitPackingHybridDecoder(
                                width,
                                new ByteArrayInputStream(
                                        p.bytes, pos + 1, p.bytes.length - pos - 1));
                int[] decoded = new int[present];
                for (int i = 0; i < present; i++) {
                    int id = ids.readInt();
                    if (id < 0 || id >= dictionarySize) {
                        return false;
                    }
                    decoded[i] = id;
                }
                p.ids = decoded;
                p.valuesOffset = pos;
            }
            return true;
        }

        /** Estimated bytes the pages grow by when their ids become {@code newId[id]}. */
        private long growth(int[] newId) {
            long bits = 0;
            for (HeldPage p : held) {
                if (p.ids == null) {
                    continue;
                }
                int max = 0;
                for (int id : p.ids) {
                    max = Math.max(max, newId[id]);
                }
                int oldWidth = p.bytes[p.valuesOffset] & 0xFF;
                bits += (long) p.ids.length * (BytesUtils.getWidthFromMaxInt(max) - oldWidth);
            }
            return Math.max(0, bits / 8);
        }

        private void renumber(HeldPage p, int[] newId) throws IOException {
            int max = 0;
            for (int i = 0; i < p.ids.length; i++) {
                p.ids[i] = newId[p.ids[i]];
                max = Math.max(max, p.ids[i]);
            }
            int width = BytesUtils.getWidthFromMaxInt(max);
            RunLengthBitPackingHybridEncoder encoder =
                    new RunLengthBitPackingHybridEncoder(
                            width,
                            64 * 1024,
                            Math.max(64 * 1024, p.bytes.length * 2),
                            HeapByteBufferAllocator.getInstance());
            for (int id : p.ids) {
                encoder.writeInt(id);
            }
            byte[] values = encoder.toBytes().toByteArray();
            encoder.close();
            byte[] page = Arrays.copyOf(p.bytes, p.valuesOffset + 1 + values.length);
            page[p.valuesOffset] = (byte) width;
            System.arraycopy(values, 0, page, p.valuesOffset + 1, values.length);
            heldBytes += page.length - p.bytes.length;
            p.bytes = page;
            p.ids = null;
        }

        @Override
        public long getMemSize() {
            return out.getMemSize() + heldBytes;
        }

        @Override
        public long allocatedSize() {
            return out.allocatedSize() + heldBytes;
        }

        @Override
        public String memUsageString(String prefix) {
            return out.memUsageString(prefix) + prefix + " held pages " + heldBytes + " bytes\n";
        }

        /** Drops held pages; parquet-hadoop's writer is closed with its own store. */
        @Override
        public void close() {
            held.clear();
            heldBytes = 0;
        }
    }

    /** Whether the {@code width}-bit runs from {@code pos} end exactly at {@code bytes}' end. */
    static boolean runsFill(byte[] bytes, int pos, int width) {
        int valueBytes = (width + 7) / 8;
        long at = pos;
        while (at < bytes.length) {
            long header = 0;
            int shift = 0;
            int b;
            do {
                if (at >= bytes.length || shift > 35) {
                    return false;
                }
                b = bytes[(int) at++] & 0xFF;
                header |= (long) (b & 0x7F) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            at += (header & 1) == 1 ? (header >>> 1) * width : valueBytes;
        }
        return at == bytes.length;
    }

    /** Not ascending: the order as written nearly is, and a sort costs about a compression. */
    private static final Order[] CANDIDATES = {Order.GROUPED, Order.LOW_BYTES_FIRST};

    /** Below this share of the chunk's page bytes, reordering costs more than it could save. */
    private static final double MIN_DICTIONARY_SHARE = 0.01;

    /** The orders tried, each a bijection of a value's bits onto a sort key, and its inverse. */
    enum Order {
        /**
         * By sign and exponent, then the low 48 mantissa bits, then the top 4: decimal values share
         * their low mantissa bits in residue classes, so neighbours repeat 6 bytes.
         */
        GROUPED {
            @Override
            long key(long b) {
                return (((b >>> 52) << 52) | ((b & LOW_48) << 4) | ((b >>> 48) & 0xF))
                        ^ Long.MIN_VALUE;
            }

            @Override
            long bits(long key) {
                long k = key ^ Long.MIN_VALUE;
                return ((k >>> 52) << 52) | ((k >>> 4) & LOW_48) | ((k & 0xF) << 48);
            }
        },
        /** By the low 6 bytes from the lowest up, then the top 2: matches run across entries. */
        LOW_BYTES_FIRST {
            @Override
            long key(long b) {
                return ((Long.reverseBytes(b << 16) << 16) | (b >>> 48)) ^ Long.MIN_VALUE;
            }

            @Override
            long bits(long key) {
                long k = key ^ Long.MIN_VALUE;
                return Long.reverseBytes(k & ~0xFFFFL) | ((k & 0xFFFF) << 48);
            }
        };

        private static final long LOW_48 = (1L << 48) - 1;

        abstract long key(long bits);

        abstract long bits(long key);

        /**
         * The dictionary's ids in this order; {@code byBits} finds the id of a value's bits (null
         * when two entries have the same bits: then {@link #idsByKey}).
         */
        int[] ids(long[] values, ValueIds byBits) {
            long[] keys = new long[values.length];
            for (int i = 0; i < values.length; i++) {
                keys[i] = key(values[i]);
            }
            if (byBits == null) {
                return idsByKey(keys);
            }
            Arrays.sort(keys);
            int[] order = new int[keys.length];
            for (int i = 0; i < keys.length; i++) {
                order[i] = byBits.find(bits(keys[i]));
            }
            return order;
        }
    }

    /**
     * A table from a value's bits to its id, or null when two entries share bits (parquet's PLAIN
     * writer stores distinct NaNs as the canonical NaN).
     */
    static ValueIds idsOfBits(long[] values) {
        ValueIds t = new ValueIds();
        for (int i = 0; i < values.length; i++) {
            if (t.indexOf(values[i]) != i) {
                return null;
            }
        }
        return t;
    }

    /** The ids ordered by their keys, equal keys by id. */
    static int[] idsByKey(long[] keys) {
        Integer[] ids = new Integer[keys.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i;
        }
        Arrays.sort(ids, (a, b) -> Long.compare(keys[a], keys[b]));
        int[] order = new int[keys.length];
        for (int i = 0; i < ids.length; i++) {
            order[i] = ids[i];
        }
        return order;
    }

    private static byte[] plainBytes(long[] bits, int[] order) {
        ByteBuffer b = ByteBuffer.allocate(8 * order.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int id : order) {
            b.putLong(bits[id]);
        }
        return b.array();
    }

    /** Drops held pages; the store behind is closed by its owner. */
    @Override
    public void close() {
        for (PageWriter w : writers.values()) {
            if (w instanceof Holding) {
                w.close();
            }
        }
        writers.clear();
    }
}
