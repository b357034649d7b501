package dev.strata.index.options;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.RowType;

/** The resolved full-text definition of a table (column, field id, analyzer) and its checks. */
public final class FullTextDefinition {

    /** The option that enables the index: the one CHAR/VARCHAR/STRING column to index. */
    public static final String COLUMNS = "strata-full-text.index.columns";

    /** Prefix of table-level analyzer options (keys under {@code index.} define the index). */
    public static final String FULL_TEXT_PREFIX = "strata-full-text.";

    private static final String INDEX_KEYS = FULL_TEXT_PREFIX + "index.";

    /** Key of earlier Strata versions, now Paimon 2.0's: read on tables that have it, never set. */
    public static final String LEGACY_COLUMNS = "pk-full-text.index.columns";

    /** Prefix of table-level analyzer options of earlier versions (Paimon 2.0 owns it too). */
    public static final String LEGACY_PREFIX = "full-text.";

    private static final Pattern LEGACY_COLUMN_OPTIONS =
            Pattern.compile("^fields\\.(.+)\\.pk-full-text\\.index\\.options$");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String column;
    private final int fieldId;
    private final DataField field;
    private final AnalyzerSettings analyzer;

    private FullTextDefinition(DataField field, AnalyzerSettings analyzer) {
        this.column = field.name();
        this.fieldId = field.id();
        this.field = field;
        this.analyzer = analyzer;
    }

    public String column() {
        return column;
    }

    public int fieldId() {
        return fieldId;
    }

    public DataField field() {
        return field;
    }

    public AnalyzerSettings analyzer() {
        return analyzer;
    }

    /** Whether the column's stored values are padded: {@link #indexedText(boolean, String)}. */
    public boolean padded() {
        return padded(field.type());
    }

    /** Whether values of {@code type} are stored padded to its length (CHAR(n)). */
    public static boolean padded(DataType type) {
        return type.getTypeRoot() == DataTypeRoot.CHAR;
    }

    /**
     * The text the index analyses for a stored value: a CHAR(n) value without the trailing spaces
     * it is padded with, as Spark compares CHAR values, so that a {@code keyword} or {@code ngram}
     * analyzer finds CHAR(12) {@code 'disk'} for the query {@code disk}. Every path that indexes or
     * matches a row's text goes through here (archive builds, rows indexed at query time, {@code
     * text_match}).
     */
    public static String indexedText(boolean padded, String stored) {
        if (!padded || stored == null) {
            return stored;
        }
        int end = stored.length();
        while (end > 0 && stored.charAt(end - 1) == ' ') {
            end--;
        }
        return end == stored.length() ? stored : stored.substring(0, end);
    }

    /** The option key holding the JSON analyzer options of {@code column}. */
    public static String columnOptionsKey(String column) {
        return "fields." + column + ".strata-full-text.index.options";
    }

    public static String legacyColumnOptionsKey(String column) {
        return "fields." + column + ".pk-full-text.index.options";
    }

    /** Whether the options enable the index, by its current key or the legacy one. */
    public static boolean isEnabled(Map<String, String> options) {
        return options.containsKey(COLUMNS) || options.containsKey(LEGACY_COLUMNS);
    }

    /** The raw value of the key that enables the index (null when it is not enabled). */
    public static String columnsValue(Map<String, String> options) {
        return options.get(columnsKey(options));
    }

    /** The option key that enables the index on these options (the legacy one only without it). */
    public static String columnsKey(Map<String, String> options) {
        return options.containsKey(COLUMNS) || !options.containsKey(LEGACY_COLUMNS)
                ? COLUMNS
                : LEGACY_COLUMNS;
    }

    /** Whether the options still hold a full-text key of earlier versions that Paimon 2.0 owns. */
    public static boolean hasLegacyKeys(Map<String, String> options) {
        return !legacyKeys(options).isEmpty();
    }

