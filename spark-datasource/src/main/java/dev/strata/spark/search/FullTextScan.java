package dev.strata.spark.search;

import java.util.List;

import dev.strata.spark.metrics.UnsearchableRowsMetric;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/** A search with one Spark task per selected (partition, bucket); Spark merges the per-bucket top-k. */
final class FullTextScan implements Scan, Batch {

    private final String tableName;
    private final FileStoreTable table;
    private final SearchPlan plan;
    private final String query;
    private final int k;
    private final String where;
    private final List<String> columns;
    private final boolean score;
    private final StructType readSchema;

    FullTextScan(String tableName, FileStoreTable table, SearchPlan plan, String query, int k, String where,
            List<String> columns, boolean score, StructType readSchema) {
        this.tableName = tableName;
        this.table = table;
        this.plan = plan;
        this.query = query;
        this.k = k;
        this.where = where;
        this.columns = columns;
        this.score = score;
        this.readSchema = readSchema;
    }

    @Override
    public StructType readSchema() {
        return readSchema;
    }

    @Override
    public String description() {
        return FullTextScans.describe(tableName, query, k, where, plan, "executor tasks");
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public CustomMetric[] supportedCustomMetrics() {
        return new CustomMetric[] {new UnsearchableRowsMetric()};
    }

    @Override
    public InputPartition[] planInputPartitions() {
        return plan.buckets.toArray(new InputPartition[0]);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new BucketSearchReaderFactory(tableName, table, plan.snapshotId, query, k, columns, score);
    }
}
