package dev.strata.launcher;

import dev.strata.spark.StrataCatalog;
import dev.strata.spark.catalog.StrataTableNames;
import dev.strata.spark.table.StrataTable;
import dev.strata.spark.write.PaimonCommits;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.PersistedView$;
import org.apache.spark.sql.catalyst.analysis.ResolvedIdentifier;
import org.apache.spark.sql.catalyst.analysis.ResolvedNamespace;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.plans.logical.AppendData;
import org.apache.spark.sql.catalyst.plans.logical.CommandResult;
import org.apache.spark.sql.catalyst.plans.logical.CreateNamespace;
import org.apache.spark.sql.catalyst.plans.logical.CreateTable;
import org.apache.spark.sql.catalyst.plans.logical.CreateTableAsSelect;
import org.apache.spark.sql.catalyst.plans.logical.DeleteFromTable;
import org.apache.spark.sql.catalyst.plans.logical.DropNamespace;
import org.apache.spark.sql.catalyst.plans.logical.DropTable;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.RowLevelWrite;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.V2WriteCommand;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.command.CreateDataSourceTableAsSelectCommand;
import org.apache.spark.sql.execution.command.CreateDataSourceTableCommand;
import org.apache.spark.sql.execution.command.CreateViewCommand;
import org.apache.spark.sql.execution.command.DataWritingCommandExec;
import org.apache.spark.sql.execution.command.ExecutedCommandExec;
import org.apache.spark.sql.execution.datasources.InsertIntoHadoopFsRelationCommand;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.metric.SQLMetric;

/**
 * What a statement without result columns did, in one line ({@code Inserted 100 rows into lake.db.t
 * (snapshot 3)}), from the snapshots the statement's own commits created ({@link
 * PaimonCommits#record()}, so other sessions' commits are never reported); unknown ones print OK.
 */
final class StatementReport {

    private StatementReport() {}

    static String describe(
            SparkSession spark, QueryExecution execution, PaimonCommits.Recording commits) {
        // A command ran when the statement was planned; its result holds the command and the
        // physical plan that ran it (whose metrics count the rows a file write wrote).
        LogicalPlan plan = execution.commandExecuted();
        SparkPlan physical = null;
        if (plan instanceof CommandResult) {
            physical = ((CommandResult) plan).commandPhysicalPlan();
            plan = ((CommandResult) plan).commandLogicalPlan();
        } else {
            plan = execution.analyzed();
        }
        String sessionTable = sessionCatalogReport(spark, plan, physical);
        if (sessionTable != null) {
            return sessionTable;
        }
        // The statement as written decides the verb: analysis turns a MERGE into several writes.
        boolean merge = execution.logical() instanceof MergeIntoTable;
        if (plan instanceof CreateTableAsSelect) {
            CreateTableAsSelect ctas = (CreateTableAsSelect) plan;
            String name = name(ctas.name());
            FileStoreTable table = paimon(ctas.name());
            if (ctas.ignoreIfExists() && (table == null || commits.snapshots(table).isEmpty())) {
                // IF NOT EXISTS on an existing table writes nothing, as does an empty SELECT.
                return "Table " + name + " created if it did not exist (no rows written)";
            }
            return "Table "
                    + name
                    + " created"
                    + (table == null ? "" : written(table, commits, " with "));
        }
        if (plan instanceof CreateTable) {
            // IF NOT EXISTS runs the same plan whether or not the table existed.
            CreateTable create = (CreateTable) plan;
            return "Table "
                    + name(create.name())
                    + (create.ignoreIfExists() ? " created if it did not exist" : " created");
        }
        if (plan instanceof DropTable) {
            // DROP ... IF EXISTS runs the same plan whether or not the table existed.
            DropTable drop = (DropTable) plan;
            return "Table "
                    + name(drop.child())
                    + (drop.ifExists() ? " dropped if it existed" : " dropped");
        }
        if (plan instanceof CreateNamespace) {
            CreateNamespace create = (CreateNamespace) plan;
            return "Namespace "
                    + name(create.name())
                    + (create.ifNotExists() ? " created if it did not exist" : " created");
        }
        if (plan instanceof DropNamespace) {
            DropNamespace drop = (DropNamespace) plan;
            return "Namespace "
                    + name(drop.namespace())
                    + (drop.ifExists() ? " dropped if it existed" : " dropped");
        }
        // Row-level statements are analysed into a write of the changes (on the operation's table,
        // not the Strata table) or, for DELETE without WHERE, the delete itself. A MERGE with only
        // NOT MATCHED clauses is analysed into an INSERT and reported as one.
        if (plan instanceof RowLevelWrite
                && ((RowLevelWrite) plan).originalTable() instanceof DataSourceV2Relation) {
            DataSourceV2Relation relation =
                    (DataSourceV2Relation) ((RowLevelWrite) plan).originalTable();
            if (relation.table() instanceof StrataTable) {
                return rowLevel(
                        ((RowLevelWrite) plan).operation().command(),
                        (StrataTable) relation.table(),
                        commits);
            }
        }
        if (plan instanceof DeleteFromTable) {
            LogicalPlan target = ((DeleteFromTable) plan).table();
            while (target instanceof SubqueryAlias) {
                target = ((SubqueryAlias) target).child();
            }
            if (target instanceof DataSourceV2Relation
                    && ((DataSourceV2Relation) target).table() instanceof StrataTable) {
                DataSourceV2Relation relation = (DataSourceV2Relation) target;
                return rowLevel(
                        RowLevelOperation.Command.DELETE, (StrataTable) relation.table(), commits);
            }
        }
        if (plan instanceof V2WriteCommand
                && ((V2WriteCommand) plan).table() instanceof DataSourceV2Relation) {
            DataSourceV2Relation relation = (DataSourceV2Relation) ((V2WriteCommand) plan).table();
            if (relation.table() instanceof StrataTable) {
                StrataTable table = (StrataTable) relation.table();
                String name = table.name();
                if (plan instanceof AppendData) {
                    return "Inserted"
                            + written(table.paimonTable(), commits, " ")
                            + " into "
                            + name
                            + snapshot(table.paimonTable(), commits);
                }
                if (merge) {
                    return "Merged into " + name + snapshot(table.paimonTable(), commits);
                }
                // An OVERWRITE snapshot records added minus removed rows: no count.
                return "Overwrote " + name + snapshot(table.paimonTable(), commits);
            }
        }
        return "OK";
    }

