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
 * Strata's table definition rules on CREATE and ALTER, and the options it derives. Paimon does not
 * validate unknown options, so every feature that reads options registers its rules here.
 */
public final class TableDefinitionChecks {

    private static final List<TableDefinitionCheck> CHECKS =
            List.of(
                    // first: a misspelled key explains the other checks' complaints
                    new OptionKeysCheck(),
                    new BucketModeCheck(),
                    new PartitionTypeCheck(),
                    // Keys Paimon 2.0 owns may not be set to mean Strata's features.
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

    /** Keys move off Paimon's names so Paimon 2.0 can open and write the table. */
    private static final List<OptionDerivation> DERIVATIONS =
            List.of(
                    schema -> ShreddingOptions.withCurrentKeys(schema.options()),
                    schema -> FullTextDefinition.withCurrentKeys(schema.options()));

    /** The result replaces the schema's options. */
    @FunctionalInterface
    interface OptionDerivation {
        Map<String, String> derive(TableSchema schema);
    }

    private TableDefinitionChecks() {}

    public static void checkCreate(String table, TableSchema proposed) {
        CHECKS.forEach(c -> c.check(table, proposed, null));
    }

    public static void checkAlter(String table, TableSchema proposed, TableSchema previous) {
        CHECKS.forEach(c -> c.check(table, proposed, previous));
    }

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

    /** Stores differing derived options before a write or compaction, so other engines can load. */
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
        // copyWithLatestSchema keeps the loaded table's options: apply the derived ones on top.
        Map<String, String> derived = new HashMap<>();
        for (SchemaChange c : changes) {
            if (c instanceof SchemaChange.SetOption) {
                derived.put(
                        ((SchemaChange.SetOption) c).key(), ((SchemaChange.SetOption) c).value());
            }
        }
        return table.copyWithLatestSchema().copy(derived);
    }

    /** What an ALTER must also change so derived options follow. */
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
