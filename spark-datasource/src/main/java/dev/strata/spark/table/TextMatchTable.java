package dev.strata.spark.table;

import dev.strata.spark.read.StrataScanBuilder;
import dev.strata.spark.read.TextMatchPushdown;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Strata table as read by one query, carrying the {@link TextMatchPushdown} the optimizer decided
 * for one of its scans. It wraps the read relation's table — a {@link StrataTable}, or a {@link
 * MapPushdownTable} when map-key predicates were pushed too — so both pushdowns reach the same scan
 * builder. Only ever placed under a Filter that reads the table, never as a write target;
 * everything else is the wrapped table's.
 */
public final class TextMatchTable extends PushdownTable<TextMatchPushdown> {

    public TextMatchTable(SupportsRead table, TextMatchPushdown pushdown) {
        super(checked(table), pushdown);
    }

    private static SupportsRead checked(SupportsRead table) {
        if (!(table instanceof StrataTable) && !(table instanceof MapPushdownTable)) {
            throw new IllegalArgumentException(
                    "Cannot push text_match into a scan of "
                            + table.name()
                            + ": it is not a Strata table ("
                            + table.getClass().getName()
                            + ").");
        }
        return table;
    }

    /** The wrapped table: a {@link StrataTable} or a {@link MapPushdownTable}. */
    public SupportsRead table() {
        return wrapped();
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return ((StrataScanBuilder) table().newScanBuilder(options)).withTextMatch(pushdown());
    }
}
