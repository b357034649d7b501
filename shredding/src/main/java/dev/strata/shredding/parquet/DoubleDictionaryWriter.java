package dev.strata.shredding.parquet;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.IntList;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;

/**
 * parquet-column's dictionary encoding of DOUBLE values with a cheaper value → id lookup and its
 * entries in value order. Page encoding, size accounting and the fallback decisions are {@link
 * DictionaryValuesWriter}'s own, and renumbering keeps every run of equal ids, so pages, encodings
 * and fallbacks are exactly parquet-mr's; only the ids and the order of the dictionary page differ.
 *
 * <p>Why: a shredded map writes its values into K columns, each with a dictionary of its own. With
 * values of two decimals every column's dictionary holds the ~10 000 distinct values, and K of
 * parquet-mr's hash maps (keys, values and insertion links in separate arrays, about 330 KB each)
 * do not stay in the CPU caches, so each value costs cache misses: a profile of a 40-key INSERT had
 * parquet-mr's {@code Double2IntLinkedOpenHashMap.get} at 14 % of the task, and one open-addressing
 * table per column still 15 %. So the DOUBLE columns of one row group share one value → index table
 * ({@link ValueIds}, one cache-resident table for K columns that mostly hold the same values); a
 * column records which shared indexes it holds in a bit set and buffers a page as shared indexes,
 * which it turns into its own dictionary ids when the page is encoded.
 */
final class DoubleDictionaryWriter extends DictionaryValuesWriter {

    /** Indexes of the values' raw bits, shared by the DOUBLE columns of the row group. */
    private final ValueIds shared;

    /** Bit set of the shared indexes this column's dictionary holds. */
    private long[] seen = new long[16];

    /** The shared index of each dictionary id. */
    private int[] indexOfId = new int[64];

    private int size;

    /**
     * Whether {@code encodedValues} holds dictionary ids (after {@link #getBytes()}) rather than
     * shared indexes (while a page is written).
     */
    private boolean pageHoldsIds;

    DoubleDictionaryWriter(
            ValueIds shared,
            int maxDictionaryByteSize,
            Encoding encodingForDataPage,
            Encoding encodingForDictionaryPage,
            ParquetProperties props) {
        super(
                maxDictionaryByteSize,
                encodingForDataPage,
                encodingForDictionaryPage,
                props.getAllocator());
        this.shared = shared;
    }

    @Override
    public void writeDouble(double v) {
        int index = shared.indexOf(Double.doubleToRawLongBits(v));
        int word = index >>> 6;
        long[] s = seen;
        if (word >= s.length) {
            s = seen = Arrays.copyOf(s, Math.max(word + 1, s.length * 2));
        }
        long bit = 1L << index;
        if ((s[word] & bit) == 0) {
            s[word] |= bit;
            if (size == indexOfId.length) {
                indexOfId = Arrays.copyOf(indexOfId, size * 2);
            }
            indexOfId[size++] = index;
            dictionaryByteSize += 8;
        }
        encodedValues.add(index);
    }

    /**
     * Turns the page's shared indexes into dictionary ids. Ids are given in order of first
     * appearance; before the first page that uses the dictionary its entries are renumbered in
     * value order (ids are free to choose; any reader only looks them up): values of the same key
     * sit next to each other in the dictionary page, which zstd then takes at about half the bytes
     * (10 000 two-decimal values: 1.7 instead of 3.2 bytes a value at level 1). Values first seen
     * on later pages are appended in order of appearance, since earlier pages already use the ids.
     */
    @Override
    public BytesInput getBytes() {
        if (!pageHoldsIds) {
            if (lastUsedDictionarySize == 0 && size > 1) {
                sortEntries();
            }
            int[] idOfIndex = shared.scratch();
            for (int id = 0; id < size; id++) {
                idOfIndex[indexOfId[id]] = id;
            }
            IntList ids = new IntList();
            IntList.IntIterator it = encodedValues.iterator();
            while (it.hasNext()) {
                ids.add(idOfIndex[it.next()]);
            }
            encodedValues = ids;
            pageHoldsIds = true;
        }
        return super.getBytes();
    }

    /**
     * Orders the dictionary's entries by value: -0.0 before 0.0, NaNs by their bits (negative ones
     * first, positive ones last).
     */
    private void sortEntries() {
        long[] keys = new long[size];
        for (int id = 0; id < size; id++) {
            keys[id] = sortable(shared.bits(indexOfId[id]));
        }
        Arrays.sort(keys);
        for (int id = 0; id < size; id++) {
            indexOfId[id] = shared.find(sortable(keys[id]));
        }
    }

