package dev.strata.launcher;

import dev.strata.spark.StrataCatalog;
import dev.strata.spark.catalog.StrataTableNames;
import dev.strata.spark.table.StrataTable;
import dev.strata.spark.write.PaimonCommits;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.ResolvedIdentifier;
import org.apache.spark.sql.catalyst.analysis.ResolvedNamespace;
import org.apache.spark.sql.catalyst.plans.logical.AppendData;
import org.apache.spark.sql.catalyst.plans.logical.CommandResult;
import org.apache.spark.sql.catalyst.plans.logical.CreateNamespace;
import org.apache.spark.sql.catalyst.plans.logical.CreateTable;
import org.apache.spark.sql.catalyst.plans.logical.CreateTableAsSelect;
import org.apache.spark.sql.catalyst.plans.logical.DeleteFromTable;
import org.apache.spark.sql.catalyst.plans.logical.DropNamespace;
import org.apache.spark.sql.catalyst.plans.logical.DropTable;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.RowLevelWrite;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.V2WriteCommand;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;

/**
 * What a statement without result columns did, in one line: {@code Table lake.db.t created}, {@code
 * Inserted 100 rows into lake.db.t (snapshot 3)}. Row counts and snapshot ids come from the Paimon
 * snapshots the statement's own commits created (recorded by {@link PaimonCommits#record()}, so
 * commits of other sessions at the same time are never reported); statements it does not know are
 * reported as {@code OK}.
 */
final class StatementReport {

    private StatementReport() {}

    static String describe(LogicalPlan plan, PaimonCommits.Recording commits) {
        if (plan instanceof CommandResult) {
            plan = ((CommandResult) plan).commandLogicalPlan();
        }
        if (plan instanceof CreateTableAsSelect) {
            CreateTableAsSelect ctas = (CreateTableAsSelect) plan;
            String name = name(ctas.name());
            FileStoreTable table = paimon(ctas.name());
            return "Table "
                    + name
                    + " created"
                    + (table == null ? "" : written(table, commits, " with "));
        }
        if (plan instanceof CreateTable) {
            return "Table " + name(((CreateTable) plan).name()) + " created";
        }
        if (plan instanceof DropTable) {
            // DROP ... IF EXISTS runs the same plan whether or not the table existed.
            DropTable drop = (DropTable) plan;
            return "Table "
                    + name(drop.child())
                    + (drop.ifExists() ? " dropped if it existed" : " dropped");
        }
        if (plan instanceof CreateNamespace) {
            return "Namespace " + name(((CreateNamespace) plan).name()) + " created";
        }
        if (plan instanceof DropNamespace) {
            DropNamespace drop = (DropNamespace) plan;
            return "Namespace "
                    + name(drop.namespace())
                    + (drop.ifExists() ? " dropped if it existed" : " dropped");
        }
        // Row-level statements are analysed into a write of the changes (whose relation is the
        // operation's
        // table, not the Strata table) or, for DELETE without WHERE, into the delete itself. A
        // MERGE with only
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
                // An OVERWRITE snapshot records added minus removed rows, not the rows written: no
                // count.
                return "Overwrote " + name + snapshot(table.paimonTable(), commits);
            }
        }
        return "OK";
    }

    /**
     * {@code Deleted from lake.db.t (snapshot 5)}; no row count, a snapshot's records include the
     * deletes.
     */
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
