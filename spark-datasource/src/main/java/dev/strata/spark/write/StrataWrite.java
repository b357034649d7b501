package dev.strata.spark.write;

import dev.strata.spark.functions.WriteDistributions;
import java.util.List;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;

/** A planned write; rows are clustered by (partition, Paimon bucket) for fixed-bucket tables. */
final class StrataWrite implements DeltaWrite, RequiresDistributionAndOrdering {

    private final String tableName;
    private final FileStoreTable table;
    private final LogicalWriteInfo info;
    private final WriteMode mode;
    private final List<String> rowIdColumns;

    StrataWrite(
            String tableName,
            FileStoreTable table,
            LogicalWriteInfo info,
            WriteMode mode,
            List<String> rowIdColumns) {
        this.tableName = tableName;
        this.table = table;
        this.info = info;
        this.mode = mode;
        this.rowIdColumns = List.copyOf(rowIdColumns);
    }

    @Override
    public Distribution requiredDistribution() {
        return WriteDistributions.forTable(table);
    }

    @Override
    public SortOrder[] requiredOrdering() {
        return new SortOrder[0];
    }

    @Override
    public String description() {
        return tableName + " (" + mode + ")";
    }

    @Override
    public StrataBatchWrite toBatch() {
        return new StrataBatchWrite(tableName, table, info, mode, rowIdColumns);
    }
}