    /**
     * The legacy full-text keys Strata reads as its own: the columns key, the per-column JSON
     * options, and the {@code full-text.*} keys of a table the legacy columns key enables.
     */
    public static List<String> legacyKeys(Map<String, String> options) {
        List<String> keys = new ArrayList<>();
        boolean legacyIndex = options.containsKey(LEGACY_COLUMNS);
        for (String key : options.keySet()) {
            if (key.equals(LEGACY_COLUMNS)
                    || LEGACY_COLUMN_OPTIONS.matcher(key).matches()
                    || (legacyIndex && key.startsWith(LEGACY_PREFIX))) {
                keys.add(key);
            }
        }
        keys.sort(null);
        return keys;
    }

    /**
     * The options with legacy keys renamed to current ones (a current value wins) when {@link
     * #COLUMNS} is set; else unchanged, as Strata cannot tell an old table from a Paimon 2.0 one.
     */
    public static Map<String, String> withCurrentKeys(Map<String, String> options) {
        if (!options.containsKey(COLUMNS) || !hasLegacyKeys(options)) {
            return options;
        }
        Map<String, String> out = new LinkedHashMap<>(options);
        for (String key : legacyKeys(options)) {
            String value = out.remove(key);
            String current = currentName(key);
            if (current != null) {
                out.putIfAbsent(current, value);
            }
        }
        return out;
    }

    /** The current name of a legacy key, null for the columns key (already set). */
    private static String currentName(String legacyKey) {
        Matcher m = LEGACY_COLUMN_OPTIONS.matcher(legacyKey);
        if (m.matches()) {
            return columnOptionsKey(m.group(1));
        }
        if (legacyKey.startsWith(LEGACY_PREFIX)) {
            return FULL_TEXT_PREFIX + legacyKey.substring(LEGACY_PREFIX.length());
        }
        return null;
    }

    /** The options with legacy keys also readable under their current names (current keys win). */
    static Map<String, String> readable(Map<String, String> options) {
        if (!hasLegacyKeys(options)) {
            return options;
        }
        Map<String, String> out = new LinkedHashMap<>(options);
        if (!out.containsKey(COLUMNS)) {
            out.put(COLUMNS, out.get(LEGACY_COLUMNS));
        }
        for (String key : legacyKeys(options)) {
            String current = currentName(key);
            if (current != null) {
                out.putIfAbsent(current, out.get(key));
            }
        }
        return out;
    }

    /**
     * Refuses legacy keys a CREATE ({@code previous} null) or ALTER TABLE sets or changes: Paimon
     * 2.0's writers would fail on the table. Keys the table already had are left alone.
     */
    public static void checkNoNewLegacyKeys(
            String table, Map<String, String> proposed, Map<String, String> previous) {
        List<String> keys = legacyKeys(proposed);
        if (isEnabled(proposed)) {
            // Paimon 2.0 reads full-text.* as its own index's options; Strata never reads them on a
            // table enabled by the current key, so setting them would silently do nothing.
            for (String key : proposed.keySet()) {
                if (key.startsWith(LEGACY_PREFIX) && !keys.contains(key)) {
                    keys.add(key);
                }
            }
        }
        for (String key : keys) {
            String before = previous == null ? null : previous.get(key);
            if (before != null && before.equals(proposed.get(key))) {
                continue;
            }
            String current = currentName(key);
            String replacement = current == null ? COLUMNS : current;
            String migrate =
                    previous != null && previous.containsKey(LEGACY_COLUMNS)
                            ? " The table still uses the old keys: ALTER TABLE "
                                    + table
                                    + " SET TBLPROPERTIES ('"
                                    + COLUMNS
                                    + "' = '"
                                    + previous.get(LEGACY_COLUMNS).trim()
                                    + "') moves all of them to the new names."
                            : "";
            throw new IllegalArgumentException(
                    "Cannot "
                            + (previous == null ? "create table " : "alter table ")
                            + table
                            + " with option '"
                            + key
                            + "': Apache Paimon 2.0 reads '"
                            + key
                            + "' as its own full-text index (index type full-text), so its writers"
                            + " fail on the table. Set '"
                            + replacement
                            + "' for Strata's full-text archives instead."
                            + migrate);
        }
    }

