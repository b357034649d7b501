package dev.strata.index;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.manifest.BucketEntry;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.table.FileStoreTable;

/** One (partition, bucket) of a table; serializable, to ship to engine tasks. */
public final class BucketRef implements Serializable {

    private static final long serialVersionUID = 1L;

    private final BinaryRow partition;
    private final int bucket;

    public BucketRef(BinaryRow partition, int bucket) {
        this.partition = partition.copy();
        this.bucket = bucket;
    }

    public BinaryRow partition() {
        return partition;
    }

    public int bucket() {
        return bucket;
    }

    /**
     * The (partition, bucket)s with data files in a snapshot, in partition-byte then bucket order,
     * postpone buckets left out; {@code partitionFilter} null means all partitions.
     */
    public static List<BucketRef> list(
            FileStoreTable table, long snapshotId, Predicate partitionFilter) {
        org.apache.paimon.operation.FileStoreScan scan =
                table.store().newScan().withSnapshot(snapshotId);
        if (partitionFilter != null) {
            scan.withPartitionFilter(partitionFilter);
        }
        List<BucketRef> refs = new ArrayList<>();
        for (BucketEntry entry : scan.readBucketEntries()) {
            if (entry.bucket() >= 0 && entry.fileCount() > 0) {
                refs.add(new BucketRef(entry.partition(), entry.bucket()));
            }
        }
        refs.sort(
                Comparator.comparing(
                                (BucketRef r) -> r.partition.toBytes(),
                                java.util.Arrays::compareUnsigned)
                        .thenComparingInt(r -> r.bucket));
        return refs;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BucketRef)) {
            return false;
        }
        BucketRef r = (BucketRef) o;
        return bucket == r.bucket && partition.equals(r.partition);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partition, bucket);
    }

    @Override
    public String toString() {
        return "BucketRef{bucket=" + bucket + "}";
    }
}
