package dev.strata.spark.procedures;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;

/**
 * The procedures of a Strata catalog's {@code sys} namespace: one registry of name and constructor,
 * so listing and loading cannot disagree.
 */
public final class StrataProcedures {

    private static final Map<String, Function<TableResolver, StrataProcedure>> REGISTRY =
            new LinkedHashMap<>();

    static {
        register(CompactProcedure.NAME, CompactProcedure::new);
        register(RebuildPkFullTextProcedure.NAME, RebuildPkFullTextProcedure::new);
        register(
                TableMaintenanceProcedures.ExpireSnapshots.NAME,
                TableMaintenanceProcedures.ExpireSnapshots::new);
        register(
                TableMaintenanceProcedures.CreateTag.NAME,
                TableMaintenanceProcedures.CreateTag::new);
        register(
                TableMaintenanceProcedures.DeleteTag.NAME,
                TableMaintenanceProcedures.DeleteTag::new);
        register(
                TableMaintenanceProcedures.Rollback.NAME, TableMaintenanceProcedures.Rollback::new);
        register(
                TableMaintenanceProcedures.CreateBranch.NAME,
                TableMaintenanceProcedures.CreateBranch::new);
        register(
                TableMaintenanceProcedures.DeleteBranch.NAME,
                TableMaintenanceProcedures.DeleteBranch::new);
        register(
                TableMaintenanceProcedures.FastForward.NAME,
                TableMaintenanceProcedures.FastForward::new);
        register(
                TableMaintenanceProcedures.RemoveOrphanFiles.NAME,
                TableMaintenanceProcedures.RemoveOrphanFiles::new);
    }

    private StrataProcedures() {}

    private static void register(String name, Function<TableResolver, StrataProcedure> create) {
        if (REGISTRY.putIfAbsent(name, create) != null) {
            throw new IllegalStateException("Procedure " + name + " is registered twice");
        }
    }

    /** The names, in the order {@code SHOW PROCEDURES} lists them. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.keySet());
    }

    /** The procedure with this name bound to {@code catalog}, or {@code null}. */
    public static UnboundProcedure load(TableResolver catalog, String name) {
        Function<TableResolver, StrataProcedure> create =
                REGISTRY.get(name.toLowerCase(Locale.ROOT));
        return create == null ? null : create.apply(catalog).unbound();
    }
}
