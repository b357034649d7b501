package dev.strata.spark.table;

import dev.strata.spark.read.MapPushdown;
import dev.strata.spark.read.StrataScanBuilder;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Strata table as read by one query, carrying the {@link MapPushdown} the optimizer decided for
 * it. The map pushdown rule puts it into the read relation in place of the {@link StrataTable} (it
 * never replaces a write target); everything else is the underlying table's.
 */
public final class MapPushdownTable extends PushdownTable<MapPushdown> {

    public MapPushdownTable(StrataTable table, MapPushdown pushdown) {
        super(table, pushdown);
    }

    public StrataTable strataTable() {
        return (StrataTable) wrapped();
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        StrataTable table = strataTable();
        return new StrataScanBuilder(
                table.name(), table.readTable(options), table.schema(), pushdown());
    }
}
