package dev.strata.spark.search;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.search.CorpusStats;
import dev.strata.index.search.ParallelBuckets;
import dev.strata.spark.catalog.PartitionSelector;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.manifest.BucketEntry;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot a search reads and its non-empty buckets matching {@code where}. Postpone rows
 * (bucket -2) are indexed at query time when the search is fresh and the table supports it, else
 * unsearchable (with a warning).
 */
final class SearchPlan implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(SearchPlan.class);

    final long snapshotId;
    final List<BucketSearchPartition> buckets;

    /** Over everything the search reads, so scores of all buckets are comparable; nullable. */
    final CorpusStats stats;

    /** Reused by a driver-side search; null once serialized (executors prepare their own). */
    private final transient List<PkFullTextSearcher.PreparedBucket> prepared;

    private SearchPlan(
            long snapshotId,
            List<BucketSearchPartition> buckets,
            CorpusStats stats,
            List<PkFullTextSearcher.PreparedBucket> prepared) {
        this.snapshotId = snapshotId;
        this.buckets = buckets;
        this.stats = stats;
        this.prepared = prepared;
    }

    PkFullTextSearcher.PreparedBucket prepared(int i) {
        if (prepared == null) {
            throw new IllegalStateException(
                    "Cannot search bucket "
                            + buckets.get(i).bucket
                            + " of snapshot "
                            + snapshotId
                            + " from its plan: the plan was serialized, so the buckets it prepared"
                            + " on the driver are not here. Search the bucket by its snapshot id.");
        }
        return prepared.get(i);
    }

    /** Plans the search and sums the query terms' BM25 statistics over every selected bucket. */
    static SearchPlan of(
            String tableName, FileStoreTable table, String where, String query, boolean fresh) {
        PartitionSelector.check(table, tableName, where);
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        if (snapshot == null) {
            return new SearchPlan(-1, List.of(), null, List.of());
        }
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        boolean searchParked = fresh && searcher.freshSearchSupported();
        List<BucketEntry> entries = new ArrayList<>();
        long parked = 0;
        for (BucketEntry e : searcher.bucketEntries(snapshot)) {
            if (e.fileCount() == 0) {
                continue;
            }
            if (e.bucket() == BucketMode.POSTPONE_BUCKET && !searchParked) {
                // No archive covers postpone rows.
                parked += e.recordCount();
            } else if (e.bucket() >= 0 || e.bucket() == BucketMode.POSTPONE_BUCKET) {
                entries.add(e);
            }
        }
        if (parked > 0) {
            LOG.warn(
                    "full_text_search on {}: {} rows are parked in the postpone bucket and not searchable without "
                            + "fresh search; run CALL <catalog>.sys.compact to move them into buckets and index them.",
                    tableName,
                    parked);
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
        List<PkFullTextSearcher.PreparedBucket> prepared = new ArrayList<>();
        CorpusStats stats = CorpusStats.empty();
        try {
            // One pass per bucket: classify, then sum.
            for (Map.Entry<PkFullTextSearcher.PreparedBucket, CorpusStats> e :
                    ParallelBuckets.map(
                            buckets,
                            b -> {
                                PkFullTextSearcher.PreparedBucket p =
                                        searcher.prepare(snapshot, b.partition, b.bucket, fresh);
                                return Map.entry(p, p.stats(query));
                            })) {
                prepared.add(e.getKey());
                stats = stats.add(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot search "
                            + tableName
                            + ": reading the statistics of its full-text "
                            + "archives failed: "
                            + e.getMessage(),
                    e);
        }
        return new SearchPlan(snapshot.id(), buckets, stats, prepared);
    }
}
