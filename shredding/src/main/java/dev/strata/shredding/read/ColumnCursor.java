package dev.strata.shredding.read;

import java.io.IOException;
import java.util.Arrays;

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
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Streams one column chunk of one row group (maximum repetition level 0 or 1) window by window: each
 * {@link #next(int)} decodes the level entries and values of the next {@code rows} rows (a row starts at
 * repetition level 0) and nothing more, so the heap holds the current page (decompressed by parquet-mr's
 * page reader when it is taken), the chunk's dictionary and one window's arrays, whatever the size of the
 * row group.
 *
 * <p>Levels and values are decoded with parquet-column's own readers: the page's level encoding's
 * {@link ValuesReader} for V1 pages, {@link RunLengthBitPackingHybridDecoder} for V2 levels, and the
 * data encoding's values reader (its dictionary-based reader for dictionary pages). Dictionary-encoded
 * strings reuse one byte array per dictionary entry.
 */
final class ColumnCursor {

    private final PageReader pages;
    private final ColumnDescriptor column;
    private final String file;
    private final PrimitiveTypeName type;
    private final int maxRep;
    final int maxDef;
    private final Dictionary dictionary;
    /** The dictionary's entries as bytes, for BINARY columns; null otherwise. */
    private final byte[][] dictionaryBytes;

    /** The current page's readers and how many of its entries are left. */
    private LevelSource repSource;
    private LevelSource defSource;
    private ValuesReader valueSource;
    private boolean dictionaryPage;
    private int pageLeft;
    /** A level entry read ahead (it starts the next window's first row). */
    private boolean pending;
    private int pendingRep;
    private int pendingDef;
    private boolean exhausted;

    /** The window: its level entries, the first entry of each row (rows + 1 elements) and its values. */
    int entries;
    int rows;
    int[] rep = new int[0];
    int[] def = new int[0];
    int[] rowStart = new int[1];
    int values;
    private int valueCapacity;
    int[] ints;
    long[] longs;
    double[] doubles;
    byte[][] bytes;

    ColumnCursor(PageReader pages, ColumnDescriptor column, String file) throws IOException {
        this.pages = pages;
        this.column = column;
        this.file = file;
        this.type = column.getPrimitiveType().getPrimitiveTypeName();
        this.maxRep = column.getMaxRepetitionLevel();
        this.maxDef = column.getMaxDefinitionLevel();
        if (maxRep > 1) {
            throw corrupt("expected repetition level 0 or 1 but the schema gives " + maxRep
                    + "; the file was not written by Strata");
        }
        DictionaryPage dp = pages.readDictionaryPage();
        this.dictionary = dp == null ? null : dp.getEncoding().initDictionary(column, dp);
        if (dictionary != null && type == PrimitiveTypeName.BINARY) {
            dictionaryBytes = new byte[dictionary.getMaxId() + 1][];
            for (int i = 0; i < dictionaryBytes.length; i++) {
                dictionaryBytes[i] = dictionary.decodeToBinary(i).getBytes();
            }
        } else {
            dictionaryBytes = null;
        }
        switch (type) {
            case INT32:
                ints = new int[1];
                break;
            case INT64:
                longs = new long[0];
                break;
            case DOUBLE:
            case FLOAT:
                doubles = new double[0];
                break;
            case BINARY:
            case FIXED_LEN_BYTE_ARRAY:
                bytes = new byte[0][];
                break;
            default:
                throw corrupt("values of type " + type + " are not read by the columnar reader");
        }
    }

    /** Whether window entry e carries a value. */
    boolean hasValue(int e) {
        return def[e] == maxDef;
    }

    int getInt(int ordinal) {
        return ints[ordinal];
    }

    long getLong(int ordinal) {
        return longs[ordinal];
    }

    double getDouble(int ordinal) {
        return doubles[ordinal];
    }

    byte[] getBytes(int ordinal) {
        return bytes[ordinal];
    }

    /**
     * Decodes the next {@code n} rows. The window then has {@link #rows} = n rows, row r's entries being
     * {@code [rowStart[r], rowStart[r + 1])}; an INT32 window keeps one spare zero after its values.
     */
    void next(int n) throws IOException {
        entries = 0;
        values = 0;
        rows = 0;
        if (rowStart.length < n + 1) {
            rowStart = new int[n + 1];
        }
        if (maxRep == 0) {
            ensureEntries(n);
            while (rows < n) {
                if (!nextPage()) {
                    throw corrupt("the chunk ends after " + rows + " rows of a window of " + n);
                }
                int take = Math.min(n - rows, pageLeft);
                for (int i = 0; i < take; i++) {
                    int d = defSource.next();
                    rowStart[rows + i] = entries;
                    store(0, d);
                }
                pageLeft -= take;
                rows += take;
            }
        } else {
            while (true) {
                if (!pending) {
                    if (!nextPage()) {
                        break;
                    }
                    pendingRep = repSource.next();
                    pendingDef = defSource.next();
                    pageLeft--;
                    pending = true;
                }
                if (pendingRep == 0) {
                    if (rows == n) {
                        break;
                    }
                    rowStart[rows++] = entries;
                } else if (rows == 0) {
                    throw corrupt("a window starts inside a row (repetition level " + pendingRep + ")");
                }
                pending = false;
                if (entries == rep.length) {
                    ensureEntries(Math.max(16, entries * 2));
                }
                store(pendingRep, pendingDef);
            }
            if (rows < n) {
                throw corrupt("the chunk ends after " + rows + " rows of a window of " + n);
            }
        }
        rowStart[rows] = entries;
        if (ints != null) {
            ensureValues(values + 1);
            ints[values] = 0;
        }
    }

