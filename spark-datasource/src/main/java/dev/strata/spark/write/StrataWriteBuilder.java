package dev.strata.spark.write;

import dev.strata.index.PkFullTextIndex;
import dev.strata.spark.catalog.PartitionTypeCheck;
import dev.strata.spark.data.SparkToPaimon;
import dev.strata.spark.data.SparkTypes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsDynamicOverwrite;
import org.apache.spark.sql.connector.write.SupportsOverwriteV2;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.VarcharType;

/** Append, static overwrite (equality filters) or dynamic overwrite. */
public final class StrataWriteBuilder
        implements WriteBuilder, SupportsOverwriteV2, SupportsDynamicOverwrite {

    private final String tableName;
    private final FileStoreTable table;
    private final LogicalWriteInfo info;
    private final RowType partitionType;
    private final StructType partitionSchema;
    private WriteMode mode = WriteMode.append();

    public StrataWriteBuilder(String tableName, FileStoreTable table, LogicalWriteInfo info) {
        this.tableName = tableName;
        this.table = table;
        this.info = info;
        this.partitionType = table.rowType().project(table.partitionKeys());
        this.partitionSchema = SparkTypes.toSpark(partitionType);
    }

    /**
     * Throws instead of answering false: Spark's own refusal ("Table does not support overwrite by
     * expression: StrataTable(...)") said neither which condition nor what to write instead.
     */
    @Override
    public boolean canOverwrite(Predicate[] predicates) {
        staticPartition(predicates);
        return true;
    }

    @Override
    public WriteBuilder overwrite(Predicate[] predicates) {
        mode = WriteMode.staticOverwrite(staticPartition(predicates));
        return this;
    }

    @Override
    public WriteBuilder overwriteDynamicPartitions() {
        mode =
                table.partitionKeys().isEmpty()
                        ? WriteMode.staticOverwrite(Map.of())
                        : WriteMode.dynamicOverwrite();
        return this;
    }

    @Override
    public Write build() {
        checkWritable(tableName, table);
        return new StrataWrite(tableName, table, info, mode, List.of());
    }

    /** Refuses table layouts Strata cannot write correctly, before any task starts. */
    static void checkWritable(String tableName, FileStoreTable table) {
        PartitionTypeCheck.refuseBinary(
                "write to " + tableName, table.schema().logicalPartitionType());
        // Another engine may have broken the definition: say so here, not in every task.
        PkFullTextIndex.validate(tableName, table.schema());
        CoreOptions options = table.coreOptions();
        int bucket = options.bucket();
        if (bucket == -2) {
            String fixed = table.options().get(CoreOptions.POSTPONE_BATCH_WRITE_FIXED_BUCKET.key());
            if (fixed != null && Boolean.parseBoolean(fixed.trim())) {
                throw new UnsupportedOperationException(
                        String.format(
                                "Cannot write to %s: option '%s' = '%s' asks batch writes to go straight into real buckets, "
                                        + "which Strata does not do; Strata parks written rows in bucket -2 until "
                                        + "CALL sys.compact. Set the option to 'false' or remove it.",
                                tableName,
                                CoreOptions.POSTPONE_BATCH_WRITE_FIXED_BUCKET.key(),
                                fixed));
            }
            return;
        }
        if (bucket < 0 && !table.primaryKeys().isEmpty()) {
            throw new UnsupportedOperationException(
                    String.format(
                            "Cannot write to %s: it is a primary-key table with dynamic buckets (bucket = %d); Strata writes "
                                    + "primary-key tables with a fixed bucket count or postpone buckets only. Recreate it with "
                                    + "'bucket' = 'N' (N > 0) or 'bucket' = '-2'.",
                            tableName, bucket));
        }
    }

    /**
     * From equality filters on partition columns ({@code IS NULL} for the NULL partition), written
     * as Paimon writes partition values: its commit parses them back by type (a timestamp's text,
     * not Spark's microseconds).
     */
    private Map<String, String> staticPartition(Predicate[] predicates) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Predicate p : predicates) {
            if (p.name().equals("ALWAYS_TRUE")) {
                continue;
            }
            Expression[] c = p.children();
            if (p.name().equals("IS_NULL")
                    && c.length == 1
                    && c[0] instanceof NamedReference
                    && ((NamedReference) c[0]).fieldNames().length == 1
                    && table.partitionKeys().contains(((NamedReference) c[0]).fieldNames()[0])) {
                values.put(((NamedReference) c[0]).fieldNames()[0], null);
                continue;
            }
            if (!(p.name().equals("=") || p.name().equals("<=>")) || c.length != 2) {
                throw notPartitionFilter(p);
            }
            NamedReference ref =
                    c[0] instanceof NamedReference
                            ? (NamedReference) c[0]
                            : c[1] instanceof NamedReference ? (NamedReference) c[1] : null;
            Literal<?> literal =
                    c[1] instanceof Literal
                            ? (Literal<?>) c[1]
                            : c[0] instanceof Literal ? (Literal<?>) c[0] : null;
            if (ref == null
                    || literal == null
                    || ref.fieldNames().length != 1
                    || !table.partitionKeys().contains(ref.fieldNames()[0])
                    || literal.value() == null) {
                throw notPartitionFilter(p);
            }
            String column = ref.fieldNames()[0];
            DataType columnType = partitionSchema.apply(column).dataType();
            // Spark compares CHAR and VARCHAR columns as STRING.
            if (columnType instanceof CharType || columnType instanceof VarcharType) {
                columnType = DataTypes.StringType;
            }
            if (!columnType.sameType(literal.dataType())) {
                throw notPartitionFilter(p);
            }
            values.put(column, literal.value());
        }
        if (values.isEmpty()) {
            return Map.of();
        }
        GenericInternalRow row = new GenericInternalRow(partitionSchema.size());
        values.forEach((column, value) -> row.update(partitionSchema.fieldIndex(column), value));
        Map<String, String> spec =
                RowLevelStatements.partitionSpecs(
                                table,
                                List.of(SparkToPaimon.forRowType(partitionType).convert(row)))
                        .get(0);
        Map<String, String> partition = new LinkedHashMap<>();
        values.keySet().forEach(column -> partition.put(column, spec.get(column)));
        return partition;
    }

    private IllegalArgumentException notPartitionFilter(Predicate p) {
        if (table.partitionKeys().isEmpty()) {
            return new IllegalArgumentException(
                    String.format(
                            "Cannot overwrite %s where %s: the table has no partition columns, and"
                                    + " Paimon overwrites whole partitions only. Use INSERT OVERWRITE"
                                    + " %s to replace all its rows, or DELETE FROM the rows and INSERT"
                                    + " the new ones.",
                            tableName, p, tableName));
        }
        return new IllegalArgumentException(
                String.format(
                        "Cannot overwrite %s where %s: Paimon overwrites whole partitions only. Use"
                                + " equality filters on partition columns %s (REPLACE WHERE %s ="
                                + " ..., or IS NULL for the NULL partition), or DELETE FROM the rows"
                                + " and INSERT the new ones.",
                        tableName, p, table.partitionKeys(), table.partitionKeys().get(0)));
    }
}
