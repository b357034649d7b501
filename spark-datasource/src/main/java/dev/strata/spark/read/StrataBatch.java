package dev.strata.spark.read;

import java.util.List;

import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Plans Paimon splits once and hands each to Spark as one input partition. */
final class StrataBatch implements Batch {

    private final String tableName;
    private final ReadBuilder readBuilder;
    private final RowType readType;
    private InputPartition[] partitions;

    StrataBatch(String tableName, ReadBuilder readBuilder, RowType readType) {
        this.tableName = tableName;
        this.readBuilder = readBuilder;
        this.readType = readType;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        if (partitions == null) {
            List<Split> splits = readBuilder.newScan().plan().splits();
            partitions = splits.stream().map(StrataInputPartition::new).toArray(InputPartition[]::new);
        }
        return partitions;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new StrataReaderFactory(tableName, readBuilder, readType);
    }
}
