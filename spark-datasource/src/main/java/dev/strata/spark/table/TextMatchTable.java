package dev.strata.spark.table;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.strata.spark.read.StrataScanBuilder;
import dev.strata.spark.read.TextMatchPushdown;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Strata table as read by one query, carrying the {@link TextMatchPushdown} the optimizer decided for one
 * of its scans. It wraps the read relation's table — a {@link StrataTable}, or a {@link MapPushdownTable}
 * when map-key predicates were pushed too — so both pushdowns reach the same scan builder. Only ever placed
 * under a Filter that reads the table, never as a write target; everything else is the wrapped table's.
 */
public final class TextMatchTable implements SupportsRead {

    private final SupportsRead table;
    private final TextMatchPushdown pushdown;

    public TextMatchTable(SupportsRead table, TextMatchPushdown pushdown) {
        if (!(table instanceof StrataTable) && !(table instanceof MapPushdownTable)) {
            throw new IllegalArgumentException("Cannot push text_match into a scan of " + table.name()
                    + ": it is not a Strata table (" + table.getClass().getName() + ").");
        }
        this.table = table;
        this.pushdown = Objects.requireNonNull(pushdown, "pushdown");
    }

    /** The wrapped table: a {@link StrataTable} or a {@link MapPushdownTable}. */
    public SupportsRead table() {
        return table;
    }

    public TextMatchPushdown pushdown() {
        return pushdown;
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return ((StrataScanBuilder) table.newScanBuilder(options)).withTextMatch(pushdown);
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
        return o instanceof TextMatchTable && ((TextMatchTable) o).table.equals(table)
                && ((TextMatchTable) o).pushdown.equals(pushdown);
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
