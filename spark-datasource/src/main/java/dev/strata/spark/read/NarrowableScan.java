package dev.strata.spark.read;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.Scan;

/**
 * A scan that can be narrowed after push-down to a column's values known only while planning (keys
 * a driver-side search found). Narrowing only prunes: the caller keeps filtering.
 */
public interface NarrowableScan extends Scan {

    /**
     * Also pruning by {@code column IN values} (Spark internal values, no null), or empty when it
     * cannot, including under a limit, which a filter below would change.
     */
    Optional<Scan> narrowedTo(String column, List<Object> values);

    /**
     * This scan's rows whose {@code column} is one of {@code values}, read on the driver, or empty
     * when that is not cheap or more than {@code maxRows} match. Rows of other values may be left
     * out: the caller keeps filtering by {@code column IN values}.
     */
    Optional<InternalRow[]> lookUp(String column, List<Object> values, int maxRows);

    /**
     * Up to {@code n} rows of this scan that {@code keep} accepts (any of them, as for a {@code
     * LIMIT} without order), read on the driver; empty when the scan does more than prune and
     * project, when {@code maxRead} rows (or some megabytes of wide rows) were read before {@code
     * n} were kept, or when {@code keep} fails (the caller leaves the statement to Spark, which
     * reports the failure as usual).
     */
    Optional<InternalRow[]> firstRows(int n, Predicate<InternalRow> keep, long maxRead);
}
