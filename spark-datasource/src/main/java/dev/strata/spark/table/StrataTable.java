package dev.strata.spark.table;

import dev.strata.spark.catalog.StrataTableNames;
import dev.strata.spark.catalog.TableDefinitionChecks;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.read.StrataScanBuilder;
import dev.strata.spark.write.RowLevelStatements;
import dev.strata.spark.write.StrataWriteBuilder;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.SupportsDeleteV2;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsRowLevelOperations;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperationBuilder;
import org.apache.spark.sql.connector.write.RowLevelOperationInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Paimon table seen through Spark: schema, partitioning, options as properties, batch read and
 * write, row-level DELETE / UPDATE / MERGE INTO and partition drops by DELETE (see {@link
 * RowLevelStatements}).
 */
public final class StrataTable
        implements SupportsRead, SupportsWrite, SupportsRowLevelOperations, SupportsDeleteV2 {

    private final String catalogName;
    private final Identifier ident;
    private final FileStoreTable table;
    private final StructType schema;

    public StrataTable(String catalogName, Identifier ident, FileStoreTable table) {
        this.catalogName = catalogName;
        this.ident = ident;
        this.table = table;
        this.schema = SparkTypes.toSpark(table.rowType());
    }

    /** The Paimon table (with any time-travel options of this load). */
    public FileStoreTable paimonTable() {
        return table;
    }

    /** The Spark identifier this table was loaded with. */
    public Identifier identifier() {
        return ident;
    }

    /** The catalog this table was loaded from. */
    public String catalogName() {
        return catalogName;
    }

    @Override
    public String name() {
        return StrataTableNames.qualified(catalogName, ident);
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public Transform[] partitioning() {
        return table.partitionKeys().stream().map(Expressions::identity).toArray(Transform[]::new);
    }

    @Override
    public Map<String, String> properties() {
        Map<String, String> properties = new LinkedHashMap<>(table.options());
        properties.put(TableCatalog.PROP_PROVIDER, "paimon");
        if (!table.primaryKeys().isEmpty()) {
            properties.put("primary-key", String.join(",", table.primaryKeys()));
        }
        table.comment().ifPresent(c -> properties.put(TableCatalog.PROP_COMMENT, c));
        return properties;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(
                TableCapability.BATCH_READ,
                TableCapability.BATCH_WRITE,
                TableCapability.OVERWRITE_BY_FILTER,
                TableCapability.OVERWRITE_DYNAMIC);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new StrataScanBuilder(name(), table, schema);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        return new StrataWriteBuilder(
                name(), TableDefinitionChecks.storeDerivedOptions(name(), table), info);
    }

    @Override
    public RowLevelOperationBuilder newRowLevelOperationBuilder(RowLevelOperationInfo info) {
        return RowLevelStatements.builder(name(), table, schema, info);
    }

    @Override
    public boolean canDeleteWhere(Predicate[] predicates) {
        return RowLevelStatements.canDropPartitions(table, predicates);
    }

    @Override
    public void deleteWhere(Predicate[] predicates) {
        RowLevelStatements.dropPartitions(
                name(), TableDefinitionChecks.storeDerivedOptions(name(), table), predicates);
    }

    @Override
    public String toString() {
        return "StrataTable(" + name() + ")";
    }
}