    /** Resolves the definition; throws IllegalArgumentException for an unmet table requirement. */
    public static FullTextDefinition resolve(
            String table,
            RowType rowType,
            List<String> primaryKeys,
            List<String> partitionKeys,
            Map<String, String> tableOptions) {
        // Error messages name the key the table actually uses.
        String columnsKey = columnsKey(tableOptions);
        Map<String, String> options = readable(tableOptions);
        String raw = options.get(COLUMNS);
        if (raw == null) {
            throw new IllegalArgumentException(
                    "Cannot use a primary-key full-text index for table "
                            + table
                            + ": option '"
                            + columnsKey
                            + "' is not set. Set it to the one CHAR/VARCHAR/STRING column to index.");
        }
        String[] pieces = raw.split(",", -1);
        List<String> columns = new ArrayList<>();
        for (String piece : pieces) {
            columns.add(piece.trim());
        }
        for (int i = 0; i < columns.size(); i++) {
            for (int j = i + 1; j < columns.size(); j++) {
                if (!columns.get(i).isEmpty() && columns.get(i).equals(columns.get(j))) {
                    throw new IllegalArgumentException(
                            "Cannot create primary-key full-text index for table "
                                    + table
                                    + ": "
                                    + columnsKey
                                    + " contains duplicate column '"
                                    + columns.get(i)
                                    + "' (value '"
                                    + raw
                                    + "'). List the column once.");
                }
            }
        }
        if (columns.size() != 1) {
            throw new IllegalArgumentException(
                    "Cannot create primary-key full-text index for table "
                            + table
                            + ": option '"
                            + columnsKey
                            + "' must contain exactly one column, but was '"
                            + raw
                            + "'. Index one CHAR/VARCHAR/STRING column.");
        }
        String column = columns.get(0);
        if (column.isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot create primary-key full-text index for table "
                            + table
                            + ": option '"
                            + columnsKey
                            + "' must contain a non-empty column, but was '"
                            + raw
                            + "'. Set it to a CHAR/VARCHAR/STRING column name.");
        }
        if (primaryKeys == null || primaryKeys.isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot create primary-key full-text index for table "
                            + table
                            + ": primary-key full-text index requires a primary-key table. Declare a primary key"
                            + " or remove option '"
                            + columnsKey
                            + "'.");
        }
        String mergeEngine =
                options.getOrDefault("merge-engine", "deduplicate").trim().toLowerCase(Locale.ROOT);
        boolean firstRow = mergeEngine.equals("first-row");
        boolean dv = bool(options, "deletion-vectors.enabled");
        if (!firstRow && !dv) {
            throw new IllegalArgumentException(
                    "Cannot create primary-key full-text index for table "
                            + table
                            + ": option 'deletion-vectors.enabled' is '"
                            + options.getOrDefault("deletion-vectors.enabled", "false")
                            + "', but primary-key full-text index requires deletion-vectors.enabled = true"
                            + " (unless merge-engine = first-row). Set 'deletion-vectors.enabled' = 'true'.");
        }
        if (dv && bool(options, "deletion-vectors.merge-on-read")) {
            throw new IllegalArgumentException(
                    "Cannot create primary-key full-text index for table "
                            + table
                            + ": option 'deletion-vectors.merge-on-read' is 'true', allowed value is 'false'."
                            + " Remove the option or set it to 'false'.");
        }
        String bucketRaw = options.getOrDefault("bucket", "-1").trim();
        int bucket;
        try {
            bucket = Integer.parseInt(bucketRaw);
        } catch (NumberFormatException e) {
            bucket = -1;
        }
        if (!(bucket > 0 || bucket == -2)) {
            throw new IllegalArgumentException(
                    "Cannot create primary-key full-text index for table "
                            + table
                            + ": option 'bucket' is '"
                            + bucketRaw
                            + "', but primary-key full-text index requires fixed or postpone bucket mode"
                            + " (bucket > 0 or bucket = -2). Set 'bucket' to a positive number.");
        }
        if (bool(options, "pk-clustering-override")) {
            throw new IllegalArgumentException(
                    "Cannot create primary-key full-text index for table "
                            + table
                            + ": option 'pk-clustering-override' is 'true', allowed value is 'false'."
                            + " Remove the option.");
        }
        DataField field = null;
        for (DataField f : rowType.getFields()) {
            if (f.name().equals(column)) {
                field = f;
            }
        }
        if (field == null) {
            // Also reached when another engine renamed or dropped the column: Paimon renames the
            // keys of its own field options, not Strata's.
            throw new IllegalArgumentException(
                    "Cannot use the primary-key full-text index of table "
                            + table
                            + ": option '"
                            + columnsKey
                            + "' entry '"
                            + column
                            + "' must reference an existing column, and the table's columns are "
                            + rowType.getFieldNames()
                            + " (another engine may have renamed or dropped it). Set the option to"
                            + " the column to index (ALTER TABLE ... SET TBLPROPERTIES ('"
                            + columnsKey
                            + "' = '<column>'): a renamed column keeps its archives) or unset it.");
        }
        DataTypeRoot root = field.type().getTypeRoot();
        if (root != DataTypeRoot.CHAR && root != DataTypeRoot.VARCHAR) {
            throw new IllegalArgumentException(
                    "Cannot create primary-key full-text index for column "
                            + table
                            + "."
                            + column
                            + ": option '"
                            + columnsKey
                            + "' must reference a CHAR/VARCHAR/STRING column, but '"
                            + column
                            + "' is "
                            + field.type()
                            + ". Index a string column.");
        }
        AnalyzerSettings settings =
                AnalyzerSettings.of(effectiveOptions(table, column, options), FULL_TEXT_PREFIX);
        return new FullTextDefinition(field, settings);
    }

    /** The unprefixed analyzer options of {@code column}: table-level plus its JSON options. */
    static Map<String, String> effectiveOptions(
            String table, String column, Map<String, String> options) {
        Map<String, String> prefixed = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().startsWith(FULL_TEXT_PREFIX) && !e.getKey().startsWith(INDEX_KEYS)) {
                prefixed.put(e.getKey(), e.getValue());
            }
        }
        String key = columnOptionsKey(column);
        String json = options.get(key);
        if (json != null && !json.trim().isEmpty()) {
            JsonNode node;
            try {
                node = JSON.readTree(json);
            } catch (Exception e) {
                node = null;
            }
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException(
                        "Cannot create primary-key full-text index for column "
                                + table
                                + "."
                                + column
                                + ": "
                                + key
                                + " must be a JSON object of option key-value pairs, but was '"
                                + json
                                + "'. Example: {\"analyzer\":\"english\"}.");
            }
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String k = e.getKey();
                if (k.trim().isEmpty() || e.getValue() == null || e.getValue().isNull()) {
                    throw new IllegalArgumentException(
                            "Cannot create primary-key full-text index for column "
                                    + table
                                    + "."
                                    + column
                                    + ": "
                                    + key
                                    + " contains an empty key or a null value ('"
                                    + k
                                    + "'). Give every option a name and a value.");
                }
                // A JSON key may carry either prefix: values moved from the old key stay valid.
                String bare =
                        k.startsWith(FULL_TEXT_PREFIX)
                                ? k.substring(FULL_TEXT_PREFIX.length())
                                : k.startsWith(LEGACY_PREFIX)
                                        ? k.substring(LEGACY_PREFIX.length())
                                        : k;
                String full = FULL_TEXT_PREFIX + bare;
                String value =
                        e.getValue().isValueNode()
                                ? e.getValue().asText()
                                : e.getValue().toString();
                String previous = prefixed.get(full);
                if (previous != null && !previous.equals(value)) {
                    throw new IllegalArgumentException(
                            "Cannot create primary-key full-text index for column "
                                    + table
                                    + "."
                                    + column
                                    + ": "
                                    + key
                                    + " defines conflicting values for "
                                    + full
                                    + " ('"
                                    + value
                                    + "' vs table option '"
                                    + previous
                                    + "'). Keep one of them.");
                }
                prefixed.put(full, value);
            }
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : prefixed.entrySet()) {
            result.put(e.getKey().substring(FULL_TEXT_PREFIX.length()), e.getValue());
        }
        return result;
    }

    private static boolean bool(Map<String, String> options, String key) {
        return Boolean.parseBoolean(options.getOrDefault(key, "false").trim());
    }

    @Override
    public String toString() {
        return "FullTextDefinition{column="
                + column
                + ", fieldId="
                + fieldId
                + ", analyzer="
                + analyzer
                + "}";
    }
}
