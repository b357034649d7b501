package dev.strata.spark.write;

import dev.strata.spark.functions.WriteDistributions;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.Write;

/** A planned write; asks Spark to cluster rows by (partition, Paimon bucket) for fixed-bucket tables. */
final class StrataWrite implements Write, RequiresDistributionAndOrdering {

    private final String tableName;
    private final FileStoreTable table;
    private final LogicalWriteInfo info;
    private final WriteMode mode;

    StrataWrite(String tableName, FileStoreTable table, LogicalWriteInfo info, WriteMode mode) {
        this.tableName = tableName;
        this.table = table;
        this.info = info;
        this.mode = mode;
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
    public BatchWrite toBatch() {
        return new StrataBatchWrite(tableName, table, info, mode);
    }
}
