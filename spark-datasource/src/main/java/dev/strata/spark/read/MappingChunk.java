package dev.strata.spark.read;

import java.io.IOException;
import java.util.Arrays;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReader;

/**
 * One row group's {@code __field_mapping} column (an optional list of optional INT32 inside the optional
 * shredded group: repetition level 1, definition levels 0 = NULL map ... 4 = element), decoded in bulk
 * ({@link DecodedChunk}) into per-row arrays. The benchmark showed value-at-a-time decoding of these K
 * ints a row through parquet-mr's {@code ColumnReader} as the columnar path's main cost.
 */
final class MappingChunk {

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

    static MappingChunk decode(PageReader pages, ColumnDescriptor column, int rows, String file) throws IOException {
        if (column.getMaxRepetitionLevel() != 1 || column.getMaxDefinitionLevel() != 4) {
            throw new IllegalStateException("Cannot decode __field_mapping of " + file + ": expected repetition level 1"
                    + " and definition level 4 but the schema gives " + column.getMaxRepetitionLevel() + " and "
                    + column.getMaxDefinitionLevel() + ". The file is corrupt or was not written by Strata.");
        }
        DecodedChunk chunk = DecodedChunk.decode(pages, column, file);
        int total = chunk.entries;
        int[] rep = chunk.rep;
        int[] def = chunk.def;
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
                values[out++] = chunk.getInt(v++);
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
}
