package dev.strata.spark.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One column chunk of one row group (maximum repetition level 0 or 1), with its levels decoded in bulk
 * and its values read on demand by ordinal (the n-th non-null value of the chunk).
 *
 * <p>Why: the columnar path asks for a few values out of many. A shredded key's column holds other
 * keys' values outside the key's row ranges and the overflow holds mostly other keys; the benchmark of
 * issue 4 spent most of the reader's time stepping parquet-mr's value-at-a-time {@code ColumnReader}
 * through values it then dropped. Here levels are decoded page by page (RLE / bit-packed hybrid), and
 * a value is located directly: PLAIN and BYTE_STREAM_SPLIT fixed-width values by offset, dictionary
 * values through the page's decoded ids. Other encodings (PLAIN binary, the DELTA family) are decoded
 * eagerly with parquet-mr's own {@link ValuesReader} when the page is loaded. Pages arrive decompressed
 * from parquet-mr's page reader.
 */
final class DecodedChunk {

    /** Level entries (values including NULLs) in the chunk. */
    final int entries;
    /** Repetition level per entry; null when the column is not repeated. */
    final int[] rep;
    /** Definition level per entry; null when the column is required all the way (every entry has a value). */
    final int[] def;
    final int maxDef;
    /** Ordinal of each page's first value; the last element is the chunk's value count. */
    private final int[] pageFirst;
    private final PageValues[] pages;
    private int lastPage;

    private DecodedChunk(int entries, int[] rep, int[] def, int maxDef, int[] pageFirst, PageValues[] pages) {
        this.entries = entries;
        this.rep = rep;
        this.def = def;
        this.maxDef = maxDef;
        this.pageFirst = pageFirst;
        this.pages = pages;
    }

    /** Definition level per entry; for a column without levels, an array of {@link #maxDef} (0). */
    int[] definitionLevels() {
        return def != null ? def : new int[entries];
    }

    /** Whether entry i carries a value. */
    boolean hasValue(int i) {
        return def == null || def[i] == maxDef;
    }

    int valueCount() {
        return pageFirst[pageFirst.length - 1];
    }

    int getInt(int ordinal) {
        int p = page(ordinal);
        return pages[p].getInt(ordinal - pageFirst[p]);
    }

    long getLong(int ordinal) {
        int p = page(ordinal);
        return pages[p].getLong(ordinal - pageFirst[p]);
    }

    double getDouble(int ordinal) {
        int p = page(ordinal);
        return pages[p].getDouble(ordinal - pageFirst[p]);
    }

    byte[] getBytes(int ordinal) {
        int p = page(ordinal);
        return pages[p].getBytes(ordinal - pageFirst[p]);
    }

    /** Every value of an INT32 chunk, in order. */
    int[] ints() {
        return ints(0);
    }

    /** As {@link #ints()}, with {@code spare} zeros after the values (lets a loop read one ahead unchecked). */
    int[] ints(int spare) {
        int[] out = new int[valueCount() + spare];
        for (int p = 0; p < pages.length; p++) {
            pages[p].ints(out, pageFirst[p], pageFirst[p + 1] - pageFirst[p]);
        }
        return out;
    }

    /** The page holding value {@code ordinal}; ordinals mostly arrive ascending, so the last page is tried first. */
    private int page(int ordinal) {
        int p = lastPage;
        if (ordinal >= pageFirst[p] && ordinal < pageFirst[p + 1]) {
            return p;
        }
        if (ordinal < 0 || ordinal >= valueCount()) {
            throw new IndexOutOfBoundsException("value " + ordinal + " of a chunk with " + valueCount() + " values");
        }
        int i = Arrays.binarySearch(pageFirst, 0, pages.length, ordinal);
        p = i >= 0 ? i : -i - 2;
        while (p + 1 < pages.length && pageFirst[p + 1] == ordinal) {
            p++; // skip pages without values
        }
        lastPage = p;
        return p;
    }