    /** Appends one entry and, when it is defined, its value (read from the current page). */
    private void store(int r, int d) {
        if (entries == rep.length) {
            ensureEntries(Math.max(16, entries * 2));
        }
        rep[entries] = r;
        def[entries++] = d;
        if (d != maxDef) {
            return;
        }
        if (values == valueCapacity) {
            ensureValues(Math.max(16, values * 2));
        }
        switch (type) {
            case INT32:
                ints[values++] = valueSource.readInteger();
                return;
            case INT64:
                longs[values++] = valueSource.readLong();
                return;
            case DOUBLE:
                doubles[values++] = valueSource.readDouble();
                return;
            case FLOAT:
                doubles[values++] = valueSource.readFloat();
                return;
            default:
                bytes[values++] = dictionaryPage ? dictionaryBytes[valueSource.readValueDictionaryId()]
                        : valueSource.readBytes().getBytes();
        }
    }

    private int capacity() {
        return ints != null ? ints.length : longs != null ? longs.length : doubles != null ? doubles.length : bytes.length;
    }

    private void ensureEntries(int n) {
        if (rep.length < n) {
            rep = Arrays.copyOf(rep, n);
            def = Arrays.copyOf(def, n);
        }
    }

    private void ensureValues(int n) {
        if (capacity() >= n) {
            return;
        }
        int size = Math.max(n, capacity() * 2);
        if (ints != null) {
            ints = Arrays.copyOf(ints, size);
        } else if (longs != null) {
            longs = Arrays.copyOf(longs, size);
        } else if (doubles != null) {
            doubles = Arrays.copyOf(doubles, size);
        } else {
            bytes = Arrays.copyOf(bytes, size);
        }
        valueCapacity = size;
    }

    /** Whether the chunk has no entries after the windows read so far. */
    boolean atEnd() throws IOException {
        return !pending && !nextPage();
    }

    /** Makes the current page one with entries left; false at the end of the chunk. */
    private boolean nextPage() throws IOException {
        while (pageLeft == 0) {
            if (exhausted) {
                return false;
            }
            DataPage page = pages.readPage();
            if (page == null) {
                exhausted = true;
                return false;
            }
            open(page);
        }
        return true;
    }

    private void open(DataPage page) throws IOException {
        int n = page.getValueCount();
        Encoding encoding;
        ByteBufferInputStream data;
        if (page instanceof DataPageV1) {
            DataPageV1 p = (DataPageV1) page;
            ByteBufferInputStream in = p.getBytes().toInputStream();
            ValuesReader r = p.getRlEncoding().getValuesReader(column, ValuesType.REPETITION_LEVEL);
            ValuesReader d = p.getDlEncoding().getValuesReader(column, ValuesType.DEFINITION_LEVEL);
            r.initFromPage(n, in);
            d.initFromPage(n, in);
            repSource = r::readInteger;
            defSource = d::readInteger;
            encoding = p.getValueEncoding();
            data = in;
        } else {
            DataPageV2 p = (DataPageV2) page;
            repSource = levels(maxRep, p.getRepetitionLevels().toInputStream());
            defSource = levels(maxDef, p.getDefinitionLevels().toInputStream());
            encoding = p.getDataEncoding();
            data = p.getData().toInputStream();
        }
        dictionaryPage = encoding.usesDictionary();
        if (dictionaryPage) {
            if (dictionary == null) {
                throw corrupt("dictionary-encoded values without a dictionary page");
            }
            valueSource = encoding.getDictionaryBasedValuesReader(column, ValuesType.VALUES, dictionary);
        } else {
            valueSource = encoding.getValuesReader(column, ValuesType.VALUES);
        }
        valueSource.initFromPage(n, data);
        pageLeft = n;
    }

    private static LevelSource levels(int maxLevel, ByteBufferInputStream in) {
        if (maxLevel == 0) {
            return () -> 0;
        }
        RunLengthBitPackingHybridDecoder decoder =
                new RunLengthBitPackingHybridDecoder(32 - Integer.numberOfLeadingZeros(maxLevel), in);
        return decoder::readInt;
    }

    private IllegalStateException corrupt(String what) {
        return new IllegalStateException("Cannot decode column " + Arrays.toString(column.getPath()) + " of " + file
                + ": " + what + ". The file is corrupt.");
    }

    /** One page's levels, in order. */
    private interface LevelSource {
        int next() throws IOException;
    }
}
