package dev.strata.spark.table;

import dev.strata.index.options.FullTextDefinition;
import dev.strata.shredding.format.FieldNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.snapshot.TimeTravelUtil;

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

    private static final String FIELDS_PREFIX = CoreOptions.FIELDS_PREFIX + ".";

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
        Set<String> current = new HashSet<>(table.schema().fieldNames());
        Map<String, String> there = FieldNames.in(table.schema().fields(), target.fields());
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
            String targetNames = rename(names, current, there);
            if (targetNames == null) {
                out.put(key, null);
            } else if (!targetNames.equals(names)) {
                out.put(key, null);
                out.put(FIELDS_PREFIX + targetNames + key.substring(dot), e.getValue());
            }
        }
        List<String> naming =
                List.of(
                        CoreOptions.SEQUENCE_FIELD.key(),
                        CoreOptions.BUCKET_KEY.key(),
                        FullTextDefinition.columnsKey(merged));
        for (String key : naming) {
            String value = merged.get(key);
            String renamed = value == null ? null : rename(value, current, there);
            if (renamed != null && !renamed.equals(value)) {
                out.put(key, renamed);
            }
        }
        return out;
    }

    /**
     * The comma-separated column {@code names} as the target schema names them ({@code there}: the
     * {@code current} columns' names in it): null when one of them is a current column the target
     * does not have; names that are no current column (such as {@code default-aggregate-function})
     * stay.
     */
    private static String rename(String names, Set<String> current, Map<String, String> there) {
        List<String> out = new ArrayList<>();
        for (String name : names.split(CoreOptions.FIELDS_SEPARATOR, -1)) {
            String trimmed = name.trim();
            if (!current.contains(trimmed)) {
                out.add(name);
            } else if (there.containsKey(trimmed)) {
                out.add(there.get(trimmed));
            } else {
                return null;
            }
        }
        return String.join(CoreOptions.FIELDS_SEPARATOR, out);
    }
}
