package dev.strata.spark.table;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.strata.spark.read.MapPushdown;
import dev.strata.spark.read.StrataScanBuilder;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Strata table as read by one query, carrying the {@link MapPushdown} the optimizer decided for it. The
 * map pushdown rule puts it into the read relation in place of the {@link StrataTable} (it never
 * replaces a write target); everything else is the underlying table's.
 */
public final class MapPushdownTable implements SupportsRead {

    private final StrataTable table;
    private final MapPushdown pushdown;

    public MapPushdownTable(StrataTable table, MapPushdown pushdown) {
        this.table = Objects.requireNonNull(table, "table");
        this.pushdown = Objects.requireNonNull(pushdown, "pushdown");
    }

    public StrataTable strataTable() {
        return table;
    }

    public MapPushdown pushdown() {
        return pushdown;
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new StrataScanBuilder(table.name(), table.paimonTable(), table.schema(), pushdown);
    }

    @Override
    public String name() {
        return table.name();
    }

    @Override
    public StructType schema() {
        return table.schema();
    }

    @Override
    @SuppressWarnings("deprecation")
    public Transform[] partitioning() {
        return table.partitioning();
    }

    @Override
    public Map<String, String> properties() {
        return table.properties();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return table.capabilities();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MapPushdownTable && ((MapPushdownTable) o).table == table
                && ((MapPushdownTable) o).pushdown.equals(pushdown);
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(table) * 31 + pushdown.hashCode();
    }

    @Override
    public String toString() {
        return "StrataTable(" + name() + ", " + pushdown + ")";
    }
}
