package dev.strata.spark.search;

import org.apache.paimon.data.BinaryRow;
import org.apache.spark.sql.connector.read.InputPartition;

/** One (partition, bucket) to search. */
final class BucketSearchPartition implements InputPartition {

    private static final long serialVersionUID = 1L;

    final BinaryRow partition;
    final int bucket;

    BucketSearchPartition(BinaryRow partition, int bucket) {
        this.partition = partition;
        this.bucket = bucket;
    }
}
