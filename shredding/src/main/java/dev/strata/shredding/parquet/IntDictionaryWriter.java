package dev.strata.shredding.parquet;

import java.util.Arrays;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.IntList;
import org.apache.parquet.column.values.plain.PlainValuesWriter;

/**
 * parquet-column's dictionary encoding of INT32 values with the value → id lookup in a {@link
 * ValueIds} table instead of fastutil's linked hash map, since a shredded map writes K {@code
 * __field_mapping} ids per row, each a lookup. Ids in order of first appearance; page encoding,
 * size accounting and fallbacks are {@link DictionaryValuesWriter}'s own: parquet-mr's bytes.
 */
final class IntDictionaryWriter extends DictionaryValuesWriter {

    private ValueIds ids = new ValueIds();

    /**
     * Index + 1 of small value v at {@code direct[v + 1]} (0: unseen): mapping values are dense key
     * ids and -1, and this array stays in cache where hash table slots do not.
     */
    private int[] direct = new int[64];

    IntDictionaryWriter(
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
    public void writeInteger(int v) {
        int at = v + 1;
        int[] d = direct;
        if (at >= 0 && at < d.length && d[at] != 0) {
            encodedValues.add(d[at] - 1);
            return;
        }
        ValueIds t = ids;
        int before = t.size();
        int id = t.indexOf(v);
        if (id == before) {
            dictionaryByteSize += 4;
        }
        if (at >= 0 && at < DIRECT_LIMIT) {
            if (at >= d.length) {
                direct =
                        d =
                                Arrays.copyOf(
                                        d, Math.min(DIRECT_LIMIT, Math.max(at + 1, d.length * 2)));
            }
            d[at] = id + 1;
        }
        encodedValues.add(id);
    }

    /** Values from -1 below this minus one are indexed directly (4 MB at most). */
    private static final int DIRECT_LIMIT = 1 << 20;

    /** Bytes of the buffered ids bit-packed at the dictionary's width (parquet counts 4 each). */
    long encodedSizeEstimate() {
        int width = BytesUtils.getWidthFromMaxInt(Math.max(0, ids.size() - 1));
        return ((long) encodedValues.size() * width + 7) / 8;
    }

    @Override
    public DictionaryPage toDictPageAndClose() {
        if (lastUsedDictionarySize <= 0) {
            return null;
        }
        PlainValuesWriter page =
                new PlainValuesWriter(lastUsedDictionaryByteSize, maxDictionaryByteSize, allocator);
        for (int id = 0; id < lastUsedDictionarySize; id++) {
            page.writeInteger((int) ids.bits(id));
        }
        return dictPage(page);
    }

    @Override
    public int getDictionarySize() {
        return ids.size();
    }

    @Override
    protected void clearDictionaryContent() {
        ids = new ValueIds();
        Arrays.fill(direct, 0);
    }

    @Override
    public void fallBackDictionaryEncodedData(ValuesWriter writer) {
        ValueIds t = ids;
        IntList.IntIterator it = encodedValues.iterator();
        while (it.hasNext()) {
            writer.writeInteger((int) t.bits(it.next()));
        }
    }
}
