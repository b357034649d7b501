package dev.strata.spark.catalog;

import dev.strata.spark.data.PaimonToSpark;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.errors.StrataErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Function1;

/**
 * Selects partitions with a SQL {@code where} filter: first checked by {@link PartitionFilter}
 * without running any of it, then evaluated by Spark on the partition values, so it means what it
 * means in a query.
 */
public final class PartitionSelector {

    private static final String INDEX_COLUMN = "__strata_partition_index";

    private PartitionSelector() {}

    /** Without evaluating it; null or blank passes. */
    public static void check(FileStoreTable table, String tableName, String where) {
        if (where == null || where.isBlank()) {
            return;
        }
        if (table.partitionKeys().isEmpty()) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot use where => '%s' for %s: the table has no partition columns. Omit where.",
                            where, tableName));
        }
        PartitionFilter.check(SparkSession.active(), tableName, where, table.partitionKeys());
    }

    /** All of them when {@code where} is null or blank. */
    public static List<BinaryRow> select(
            FileStoreTable table, String tableName, List<BinaryRow> partitions, String where) {
        if (where == null || where.isBlank()) {
            return partitions;
        }
        check(table, tableName, where);
        RowType partitionType = table.rowType().project(table.partitionKeys());
        // CHAR/VARCHAR as strings that keep their declared type in metadata: a DataFrame refuses
        // the types themselves, and Spark still compares a CHAR column padded ('a' = 'a  ').
        StructType schema =
                org.apache.spark.sql.catalyst.util.CharVarcharUtils
                        .replaceCharVarcharWithStringInSchema(SparkTypes.toSpark(partitionType))
                        .add(
                                new StructField(
                                        INDEX_COLUMN,
                                        DataTypes.IntegerType,
                                        false,
                                        Metadata.empty()));
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < partitions.size(); i++) {
            Row values = toExternal(partitionType, partitions.get(i));
            Object[] cells = new Object[values.length() + 1];
            for (int j = 0; j < values.length(); j++) {
                cells[j] = values.get(j);
            }
            cells[values.length()] = i;
            rows.add(RowFactory.create(cells));
        }
        List<Row> matching;
        try {
            // The same string and parser as the check, so the same expression.
            Dataset<Row> filtered =
                    SparkSession.active().createDataFrame(rows, schema).where(where);
            matching = filtered.select(INDEX_COLUMN).collectAsList();
        } catch (Exception e) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot use where => '%s' for %s: %s. Write a filter over partition columns %s.",
                            where,
                            tableName,
                            PartitionFilter.firstLine(e.getMessage()),
                            String.join(", ", table.partitionKeys())),
                    e);
        }
        Map<Integer, BinaryRow> selected = new TreeMap<>();
        for (Row r : matching) {
            selected.put(r.getInt(0), partitions.get(r.getInt(0)));
        }
        return new ArrayList<>(selected.values());
    }

    public static Row toExternal(RowType partitionType, BinaryRow partition) {
        org.apache.spark.sql.catalyst.InternalRow internal =
                PaimonToSpark.forRowType(partitionType).convert(partition);
        @SuppressWarnings("unchecked")
        Function1<Object, Object> converter =
                (Function1<Object, Object>)
                        CatalystTypeConverters.createToScalaConverter(
                                SparkTypes.toSpark(partitionType));
        return (Row) converter.apply(internal);
    }

    /** {@code k1=v1/k2=v2}, or the empty string for an unpartitioned table. */
    public static String describe(RowType partitionType, BinaryRow partition) {
        if (partitionType.getFieldCount() == 0) {
            return "";
        }
        Row row = toExternal(partitionType, partition);
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < partitionType.getFieldCount(); i++) {
            parts.add(
                    partitionType.getFieldNames().get(i)
                            + "="
                            + (row.isNullAt(i) ? "null" : row.get(i).toString()));
        }
        return String.join("/", parts);
    }
}
