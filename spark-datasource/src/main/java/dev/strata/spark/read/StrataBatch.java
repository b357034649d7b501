package dev.strata.spark.read;

import dev.strata.index.PkFullTextSearcher;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/**
 * Plans Paimon splits once and hands each to Spark as one input partition, tagged with the {@link
 * SplitReadMode} its reader uses.
 */
final class StrataBatch implements Batch {

    private final String tableName;
    private final FileStoreTable table;
    private final Function<Split, SplitReadMode> modes;
    private final SplitReaders readers;

    /** Planned once, also for statistics. */
    private final Supplier<List<Split>> splits;

    private final RowType readType;
    private final KeyColumns keyColumns;
    private final StrataReaderFactory.ColumnarPlan columnar;
    private final TextMatchPushdown textMatch;
    private final Map<String, PkFullTextSearcher.BucketMatches> textMatches;
    private final StrataReaderFactory.ExactTextMatch exact;

    /** The bucket count when the scan reports its bucketing to Spark, else null. */
    private final Integer bucketKeyed;

    private InputPartition[] partitions;
    private long splitsPruning;
    private TextMatchSplits textMatchSplits;

    StrataBatch(
            String tableName,
            FileStoreTable table,
            Function<Split, SplitReadMode> modes,
            SplitReaders readers,
            RowType readType,
            KeyColumns keyColumns,
            StrataReaderFactory.ColumnarPlan columnar,
            TextMatchPushdown textMatch,
            Map<String, PkFullTextSearcher.BucketMatches> textMatches,
            StrataReaderFactory.ExactTextMatch exact,
            Supplier<List<Split>> splits,
            Integer bucketKeyed) {
        this.splits = splits;
        this.bucketKeyed = bucketKeyed;
        this.exact = exact;
        this.textMatch = textMatch;
        this.textMatches = textMatches;
        this.table = table;
        this.columnar = columnar;
        this.tableName = tableName;
        this.modes = modes;
        this.readers = readers;
        this.readType = readType;
        this.keyColumns = keyColumns;
    }

    private List<Split> planSplits() {
        return splits.get();
    }

    /** Known when the indexes answer every row by position, else null. */
    Long exactTextMatchCount() {
        if (textMatch == null || !textMatch.exact()) {
            return null;
        }
        return TextMatchSplits.count(tableName, table, planSplits(), textMatch);
    }

    @Override
    public InputPartition[] planInputPartitions() {
        if (partitions == null) {
            List<Split> splits = planSplits();
            boolean keyed = oneSplitPerBucket(splits);
            partitions = new InputPartition[splits.size()];
            long pruning = 0;
            for (int i = 0; i < partitions.length; i++) {
                SplitReadMode mode = modes.apply(splits.get(i));
                pruning += mode == SplitReadMode.PRUNING ? 1 : 0;
                partitions[i] =
                        keyed
                                ? new StrataInputPartition.BucketKeyed(
                                        (DataSplit) splits.get(i), mode)
                                : new StrataInputPartition(splits.get(i), mode);
            }
            splitsPruning = pruning;
            if (textMatch != null) {
                textMatchSplits =
                        TextMatchSplits.plan(
                                tableName, table, splits, modes, textMatch, textMatches);
                partitions = textMatchSplits.partitions.toArray(new InputPartition[0]);
            }
        }
        return partitions;
    }

    /**
     * Each bucket is one split written under the table's bucket count (a split from before a
     * rescale holds other buckets' keys).
     */
    private boolean oneSplitPerBucket(List<Split> splits) {
        if (bucketKeyed == null) {
            return false;
        }
        Set<Integer> buckets = new HashSet<>();
        for (Split split : splits) {
            if (!(split instanceof DataSplit)
                    || !bucketKeyed.equals(((DataSplit) split).totalBuckets())
                    || !buckets.add(((DataSplit) split).bucket())) {
                return false;
            }
        }
        return true;
    }

    long splitsPlanned() {
        return partitions == null ? 0 : partitions.length;
    }

    /** Nullable. */
    TextMatchSplits textMatchSplits() {
        return textMatchSplits;
    }

    /** Splits whose reader may skip data by the map predicate. */
    long splitsPruning() {
        return splitsPruning;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new StrataReaderFactory(tableName, readers, readType, keyColumns, columnar, exact);
    }
}