    /**
     * What a statement did to a {@code spark_catalog} table, warning on create that without a Hive
     * metastore its definition is gone at exit while its files stay. Null for other statements.
     */
    private static String sessionCatalogReport(
            SparkSession spark, LogicalPlan plan, SparkPlan physical) {
        if (plan instanceof CreateDataSourceTableAsSelectCommand) {
            CatalogTable table = ((CreateDataSourceTableAsSelectCommand) plan).table();
            String rows = createdRows(spark, table);
            return "Table "
                    + sessionName(spark, table.identifier())
                    + " created"
                    + rows
                    + "\n"
                    + sessionOnlyNotice(spark, table.identifier());
        }
        if (plan instanceof CreateDataSourceTableCommand) {
            CatalogTable table = ((CreateDataSourceTableCommand) plan).table();
            return "Table "
                    + sessionName(spark, table.identifier())
                    + " created\n"
                    + sessionOnlyNotice(spark, table.identifier());
        }
        if (plan instanceof CreateViewCommand
                && ((CreateViewCommand) plan).viewType() == PersistedView$.MODULE$) {
            TableIdentifier view = ((CreateViewCommand) plan).name();
            return "View "
                    + sessionName(spark, view)
                    + " created\n"
                    + sessionOnlyNotice(spark, view);
        }
        if (plan instanceof InsertIntoHadoopFsRelationCommand) {
            InsertIntoHadoopFsRelationCommand insert = (InsertIntoHadoopFsRelationCommand) plan;
            String target =
                    insert.catalogTable().isDefined()
                            ? sessionName(spark, insert.catalogTable().get().identifier())
                            : insert.outputPath().toString();
            return (insert.mode() == SaveMode.Overwrite ? "Overwrote " : "Inserted")
                    + (insert.mode() == SaveMode.Overwrite
                            ? target + (physical == null ? "" : outputRows(physical, " with "))
                            : (physical == null ? "" : outputRows(physical, " "))
                                    + " into "
                                    + target);
        }
        return null;
    }

    /**
     * {@code " with 3 rows"} for a new parquet or ORC table, from the files' footers (Spark's CTAS
     * keeps no write metrics); "" for other formats, whose count would read every row.
     */
    private static String createdRows(SparkSession spark, CatalogTable table) {
        String provider =
                table.provider().isDefined() ? table.provider().get().toLowerCase(Locale.ROOT) : "";
        if (!provider.equals("parquet") && !provider.equals("orc")) {
            return "";
        }
        try {
            long n = spark.table(sessionName(spark, table.identifier())).count();
            return " with " + n + (n == 1 ? " row" : " rows");
        } catch (Exception e) {
            return ""; // the table was created; its row count is only a courtesy
        }
    }

