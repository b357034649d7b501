package dev.strata.spark.procedures;

import dev.strata.spark.catalog.PartitionSelector;
import dev.strata.spark.catalog.StrataTableNames;
import dev.strata.spark.errors.StrataErrors;
import java.util.List;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.connector.catalog.Identifier;
import scala.jdk.javaapi.CollectionConverters;

/** The table a procedure works on, resolved from its {@code table => 'db.t'} argument. */
final class ProcedureTable {

    private final String procedure;
    private final String qualifiedName;
    private final String systemTablePrefix;
    private final FileStoreTable table;
    private final RowType partitionType;

    private ProcedureTable(
            String procedure,
            String qualifiedName,
            String systemTablePrefix,
            FileStoreTable table) {
        this.procedure = procedure;
        this.qualifiedName = qualifiedName;
        this.systemTablePrefix = systemTablePrefix;
        // A table of the old private shredding format moves back to parquet first.
        this.table =
                dev.strata.spark.catalog.TableDefinitionChecks.storeDerivedOptions(
                        qualifiedName, table);
        this.partitionType = table.rowType().project(table.partitionKeys());
    }

    /** {@code db.t} or {@code catalog.db.t}, parsed as a SQL multi-part identifier. */
    static ProcedureTable resolve(TableResolver catalog, String procedure, String argument) {
        if (argument == null || argument.isBlank()) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run %s.sys.%s: argument table is empty. Pass table => 'db.table'.",
                            catalog.name(), procedure));
        }
        List<String> parts;
        try {
            parts =
                    CollectionConverters.asJava(
                            SparkSession.active()
                                    .sessionState()
                                    .sqlParser()
                                    .parseMultipartIdentifier(argument.trim()));
        } catch (ParseException e) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run %s.sys.%s: table => '%s' is not a table name (%s). Pass table => 'db.table', "
                                    + "quoting parts with backticks where SQL needs it.",
                            catalog.name(),
                            procedure,
                            argument,
                            // Spark's parse error, without the SQL it appends below a line break
                            java.util.Arrays.stream(String.valueOf(e.getMessage()).split("\n"))
                                    .map(String::trim)
                                    .filter(line -> !line.isEmpty())
                                    .findFirst()
                                    .orElse("it does not parse")));
        }
        StrataTableNames.ArgumentTable named =
                StrataTableNames.fromArgument(SparkSession.active(), parts, catalog.name());
        if (named == null || !named.catalog().equals(catalog.name())) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run %s.sys.%s: table => '%s' is not of the form 'db.table'. Pass table => 'db.table', "
                                    + "or a bare table name after USE %s.<db>.",
                            catalog.name(), procedure, argument, catalog.name()));
        }
        Identifier ident = named.ident();
        String qualified = StrataTableNames.qualified(catalog.name(), ident);
        try {
            StrataTableNames.toPaimon(
                    catalog.name(), ident, "run " + catalog.name() + ".sys." + procedure + " on");
            return new ProcedureTable(
                    procedure,
                    qualified,
                    StrataTableNames.systemTable(catalog.name(), ident, ""),
                    catalog.loadPaimonTable(ident));
        } catch (NoSuchTableException e) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run %s.sys.%s on %s: the table does not exist. Check the name with SHOW TABLES IN %s.",
                            catalog.name(),
                            procedure,
                            qualified,
                            StrataTableNames.qualifiedNamespace(
                                    catalog.name(), ident.namespace())));
        }
    }

    String name() {
        return qualifiedName;
    }

    /** In the quoted form every Spark minor parses. */
    String systemTable(String suffix) {
        return systemTablePrefix.substring(0, systemTablePrefix.length() - 1) + suffix + "`";
    }

    FileStoreTable table() {
        return table;
    }

    String describe(BinaryRow partition) {
        return PartitionSelector.describe(partitionType, partition);
    }

    void checkWhere(String where) {
        PartitionSelector.check(table, qualifiedName, where);
    }

    List<BinaryRow> select(List<BinaryRow> partitions, String where) {
        return PartitionSelector.select(table, qualifiedName, partitions, where);
    }
}
