package dev.strata.shredding.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;

/**
 * One data page split into its repetition and definition levels (RLE / bit-packed hybrid, read by
 * {@link HybridInts}) and its value bytes. A V1 page stores each level run with a 4-byte
 * little-endian length before it, then the values; a V2 page keeps levels and values in separate
 * buffers. Shared by {@link ColumnCursor} and {@link MappingProbe}.
 */
final class HybridPage {

    /** The levels; null when the maximum level is 0. */
    final HybridInts rep;

    final HybridInts def;

    /** The value bytes, little-endian, positioned at the first value. */
    final ByteBuffer data;

    final Encoding encoding;

    private HybridPage(HybridInts rep, HybridInts def, ByteBuffer data, Encoding encoding) {
        this.rep = rep;
        this.def = def;
        this.data = data;
        this.encoding = encoding;
    }

    /** Splits {@code page}; null for V1 BIT_PACKED levels (then use parquet-column's readers). */
    static HybridPage of(DataPage page, int maxRep, int maxDef) throws IOException {
        if (page instanceof DataPageV1) {
            DataPageV1 p = (DataPageV1) page;
            if ((maxRep > 0 && p.getRlEncoding() != Encoding.RLE)
                    || (maxDef > 0 && p.getDlEncoding() != Encoding.RLE)) {
                return null;
            }
            ByteBuffer buf = p.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            int pos = buf.position();
            HybridInts rep = null;
            if (maxRep > 0) {
                int len = buf.getInt(pos);
                rep = new HybridInts(buf, pos + 4, pos + 4 + len, bitWidth(maxRep));
                pos += 4 + len;
            }
            HybridInts def = null;
            if (maxDef > 0) {
                int len = buf.getInt(pos);
                def = new HybridInts(buf, pos + 4, pos + 4 + len, bitWidth(maxDef));
                pos += 4 + len;
            }
            ByteBuffer data = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            data.position(pos);
            return new HybridPage(rep, def, data, p.getValueEncoding());
        }
        DataPageV2 p = (DataPageV2) page;
        return new HybridPage(
                levels(maxRep, p.getRepetitionLevels().toByteBuffer()),
                levels(maxDef, p.getDefinitionLevels().toByteBuffer()),
                p.getData().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN),
                p.getDataEncoding());
    }

    /** The ids of a dictionary-encoded page's values (bit-width byte, then runs); null if none. */
    static HybridInts dictionaryIds(ByteBuffer data) {
        int pos = data.position();
        return data.hasRemaining()
                ? new HybridInts(data, pos + 1, data.limit(), data.get(pos) & 0xFF)
                : null;
    }

    static int bitWidth(int maxLevel) {
        return 32 - Integer.numberOfLeadingZeros(maxLevel);
    }

    private static HybridInts levels(int maxLevel, ByteBuffer buf) {
        return maxLevel == 0
                ? null
                : new HybridInts(buf, buf.position(), buf.limit(), bitWidth(maxLevel));
    }
}
