package dev.strata.shredding.format;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.types.DataField;

/**
 * Column names across a table's schema versions. Paimon identifies a column by its field id, which
 * a rename keeps and a drop-and-add of the same name does not; files, footer entries and options
 * name a column as the schema they were written with did.
 */
public final class FieldNames {

    private FieldNames() {}

    /** Per column of {@code ids} (name → field id), its name in {@code fields}, if any. */
    public static Map<String, String> in(Map<String, Integer> ids, List<DataField> fields) {
        Map<Integer, String> byId = new HashMap<>();
        for (DataField f : fields) {
            byId.put(f.id(), f.name());
        }
        Map<String, String> out = new HashMap<>();
        ids.forEach(
                (name, id) -> {
                    String there = byId.get(id);
                    if (there != null) {
                        out.put(name, there);
                    }
                });
        return out;
    }

    /** {@link #in(Map, List)} for the columns {@code from}. */
    public static Map<String, String> in(List<DataField> from, List<DataField> fields) {
        Map<String, Integer> ids = new HashMap<>();
        for (DataField f : from) {
            ids.put(f.name(), f.id());
        }
        return in(ids, fields);
    }
}
