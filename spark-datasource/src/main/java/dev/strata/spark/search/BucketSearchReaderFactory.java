package dev.strata.spark.search;

import dev.strata.spark.metrics.RowsIndexedAtQueryTimeMetric;
import dev.strata.spark.metrics.UnsearchableRowsMetric;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Searches one bucket on an executor and reads its hit rows by file position. */
final class BucketSearchReaderFactory implements PartitionReaderFactory {

    private static final long serialVersionUID = 1L;

    private final SearchRequest request;
    private final SearchPlan plan;

    BucketSearchReaderFactory(SearchRequest request, SearchPlan plan) {
        this.request = request;
        this.plan = plan;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition input) {
        BucketSearch.Found found = request.search(plan, (BucketSearchPartition) input);
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
                return new CustomTaskMetric[] {
                    UnsearchableRowsMetric.value(found.unsearchableRows),
                    RowsIndexedAtQueryTimeMetric.value(found.rowsIndexedAtQueryTime)
                };
            }

            @Override
            public void close() {}
        };
    }
}
