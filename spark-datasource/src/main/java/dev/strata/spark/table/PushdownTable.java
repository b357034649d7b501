package dev.strata.spark.table;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * A Strata table carrying a pushdown the optimizer decided for its scan. Equal when wrapping the
 * same table with equal pushdowns, so a re-applied rule is no plan change.
 */
public abstract class PushdownTable<P> implements SupportsRead {

    private final SupportsRead table;
    private final P pushdown;

    PushdownTable(SupportsRead table, P pushdown) {
        this.table = Objects.requireNonNull(table, "table");
        this.pushdown = Objects.requireNonNull(pushdown, "pushdown");
    }

    SupportsRead wrapped() {
        return table;
    }

    public P pushdown() {
        return pushdown;
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
        return o != null
                && o.getClass() == getClass()
                && ((PushdownTable<?>) o).table.equals(table)
                && ((PushdownTable<?>) o).pushdown.equals(pushdown);
    }

    @Override
    public int hashCode() {
        return table.hashCode() * 31 + pushdown.hashCode();
    }

    @Override
    public String toString() {
        return "StrataTable(" + name() + ", " + pushdown + ")";
    }
}
