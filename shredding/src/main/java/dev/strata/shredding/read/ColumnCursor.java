package dev.strata.shredding.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Streams one column chunk of one row group (any maximum repetition level) window by window,
 * decoding only the next window's level entries and values, so the heap holds the current page, the
 * dictionary (decoded once) and one window's arrays. Levels and dictionary ids are read from the
 * page buffer ({@link HybridInts}), PLAIN fixed-width values by offset, other encodings with
 * parquet-column's {@link ValuesReader}.
 */
final class ColumnCursor extends PageStream implements PaimonValues.Decoded {

    private final PrimitiveTypeName type;
    private final int maxRep;
    final int maxDef;
    private final Dictionary dictionary;

    /** The dictionary's entries decoded once per chunk, in the array of the column's type. */
    private final byte[][] dictionaryBytes;

    private final int[] dictInts;
    private final long[] dictLongs;
    private final double[] dictDoubles;

    private LevelSource repSource;

    private LevelSource defSource;

    /** The page's definition levels when RLE / bit-packed (else null), for skipping by runs. */
    private HybridInts defInts;

    private static final int READER = 0;
    private static final int DICTIONARY = 1;
    private static final int PLAIN = 2;

    private int valueMode;

    private ValuesReader valueSource;
    private HybridInts ids;
    private ByteBuffer plain;
    private int plainPos;

    /** A level entry read ahead (it starts the next window's first row). */
    private boolean pending;

    private int pendingRep;
    private int pendingDef;

    /** The window: its level entries, each row's first entry (rows + 1 elements) and its values. */
    int entries;

    int rows;
    int[] rep = new int[0];
    int[] def = new int[0];
    int[] rowStart = new int[1];
    int values;
    private int valueCapacity;

    /** INT32 values, and BOOLEAN ones as 0 / 1. */
    int[] ints;

    long[] longs;
    double[] doubles;
    byte[][] bytes;

    ColumnCursor(PageReader pages, ColumnDescriptor column, String file) throws IOException {
        super(pages, column, file);
        this.type = column.getPrimitiveType().getPrimitiveTypeName();
        this.maxRep = column.getMaxRepetitionLevel();
        this.maxDef = column.getMaxDefinitionLevel();
        DictionaryPage dp = pages.readDictionaryPage();
        this.dictionary = dp == null ? null : dp.getEncoding().initDictionary(column, dp);
        int size = dictionary == null ? 0 : dictionary.getMaxId() + 1;
        dictionaryBytes =
                size > 0
                                && (type == PrimitiveTypeName.BINARY
                                        || type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                                        || type == PrimitiveTypeName.INT96)
                        ? new byte[size][]
                        : null;
        dictInts = size > 0 && type == PrimitiveTypeName.INT32 ? new int[size] : null;
        dictLongs = size > 0 && type == PrimitiveTypeName.INT64 ? new long[size] : null;
        dictDoubles =
                size > 0 && (type == PrimitiveTypeName.DOUBLE || type == PrimitiveTypeName.FLOAT)
                        ? new double[size]
                        : null;
        for (int i = 0; i < size; i++) {
            if (dictionaryBytes != null) {
                dictionaryBytes[i] = dictionary.decodeToBinary(i).getBytes();
            } else if (dictInts != null) {
                dictInts[i] = dictionary.decodeToInt(i);
            } else if (dictLongs != null) {
                dictLongs[i] = dictionary.decodeToLong(i);
            } else if (dictDoubles != null) {
                dictDoubles[i] =
                        type == PrimitiveTypeName.FLOAT
                                ? dictionary.decodeToFloat(i)
                                : dictionary.decodeToDouble(i);
            }
        }
        switch (type) {
            case BOOLEAN:
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
            default: // BINARY, FIXED_LEN_BYTE_ARRAY and INT96 (its 12 bytes, as written)
                bytes = new byte[0][];
                break;
        }
    }

    boolean hasValue(int e) {
        return def[e] == maxDef;
    }

    @Override
    public int getInt(int ordinal) {
        return ints[ordinal];
    }

    @Override
    public long getLong(int ordinal) {
        return longs[ordinal];
    }

    @Override
    public double getDouble(int ordinal) {
        return doubles[ordinal];
    }

    @Override
    public byte[] getBytes(int ordinal) {
        return bytes[ordinal];
    }