    /** Raw bits ↔ a long whose signed order is the doubles' order (its own inverse). */
    private static long sortable(long bits) {
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    @Override
    public void reset() {
        super.reset();
        pageHoldsIds = false;
    }

    @Override
    public DictionaryPage toDictPageAndClose() {
        if (lastUsedDictionarySize <= 0) {
            return null;
        }
        PlainValuesWriter page =
                new PlainValuesWriter(lastUsedDictionaryByteSize, maxDictionaryByteSize, allocator);
        for (int id = 0; id < lastUsedDictionarySize; id++) {
            page.writeDouble(Double.longBitsToDouble(shared.bits(indexOfId[id])));
        }
        return dictPage(page);
    }

    @Override
    public int getDictionarySize() {
        return size;
    }

    @Override
    protected void clearDictionaryContent() {
        seen = new long[16];
        indexOfId = new int[64];
        size = 0;
    }

    @Override
    public void fallBackDictionaryEncodedData(ValuesWriter writer) {
        IntList.IntIterator it = encodedValues.iterator();
        while (it.hasNext()) {
            int i = it.next();
            writer.writeDouble(
                    Double.longBitsToDouble(shared.bits(pageHoldsIds ? indexOfId[i] : i)));
        }
    }

    /** Whether {@code d} is a shredded map's {@code <map>.__field_mapping.list.element}. */
    static boolean isFieldMapping(ColumnDescriptor d) {
        String[] path = d.getPath();
        return path.length >= 3 && ParquetSchemas.FIELD_MAPPING.equals(path[path.length - 3]);
    }

    /**
     * The {@code __field_mapping} ids with pages cut by their dictionary-encoded size rather than
     * parquet's 4 bytes a value, so they span the same rows as the value columns' pages (the row
     * limit, 20 000 rows) instead of a quarter of that: zstd compresses each page as one frame and
     * learns a map's repeated key patterns once per page (200 000 rows x 30 keys: 13 pages of 7 700
     * rows, 333 KB a file; 5 pages of 20 000 rows, ~250 KB). Once the dictionary falls back to
     * PLAIN the raw size counts again, as parquet's.
     */
    static final class MappingValuesWriter
            extends FallbackValuesWriter<IntDictionaryWriter, ValuesWriter> {
        MappingValuesWriter(IntDictionaryWriter initial, ValuesWriter fallBack) {
            super(initial, fallBack);
        }

        @Override
        public long getBufferedSize() {
            return getEncoding().usesDictionary()
                    ? initialWriter.encodedSizeEstimate()
                    : super.getBufferedSize();
        }
    }

    /**
     * parquet-column's default writers ({@link DefaultValuesWriterFactory}), except that a
     * dictionary-encoded DOUBLE column gets a {@link DoubleDictionaryWriter} and a
     * dictionary-encoded INT32 column an {@link IntDictionaryWriter}, in front of the same fallback
     * writer; the DOUBLE columns of one column store share one {@link ValueIds}.
     */
    static final class Factory implements ValuesWriterFactory {
        private final DefaultValuesWriterFactory delegate = new DefaultValuesWriterFactory();
        private ParquetProperties props;

        /**
         * The table shared by the DOUBLE dictionaries of the column store being built, and the
         * columns given one so far. A column asked for again starts a new store (a new row group):
         * it gets a new table, so the previous one is freed with the previous group's writers and
         * never mixes two groups' values.
         */
        private ValueIds shared = new ValueIds();

        private final Set<ColumnDescriptor> sharing = new HashSet<>();

        @Override
        public void initialize(ParquetProperties properties) {
            this.props = properties;
            delegate.initialize(properties);
        }

        @Override
        public ValuesWriter newValuesWriter(ColumnDescriptor descriptor) {
            ValuesWriter w = delegate.newValuesWriter(descriptor);
            if (!(w instanceof FallbackValuesWriter)) {
                return w;
            }
            FallbackValuesWriter<?, ?> f = (FallbackValuesWriter<?, ?>) w;
            boolean isDouble =
                    f.initialWriter
                            instanceof DictionaryValuesWriter.PlainDoubleDictionaryValuesWriter;
            if (!isDouble
                    && !(f.initialWriter
                            instanceof DictionaryValuesWriter.PlainIntegerDictionaryValuesWriter)) {
                return w;
            }
            DictionaryValuesWriter initial = (DictionaryValuesWriter) f.initialWriter;
            Encoding dataPage = initial.getEncoding();
            initial.close();
            // parquet-column's factories: PLAIN_DICTIONARY dictionary pages for format v1, PLAIN
            // for v2.
            Encoding dictionaryPage =
                    props.getWriterVersion() == ParquetProperties.WriterVersion.PARQUET_1_0
                            ? Encoding.PLAIN_DICTIONARY
                            : Encoding.PLAIN;
            int maxBytes = props.getDictionaryPageSizeThreshold();
            if (!isDouble) {
                IntDictionaryWriter ids =
                        new IntDictionaryWriter(maxBytes, dataPage, dictionaryPage, props);
                return isFieldMapping(descriptor)
                        ? new MappingValuesWriter(ids, f.fallBackWriter)
                        : FallbackValuesWriter.of(ids, f.fallBackWriter);
            }
            if (!sharing.add(descriptor)) {
                shared = new ValueIds();
                sharing.clear();
                sharing.add(descriptor);
            }
            return FallbackValuesWriter.of(
                    new DoubleDictionaryWriter(shared, maxBytes, dataPage, dictionaryPage, props),
                    f.fallBackWriter);
        }
    }
}
