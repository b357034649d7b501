package dev.strata.spark.search;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.strata.spark.catalog.PartitionSelector;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.manifest.BucketEntry;
import org.apache.paimon.table.FileStoreTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot a search reads and its (partition, bucket)s that hold files and match {@code where}. Rows parked
 * in a postpone-bucket table's bucket -2 are not searchable (a warning says how many).
 */
final class SearchPlan implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(SearchPlan.class);

    final long snapshotId;
    final List<BucketSearchPartition> buckets;

    private SearchPlan(long snapshotId, List<BucketSearchPartition> buckets) {
        this.snapshotId = snapshotId;
        this.buckets = buckets;
    }

    static SearchPlan of(String tableName, FileStoreTable table, String where) {
        PartitionSelector.check(table, tableName, where);
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        if (snapshot == null) {
            return new SearchPlan(-1, List.of());
        }
        List<BucketEntry> entries = new ArrayList<>();
        long parked = 0;
        for (BucketEntry e : table.store().newScan().withSnapshot(snapshot).readBucketEntries()) {
            if (e.bucket() < 0) {
                // Rows of a postpone-bucket table not yet moved to a real bucket: no archive covers them.
                parked += e.recordCount();
            } else if (e.fileCount() > 0) {
                entries.add(e);
            }
        }
        if (parked > 0) {
            LOG.warn("full_text_search on {}: {} rows are parked in the postpone bucket and not searchable yet; "
                    + "run CALL <catalog>.sys.compact to move them into buckets and index them.", tableName, parked);
        }
        Set<BinaryRow> partitionValues = new LinkedHashSet<>();
        for (BucketEntry e : entries) {
            partitionValues.add(e.partition());
        }
        List<BinaryRow> selected =
                PartitionSelector.select(table, tableName, new ArrayList<>(partitionValues), where);
        Set<BinaryRow> chosen = new LinkedHashSet<>(selected);
        List<BucketSearchPartition> buckets = new ArrayList<>();
        for (BucketEntry e : entries) {
            if (chosen.contains(e.partition())) {
                buckets.add(new BucketSearchPartition(e.partition().copy(), e.bucket()));
            }
        }
        return new SearchPlan(snapshot.id(), buckets);
    }
}
