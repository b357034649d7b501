package dev.strata.spark.read;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.spark.data.PaimonToSpark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/** Reads matching rows by position, then the files read whole through {@code rest}. */
final class TextMatchReader implements PartitionReader<InternalRow> {

    private static final InternalRow EMPTY = new GenericInternalRow(0);

    /** Bounds memory: a common term matches most of a file. */
    static final int POSITIONS_PER_READ = 4096;

    private final String tableName;
    private final java.util.function.Supplier<FileStoreTable> table;
    private final TextMatchInputPartition input;
    private final RowType readType;
    private final Iterator<Map.Entry<String, long[]>> files;
    private final PartitionReader<InternalRow> rest;
    private PkFullTextSearcher searcher;
    private Iterator<InternalRow> rows = java.util.Collections.emptyIterator();
    private String file;
    private long[] positions;
    private int nextPosition;
    private InternalRow current;

    TextMatchReader(
            String tableName,
            java.util.function.Supplier<FileStoreTable> table,
            TextMatchInputPartition input,
            RowType readType,
            PartitionReader<InternalRow> rest) {
        this.tableName = tableName;
        this.table = table;
        this.input = input;
        this.readType = readType;
        this.files = input.positions.entrySet().iterator();
        this.rest = rest;
    }

    @Override
    public boolean next() throws IOException {
        while (!rows.hasNext()) {
            if (positions == null || nextPosition == positions.length) {
                if (!files.hasNext()) {
                    break;
                }
                Map.Entry<String, long[]> next = files.next();
                file = next.getKey();
                positions = next.getValue().clone();
                java.util.Arrays.sort(positions);
                nextPosition = 0;
            }
            int end = Math.min(positions.length, nextPosition + POSITIONS_PER_READ);
            rows =
                    read(file, java.util.Arrays.copyOfRange(positions, nextPosition, end))
                            .iterator();
            nextPosition = end;
        }
        if (rows.hasNext()) {
            current = rows.next();
            return true;
        }
        if (rest != null && rest.next()) {
            current = rest.get();
            return true;
        }
        return false;
    }

    /** {@code positions} ascending. */
    private List<InternalRow> read(String file, long[] positions) {
        List<String> columns = readType.getFieldNames();
        if (columns.isEmpty()) {
            // No column (count(*)): the positions are live rows already, so nothing is read.
            return java.util.Collections.nCopies(positions.length, EMPTY);
        }
        if (searcher == null) {
            searcher = PkFullTextSearcher.create(table.get());
        }
        List<org.apache.paimon.data.InternalRow> values;
        try {
            values =
                    searcher.readRows(
                            input.snapshotId,
                            input.partition,
                            input.bucket,
                            file,
                            positions,
                            columns);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read the rows text_match selected in data file "
                            + file
                            + " of "
                            + tableName
                            + " (bucket "
                            + input.bucket
                            + "): "
                            + e.getMessage(),
                    e);
        }
        PaimonToSpark converter = PaimonToSpark.forRowType(readType);
        List<InternalRow> out = new ArrayList<>(values.size());
        for (org.apache.paimon.data.InternalRow v : values) {
            if (v != null) {
                out.add(converter.convert(v));
            }
        }
        return out;
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues() {
        return rest == null ? new CustomTaskMetric[0] : rest.currentMetricsValues();
    }

    @Override
    public void close() throws IOException {
        if (rest != null) {
            rest.close();
        }
    }
}
