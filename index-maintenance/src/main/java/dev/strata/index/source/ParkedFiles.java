package dev.strata.index.source;

import java.util.Comparator;
import org.apache.paimon.io.DataFileMeta;

/**
 * The files parked in a postpone-bucket table's bucket -2 in write order. Sequence numbers are not
 * comparable across files (each writer numbers its own rows), so the order is creation time, then
 * smallest sequence number, then file name; within a file, row position. Postpone compaction and
 * searches over parked rows both resolve versions in this order.
 */
public final class ParkedFiles {

    /** Write order of parked files of one partition. */
    public static final Comparator<DataFileMeta> WRITE_ORDER =
            Comparator.comparingLong(DataFileMeta::creationTimeEpochMillis)
                    .thenComparingLong(DataFileMeta::minSequenceNumber)
                    .thenComparing(DataFileMeta::fileName);

    private ParkedFiles() {}
}
