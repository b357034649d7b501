package dev.strata.spark.procedures;

import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;

/** The procedures of a Strata catalog's {@code sys} namespace. */
public final class StrataProcedures {

    private StrataProcedures() {}

    public static List<String> names() {
        return List.of(
                CompactProcedure.NAME,
                RebuildPkFullTextProcedure.NAME,
                TableMaintenanceProcedures.ExpireSnapshots.NAME,
                TableMaintenanceProcedures.CreateTag.NAME,
                TableMaintenanceProcedures.DeleteTag.NAME,
                TableMaintenanceProcedures.Rollback.NAME,
                TableMaintenanceProcedures.RemoveOrphanFiles.NAME);
    }

    /** The procedure with this name bound to {@code catalog}, or {@code null}. */
    public static UnboundProcedure load(TableResolver catalog, String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case CompactProcedure.NAME:
                return new CompactProcedure(catalog).unbound();
            case RebuildPkFullTextProcedure.NAME:
                return new RebuildPkFullTextProcedure(catalog).unbound();
            case TableMaintenanceProcedures.ExpireSnapshots.NAME:
                return new TableMaintenanceProcedures.ExpireSnapshots(catalog).unbound();
            case TableMaintenanceProcedures.CreateTag.NAME:
                return new TableMaintenanceProcedures.CreateTag(catalog).unbound();
            case TableMaintenanceProcedures.DeleteTag.NAME:
                return new TableMaintenanceProcedures.DeleteTag(catalog).unbound();
            case TableMaintenanceProcedures.Rollback.NAME:
                return new TableMaintenanceProcedures.Rollback(catalog).unbound();
            case TableMaintenanceProcedures.RemoveOrphanFiles.NAME:
                return new TableMaintenanceProcedures.RemoveOrphanFiles(catalog).unbound();
            default:
                return null;
        }
    }
}
