package dev.strata.spark.procedures;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.strata.spark.StrataCatalog;
import dev.strata.spark.StrataErrors;
import dev.strata.spark.data.PaimonToSpark;
import dev.strata.spark.data.SparkTypes;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Function1;

/**
 * The table a procedure works on, resolved from its {@code table => 'db.t'} argument, with helpers to
 * name partitions and to select partitions with a {@code where => '...'} filter over partition columns.
 */
final class ProcedureTable {

    private final String procedure;
    private final String qualifiedName;
    private final FileStoreTable table;
    private final RowType partitionType;

    private ProcedureTable(String procedure, String qualifiedName, FileStoreTable table) {
        this.procedure = procedure;
        this.qualifiedName = qualifiedName;
        this.table = table;
        this.partitionType = table.rowType().project(table.partitionKeys());
    }

    /** Resolves {@code db.t} (or {@code catalog.db.t} naming this catalog) in {@code catalog}. */
    static ProcedureTable resolve(StrataCatalog catalog, String procedure, String argument) {
        if (argument == null || argument.isBlank()) {
            throw StrataErrors.analysis(String.format(
                    "Cannot run %s.sys.%s: argument table is empty. Pass table => 'db.table'.",
                    catalog.name(), procedure));
        }
        String[] parts = argument.trim().split("\\.");
        if (parts.length == 3 && parts[0].equals(catalog.name())) {
            parts = new String[] {parts[1], parts[2]};
        }
        if (parts.length != 2) {
            throw StrataErrors.analysis(String.format(
                    "Cannot run %s.sys.%s: table => '%s' is not of the form 'db.table'. Pass table => 'db.table'.",
                    catalog.name(), procedure, argument));
        }
        String qualified = catalog.name() + "." + parts[0] + "." + parts[1];
        try {
            return new ProcedureTable(
                    procedure, qualified, catalog.loadPaimonTable(Identifier.of(new String[] {parts[0]}, parts[1])));
        } catch (NoSuchTableException e) {
            throw StrataErrors.analysis(String.format(
                    "Cannot run %s.sys.%s on %s: the table does not exist. Check the name with SHOW TABLES IN %s.%s.",
                    catalog.name(), procedure, qualified, catalog.name(), parts[0]));
        }
    }

    String name() {
        return qualifiedName;
    }

    FileStoreTable table() {
        return table;
    }

    /** {@code k1=v1/k2=v2}, or the empty string for an unpartitioned table. */
    String describe(BinaryRow partition) {
        if (partitionType.getFieldCount() == 0) {
            return "";
        }
        Row row = toExternal(partition);
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < partitionType.getFieldCount(); i++) {
            parts.add(partitionType.getFieldNames().get(i) + "=" + (row.isNullAt(i) ? "null" : row.get(i).toString()));
        }
        return String.join("/", parts);
    }

    /**
     * The partitions among {@code partitions} matching a SQL filter over partition columns, evaluated by
     * Spark itself; all of them when {@code where} is null or blank.
     */
    List<BinaryRow> select(List<BinaryRow> partitions, String where) {
        if (where == null || where.isBlank()) {
            return partitions;
        }
        if (partitionType.getFieldCount() == 0) {
            throw StrataErrors.analysis(String.format(
                    "Cannot run %s on %s with where => '%s': the table has no partition columns. Omit where.",
                    procedure, qualifiedName, where));
        }
        StructType partitionSchema = SparkTypes.toSpark(partitionType);
        StructType schema = partitionSchema.add(new StructField("__strata_partition_index", DataTypes.IntegerType, false,
                org.apache.spark.sql.types.Metadata.empty()));
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < partitions.size(); i++) {
            Row values = toExternal(partitions.get(i));
            Object[] cells = new Object[values.length() + 1];
            for (int j = 0; j < values.length(); j++) {
                cells[j] = values.get(j);
            }
            cells[values.length()] = i;
            rows.add(RowFactory.create(cells));
        }
        SparkSession spark = SparkSession.active();
        List<Row> matching;
        try {
            Dataset<Row> filtered = spark.createDataFrame(rows, schema).where(where);
            matching = filtered.select("__strata_partition_index").collectAsList();
        } catch (Exception e) {
            throw StrataErrors.analysis(String.format(
                    "Cannot run %s on %s with where => '%s': %s. The filter may use partition columns %s only.",
                    procedure, qualifiedName, where, firstLine(e.getMessage()), table.partitionKeys()), e);
        }
        Map<Integer, BinaryRow> selected = new TreeMap<>();
        for (Row r : matching) {
            int index = r.getInt(0);
            selected.put(index, partitions.get(index));
        }
        return new ArrayList<>(selected.values());
    }

    private Row toExternal(BinaryRow partition) {
        org.apache.spark.sql.catalyst.InternalRow internal =
                PaimonToSpark.forRowType(partitionType).convert(partition);
        @SuppressWarnings("unchecked")
        Function1<Object, Object> converter = (Function1<Object, Object>)
                CatalystTypeConverters.createToScalaConverter(SparkTypes.toSpark(partitionType));
        return (Row) converter.apply(internal);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "invalid filter";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