    /** Reads and decodes every page of the chunk from the page reader. */
    static DecodedChunk decode(PageReader reader, ColumnDescriptor column, String file) throws IOException {
        int maxRep = column.getMaxRepetitionLevel();
        int maxDef = column.getMaxDefinitionLevel();
        if (maxRep > 1) {
            throw new IllegalStateException("Cannot decode column " + Arrays.toString(column.getPath()) + " of " + file
                    + ": expected repetition level 0 or 1 but the schema gives " + maxRep + ". The file was not written"
                    + " by Strata.");
        }
        long declared = reader.getTotalValueCount();
        if (declared > Integer.MAX_VALUE / 2) {
            throw new IllegalStateException("Cannot decode column " + Arrays.toString(column.getPath()) + " of " + file
                    + ": its row group holds " + declared + " values, more than one batch decoder takes. Write smaller"
                    + " row groups (file.block-size) or set spark.sql.strata.columnar-reads.enabled = false.");
        }
        int total = (int) declared;
        PrimitiveTypeName type = column.getPrimitiveType().getPrimitiveTypeName();
        Dictionary dictionary = null;
        DictionaryPage dp = reader.readDictionaryPage();
        if (dp != null) {
            dictionary = dp.getEncoding().initDictionary(column, dp);
        }
        int[] rep = maxRep > 0 ? new int[total] : null;
        int[] def = maxDef > 0 ? new int[total] : null;
        List<PageValues> pages = new ArrayList<>();
        List<Integer> firsts = new ArrayList<>();
        int entries = 0;
        int values = 0;
        DataPage page;
        while (entries < total && (page = reader.readPage()) != null) {
            int n = page.getValueCount();
            if (entries + n > total) {
                throw corrupt(column, file, "the pages hold more values than the chunk's " + total);
            }
            ByteBuffer data;
            Encoding encoding;
            if (page instanceof DataPageV1) {
                DataPageV1 p = (DataPageV1) page;
                ByteBuffer buf = p.getBytes().toByteBuffer();
                int pos = buf.position();
                if (maxRep > 0) {
                    pos = levelsV1(buf, pos, p.getRlEncoding(), maxRep, rep, entries, n, column, file);
                }
                if (maxDef > 0) {
                    pos = levelsV1(buf, pos, p.getDlEncoding(), maxDef, def, entries, n, column, file);
                }
                data = buf.duplicate();
                data.position(pos);
                encoding = p.getValueEncoding();
            } else {
                DataPageV2 p = (DataPageV2) page;
                if (maxRep > 0) {
                    ByteBuffer levels = p.getRepetitionLevels().toByteBuffer();
                    hybrid(levels, levels.position(), bitWidth(maxRep), rep, entries, n);
                }
                if (maxDef > 0) {
                    ByteBuffer levels = p.getDefinitionLevels().toByteBuffer();
                    hybrid(levels, levels.position(), bitWidth(maxDef), def, entries, n);
                }
                data = p.getData().toByteBuffer();
                encoding = p.getDataEncoding();
            }
            int present = n;
            if (def != null) {
                present = 0;
                for (int i = entries; i < entries + n; i++) {
                    present += def[i] == maxDef ? 1 : 0;
                }
            }
            firsts.add(values);
            pages.add(values(encoding, dictionary, type, column, data, present, file));
            entries += n;
            values += present;
        }
        if (entries != total) {
            throw corrupt(column, file, "the pages hold " + entries + " values but the chunk declares " + total);
        }
        if (pages.isEmpty()) { // an empty chunk still has one (empty) page, so lookups need no special case
            firsts.add(0);
            pages.add(new Eager(type, 0));
        }
        int[] pageFirst = new int[firsts.size() + 1];
        for (int i = 0; i < firsts.size(); i++) {
            pageFirst[i] = firsts.get(i);
        }
        pageFirst[firsts.size()] = values;
        return new DecodedChunk(total, rep, def, maxDef, pageFirst, pages.toArray(new PageValues[0]));
    }

    private static int levelsV1(ByteBuffer buf, int pos, Encoding encoding, int maxLevel, int[] out, int at, int n,
            ColumnDescriptor column, String file) {
        if (encoding != Encoding.RLE) {
            throw corrupt(column, file, "levels are encoded as " + encoding + ", which Parquet V1 pages do not use for"
                    + " nested columns");
        }
        int len = (buf.get(pos) & 0xFF) | (buf.get(pos + 1) & 0xFF) << 8 | (buf.get(pos + 2) & 0xFF) << 16
                | (buf.get(pos + 3) & 0xFF) << 24; // little-endian byte length of the levels
        hybrid(buf, pos + 4, bitWidth(maxLevel), out, at, n);
        return pos + 4 + len;
    }

