package dev.strata.spark.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.search.SearchHit;
import dev.strata.spark.data.PaimonToSpark;
import dev.strata.spark.metrics.UnsearchableRowsMetric;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Searches one bucket on an executor and reads its hit rows by file position. */
final class BucketSearchReaderFactory implements PartitionReaderFactory {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(BucketSearchReaderFactory.class);

    private final String tableName;
    private final FileStoreTable table;
    private final long snapshotId;
    private final String query;
    private final int k;
    private final List<String> columns;
    private final boolean score;

    BucketSearchReaderFactory(String tableName, FileStoreTable table, long snapshotId, String query, int k,
            List<String> columns, boolean score) {
        this.tableName = tableName;
        this.table = table;
        this.snapshotId = snapshotId;
        this.query = query;
        this.k = k;
        this.columns = columns;
        this.score = score;
    }

    @Override
    public PartitionReader<org.apache.spark.sql.catalyst.InternalRow> createReader(InputPartition input) {
        BucketSearchPartition bucket = (BucketSearchPartition) input;
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        List<org.apache.spark.sql.catalyst.InternalRow> rows = new ArrayList<>();
        long unsearchable;
        try {
            PkFullTextSearcher.BucketResult result =
                    searcher.search(snapshotId, bucket.partition, bucket.bucket, query, k);
            unsearchable = result.unsearchableRows();
            if (unsearchable > 0) {
                LOG.warn("full_text_search on {} bucket {}: {} rows are not searchable yet (level 0 or a level "
                        + "without a current archive); run CALL <catalog>.sys.compact to index them.",
                        tableName, bucket.bucket, unsearchable);
            }
            Map<String, List<SearchHit>> byFile = new LinkedHashMap<>();
            for (SearchHit hit : result.hits()) {
                byFile.computeIfAbsent(hit.fileName(), f -> new ArrayList<>()).add(hit);
            }
            List<String> read = columns.isEmpty() ? List.of(table.rowType().getFieldNames().get(0)) : columns;
            PaimonToSpark converter = PaimonToSpark.forRowType(table.rowType().project(read));
            for (Map.Entry<String, List<SearchHit>> file : byFile.entrySet()) {
                long[] positions = file.getValue().stream().mapToLong(SearchHit::position).toArray();
                List<InternalRow> values = searcher.readRows(
                        snapshotId, bucket.partition, bucket.bucket, file.getKey(), positions, read);
                for (int i = 0; i < positions.length; i++) {
                    InternalRow row = values.get(i);
                    if (row == null) {
                        continue;
                    }
                    rows.add(output(columns.isEmpty() ? null : converter.convert(row), file.getValue().get(i).score()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(String.format(
                    "Cannot search %s bucket %d: %s", tableName, bucket.bucket, e.getMessage()), e);
        }
        long unsearchableRows = unsearchable;
        return new PartitionReader<>() {
            private int next = -1;

            @Override
            public boolean next() {
                return ++next < rows.size();
            }

            @Override
            public org.apache.spark.sql.catalyst.InternalRow get() {
                return rows.get(next);
            }

            @Override
            public CustomTaskMetric[] currentMetricsValues() {
                return new CustomTaskMetric[] {UnsearchableRowsMetric.value(unsearchableRows)};
            }

            @Override
            public void close() {}
        };
    }

    private org.apache.spark.sql.catalyst.InternalRow output(GenericInternalRow values, float hitScore) {
        int width = columns.size() + (score ? 1 : 0);
        Object[] out = new Object[width];
        for (int i = 0; i < columns.size(); i++) {
            out[i] = values.get(i, null);
        }
        if (score) {
            out[width - 1] = (double) hitScore;
        }
        return new GenericInternalRow(out);
    }
}