    /** Decodes the next {@code n} rows; an INT32 window keeps a spare zero after its values. */
    @Override
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
                    if (rows == n && pageLeft == 0 && pageIndexed) {
                        break;
                    }
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
                    throw corrupt(
                            "a window starts inside a row (repetition level " + pendingRep + ")");
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
        row += n;
    }

    /**
     * {@inheritDoc} A column of one entry a row passes the rows before {@code target} without
     * decoding their values ({@link #skipTo}): a row read by position skips most of its page.
     */
    @Override
    void seek(long target) throws IOException {
        if (maxRep == 0) {
            skipTo(target);
        } else {
            super.seek(target);
        }
    }

    /**
     * Decodes, of the {@code n} rows from group row {@code from}, only rows {@code at[0 .. count)}
     * (ascending; maximum repetition level 0); the others get definition level -1, their values and
     * pages skipped undecoded. Returns how many pages were passed unopened.
     */
    int gather(long from, int n, int[] at, int count) throws IOException {
        if (maxRep != 0) {
            throw new IllegalStateException(
                    "Cannot gather rows of column "
                            + Arrays.toString(column.getPath())
                            + " of "
                            + file
                            + ": it is repeated (maximum repetition level "
                            + maxRep
                            + "). Read it with next().");
        }
        if (rowStart.length < n + 1) {
            rowStart = new int[n + 1];
        }
        ensureEntries(n);
        for (int r = 0; r <= n; r++) {
            rowStart[r] = r;
        }
        Arrays.fill(rep, 0, n, 0);
        Arrays.fill(def, 0, n, -1);
        values = 0;
        int passed = 0;
        for (int i = 0; i < count; i++) {
            long target = from + at[i];
            passed += skipTo(target);
            while (pageLeft == 0) {
                DataPage page = pages.readPage();
                if (page == null) {
                    exhausted = true;
                    throw corrupt("the chunk ends before row " + target);
                }
                if (page.getFirstRowIndex().isPresent() && page.getFirstRowIndex().get() != row) {
                    throw corrupt(
                            "no page holds row "
                                    + target
                                    + " (the next starts at row "
                                    + page.getFirstRowIndex().get()
                                    + ")");
                }
                open(page);
            }
            entries = at[i];
            store(0, defSource.next());
            pageLeft--;
            row++;
        }
        entries = n;
        rows = n;
        if (ints != null) {
            ensureValues(values + 1);
            ints[values] = 0;
        }
        return passed;
    }

    /**
     * Moves to group row {@code target} without decoding (maximum repetition level 0), passing
     * whole pages unopened; returns their number. The window is undefined until the next {@link
     * #next} or {@link #gather}.
     */
    int skipTo(long target) throws IOException {
        if (target < row) {
            throw corrupt("row " + target + " was asked for after row " + row);
        }
        int passed = 0;
        while (row < target) {
            if (pageLeft == 0) {
                DataPage page = pages.readPage();
                if (page == null) {
                    exhausted = true;
                    throw corrupt("the chunk ends before row " + target);
                }
                long first =
                        page.getFirstRowIndex().isPresent() ? page.getFirstRowIndex().get() : row;
                // One entry a row: a page's value count is its row count.
                long pageRows =
                        page.getIndexRowCount().isPresent()
                                ? page.getIndexRowCount().get()
                                : page.getValueCount();
                if (first < row) {
                    throw corrupt(
                            "a page starts at row " + first + " after row " + row + " was read");
                }
                if (first + pageRows <= target) {
                    row = first + pageRows;
                    passed++;
                    continue;
                }
                open(page);
                row = first;
                continue;
            }
            int take = (int) Math.min(target - row, pageLeft);
            skipValues(take);
            pageLeft -= take;
            row += take;
        }
        return passed;
    }

    /** Skips the page's next {@code n} entries (one a row) and the values of the defined ones. */
    private void skipValues(int n) throws IOException {
        int defined;
        if (maxDef == 0) {
            defined = n;
        } else if (defInts != null) {
            defined = defInts.skipCounting(n, maxDef);
        } else {
            defined = 0;
            for (int i = 0; i < n; i++) {
                defined += defSource.next() == maxDef ? 1 : 0;
            }
        }
        if (defined == 0) {
            return;
        }
        if (valueMode == DICTIONARY) {
            ids.skip(defined);
        } else if (valueMode == PLAIN && type == PrimitiveTypeName.BINARY) {
            for (int i = 0; i < defined; i++) {
                plainPos += 4 + binaryLength();
            }
        } else if (valueMode == PLAIN) {
            plainPos +=
                    defined
                            * (type == PrimitiveTypeName.INT64 || type == PrimitiveTypeName.DOUBLE
                                    ? 8
                                    : 4);
        } else {
            valueSource.skip(defined);
        }
    }

    /** Appends one entry and, when it is defined, its value (read from the current page). */
    private void store(int r, int d) throws IOException {
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
        if (valueMode == DICTIONARY) {
            int id = ids.next();
            switch (type) {
                case INT32:
                    ints[values++] = dictInts[id];
                    return;
                case INT64:
                    longs[values++] = dictLongs[id];
                    return;
                case DOUBLE:
                case FLOAT:
                    doubles[values++] = dictDoubles[id];
                    return;
                default:
                    bytes[values++] = dictionaryBytes[id];
                    return;
            }
        }
        if (valueMode == PLAIN) {
            switch (type) {
                case INT32:
                    ints[values++] = plain.getInt(plainPos);
                    plainPos += 4;
                    return;
                case INT64:
                    longs[values++] = plain.getLong(plainPos);
                    plainPos += 8;
                    return;
                case DOUBLE:
                    doubles[values++] = plain.getDouble(plainPos);
                    plainPos += 8;
                    return;
                case FLOAT:
                    doubles[values++] = plain.getFloat(plainPos);
                    plainPos += 4;
                    return;
                default:
                    byte[] b = new byte[binaryLength()];
                    plain.get(plainPos + 4, b);
                    bytes[values++] = b;
                    plainPos += 4 + b.length;
                    return;
            }
        }
        switch (type) {
            case BOOLEAN:
                ints[values++] = valueSource.readBoolean() ? 1 : 0;
                return;
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
                bytes[values++] = valueSource.readBytes().getBytes();
        }
    }

    /** The length of the PLAIN BINARY value at {@code plainPos}, checked against the page. */
    private int binaryLength() throws IOException {
        int left = plain.limit() - plainPos - 4;
        int length = left < 0 ? -1 : plain.getInt(plainPos);
        if (length < 0 || length > left) {
            throw corrupt(
                    "a value of "
                            + length
                            + " bytes at page offset "
                            + plainPos
                            + " where "
                            + Math.max(0, left)
                            + " bytes are left");
        }
        return length;
    }

    private int capacity() {
        return ints != null
                ? ints.length
                : longs != null ? longs.length : doubles != null ? doubles.length : bytes.length;
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

    @Override
    boolean entryAhead() {
        return pending;
    }

    @Override
    void decode(DataPage page) throws IOException {
        int n = page.getValueCount();
        Encoding encoding;
        ByteBuffer data;
        HybridPage split = HybridPage.of(page, maxRep, maxDef);
        if (split != null) {
            repSource = split.rep == null ? ZERO : split.rep::next;
            defSource = split.def == null ? ZERO : split.def::next;
            defInts = split.def;
            encoding = split.encoding;
            data = split.data;
        } else { // deprecated BIT_PACKED levels of a V1 page: parquet-column's own readers
            DataPageV1 p = (DataPageV1) page;
            encoding = p.getValueEncoding();
            ByteBufferInputStream in = ByteBufferInputStream.wrap(p.getBytes().toByteBuffer());
            ValuesReader r = p.getRlEncoding().getValuesReader(column, ValuesType.REPETITION_LEVEL);
            ValuesReader d = p.getDlEncoding().getValuesReader(column, ValuesType.DEFINITION_LEVEL);
            r.initFromPage(n, in);
            d.initFromPage(n, in);
            repSource = r::readInteger;
            defSource = d::readInteger;
            defInts = null;
            data = in.slice(in.available()).order(ByteOrder.LITTLE_ENDIAN);
        }
        if (encoding.usesDictionary()) {
            if (dictionary == null) {
                throw corrupt("dictionary-encoded values without a dictionary page");
            }
            valueMode = DICTIONARY;
            ids = HybridPage.dictionaryIds(data);
        } else if (encoding == Encoding.PLAIN
                && (type == PrimitiveTypeName.INT32
                        || type == PrimitiveTypeName.INT64
                        || type == PrimitiveTypeName.DOUBLE
                        || type == PrimitiveTypeName.FLOAT
                        || type == PrimitiveTypeName.BINARY)) {
            valueMode = PLAIN;
            plain = data;
            plainPos = data.position();
        } else {
            valueMode = READER;
            valueSource = encoding.getValuesReader(column, ValuesType.VALUES);
            valueSource.initFromPage(n, ByteBufferInputStream.wrap(data.slice()));
        }
    }

    private interface LevelSource {
        int next() throws IOException;
    }

    private static final LevelSource ZERO = () -> 0;
}
