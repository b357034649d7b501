package dev.strata.spark.table;

import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * The table a CREATE [OR REPLACE] TABLE [AS SELECT] writes into before it takes its name: Spark
 * writes the rows into {@link #table}, then commits (or aborts) the staged change.
 */
public final class StagedStrataTable implements StagedTable, SupportsWrite {

    private final StrataTable table;
    private final Runnable commit;
    private final Runnable abort;

    public StagedStrataTable(StrataTable table, Runnable commit, Runnable abort) {
        this.table = table;
        this.commit = commit;
        this.abort = abort;
    }

    @Override
    public String name() {
        return table.name();
    }

    @Override
    @SuppressWarnings("deprecation")
    public StructType schema() {
        return table.schema();
    }

    @Override
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
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        return table.newWriteBuilder(info);
    }

    @Override
    public void commitStagedChanges() {
        commit.run();
    }

    @Override
    public void abortStagedChanges() {
        abort.run();
    }
}
