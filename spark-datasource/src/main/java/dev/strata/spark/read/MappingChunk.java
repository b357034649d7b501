package dev.strata.spark.read;

import java.io.IOException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * One row group's {@code __field_mapping} column (an optional list of optional INT32 inside the optional
 * shredded group: repetition level 1, definition levels 0 = NULL map ... 4 = element), decoded in bulk
 * into arrays. The benchmark showed value-at-a-time decoding of these K ints a row (levels, dictionary
 * ids) through parquet-mr's {@code ColumnReader} as the columnar path's main cost; this decodes whole
 * pages (RLE / bit-packed hybrid levels, dictionary or plain values) instead. Only V1 data pages with
 * PLAIN or dictionary values are handled: {@link #decodable} says so from the chunk's encoding
 * statistics before any page is read, and callers use the column reader otherwise.
 */
final class MappingChunk {

    private static final Set<Encoding> VALUE_ENCODINGS =
            EnumSet.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);

    /** Row r's elements are {@code values[rowStarts[r] .. rowStarts[r + 1])}; NULL elements are -1. */
    final int[] rowStarts;
    final int[] values;
    /** Whether row r's map is NULL. */
    final boolean[] nullRow;

    private MappingChunk(int[] rowStarts, int[] values, boolean[] nullRow) {
        this.rowStarts = rowStarts;
        this.values = values;
        this.nullRow = nullRow;
    }

    static boolean decodable(ColumnChunkMetaData chunk) {
        EncodingStats stats = chunk.getEncodingStats();
        return stats != null && !stats.usesV2Pages() && VALUE_ENCODINGS.containsAll(stats.getDataEncodings())
                && chunk.getValueCount() <= Integer.MAX_VALUE / 2;
    }

    static MappingChunk decode(PageReader pages, ColumnDescriptor column, int rows, String file) throws IOException {
        if (column.getMaxRepetitionLevel() != 1 || column.getMaxDefinitionLevel() != 4) {
            throw new IllegalStateException("Cannot decode __field_mapping of " + file + ": expected repetition level 1"
                    + " and definition level 4 but the schema gives " + column.getMaxRepetitionLevel() + " and "
                    + column.getMaxDefinitionLevel() + ". The file is corrupt or was not written by Strata.");
        }
        int total = (int) pages.getTotalValueCount();
        int[] dictionary = null;
        DictionaryPage dp = pages.readDictionaryPage();
        if (dp != null) {
            Dictionary d = dp.getEncoding().initDictionary(column, dp);
            dictionary = new int[d.getMaxId() + 1];
            for (int i = 0; i <= d.getMaxId(); i++) {
                dictionary[i] = d.decodeToInt(i);
            }
        }
        int[] rep = new int[total];
        int[] def = new int[total];
        int[] vals = new int[total];
        int entries = 0;
        int nonNull = 0;
        DataPage page;
        while (entries < total && (page = pages.readPage()) != null) {
            if (!(page instanceof DataPageV1)) {
                throw unsupported(file, "a V2 data page");
            }
            DataPageV1 p = (DataPageV1) page;
            int n = p.getValueCount();
            if (p.getRlEncoding() != Encoding.RLE || p.getDlEncoding() != Encoding.RLE) {
                throw unsupported(file, "levels encoded as " + p.getRlEncoding() + "/" + p.getDlEncoding());
            }
            byte[] buf = p.getBytes().toByteArray();
            int pos = 0;
            int len = readIntLittleEndian(buf, pos);
            pos += 4;
            hybrid(buf, pos, 1, rep, entries, n);
            pos += len;
            len = readIntLittleEndian(buf, pos);
            pos += 4;
            hybrid(buf, pos, 3, def, entries, n);
            pos += len;
            int present = 0;
            for (int i = entries; i < entries + n; i++) {
                present += def[i] == 4 ? 1 : 0;
            }
            Encoding enc = p.getValueEncoding();
            if (enc == Encoding.PLAIN) {
                for (int i = 0; i < present; i++) {
                    vals[nonNull + i] = readIntLittleEndian(buf, pos + 4 * i);
                }
            } else if (enc == Encoding.PLAIN_DICTIONARY || enc == Encoding.RLE_DICTIONARY) {
                if (dictionary == null) {
                    throw unsupported(file, "dictionary-encoded values without a dictionary page");
                }
                int bitWidth = buf[pos] & 0xFF;
                hybrid(buf, pos + 1, bitWidth, vals, nonNull, present);
                for (int i = nonNull; i < nonNull + present; i++) {
                    vals[i] = dictionary[vals[i]];
                }
            } else {
                throw unsupported(file, "values encoded as " + enc);
            }
            entries += n;
            nonNull += present;
        }
        if (entries != total) {
            throw new IllegalStateException("Cannot decode __field_mapping of " + file + ": the pages hold " + entries
                    + " values but the column chunk declares " + total + ". The file is corrupt.");
        }
        int[] rowStarts = new int[rows + 1];
        boolean[] nullRow = new boolean[rows];
        int[] values = new int[total];
        int row = -1;
        int out = 0;
        int v = 0;
        for (int i = 0; i < total; i++) {
            if (rep[i] == 0) {
                row++;
                if (row >= rows) {
                    throw new IllegalStateException("Cannot decode __field_mapping of " + file + ": more rows than the"
                            + " row group's " + rows + ". The file is corrupt.");
                }
                rowStarts[row] = out;
                nullRow[row] = def[i] == 0;
            }
            if (def[i] == 4) {
                values[out++] = vals[v++];
            } else if (def[i] == 3) {
                values[out++] = -1;
            }
        }
        if (row != rows - 1) {
            throw new IllegalStateException("Cannot decode __field_mapping of " + file + ": " + (row + 1)
                    + " rows found, the row group has " + rows + ". The file is corrupt.");
        }
        rowStarts[rows] = out;
        return new MappingChunk(rowStarts, Arrays.copyOf(values, out), nullRow);
    }

    private static IllegalStateException unsupported(String file, String what) {
        return new IllegalStateException("Cannot decode __field_mapping of " + file + ": " + what + " was found although"
                + " the chunk's encoding statistics promised V1 pages with PLAIN or dictionary values. The file is corrupt.");
    }

    private static int readIntLittleEndian(byte[] b, int pos) {
        return (b[pos] & 0xFF) | (b[pos + 1] & 0xFF) << 8 | (b[pos + 2] & 0xFF) << 16 | (b[pos + 3] & 0xFF) << 24;
    }

    /** Decodes {@code count} values of Parquet's RLE / bit-packed hybrid encoding into {@code out[at..]}. */
    private static void hybrid(byte[] buf, int pos, int bitWidth, int[] out, int at, int count) {
        BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
        int byteWidth = (bitWidth + 7) / 8;
        int[] eight = new int[8];
        int produced = 0;
        while (produced < count) {
            int header = 0;
            int shift = 0;
            byte b;
            do {
                b = buf[pos++];
                header |= (b & 0x7F) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            if ((header & 1) == 0) {
                int run = header >>> 1;
                int value = 0;
                for (int i = 0; i < byteWidth; i++) {
                    value |= (buf[pos++] & 0xFF) << (8 * i);
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
}
