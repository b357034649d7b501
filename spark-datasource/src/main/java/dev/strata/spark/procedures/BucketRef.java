package dev.strata.spark.procedures;

import java.io.Serializable;
import java.util.Objects;
import org.apache.paimon.data.BinaryRow;

/** A (partition, bucket) of a table, as planned on the driver and shipped to a procedure's task. */
final class BucketRef implements Serializable {

    private static final long serialVersionUID = 1L;

    final BinaryRow partition;
    final int bucket;

    BucketRef(BinaryRow partition, int bucket) {
        this.partition = partition;
        this.bucket = bucket;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BucketRef
                && ((BucketRef) o).bucket == bucket
                && ((BucketRef) o).partition.equals(partition);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partition, bucket);
    }
}
