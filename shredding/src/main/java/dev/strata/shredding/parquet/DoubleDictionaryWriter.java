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
import org.apache.parquet.schema.PrimitiveType;

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
 * ({@link SharedValues}, one cache-resident table for K columns that mostly hold the same values);
 * a column records which shared indexes it holds in a bit set and buffers a page as shared indexes,
 * which it turns into its own dictionary ids when the page is encoded.
 */
final class DoubleDictionaryWriter extends DictionaryValuesWriter {

    private final SharedValues shared;

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
            SharedValues shared,
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
        int index = shared.indexOf(v);
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
            keys[id] = sortable(Double.doubleToRawLongBits(shared.value(indexOfId[id])));
        }
        Arrays.sort(keys);
        for (int id = 0; id < size; id++) {
            indexOfId[id] = shared.indexOfBits(sortable(keys[id]));
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
            page.writeDouble(shared.value(indexOfId[id]));
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
            writer.writeDouble(shared.value(pageHoldsIds ? indexOfId[i] : i));
        }
    }

    /**
     * The distinct DOUBLE values written to the dictionaries of one row group's columns, by index
     * in order of first appearance: an open-addressing table whose slot holds a value's raw bits
     * and its index + 1 side by side (one cache miss at most). Values are the same entry when their
     * bits are: 0.0 and -0.0 differ, and so do NaNs of different bit patterns (parquet-mr's map
     * hashes the raw bits too). Its size is at most the sum of the columns' dictionary sizes, each
     * bounded by the dictionary page size before parquet-column falls back.
     */
    static final class SharedValues {
        private long[] slots = new long[2 * 1024];
        private int shift = 64 - 10;
        private double[] values = new double[1024];
        private int size;
        private int[] scratch = new int[0];

        /** The index of {@code v}, adding it when new. */
        int indexOf(double v) {
            long bits = Double.doubleToRawLongBits(v);
            long[] s = slots;
            int mask = s.length - 2;
            int at = slot(bits);
            while (true) {
                long indexPlusOne = s[at + 1];
                if (indexPlusOne == 0) {
                    break;
                }
                if (s[at] == bits) {
                    return (int) indexPlusOne - 1;
                }
                at = (at + 2) & mask;
            }
            int index = size++;
            s[at] = bits;
            s[at + 1] = index + 1L;
            if (index == values.length) {
                values = Arrays.copyOf(values, index * 2);
            }
            values[index] = v;
            if (size * 4L > (s.length / 2) * 3L) {
                grow();
            }
            return index;
        }

        /** The index of a value already added, by its raw bits. */
        int indexOfBits(long bits) {
            long[] s = slots;
            int mask = s.length - 2;
            int at = slot(bits);
            while (s[at] != bits || s[at + 1] == 0) {
                at = (at + 2) & mask;
            }
            return (int) s[at + 1] - 1;
        }

        /** The first value added with index {@code index}'s bits. */
        double value(int index) {
            return values[index];
        }

        /** An array of at least one int per index, for a column to renumber a page with. */
        int[] scratch() {
            if (scratch.length < size) {
                scratch = new int[Math.max(size, scratch.length * 2)];
            }
            return scratch;
        }

        /** The even index of the slot a value's bits hash to (Fibonacci hashing). */
        private int slot(long bits) {
            return (int) ((bits * 0x9E3779B97F4A7C15L) >>> shift) << 1;
        }

        private void grow() {
            long[] old = slots;
            slots = new long[old.length * 2];
            shift--;
            int mask = slots.length - 2;
            for (int i = 0; i < old.length; i += 2) {
                if (old[i + 1] != 0) {
                    int at = slot(old[i]);
                    while (slots[at + 1] != 0) {
                        at = (at + 2) & mask;
                    }
                    slots[at] = old[i];
                    slots[at + 1] = old[i + 1];
                }
            }
        }
    }

    /**
     * parquet-column's default writers ({@link DefaultValuesWriterFactory}), except that a
     * dictionary-encoded DOUBLE column gets a {@link DoubleDictionaryWriter} in front of the same
     * fallback writer; the DOUBLE columns of one column store share one {@link SharedValues}.
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
        private SharedValues shared = new SharedValues();

        private final Set<ColumnDescriptor> sharing = new HashSet<>();

        @Override
        public void initialize(ParquetProperties properties) {
            this.props = properties;
            delegate.initialize(properties);
        }

        @Override
        public ValuesWriter newValuesWriter(ColumnDescriptor descriptor) {
            ValuesWriter w = delegate.newValuesWriter(descriptor);
            if (descriptor.getPrimitiveType().getPrimitiveTypeName()
                            != PrimitiveType.PrimitiveTypeName.DOUBLE
                    || !(w instanceof FallbackValuesWriter)) {
                return w;
            }
            FallbackValuesWriter<?, ?> f = (FallbackValuesWriter<?, ?>) w;
            if (!(f.initialWriter
                    instanceof DictionaryValuesWriter.PlainDoubleDictionaryValuesWriter)) {
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
            if (!sharing.add(descriptor)) {
                shared = new SharedValues();
                sharing.clear();
                sharing.add(descriptor);
            }
            return FallbackValuesWriter.of(
                    new DoubleDictionaryWriter(
                            shared,
                            props.getDictionaryPageSizeThreshold(),
                            dataPage,
                            dictionaryPage,
                            props),
                    f.fallBackWriter);
        }
    }
}
