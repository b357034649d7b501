package dev.strata.spark.search;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;

/**
 * A {@code full_text_search} answered on the driver; a join back to the table by primary key can be
 * answered from its hits instead of reading the table.
 */
public interface DriverSearch extends LocalScan {

    /** Partition columns included. */
    List<String> primaryKeys();

    /**
     * The hits' rows with {@code scan}'s columns, when exactly what {@code scan} returns for their
     * keys: a pruning-only scan of the searched snapshot, all rows found in current archives.
     */
    Optional<InternalRow[]> hitRowsIn(Scan scan);
}
