package dev.strata.spark.search;

import dev.strata.spark.metrics.RowsIndexedAtQueryTimeMetric;
import dev.strata.spark.metrics.UnsearchableRowsMetric;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * A search with one Spark task per selected (partition, bucket); Spark merges the per-bucket top-k.
 */
final class FullTextScan implements Scan, Batch {

    private final SearchRequest request;
    private final SearchPlan plan;

    FullTextScan(SearchRequest request, SearchPlan plan) {
        this.request = request;
        this.plan = plan;
    }

    @Override
    public StructType readSchema() {
        return request.readSchema;
    }

    @Override
    public String description() {
        return request.describe(plan, "executor tasks");
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public CustomMetric[] supportedCustomMetrics() {
        return new CustomMetric[] {
            new UnsearchableRowsMetric(), new RowsIndexedAtQueryTimeMetric()
        };
    }

    @Override
    public InputPartition[] planInputPartitions() {
        return plan.buckets.toArray(new InputPartition[0]);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new BucketSearchReaderFactory(request, plan);
    }
}
