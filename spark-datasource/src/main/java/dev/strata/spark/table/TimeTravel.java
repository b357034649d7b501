package dev.strata.spark.table;

import dev.strata.index.options.FullTextDefinition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.snapshot.TimeTravelUtil;
import org.apache.paimon.types.DataField;

/**
 * Copies of a table with dynamic options that may travel to an older snapshot. Paimon reads an
 * older snapshot with the fields of that snapshot's schema and the table's current options, and
 * checks the two together; options that name columns ({@code fields.<column>.*}, {@code
 * sequence.field}, {@code bucket-key}, the full-text index's column) name them as they are now, so
 * after a column was renamed (or added) every read of an earlier snapshot failed with "Field ...
 * can not be found in table schema". The names are translated to the travelled-to schema through
 * the field ids (stable across renames); per-column options of a column the snapshot does not have
 * yet are left out.
 */
public final class TimeTravel {

    private static final String FIELDS_PREFIX = "fields.";

    private TimeTravel() {}

    /** {@code table.copy(options)}, with column names of options translated as above. */
    public static FileStoreTable copy(FileStoreTable table, Map<String, String> options) {
        return table.copy(translated(table, options));
    }

    /**
     * The dynamic options to copy {@code table} with so that its options name the target's columns.
     */
    static Map<String, String> translated(FileStoreTable table, Map<String, String> options) {
        Map<String, String> merged = new HashMap<>(table.options());
        options.forEach(
                (k, v) -> {
                    if (v == null) {
                        merged.remove(k);
                    } else {
                        merged.put(k, v);
                    }
                });
        TableSchema target;
        try {
            Optional<Snapshot> snapshot =
                    TimeTravelUtil.tryTravelToSnapshot(
                            Options.fromMap(merged), table.snapshotManager(), table.tagManager());
            if (snapshot.isEmpty() || snapshot.get().schemaId() == table.schema().id()) {
                return options;
            }
            target = table.schemaManager().schema(snapshot.get().schemaId());
        } catch (RuntimeException e) {
            // No such snapshot or tag: Paimon's copy names what is missing.
            return options;
        }
        Map<Integer, String> targetNames = new HashMap<>();
        for (DataField f : target.fields()) {
            targetNames.put(f.id(), f.name());
        }
        Map<String, String> oldNames = new HashMap<>();
        for (DataField f : table.schema().fields()) {
            oldNames.put(f.name(), targetNames.get(f.id()));
        }
        Map<String, String> out = new HashMap<>(options);
        for (Map.Entry<String, String> e : merged.entrySet()) {
            String key = e.getKey();
            if (!key.startsWith(FIELDS_PREFIX)) {
                continue;
            }
            int dot = key.indexOf('.', FIELDS_PREFIX.length());
            if (dot < 0) {
                continue;
            }
            String names = key.substring(FIELDS_PREFIX.length(), dot);
            String names2 = rename(names, oldNames);
            if (names2 == null) {
                out.put(key, null);
            } else if (!names2.equals(names)) {
                out.put(key, null);
                out.put(FIELDS_PREFIX + names2 + key.substring(dot), e.getValue());
            }
        }
        List<String> naming =
                List.of(
                        CoreOptions.SEQUENCE_FIELD.key(),
                        CoreOptions.BUCKET_KEY.key(),
                        FullTextDefinition.columnsKey(merged));
        for (String key : naming) {
            String value = merged.get(key);
            String renamed = value == null ? null : rename(value, oldNames);
            if (renamed != null && !renamed.equals(value)) {
                out.put(key, renamed);
            }
        }
        return out;
    }

    /**
     * The comma-separated column {@code names} as the target schema names them: null when one of
     * them is a current column the target does not have; names that are no current column (such as
     * {@code default-aggregate-function}) stay.
     */
    private static String rename(String names, Map<String, String> oldNames) {
        List<String> out = new ArrayList<>();
        for (String name : names.split(",", -1)) {
            String trimmed = name.trim();
            if (!oldNames.containsKey(trimmed)) {
                out.add(name);
                continue;
            }
            String old = oldNames.get(trimmed);
            if (old == null) {
                return null;
            }
            out.add(old);
        }
        return String.join(",", out);
    }
}