    private static int bitWidth(int maxLevel) {
        return 32 - Integer.numberOfLeadingZeros(maxLevel);
    }

    private static PageValues values(Encoding encoding, Dictionary dictionary, PrimitiveTypeName type,
            ColumnDescriptor column, ByteBuffer data, int count, String file) throws IOException {
        if (count == 0) {
            return new Eager(type, 0);
        }
        if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
            if (dictionary == null) {
                throw corrupt(column, file, "dictionary-encoded values without a dictionary page");
            }
            int pos = data.position();
            int width = data.get(pos) & 0xFF;
            int[] ids = new int[count];
            hybrid(data, pos + 1, width, ids, 0, count);
            return new Dictionaried(dictionary, ids);
        }
        int width = type == PrimitiveTypeName.INT32 || type == PrimitiveTypeName.FLOAT ? 4
                : type == PrimitiveTypeName.INT64 || type == PrimitiveTypeName.DOUBLE ? 8 : 0;
        if (width > 0 && encoding == Encoding.PLAIN) {
            return new Plain(data.slice().order(java.nio.ByteOrder.LITTLE_ENDIAN), width);
        }
        if (width > 0 && encoding == Encoding.BYTE_STREAM_SPLIT) {
            return new StreamSplit(data.slice(), width, count);
        }
        ValuesReader values = encoding.getValuesReader(column, ValuesType.VALUES);
        values.initFromPage(count, ByteBufferInputStream.wrap(data.slice()));
        Eager eager = new Eager(type, count);
        for (int i = 0; i < count; i++) {
            switch (type) {
                case INT32:
                    eager.ints[i] = values.readInteger();
                    break;
                case INT64:
                    eager.longs[i] = values.readLong();
                    break;
                case DOUBLE:
                    eager.doubles[i] = values.readDouble();
                    break;
                case FLOAT:
                    eager.doubles[i] = values.readFloat();
                    break;
                default:
                    eager.bytes[i] = values.readBytes().getBytes();
            }
        }
        return eager;
    }

    private static IllegalStateException corrupt(ColumnDescriptor column, String file, String what) {
        return new IllegalStateException("Cannot decode column " + Arrays.toString(column.getPath()) + " of " + file
                + ": " + what + ". The file is corrupt.");
    }

    /** Decodes {@code count} values of Parquet's RLE / bit-packed hybrid encoding at {@code pos} into {@code out[at..]}. */
    static void hybrid(ByteBuffer buf, int pos, int bitWidth, int[] out, int at, int count) {
        if (bitWidth == 0) {
            Arrays.fill(out, at, at + count, 0);
            return;
        }
        BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
        int byteWidth = (bitWidth + 7) / 8;
        int[] eight = new int[8];
        int produced = 0;
        while (produced < count) {
            int header = 0;
            int shift = 0;
            byte b;
            do {
                b = buf.get(pos++);
                header |= (b & 0x7F) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            if ((header & 1) == 0) {
                int run = header >>> 1;
                int value = 0;
                for (int i = 0; i < byteWidth; i++) {
                    value |= (buf.get(pos++) & 0xFF) << (8 * i);
                }
                int take = Math.min(run, count - produced);
                Arrays.fill(out, at + produced, at + produced + take, value);
                produced += take;
            } else {
                int groups = header >>> 1;
                for (int g = 0; g < groups && produced < count; g++) {
                    if (count - produced >= 8) {
                        packer.unpack8Values(buf, pos, out, at + produced);
                        produced += 8;
                    } else {
                        packer.unpack8Values(buf, pos, eight, 0);
                        int take = count - produced;
                        System.arraycopy(eight, 0, out, at + produced, take);
                        produced += take;
                    }
                    pos += bitWidth;
                }
            }
        }
    }

    /** The values of one page, by ordinal within the page. */
    private interface PageValues {
        int getInt(int i);

        /** Copies the page's first {@code n} values as ints to {@code out[at..]}. */
        default void ints(int[] out, int at, int n) {
            for (int i = 0; i < n; i++) {
                out[at + i] = getInt(i);
            }
        }

        long getLong(int i);

        double getDouble(int i);

        byte[] getBytes(int i);
    }

    private static final class Plain implements PageValues {
        private final ByteBuffer buf;
        private final int width;

        Plain(ByteBuffer buf, int width) {
            this.buf = buf;
            this.width = width;
        }

        @Override
        public int getInt(int i) {
            return buf.getInt(i * width);
        }

        @Override
        public long getLong(int i) {
            return buf.getLong(i * width);
        }

        @Override
        public double getDouble(int i) {
            return width == 8 ? buf.getDouble(i * 8) : buf.getFloat(i * 4);
        }

        @Override
        public byte[] getBytes(int i) {
            throw new UnsupportedOperationException("fixed-width values have no bytes");
        }
    }

    /** BYTE_STREAM_SPLIT: byte b of value i sits at {@code b * count + i}. */
    private static final class StreamSplit implements PageValues {
        private final ByteBuffer buf;
        private final int width;
        private final int count;

        StreamSplit(ByteBuffer buf, int width, int count) {
            this.buf = buf;
            this.width = width;
            this.count = count;
        }

        private long bits(int i) {
            long v = 0;
            for (int b = 0; b < width; b++) {
                v |= (buf.get(b * count + i) & 0xFFL) << (8 * b);
            }
            return v;
        }

        @Override
        public int getInt(int i) {
            return (int) bits(i);
        }

        @Override
        public long getLong(int i) {
            return bits(i);
        }

        @Override
        public double getDouble(int i) {
            return width == 8 ? Double.longBitsToDouble(bits(i)) : Float.intBitsToFloat((int) bits(i));
        }

        @Override
        public byte[] getBytes(int i) {
            throw new UnsupportedOperationException("fixed-width values have no bytes");
        }
    }

    private static final class Dictionaried implements PageValues {
        private final Dictionary dictionary;
        private final int[] ids;

        Dictionaried(Dictionary dictionary, int[] ids) {
            this.dictionary = dictionary;
            this.ids = ids;
        }

        @Override
        public void ints(int[] out, int at, int n) {
            int[] decoded = new int[dictionary.getMaxId() + 1];
            for (int i = 0; i < decoded.length; i++) {
                decoded[i] = dictionary.decodeToInt(i);
            }
            for (int i = 0; i < n; i++) {
                out[at + i] = decoded[ids[i]];
            }
        }

        @Override
        public int getInt(int i) {
            return dictionary.decodeToInt(ids[i]);
        }

        @Override
        public long getLong(int i) {
            return dictionary.decodeToLong(ids[i]);
        }

        @Override
        public double getDouble(int i) {
            return dictionary.decodeToDouble(ids[i]);
        }

        @Override
        public byte[] getBytes(int i) {
            return dictionary.decodeToBinary(ids[i]).getBytes();
        }
    }

    private static final class Eager implements PageValues {
        final int[] ints;
        final long[] longs;
        final double[] doubles;
        final byte[][] bytes;

        Eager(PrimitiveTypeName type, int count) {
            ints = type == PrimitiveTypeName.INT32 ? new int[count] : null;
            longs = type == PrimitiveTypeName.INT64 ? new long[count] : null;
            doubles = type == PrimitiveTypeName.DOUBLE || type == PrimitiveTypeName.FLOAT ? new double[count] : null;
            bytes = type == PrimitiveTypeName.BINARY || type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                    ? new byte[count][] : null;
        }

        @Override
        public int getInt(int i) {
            return ints[i];
        }

        @Override
        public void ints(int[] out, int at, int n) {
            System.arraycopy(ints, 0, out, at, n);
        }

        @Override
        public long getLong(int i) {
            return longs[i];
        }

        @Override
        public double getDouble(int i) {
            return doubles[i];
        }

        @Override
        public byte[] getBytes(int i) {
            return bytes[i];
        }
    }
}
