package dev.strata.spark.read;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.connector.read.Scan;

/**
 * A scan that can be narrowed after V2 push-down to the rows where one column takes one of a few
 * values known only while planning (the keys a driver-side search found), so that Paimon skips the
 * buckets, files and row groups that cannot hold them. Narrowing only prunes: whoever narrows keeps
 * filtering the rows above the scan.
 */
public interface NarrowableScan extends Scan {

    /**
     * This scan also pruning by {@code column IN values} ({@code values}: Spark's internal values
     * of the column's type, no null), or empty when it cannot: the column is not one of the
     * table's, the values are not of its type, or the scan applies a limit (a filter below it would
     * change which rows the limit keeps).
     */
    Optional<Scan> narrowedTo(String column, List<Object> values);
}
