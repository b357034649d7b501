package dev.strata.index.options;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.RowType;

/**
 * The resolved full-text definition of a table: the indexed column, its field id and its analyzer.
 * Also holds the table requirements and their error messages.
 */
public final class FullTextDefinition {

    public static final String COLUMNS = "pk-full-text.index.columns";
    public static final String FULL_TEXT_PREFIX = "full-text.";

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

    /** The option key holding the JSON analyzer options of {@code column}. */
    public static String columnOptionsKey(String column) {
        return "fields." + column + ".pk-full-text.index.options";
    }

    /** Whether the options enable the primary-key full-text index. */
    public static boolean isEnabled(Map<String, String> options) {
        return options.containsKey(COLUMNS);
    }

    /**
     * Resolves the definition and checks every table requirement. Throws {@link
     * IllegalArgumentException} naming the table, the option, the value found and what is allowed.
     */
    public static FullTextDefinition resolve(
            String table,
            RowType rowType,
            List<String> primaryKeys,
            List<String> partitionKeys,
            Map<String, String> options) {
        String raw = options.get(COLUMNS);
        if (raw == null) {
            throw new IllegalArgumentException(
                    "Cannot use a primary-key full-text index for table "
                            + table
                            + ": option '"
                            + COLUMNS
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
                                    + COLUMNS
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
                            + COLUMNS
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
                            + COLUMNS
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
                            + COLUMNS
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
            throw new IllegalArgumentException(
                    "Cannot create primary-key full-text index for table "
                            + table
                            + ": option '"
                            + COLUMNS
                            + "' entry '"
                            + column
                            + "' must reference an existing column. Columns are "
                            + rowType.getFieldNames()
                            + ".");
        }
        DataTypeRoot root = field.type().getTypeRoot();
        if (root != DataTypeRoot.CHAR && root != DataTypeRoot.VARCHAR) {
            throw new IllegalArgumentException(
                    "Cannot create primary-key full-text index for column "
                            + table
                            + "."
                            + column
                            + ": option '"
                            + COLUMNS
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

    /**
     * The effective analyzer options of {@code column} without the {@code full-text.} prefix: every
     * table option starting with {@code full-text.} plus the column's JSON options (unqualified
     * JSON keys are read as {@code full-text.*}).
     */
    static Map<String, String> effectiveOptions(
            String table, String column, Map<String, String> options) {
        Map<String, String> prefixed = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().startsWith(FULL_TEXT_PREFIX)) {
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
                String full = k.startsWith(FULL_TEXT_PREFIX) ? k : FULL_TEXT_PREFIX + k;
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
