package dev.strata.spark.write;

import dev.strata.spark.catalog.TableDefinitionChecks;
import dev.strata.spark.data.ColumnReferences;
import dev.strata.spark.errors.StrataErrors;
import dev.strata.spark.read.SparkPredicates;
import dev.strata.spark.read.StrataScanBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.InternalRowPartitionComputer;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.DeltaWriteBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.RowLevelOperationBuilder;
import org.apache.spark.sql.connector.write.RowLevelOperationInfo;
import org.apache.spark.sql.connector.write.SupportsDelta;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * DELETE, UPDATE and MERGE INTO on Strata tables.
 *
 * <p>Primary-key tables: Spark scans the table, works out the changed rows and hands them to the
 * writer as deletes (by row id = the primary-key columns, which include the partition columns),
 * updates and inserts. They are written as Paimon rows of kind {@code -D}, {@code +U} and {@code
 * +I} through the table's own writer, exactly as INSERT writes (same bucket routing, postpone
 * bucket, in-writer compaction and full-text archive maintenance), and committed in one snapshot
 * through {@link PaimonCommits}; the {@code deduplicate} merge engine applies them when the table
 * is read or compacted.
 *
 * <p>A DELETE whose condition uses partition columns only drops the matching partitions instead (an
 * OVERWRITE snapshot, no data file written), on append and primary-key tables. Other DELETEs,
 * UPDATE and MERGE on append tables are refused with an error saying what to set.
 */
public final class RowLevelStatements {

    private RowLevelStatements() {}

    /** The builder Spark asks for when it plans a DELETE, UPDATE or MERGE on {@code table}. */
    public static RowLevelOperationBuilder builder(
            String tableName, FileStoreTable table, StructType schema, RowLevelOperationInfo info) {
        RowLevelOperation.Command command = info.command();
        String statement = statement(command);
        if (table.primaryKeys().isEmpty()) {
            if (command != RowLevelOperation.Command.DELETE) {
                throw StrataErrors.analysis(appendTableRefusal(tableName, table, statement));
            }
            // Spark turns a DELETE over partition columns into dropPartitions before it builds the
            // write;
            // only a DELETE that would rewrite rows reaches the write builder, which refuses it.
            return () -> new AppendTableDelete(tableName, table, schema);
        }
        checkPrimaryKeyTable(tableName, table, command, statement);
        return () -> new PrimaryKeyChanges(tableName, table, schema, command, statement);
    }

    /**
     * Whether a DELETE with these predicates (Spark's, ANDed) can drop whole partitions: every
     * predicate is over partition columns only and Paimon can evaluate it exactly on partition
     * values. A table without partition columns qualifies only for a DELETE without condition.
     */
    public static boolean canDropPartitions(
            FileStoreTable table,
            org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
        return partitionPredicate(table, predicates).isPresent();
    }

