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
 * parquet-column's dictionary encoding of DOUBLE values with entries in value order and a cheaper
 * value → id lookup: the DOUBLE columns of a row group share one value → index table ({@link
 * ValueIds}), as K per-column hash maps do not stay in the CPU caches. Page encoding, size
 * accounting and fallbacks are {@link DictionaryValuesWriter}'s own and renumbering keeps every run
 * of equal ids, so only the ids and the dictionary page's order differ from parquet-mr's.
 */
final class DoubleDictionaryWriter extends DictionaryValuesWriter {

    /**
     * Distinct values the shared table may hold before the largest dictionaries fall back: each of
     * K columns of distinct values would put up to its own limit (1 MB of entries) into it, tens of
     * millions on a wide map of full-precision values. Values of a few decimals stay below it.
     */
    static final int SHARED_LIMIT = 1 << 20;

    /** Indexes of the values' raw bits, shared by the DOUBLE columns of the row group. */
    private final ValueIds shared;

    /** Bit set of the shared indexes this column's dictionary holds. */
    private long[] seen = new long[16];

    private int[] indexOfId = new int[64];

    private int size;

    /** Whether {@code encodedValues} holds dictionary ids (after getBytes) or shared indexes. */
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
        shared.addUser();
    }

    /**
     * Past {@link #SHARED_LIMIT} shared values, a column whose dictionary holds more than the
     * columns' average share falls back (to PLAIN or BYTE_STREAM_SPLIT, as at its own limit).
     */
    @Override
    public boolean shouldFallBack() {
        return super.shouldFallBack()
                || shared.size() > SHARED_LIMIT && (long) size * shared.users() > shared.size();
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
     * Turns the page's shared indexes into dictionary ids, in order of first appearance; before the
     * first page using the dictionary, entries are renumbered in value order, which zstd compresses
     * much better. Later new values are appended, as earlier pages already use the ids.
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

    /** Orders the entries by value, -0.0 before 0.0, negative NaNs first and positive ones last. */
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
     * {@code __field_mapping} ids with pages cut by their dictionary-encoded size, not parquet's 4
     * bytes a value, so they span the value columns' rows: zstd then learns a map's repeated key
     * patterns once per page. After a fallback to PLAIN the raw size counts, as in parquet.
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
     * parquet-column's default writers, except that dictionary-encoded DOUBLE and INT32 columns get
     * a {@link DoubleDictionaryWriter} or {@link IntDictionaryWriter} before the same fallback
     * writer; a store's DOUBLE columns share one {@link ValueIds}.
     */
    static final class Factory implements ValuesWriterFactory {
        private final DefaultValuesWriterFactory delegate = new DefaultValuesWriterFactory();
        private ParquetProperties props;

        /** Shared by the store's DOUBLE dictionaries; a column seen again starts a new table. */
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
            // As parquet-column's factories: PLAIN_DICTIONARY for format v1, PLAIN for v2.
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
