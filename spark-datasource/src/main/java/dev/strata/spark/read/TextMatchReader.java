package dev.strata.spark.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.spark.data.PaimonToSpark;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/**
 * Reads a {@link TextMatchInputPartition}: the matching rows of each file by position (the projected columns
 * only, deletion vectors applied), then the files read whole through {@code rest}.
 */
final class TextMatchReader implements PartitionReader<InternalRow> {

    private final String tableName;
    private final FileStoreTable table;
    private final TextMatchInputPartition input;
    private final RowType readType;
    private final Iterator<Map.Entry<String, long[]>> files;
    private final PartitionReader<InternalRow> rest;
    private PkFullTextSearcher searcher;
    private Iterator<InternalRow> rows = java.util.Collections.emptyIterator();
    private InternalRow current;

    TextMatchReader(String tableName, FileStoreTable table, TextMatchInputPartition input, RowType readType,
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
        while (!rows.hasNext() && files.hasNext()) {
            rows = read(files.next()).iterator();
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

    private List<InternalRow> read(Map.Entry<String, long[]> file) {
        if (searcher == null) {
            searcher = PkFullTextSearcher.create(table);
        }
        List<String> columns = readType.getFieldNames();
        // Paimon cannot read zero columns; read the first one and emit rows with no fields.
        List<String> read = columns.isEmpty() ? List.of(table.rowType().getFieldNames().get(0)) : columns;
        List<org.apache.paimon.data.InternalRow> values;
        try {
            values = searcher.readRows(input.snapshotId, input.partition, input.bucket, file.getKey(), file.getValue(), read);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the rows text_match selected in data file " + file.getKey()
                    + " of " + tableName + " (bucket " + input.bucket + "): " + e.getMessage(), e);
        }
        PaimonToSpark converter = columns.isEmpty() ? null : PaimonToSpark.forRowType(readType);
        List<InternalRow> out = new ArrayList<>(values.size());
        for (org.apache.paimon.data.InternalRow v : values) {
            if (v != null) {
                out.add(converter == null ? new GenericInternalRow(0) : converter.convert(v));
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
