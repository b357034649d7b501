package dev.strata.spark.read;

import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.HasPartitionKey;

/**
 * One Paimon split, read by one Spark task, with how much of the map pushdown it may use. Its key
 * is its bucket, for a scan that reports its bucketing ({@link StrataScan#outputPartitioning}):
 * Spark then reads the splits of one bucket in one task.
 */
final class StrataInputPartition implements HasPartitionKey {

    private static final long serialVersionUID = 1L;

    private final Split split;
    private final SplitReadMode mode;

    StrataInputPartition(Split split, SplitReadMode mode) {
        this.split = split;
        this.mode = mode;
    }

    Split split() {
        return split;
    }

    SplitReadMode mode() {
        return mode;
    }

    @Override
    public InternalRow partitionKey() {
        return new GenericInternalRow(new Object[] {((DataSplit) split).bucket()});
    }
}
