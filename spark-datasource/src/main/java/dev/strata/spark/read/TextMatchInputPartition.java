package dev.strata.spark.read;

import java.util.Map;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.source.DataSplit;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * The part of one Paimon split a scan with a pushed text match reads: rows by position for the
 * files whose matches are known, and the split's other files (whose rows were not searched) read
 * whole.
 */
final class TextMatchInputPartition implements InputPartition {

    private static final long serialVersionUID = 1L;

    final long snapshotId;
    final BinaryRow partition;
    final int bucket;

    /** Data file name → sorted matching row positions. */
    final Map<String, long[]> positions;

    /** The split's files read whole, or null. */
    final DataSplit rest;

    final SplitReadMode restMode;

    TextMatchInputPartition(
            long snapshotId,
            BinaryRow partition,
            int bucket,
            Map<String, long[]> positions,
            DataSplit rest,
            SplitReadMode restMode) {
        this.snapshotId = snapshotId;
        this.partition = partition;
        this.bucket = bucket;
        this.positions = positions;
        this.rest = rest;
        this.restMode = restMode;
    }
}