    /** {@code lead + "3 rows"} from the rows a file write reported, or "" when none did. */
    private static String outputRows(SparkPlan physical, String lead) {
        scala.collection.immutable.Map<String, SQLMetric> metrics;
        if (physical instanceof DataWritingCommandExec) {
            metrics = ((DataWritingCommandExec) physical).cmd().metrics();
        } else if (physical instanceof ExecutedCommandExec) {
            metrics = ((ExecutedCommandExec) physical).cmd().metrics();
        } else {
            return "";
        }
        scala.Option<SQLMetric> rows = metrics.get("numOutputRows");
        if (rows.isEmpty()) {
            return "";
        }
        long n = rows.get().value();
        return lead + n + (n == 1 ? " row" : " rows");
    }

    private static String sessionName(SparkSession spark, TableIdentifier ident) {
        String database =
                ident.database().isDefined()
                        ? ident.database().get()
                        : spark.catalog().currentDatabase();
        return "spark_catalog." + database + "." + ident.table();
    }

    private static String sessionOnlyNotice(SparkSession spark, TableIdentifier ident) {
        String name = sessionName(spark, ident);
        String files = "";
        try {
            CatalogTable table =
                    spark.sessionState()
                            .catalog()
                            .getTableMetadata(
                                    new TableIdentifier(
                                            ident.table(),
                                            scala.Option.apply(name.split("\\.")[1]),
                                            scala.Option.apply("spark_catalog")));
            if (table.storage().locationUri().isDefined()) {
                files = ", while its files stay in " + table.storage().locationUri().get();
            }
        } catch (Exception e) {
            // A view has no files; a table that cannot be looked up is still worth the notice.
        }
        return "Note: "
                + name
                + " is in Spark's session catalog, which strata-sql keeps in memory: it is gone at exit"
                + files
                + ". Create tables in lake to keep them.";
    }

    /** {@code Deleted from t (snapshot 5)}; no count, as snapshot records include the deletes. */
    private static String rowLevel(
            RowLevelOperation.Command command, StrataTable table, PaimonCommits.Recording commits) {
        String verb =
                command == RowLevelOperation.Command.DELETE
                        ? "Deleted from "
                        : command == RowLevelOperation.Command.UPDATE ? "Updated " : "Merged into ";
        return verb + table.name() + snapshot(table.paimonTable(), commits);
    }

    /** {@code lead + "100 rows"}: the rows of the APPEND snapshots the statement committed. */
    private static String written(
            FileStoreTable table, PaimonCommits.Recording commits, String lead) {
        long rows = 0;
        for (long id : commits.snapshots(table)) {
            Snapshot s = table.snapshotManager().snapshot(id);
            // Only APPEND snapshots count written rows; COMPACT ones move rows.
            if (s.commitKind() == Snapshot.CommitKind.APPEND) {
                rows += s.deltaRecordCount();
            }
        }
        return lead + rows + (rows == 1 ? " row" : " rows");
    }

    /** {@code " (snapshot 5)"} or {@code " (snapshots 5, 6)"}: the statement's own snapshots. */
    private static String snapshot(FileStoreTable table, PaimonCommits.Recording commits) {
        List<Long> ids = commits.snapshots(table);
        if (ids.isEmpty()) {
            return " (no new snapshot)";
        }
        return ids.size() == 1
                ? " (snapshot " + ids.get(0) + ")"
                : " (snapshots "
                        + ids.stream().map(String::valueOf).collect(Collectors.joining(", "))
                        + ")";
    }

    private static FileStoreTable paimon(LogicalPlan name) {
        if (name instanceof ResolvedIdentifier) {
            ResolvedIdentifier resolved = (ResolvedIdentifier) name;
            if (resolved.catalog() instanceof StrataCatalog) {
                try {
                    return ((StrataCatalog) resolved.catalog())
                            .loadPaimonTable(resolved.identifier());
                } catch (NoSuchTableException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static String name(LogicalPlan plan) {
        if (plan instanceof ResolvedIdentifier) {
            ResolvedIdentifier resolved = (ResolvedIdentifier) plan;
            return qualified(resolved.catalog(), resolved.identifier());
        }
        if (plan instanceof ResolvedNamespace) {
            ResolvedNamespace resolved = (ResolvedNamespace) plan;
            return resolved.catalog().name() + "." + resolved.namespace().mkString(".");
        }
        return plan.simpleString(100);
    }

    private static String qualified(CatalogPlugin catalog, Identifier ident) {
        return StrataTableNames.qualified(catalog.name(), ident);
    }
}
