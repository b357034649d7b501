package dev.strata.spark.table;

import dev.strata.spark.catalog.ColumnDefaults;
import dev.strata.spark.catalog.StrataTableNames;
import dev.strata.spark.catalog.TableDefinitionChecks;
import dev.strata.spark.data.ColumnReferences;
import dev.strata.spark.data.PaimonToSpark;
import dev.strata.spark.data.SparkToPaimon;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.read.StrataScanBuilder;
import dev.strata.spark.write.RowLevelStatements;
import dev.strata.spark.write.StrataWriteBuilder;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.SupportsAtomicPartitionManagement;
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
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Paimon table seen through Spark; row-level statements go through {@link RowLevelStatements}.
 */
public final class StrataTable
        implements SupportsRead,
                SupportsWrite,
                SupportsRowLevelOperations,
                SupportsDeleteV2,
                SupportsAtomicPartitionManagement {

    private final String catalogName;
    private final Identifier ident;
    private final FileStoreTable table;
    private final StructType schema;

    public StrataTable(String catalogName, Identifier ident, FileStoreTable table) {
        this.catalogName = catalogName;
        this.ident = ident;
        this.table = table;
        this.schema =
                ColumnDefaults.withDefaults(SparkTypes.toSpark(table.rowType()), table.rowType());
    }

    /** With any time-travel options of this load. */
    public FileStoreTable paimonTable() {
        return table;
    }

    public Identifier identifier() {
        return ident;
    }

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
        return table.partitionKeys().stream()
                .map(key -> Expressions.identity(ColumnReferences.quoted(key)))
                .toArray(Transform[]::new);
    }

    @Override
    public Map<String, String> properties() {
        Map<String, String> properties = new LinkedHashMap<>(table.options());
        // Where the catalog put the table, not a property of it: SHOW CREATE TABLE would print it,
        // and CREATE TABLE refuses it (the catalog's layout places every table).
        properties.remove(CoreOptions.PATH.key());
        properties.put(TableCatalog.PROP_PROVIDER, "paimon");
        if (!table.primaryKeys().isEmpty()) {
            properties.put("primary-key", String.join(",", table.primaryKeys()));
        }
        table.comment().ifPresent(c -> properties.put(TableCatalog.PROP_COMMENT, c));
        return properties;
    }

    @Override
    public Set<TableCapability> capabilities() {
        // AUTOMATIC_SCHEMA_EVOLUTION: MERGE WITH SCHEMA EVOLUTION adds the source's new columns
        // through the catalog's ALTER TABLE instead of silently leaving them out.
        return EnumSet.of(
                TableCapability.BATCH_READ,
                TableCapability.BATCH_WRITE,
                TableCapability.OVERWRITE_BY_FILTER,
                TableCapability.OVERWRITE_DYNAMIC,
                TableCapability.AUTOMATIC_SCHEMA_EVOLUTION);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        FileStoreTable read = readTable(options);
        checkColumnsUnchanged(read);
        return new StrataScanBuilder(name(), read, schema);
    }

    /**
     * A query analyzed before an ALTER TABLE and run after it (a DataFrame kept in a variable)
     * reads the latest snapshot with the columns it was analyzed with. Paimon reads files by field
     * id, so columns added since are only left out; but a dropped column would return its old
     * values and a retyped one values cast to the old type (an INT wrapping a BIGINT). Refused, as
     * Spark refuses a view whose table changed. Only a commit in a later schema can differ, so the
     * check reads a schema file only then.
     */
    private void checkColumnsUnchanged(FileStoreTable read) {
        if (!DynamicOptions.snapshotChoice(read.options()).isEmpty()) {
            return;
        }
        org.apache.paimon.schema.TableSchema analyzed = read.schema();
        Long latestSchema;
        try {
            latestSchema = read.latestSnapshot().map(s -> s.schemaId()).orElse(null);
        } catch (RuntimeException e) {
            // A damaged snapshot file: the scan's own read of it names the file.
            return;
        }
        if (latestSchema == null || latestSchema <= analyzed.id()) {
            return;
        }
        Map<Integer, org.apache.paimon.types.DataField> now = new java.util.HashMap<>();
        for (org.apache.paimon.types.DataField f :
                read.schemaManager().schema(latestSchema).fields()) {
            now.put(f.id(), f);
        }
        for (org.apache.paimon.types.DataField f : analyzed.fields()) {
            org.apache.paimon.types.DataField current = now.get(f.id());
            String change =
                    current == null
                            ? "was dropped"
                            : !current.name().equals(f.name())
                                    ? "was renamed to " + current.name()
                                    : !current.type().equals(f.type())
                                            ? "changed type from "
                                                    + f.type().asSQLString()
                                                    + " to "
                                                    + current.type().asSQLString()
                                            : null;
            if (change != null) {
                throw new IllegalStateException(
                        String.format(
                                "Cannot read %s: column %s %s (ALTER TABLE) after this query was"
                                        + " analyzed, and rows were written since. Run the query"
                                        + " again; a DataFrame made before the change must be made"
                                        + " again (spark.table(...)).",
                                name(), f.name(), change));
            }
        }
    }

    /** Spark read options become Paimon dynamic options, as in any Paimon engine. */
    public FileStoreTable readTable(CaseInsensitiveStringMap options) {
        if (options == null || options.isEmpty()) {
            return table;
        }
        FileStoreTable read = DynamicOptions.forRead(name(), table, options.asCaseSensitiveMap());
        CoreOptions scan = read.coreOptions();
        Long snapshot = scan.scanSnapshotId();
        if (snapshot != null && !read.snapshotManager().snapshotExists(snapshot)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot read %s at scan.snapshot-id = %d: no such snapshot. Use a "
                                    + "snapshot id from %s.",
                            name(),
                            snapshot,
                            StrataTableNames.systemTable(catalogName, ident, "snapshots")));
        }
        String tag = scan.scanTagName();
        if (tag != null && !read.tagManager().tagExists(tag)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot read %s at scan.tag-name = '%s': no such tag. Use a tag from %s.",
                            name(), tag, StrataTableNames.systemTable(catalogName, ident, "tags")));
        }
        return read;
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        FileStoreTable target =
                DynamicOptions.forWrite(
                        name(),
                        TableDefinitionChecks.storeDerivedOptions(name(), table),
                        info.options().asCaseSensitiveMap());
        return new StrataWriteBuilder(name(), target, info);
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
    public StructType partitionSchema() {
        return SparkTypes.toSpark(partitionType());
    }

    @Override
    public InternalRow[] listPartitionIdentifiers(String[] names, InternalRow ident) {
        StructType partitionSchema = partitionSchema();
        int[] positions = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            positions[i] = partitionSchema.fieldIndex(names[i]);
        }
        PaimonToSpark toSpark = PaimonToSpark.forRowType(partitionType());
        List<InternalRow> matching = new ArrayList<>();
        for (BinaryRow partition : table.newSnapshotReader().partitions()) {
            InternalRow row = toSpark.convert(partition);
            boolean matches = true;
            for (int i = 0; i < names.length && matches; i++) {
                DataType type = partitionSchema.fields()[positions[i]].dataType();
                matches = Objects.equals(row.get(positions[i], type), ident.get(i, type));
            }
            if (matches) {
                matching.add(row);
            }
        }
        return matching.toArray(new InternalRow[0]);
    }

    @Override
    public boolean dropPartition(InternalRow ident) {
        return dropPartitions(new InternalRow[] {ident});
    }

    /** In one OVERWRITE snapshot; Spark has already handled partitions that do not exist. */
    @Override
    public boolean dropPartitions(InternalRow[] idents) {
        if (idents.length == 0) {
            return false;
        }
        SparkToPaimon toPaimon = SparkToPaimon.forRowType(partitionType());
        List<org.apache.paimon.data.InternalRow> partitions = new ArrayList<>();
        for (InternalRow ident : idents) {
            partitions.add(toPaimon.convert(ident));
        }
        RowLevelStatements.dropPartitions(
                TableDefinitionChecks.storeDerivedOptions(name(), table),
                partitions,
                "ALTER TABLE " + name() + " DROP PARTITION");
        return true;
    }

    /**
     * A Paimon partition without rows does not exist: truncating partitions drops them. A partition
     * that does not exist is refused, as DROP PARTITION refuses it (Spark does not check for
     * TRUNCATE, which succeeded silently on a misspelled value).
     */
    @Override
    public boolean truncatePartitions(InternalRow[] idents)
            throws org.apache.spark.sql.catalyst.analysis.NoSuchPartitionException {
        StructType schema = partitionSchema();
        for (InternalRow ident : idents) {
            if (!partitionExists(ident)) {
                // Spark's NoSuchPartitionException prints a DATE as its day number.
                List<String> spec = new ArrayList<>();
                for (int i = 0; i < schema.size(); i++) {
                    org.apache.spark.sql.types.DataType type = schema.fields()[i].dataType();
                    spec.add(
                            schema.fields()[i].name()
                                    + " = "
                                    + org.apache.spark.sql.catalyst.expressions.Literal.create(
                                                    ident.get(i, type), type)
                                            .sql());
                }
                throw dev.strata.spark.errors.StrataErrors.analysis(
                        String.format(
                                "Cannot truncate partition (%s) of %s: the partition does not exist"
                                        + " (a Paimon partition exists while it holds rows). See SHOW"
                                        + " PARTITIONS %s.",
                                String.join(", ", spec), name(), name()));
            }
        }
        return dropPartitions(idents);
    }

    @Override
    public boolean truncatePartition(InternalRow ident)
            throws org.apache.spark.sql.catalyst.analysis.NoSuchPartitionException {
        return truncatePartitions(new InternalRow[] {ident});
    }

    @Override
    public void createPartitions(InternalRow[] idents, Map<String, String>[] properties) {
        throw new UnsupportedOperationException(
                String.format(
                        "Cannot add a partition to %s: a Paimon partition exists only while it holds rows. "
                                + "Insert rows into it instead.",
                        name()));
    }

    @Override
    public void replacePartitionMetadata(InternalRow ident, Map<String, String> properties) {
        throw new UnsupportedOperationException(
                String.format(
                        "Cannot set partition properties of %s: Paimon partitions have none. "
                                + "Set table options with ALTER TABLE ... SET TBLPROPERTIES instead.",
                        name()));
    }

    @Override
    public Map<String, String> loadPartitionMetadata(InternalRow ident) {
        return Map.of();
    }

    private RowType partitionType() {
        return table.rowType().project(table.partitionKeys());
    }

    /**
     * Spark's cache finds a cached table by comparing relations, and a refresh swaps in a new load
     * of the table: loads of one table that read the same snapshot choice are equal, whatever
     * snapshot is latest (as Iceberg's SparkTable), so {@code unpersist()} still finds the entry.
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof StrataTable that
                && catalogName.equals(that.catalogName)
                && ident.equals(that.ident)
                && snapshotChoice().equals(that.snapshotChoice());
    }

    @Override
    public int hashCode() {
        return Objects.hash(catalogName, ident);
    }

    private Map<String, String> snapshotChoice() {
        return DynamicOptions.snapshotChoice(table.options());
    }

    @Override
    public String toString() {
        return "StrataTable(" + name() + ")";
    }
}
