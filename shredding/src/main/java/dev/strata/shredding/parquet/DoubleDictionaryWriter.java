package dev.strata.shredding.parquet;

import java.util.Arrays;
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
 * do not stay in the CPU caches, so each value costs two cache misses: a profile of a 40-key INSERT
 * had parquet-mr's {@code Double2IntLinkedOpenHashMap.get} at 14 % of the task. Here a slot holds
 * the value's bits and its id side by side (one miss), and the dictionary's values are a dense
 * array by id.
 */
final class DoubleDictionaryWriter extends DictionaryValuesWriter {

    /**
     * Slots of two longs: the value's raw bits, and id + 1 (0: empty). Values are the same entry
     * when their bits are: 0.0 and -0.0 differ, and so do NaNs of different bit patterns
     * (parquet-mr's map hashes the raw bits too and only merges two such NaNs when one lies in the
     * other's probe run).
     */
    private long[] slots = new long[2 * 64];

    private int shift = 64 - 6;

    /** The first value written for each id (its raw bits go to the dictionary page). */
    private double[] values = new double[64];

    private int size;

    DoubleDictionaryWriter(
            int maxDictionaryByteSize,
            Encoding encodingForDataPage,
            Encoding encodingForDictionaryPage,
            ParquetProperties props) {
        super(
                maxDictionaryByteSize,
                encodingForDataPage,
                encodingForDictionaryPage,
                props.getAllocator());
    }

    @Override
    public void writeDouble(double v) {
        long bits = Double.doubleToRawLongBits(v);
        long[] s = slots;
        int mask = s.length - 2;
        int at = slot(bits);
        while (true) {
            long idPlusOne = s[at + 1];
            if (idPlusOne == 0) {
                break;
            }
            if (s[at] == bits) {
                encodedValues.add((int) idPlusOne - 1);
                return;
            }
            at = (at + 2) & mask;
        }
        int id = size++;
        s[at] = bits;
        s[at + 1] = id + 1L;
        if (id == values.length) {
            values = Arrays.copyOf(values, id * 2);
        }
        values[id] = v;
        dictionaryByteSize += 8;
        encodedValues.add(id);
        if (size * 4L > (s.length / 2) * 3L) {
            grow();
        }
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

    /**
     * Before the first page that uses the dictionary, renumbers its entries in value order (ids are
     * free to choose; any reader only looks them up): values of the same key sit next to each other
     * in the dictionary page, which zstd then takes at about half the bytes (10 000 two-decimal
     * values: 1.7 instead of 3.2 bytes a value at level 1). Values first seen on later pages are
     * appended in order of appearance, since earlier pages already use the ids.
     */
    @Override
    public BytesInput getBytes() {
        if (lastUsedDictionarySize == 0 && size > 1) {
            sortEntries();
        }
        return super.getBytes();
    }

    private void sortEntries() {
        double[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        int[] newId = new int[size];
        long[] s = slots;
        int mask = s.length - 2;
        for (int i = 0; i < size; i++) {
            long bits = Double.doubleToRawLongBits(sorted[i]);
            int at = slot(bits);
            while (s[at] != bits || s[at + 1] == 0) {
                at = (at + 2) & mask;
            }
            newId[(int) s[at + 1] - 1] = i;
        }
        for (int i = 0; i < s.length; i += 2) {
            if (s[i + 1] != 0) {
                s[i + 1] = newId[(int) s[i + 1] - 1] + 1L;
            }
        }
        System.arraycopy(sorted, 0, values, 0, size);
        IntList renumbered = new IntList();
        IntList.IntIterator it = encodedValues.iterator();
        while (it.hasNext()) {
            renumbered.add(newId[it.next()]);
        }
        encodedValues = renumbered;
    }

    @Override
    public DictionaryPage toDictPageAndClose() {
        if (lastUsedDictionarySize <= 0) {
            return null;
        }
        PlainValuesWriter page =
                new PlainValuesWriter(lastUsedDictionaryByteSize, maxDictionaryByteSize, allocator);
        for (int id = 0; id < lastUsedDictionarySize; id++) {
            page.writeDouble(values[id]);
        }
        return dictPage(page);
    }

    @Override
    public int getDictionarySize() {
        return size;
    }

    @Override
    protected void clearDictionaryContent() {
        slots = new long[2 * 64];
        shift = 64 - 6;
        values = new double[64];
        size = 0;
    }

    @Override
    public void fallBackDictionaryEncodedData(ValuesWriter writer) {
        double[] v = values;
        IntList.IntIterator it = encodedValues.iterator();
        while (it.hasNext()) {
            writer.writeDouble(v[it.next()]);
        }
    }

    /**
     * parquet-column's default writers ({@link DefaultValuesWriterFactory}), except that a
     * dictionary-encoded DOUBLE column gets a {@link DoubleDictionaryWriter} in front of the same
     * fallback writer.
     */
    static final class Factory implements ValuesWriterFactory {
        private final DefaultValuesWriterFactory delegate = new DefaultValuesWriterFactory();
        private ParquetProperties props;

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
            return FallbackValuesWriter.of(
                    new DoubleDictionaryWriter(
                            props.getDictionaryPageSizeThreshold(),
                            dataPage,
                            dictionaryPage,
                            props),
                    f.fallBackWriter);
        }
    }
}
