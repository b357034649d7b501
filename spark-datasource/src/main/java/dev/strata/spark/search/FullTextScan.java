package dev.strata.spark.search;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.strata.spark.catalog.PartitionSelector;
import dev.strata.spark.metrics.UnsearchableRowsMetric;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/** Plans one search task per selected (partition, bucket) of the latest snapshot. */
final class FullTextScan implements Scan, Batch {

    private final String tableName;
    private final FileStoreTable table;
    private final String query;
    private final int k;
    private final String where;
    private final List<String> columns;
    private final boolean score;
    private final StructType readSchema;
    private InputPartition[] partitions;

    FullTextScan(String tableName, FileStoreTable table, String query, int k, String where, List<String> columns,
            boolean score, StructType readSchema) {
        this.tableName = tableName;
        this.table = table;
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
        return "full_text_search " + tableName + " [query: " + query + ", k: " + k
                + (where == null ? "" : ", where: " + where) + "]";
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
        if (partitions != null) {
            return partitions;
        }
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        if (snapshot == null) {
            partitions = new InputPartition[0];
            return partitions;
        }
        Set<BinaryRow> partitionValues = new LinkedHashSet<>();
        List<DataSplit> splits = table.newSnapshotReader().withSnapshot(snapshot.id()).read().dataSplits();
        splits.forEach(s -> partitionValues.add(s.partition().copy()));
        List<BinaryRow> selected = PartitionSelector.select(
                table, "search " + tableName, new ArrayList<>(partitionValues), where);
        Set<String> seen = new LinkedHashSet<>();
        List<InputPartition> out = new ArrayList<>();
        for (DataSplit split : splits) {
            if (selected.contains(split.partition()) && seen.add(split.partition().hashCode() + "/" + split.bucket()
                    + "/" + split.partition())) {
                out.add(new BucketSearchPartition(split.partition().copy(), split.bucket()));
            }
        }
        partitions = out.toArray(new InputPartition[0]);
        return partitions;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        return new BucketSearchReaderFactory(tableName, table, snapshot == null ? -1 : snapshot.id(), query, k,
                columns, score);
    }
}
