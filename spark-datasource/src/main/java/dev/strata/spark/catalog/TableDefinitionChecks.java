package dev.strata.spark.catalog;

import dev.strata.index.PkFullTextIndex;
import dev.strata.index.options.FullTextDefinition;
import dev.strata.shredding.ShreddingOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;

/**
 * The table definition rules Strata enforces on CREATE and ALTER TABLE, and the options it derives
 * from a definition (for example the file format a storage layout needs). Paimon keeps unknown
 * options without validating them, so every Strata feature that reads options registers its rules
 * here.
 */
public final class TableDefinitionChecks {

    private static final List<TableDefinitionCheck> CHECKS =
            List.of(
                    // first: a misspelled key explains the other checks' complaints
                    new OptionKeysCheck(),
                    new BucketModeCheck(),
                    new PartitionTypeCheck(),
                    // Keys Apache Paimon 2.0 owns may not be set to mean Strata's features (tables
                    // that already have them keep working until they move).
                    (table, proposed, previous) -> {
                        Map<String, String> before = previous == null ? null : previous.options();
                        FullTextDefinition.checkNoNewLegacyKeys(table, proposed.options(), before);
                        ShreddingOptions.checkNoNewLegacyKeys(table, proposed.options(), before);
                    },
                    (table, proposed, previous) ->
                            ShreddingOptions.validate(
                                    table, proposed.logicalRowType(), proposed.options()),
                    (table, proposed, previous) -> {
                        // The change first: it names what the change did to the indexed column.
                        if (previous != null) {
                            PkFullTextIndex.validateSchemaChange(table, previous, proposed);
                        }
                        PkFullTextIndex.validate(table, proposed);
                    });

    /**
     * Derivations receive the proposed schema and return the options to store: Strata's {@code
     * stable} placement moves from Paimon's key to Strata's, and once a table sets {@code
     * strata-full-text.index.columns} its old full-text keys move to their new names (both so
     * Apache Paimon 2.0 can open and write the table).
     */
    private static final List<OptionDerivation> DERIVATIONS =
            List.of(
                    schema -> ShreddingOptions.withCurrentKeys(schema.options()),
                    schema -> FullTextDefinition.withCurrentKeys(schema.options()));

    /** Computes options from a proposed schema (the result replaces the schema's options). */
    @FunctionalInterface
    interface OptionDerivation {
        Map<String, String> derive(TableSchema schema);
    }

    private TableDefinitionChecks() {}

    /** Runs every check on a new table. */
    public static void checkCreate(String table, TableSchema proposed) {
        CHECKS.forEach(c -> c.check(table, proposed, null));
    }

    /** Runs every check on the schema an ALTER TABLE would produce. */
    public static void checkAlter(String table, TableSchema proposed, TableSchema previous) {
        CHECKS.forEach(c -> c.check(table, proposed, previous));
    }

    /** The schema to create, with derived options applied. */
    public static Schema withDerivedOptions(Schema schema) {
        Map<String, String> options = derive(TableSchema.create(0, schema));
        if (options.equals(schema.options())) {
            return schema;
        }
        return new Schema(
                schema.fields(),
                schema.partitionKeys(),
                schema.primaryKeys(),
                options,
                schema.comment());
    }

    /**
     * The table to write or compact, after storing the options its definition derives when they
     * differ (keys that moved, see {@link #DERIVATIONS}), so other Paimon engines can load it
     * again. The change goes through Paimon's schema manager, as the catalog's ALTER TABLE does.
     * {@code name} names the table in errors.
     */
    public static FileStoreTable storeDerivedOptions(String name, FileStoreTable table) {
        List<SchemaChange> changes = derivedOptionChanges(table.schema());
        if (changes.isEmpty()) {
            return table;
        }
        try {
            new SchemaManager(table.fileIO(), table.location()).commitChanges(changes);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Cannot write "
                            + name
                            + ": storing the derived table options "
                            + changes
                            + " failed: "
                            + e.getMessage()
                            + ". Make these changes with ALTER TABLE "
                            + name
                            + " SET / UNSET TBLPROPERTIES and retry.",
                    e);
        }
        // copyWithLatestSchema keeps the loaded table's options, so the derived ones are applied on
        // top.
        Map<String, String> derived = new HashMap<>();
        for (SchemaChange c : changes) {
            if (c instanceof SchemaChange.SetOption) {
                derived.put(
                        ((SchemaChange.SetOption) c).key(), ((SchemaChange.SetOption) c).value());
            }
        }
        return table.copyWithLatestSchema().copy(derived);
    }

    /**
     * The option changes an ALTER TABLE must also make so derived options follow the new
     * definition.
     */
    public static List<SchemaChange> derivedOptionChanges(TableSchema proposed) {
        Map<String, String> derived = derive(proposed);
        List<SchemaChange> changes = new ArrayList<>();
        for (Map.Entry<String, String> e : derived.entrySet()) {
            if (!Objects.equals(proposed.options().get(e.getKey()), e.getValue())) {
                changes.add(SchemaChange.setOption(e.getKey(), e.getValue()));
            }
        }
        for (String key : proposed.options().keySet()) {
            if (!derived.containsKey(key)) {
                changes.add(SchemaChange.removeOption(key));
            }
        }
        return changes;
    }

    private static Map<String, String> derive(TableSchema schema) {
        TableSchema current = schema;
        Map<String, String> options = new HashMap<>(schema.options());
        for (OptionDerivation derivation : DERIVATIONS) {
            options = new HashMap<>(derivation.derive(current));
            current = current.copy(options);
        }
        return options;
    }
}
