package dev.strata.spark.search;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;

/**
 * A {@code full_text_search} answered on the driver. Besides its rows it can give the rows its hits
 * have in a scan of the searched table, so that a join back to the table by primary key is answered
 * from the hits instead of by reading the table.
 */
public interface DriverSearch extends LocalScan {

    /** The searched table's primary-key columns (partition columns included). */
    List<String> primaryKeys();

    /**
     * The rows of this search's hits (those {@link #rows()} returns) with the columns of {@code
     * scan}, in its order, when they are exactly the rows {@code scan} returns for the hits'
     * primary keys: {@code scan} is a Strata scan of the searched table that only prunes and reads
     * the snapshot the search read, and the search found every live row of its buckets in current
     * archives (none indexed at query time, none left out). Empty otherwise.
     */
    Optional<InternalRow[]> hitRowsIn(Scan scan);
}
