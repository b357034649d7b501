package dev.strata.spark.search;

import java.util.List;

import dev.strata.spark.metrics.UnsearchableRowsMetric;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Searches one bucket on an executor and reads its hit rows by file position. */
final class BucketSearchReaderFactory implements PartitionReaderFactory {

    private static final long serialVersionUID = 1L;

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
    public PartitionReader<InternalRow> createReader(InputPartition input) {
        BucketSearchPartition bucket = (BucketSearchPartition) input;
        BucketSearch.Found found = BucketSearch.run(
                tableName, table, snapshotId, bucket.partition, bucket.bucket, query, k, columns, score);
        return new PartitionReader<>() {
            private int next = -1;

            @Override
            public boolean next() {
                return ++next < found.rows.size();
            }

            @Override
            public InternalRow get() {
                return found.rows.get(next);
            }

            @Override
            public CustomTaskMetric[] currentMetricsValues() {
                return new CustomTaskMetric[] {UnsearchableRowsMetric.value(found.unsearchableRows)};
            }

            @Override
            public void close() {}
        };
    }
}
