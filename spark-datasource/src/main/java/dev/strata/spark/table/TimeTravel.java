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
 * Copies of a table with options that may travel to an older snapshot. Paimon checks the current
 * options against the old schema's fields, so options naming renamed or added columns would fail
 * ("Field ... can not be found"). Names are translated through field ids; options of columns the
 * snapshot lacks are left out.
 */
public final class TimeTravel {

    private static final String FIELDS_PREFIX = CoreOptions.FIELDS_PREFIX + ".";

    private TimeTravel() {}

    /** {@code table.copy(options)}, with column names translated. */
    public static FileStoreTable copy(FileStoreTable table, Map<String, String> options) {
        return table.copy(translated(table, options));
    }

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
        // Options of the snapshot's columns that no current column continues (dropped since, a
        // name re-added is another column): as the snapshot's schema has them.
        Set<String> continued = new HashSet<>(there.values());
        for (Map.Entry<String, String> e : target.options().entrySet()) {
            String key = e.getKey();
            int dot = key.startsWith(FIELDS_PREFIX) ? key.indexOf('.', FIELDS_PREFIX.length()) : -1;
            if (dot < 0 || out.containsKey(key) && out.get(key) != null) {
                continue;
            }
            boolean gone = true;
            for (String name :
                    key.substring(FIELDS_PREFIX.length(), dot)
                            .split(CoreOptions.FIELDS_SEPARATOR, -1)) {
                gone &=
                        target.fieldNames().contains(name.trim())
                                && !continued.contains(name.trim());
            }
            if (gone) {
                out.put(key, e.getValue());
            }
        }
        List<String> naming =
                List.of(
                        CoreOptions.SEQUENCE_FIELD.key(),
                        CoreOptions.BUCKET_KEY.key(),
                        FullTextDefinition.columnsKey(merged));
        for (String key : naming) {
            String value = merged.get(key);
            if (value == null) {
                continue;
            }
            String renamed = rename(value, current, there);
            if (renamed == null) {
                // The current value names a column the snapshot lacks (another engine dropped
                // the old one and the option now names its successor): the snapshot's own schema
                // says what it used.
                String then =
                        key.equals(FullTextDefinition.columnsKey(merged))
                                ? target.options()
                                        .get(FullTextDefinition.columnsKey(target.options()))
                                : target.options().get(key);
                out.put(key, then);
            } else if (!renamed.equals(value)) {
                out.put(key, renamed);
            }
        }
        return out;
    }

    /**
     * {@code names} as the target names them; null when one is a current column the target lacks.
     * Non-column names stay.
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
