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
 * DELETE, UPDATE and MERGE INTO. On primary-key tables the changed rows (row id = the primary key)
 * are written as {@code -D}, {@code +U} and {@code +I} rows through the same writer as INSERT and
 * committed in one snapshot; the merge engine applies them. A DELETE on partition columns only
 * drops partitions; other row-level statements on append tables are refused.
 */
public final class RowLevelStatements {

    private RowLevelStatements() {}

    public static RowLevelOperationBuilder builder(
            String tableName, FileStoreTable table, StructType schema, RowLevelOperationInfo info) {
        RowLevelOperation.Command command = info.command();
        String statement = statement(command);
        if (table.primaryKeys().isEmpty()) {
            if (command != RowLevelOperation.Command.DELETE) {
                throw StrataErrors.analysis(appendTableRefusal(tableName, table, statement));
            }
            // Spark turns a DELETE over partition columns into dropPartitions first; only one that
            // would rewrite rows reaches the write builder, which refuses it.
            return () -> new AppendTableDelete(tableName, table, schema);
        }
        checkPrimaryKeyTable(tableName, table, command, statement);
        return () -> new PrimaryKeyChanges(tableName, table, schema, command, statement);
    }

    /**
     * Whether every (ANDed) predicate is over partition columns only and exact on partition values.
     */
    public static boolean canDropPartitions(
            FileStoreTable table,
            org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
        return partitionPredicate(table, predicates).isPresent();
    }

    /** In one snapshot; with no condition, every row. */
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

    /** {@code statement} is named in errors. */
    public static void dropPartitions(
            FileStoreTable table,
            List<? extends org.apache.paimon.data.InternalRow> partitions,
            String statement) {
        PaimonCommits.prepare(table, null, statement)
                .dropPartitions(partitionSpecs(table, partitions));
    }

    /**
     * Paimon's partition specs (column name to text) of partition rows of {@code table}'s partition
     * type. Paimon's commit parses a spec back by type ({@code TypeUtils.castFromString}), so the
     * values are Paimon's casts to text, not the legacy directory names ('partition.legacy-name',
     * Paimon's default), which write a timestamp in a form that parse refuses.
     */
    static List<Map<String, String>> partitionSpecs(
            FileStoreTable table, List<? extends org.apache.paimon.data.InternalRow> partitions) {
        CoreOptions options = table.coreOptions();
        RowType partitionType = table.rowType().project(table.partitionKeys());
        InternalRowPartitionComputer computer =
                new InternalRowPartitionComputer(
                        options.partitionDefaultName(),
                        partitionType,
                        table.partitionKeys().toArray(new String[0]),
                        false);
        List<Map<String, String>> specs = new ArrayList<>();
        for (org.apache.paimon.data.InternalRow partition : partitions) {
            Map<String, String> spec = computer.generatePartValues(partition);
            // Paimon names a blank string partition like the NULL one and reads it back as IS
            // NULL: dropping a blank partition would drop the NULL one instead.
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

    /** Only reached by a DELETE that is not a partition drop, which is refused. */
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
