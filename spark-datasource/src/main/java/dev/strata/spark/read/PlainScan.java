package dev.strata.spark.read;

import java.util.List;
import java.util.Optional;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.partition.PartitionPredicate;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.connector.read.Scan;

/**
 * A scan of a Strata table that only prunes: it returns every live row of its snapshot in the
 * partitions it selects (Spark evaluates the other pushed predicates again above it) with these
 * columns, in this order.
 */
public final class PlainScan {

    private final FileStoreTable table;
    private final List<String> columns;

    /** The partitions Spark does not check again; null for all. */
    private final PartitionPredicate partitions;

    PlainScan(FileStoreTable table, List<String> columns, PartitionPredicate partitions) {
        this.table = table;
        this.columns = List.copyOf(columns);
        this.partitions = partitions;
    }

    /** {@code scan} as a plain scan, or empty when it is not a Strata scan or does more. */
    public static Optional<PlainScan> of(Scan scan) {
        return scan instanceof StrataScan
                ? Optional.ofNullable(((StrataScan) scan).plain())
                : Optional.empty();
    }

    /** The Paimon table read, with the time-travel options of its load. */
    public FileStoreTable table() {
        return table;
    }

    public List<String> columns() {
        return columns;
    }

    /** Whether the scan returns rows of {@code partition}. */
    public boolean reads(BinaryRow partition) {
        return partitions == null || partitions.test(partition);
    }
}