    /**
     * Drops the partitions matching {@code predicates} (see {@link #canDropPartitions}) in one
     * snapshot; with no condition, every row of the table.
     */
    public static void dropPartitions(
            String tableName,
            FileStoreTable table,
            org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
        Optional<Predicate> predicate = partitionPredicate(table, predicates);
        if (predicate.isEmpty()) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot DELETE FROM %s by dropping partitions: the condition %s is not over partition columns %s "
                                    + "only. Use a condition over partition columns only.",
                            tableName, List.of(predicates), table.partitionKeys()));
        }
        PaimonCommits.Commit commit =
                PaimonCommits.prepare(table, null, "the DELETE statement on " + tableName);
        if (table.partitionKeys().isEmpty()) {
            commit.dropPartitions(null);
            return;
        }
        commit.dropPartitions(
                partitionSpecs(
                        table,
                        table.newSnapshotReader()
                                .withPartitionFilter(predicate.get())
                                .partitions()));
    }

    /**
     * Drops these partitions (rows of the table's partition columns) in one snapshot, as {@code
     * statement} (named in errors) does.
     */
    public static void dropPartitions(
            FileStoreTable table,
            List<? extends org.apache.paimon.data.InternalRow> partitions,
            String statement) {
        PaimonCommits.prepare(table, null, statement)
                .dropPartitions(partitionSpecs(table, partitions));
    }

    /** Paimon's partition specs (column to partition value string) of partition rows. */
    private static List<Map<String, String>> partitionSpecs(
            FileStoreTable table, List<? extends org.apache.paimon.data.InternalRow> partitions) {
        CoreOptions options = table.coreOptions();
        RowType partitionType = table.rowType().project(table.partitionKeys());
        InternalRowPartitionComputer computer =
                new InternalRowPartitionComputer(
                        options.partitionDefaultName(),
                        partitionType,
                        table.partitionKeys().toArray(new String[0]),
                        options.legacyPartitionName());
        List<Map<String, String>> specs = new ArrayList<>();
        for (org.apache.paimon.data.InternalRow partition : partitions) {
            Map<String, String> spec = computer.generatePartValues(partition);
            // Paimon names a blank string value ('' or spaces) like NULL, the default partition,
            // and reads that name back as IS NULL: the spec of a blank partition would drop the
            // NULL partition and leave the blank one.
            for (int i = 0; i < partitionType.getFieldCount(); i++) {
                DataTypeRoot root = partitionType.getTypeAt(i).getTypeRoot();
                if (!partition.isNullAt(i)
                        && (root == DataTypeRoot.CHAR || root == DataTypeRoot.VARCHAR)) {
                    spec.put(
                            partitionType.getFieldNames().get(i),
                            partition.getString(i).toString());
                }
            }
            specs.add(spec);
        }
        return specs;
    }

    private static Optional<Predicate> partitionPredicate(
            FileStoreTable table,
            org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
        boolean unconditional = true;
        for (org.apache.spark.sql.connector.expressions.filter.Predicate p : predicates) {
            unconditional &= p.name().equals("ALWAYS_TRUE");
        }
        if (unconditional) {
            return Optional.of(PredicateBuilder.alwaysTrue());
        }
        if (table.partitionKeys().isEmpty()) {
            return Optional.empty();
        }
        SparkPredicates converter =
                new SparkPredicates(table.rowType().project(table.partitionKeys()));
        List<Predicate> converted = new ArrayList<>();
        for (org.apache.spark.sql.connector.expressions.filter.Predicate p : predicates) {
            Optional<Predicate> c = converter.convert(p);
            if (c.isEmpty()) {
                return Optional.empty();
            }
            converted.add(c.get());
        }
        return Optional.of(PredicateBuilder.and(converted));
    }

    private static String statement(RowLevelOperation.Command command) {
        switch (command) {
            case DELETE:
                return "DELETE FROM";
            case UPDATE:
                return "UPDATE";
            default:
                return "MERGE INTO";
        }
    }

    private static String appendTableRefusal(
            String tableName, FileStoreTable table, String statement) {
        String partitions =
                table.partitionKeys().isEmpty()
                        ? "recreate the table with a primary key"
                        : String.format(
                                "use DELETE FROM %s WHERE <condition over partition columns %s only> to drop "
                                        + "whole partitions, or recreate the table with a primary key",
                                tableName, String.join(", ", table.partitionKeys()));
        return String.format(
                "Cannot %s %s: it is an append table without a primary key, and Strata writes row-level changes "
                        + "only to primary-key tables (TBLPROPERTIES 'primary-key' = '<columns>' with 'bucket' = "
                        + "'<N>' or '-2'). To change its rows, %s, or rewrite the rows with INSERT OVERWRITE.",
                statement, tableName, partitions);
    }

    private static void checkPrimaryKeyTable(
            String tableName,
            FileStoreTable table,
            RowLevelOperation.Command command,
            String statement) {
        CoreOptions options = table.coreOptions();
        CoreOptions.MergeEngine engine = options.mergeEngine();
        if (engine != CoreOptions.MergeEngine.DEDUPLICATE) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot %s %s: its '%s' is '%s', and Strata writes row-level changes only to tables with the "
                                    + "'deduplicate' merge engine, where a delete removes the key and an update replaces the "
                                    + "row. Feed rows to the '%s' merge engine with INSERT INTO, or recreate the table without "
                                    + "'%s'.",
                            statement,
                            tableName,
                            CoreOptions.MERGE_ENGINE.key(),
                            engine,
                            engine,
                            CoreOptions.MERGE_ENGINE.key()));
        }
        if (!options.sequenceField().isEmpty()) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot %s %s: it has '%s' = '%s', so the changes of the statement would compete with the stored "
                                    + "rows by that field instead of replacing them. Write the changes with INSERT INTO carrying "
                                    + "a higher sequence value, or remove the option with ALTER TABLE %s UNSET TBLPROPERTIES "
                                    + "('%s').",
                            statement,
                            tableName,
                            CoreOptions.SEQUENCE_FIELD.key(),
                            String.join(",", options.sequenceField()),
                            tableName,
                            CoreOptions.SEQUENCE_FIELD.key()));
        }
        if (command == RowLevelOperation.Command.UPDATE) {
            return;
        }
        if (options.ignoreDelete()) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot %s %s: it has '%s' = 'true', so Paimon would drop the statement's deletes. Set "
                                    + "ALTER TABLE %s SET TBLPROPERTIES ('%s' = 'false').",
                            statement,
                            tableName,
                            CoreOptions.IGNORE_DELETE.key(),
                            tableName,
                            CoreOptions.IGNORE_DELETE.key()));
        }
        if (options.changelogProducer() == CoreOptions.ChangelogProducer.INPUT) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot %s %s: it has '%s' = 'input', which would copy the statement's delete rows into the "
                                    + "changelog, and they carry only the key (the other columns are placeholders). Set '%s' to "
                                    + "'lookup' or 'full-compaction', which produce the changelog from the stored rows.",
                            statement,
                            tableName,
                            CoreOptions.CHANGELOG_PRODUCER.key(),
                            CoreOptions.CHANGELOG_PRODUCER.key()));
        }
    }

    /** The changes of a statement on a primary-key table, by primary key. */
    private static final class PrimaryKeyChanges implements SupportsDelta {
        private final String tableName;
        private final FileStoreTable table;
        private final StructType schema;
        private final RowLevelOperation.Command command;
        private final String statement;

        PrimaryKeyChanges(
                String tableName,
                FileStoreTable table,
                StructType schema,
                RowLevelOperation.Command command,
                String statement) {
            this.tableName = tableName;
            this.table = table;
            this.schema = schema;
            this.command = command;
            this.statement = statement;
        }

        @Override
        public Command command() {
            return command;
        }

        @Override
        public String description() {
            return statement + " " + tableName + " by primary key " + table.primaryKeys();
        }

        @Override
        public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
            return new StrataScanBuilder(tableName, table, schema);
        }

        @Override
        public NamedReference[] rowId() {
            return table.primaryKeys().stream()
                    .map(key -> Expressions.column(ColumnReferences.quoted(key)))
                    .toArray(NamedReference[]::new);
        }

        @Override
        public boolean representUpdateAsDeleteAndInsert() {
            return false;
        }

        @Override
        public DeltaWriteBuilder newWriteBuilder(LogicalWriteInfo info) {
            return new DeltaWriteBuilder() {
                @Override
                public DeltaWrite build() {
                    FileStoreTable target =
                            TableDefinitionChecks.storeDerivedOptions(tableName, table);
                    StrataWriteBuilder.checkWritable(tableName, target);
                    List<String> rowIdColumns = new ArrayList<>();
                    StructType rowIdSchema =
                            info.rowIdSchema()
                                    .orElseThrow(
                                            () ->
                                                    new IllegalStateException(
                                                            "Cannot plan the "
                                                                    + statement
                                                                    + " statement on "
                                                                    + tableName
                                                                    + ": Spark gave the write no row id schema."));
                    for (StructField field : rowIdSchema.fields()) {
                        rowIdColumns.add(field.name());
                    }
                    return new StrataWrite(
                            tableName, target, info, WriteMode.rowLevel(statement), rowIdColumns);
                }
            };
        }
    }

    /**
     * A DELETE on an append table. Spark plans it as a rewrite of the files holding matching rows;
     * one over partition columns only becomes a partition drop before the write is built, any other
     * is refused here.
     */
    private static final class AppendTableDelete implements RowLevelOperation {
        private final String tableName;
        private final FileStoreTable table;
        private final StructType schema;

        AppendTableDelete(String tableName, FileStoreTable table, StructType schema) {
            this.tableName = tableName;
            this.table = table;
            this.schema = schema;
        }

        @Override
        public Command command() {
            return Command.DELETE;
        }

        @Override
        public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
            return new StrataScanBuilder(tableName, table, schema);
        }

        @Override
        public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
            throw StrataErrors.analysis(appendTableRefusal(tableName, table, "DELETE FROM"));
        }
    }
}
