package dev.strata.spark.read;

import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.HasPartitionKey;
import org.apache.spark.sql.connector.read.InputPartition;

/** One Paimon split, read by one Spark task, with how much of the map pushdown it may use. */
class StrataInputPartition implements InputPartition {

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

    /**
     * A split keyed by its bucket, for a scan whose bucketing Spark may use ({@link
     * StrataScan#outputPartitioning}); made only when every bucket of the scan is one split, since
     * Spark reads the splits of one key in one task.
     */
    static final class BucketKeyed extends StrataInputPartition implements HasPartitionKey {

        private static final long serialVersionUID = 1L;

        BucketKeyed(DataSplit split, SplitReadMode mode) {
            super(split, mode);
        }

        @Override
        public InternalRow partitionKey() {
            return new GenericInternalRow(new Object[] {((DataSplit) split()).bucket()});
        }
    }
}
