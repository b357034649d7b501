package dev.strata.shredding;

import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.GroupPlacement;
import dev.strata.shredding.options.StrataOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;

/**
 * The table options of the shared-shredding layout and their validation: {@code
 * fields.<col>.map.storage-layout} ({@code default} | {@code shared-shredding}), {@code
 * fields.<col>.map.shared-shredding.max-columns} (K_max, default 256), Paimon's {@code
 * fields.<col>.map.shared-shredding.column-placement-policy} ({@code plain} | {@code sequential} |
 * {@code lru}) and Strata's {@code fields.<col>.strata-shredded.column-placement-policy} ({@code
 * disjoint}, the default, | {@code stable}), which wins when set; values are case-insensitive.
 * Strata's policies have a key of their own because Apache Paimon 2.0 refuses to open a table with
 * a value of Paimon's key it does not know ({@link #withCurrentKeys}).
 */
public final class ShreddingOptions {

    /** Prefix of Strata's own option keys, which Paimon ignores. */
    public static final String OPTION_PREFIX = "strata-shredded.";

    public static final String LAYOUT_SUFFIX = "map.storage-layout";
    public static final String MAX_COLUMNS_SUFFIX = "map.shared-shredding.max-columns";
    public static final String POLICY_SUFFIX = "map.shared-shredding.column-placement-policy";
    public static final String STRATA_POLICY_SUFFIX = OPTION_PREFIX + "column-placement-policy";
    public static final String LAYOUT_DEFAULT = "default";
    public static final String LAYOUT_SHARED = "shared-shredding";
    public static final int DEFAULT_MAX_COLUMNS = 256;

    /** Off by default: Paimon's vectorized Parquet reader (1.4, 2.0) rejects BYTE_STREAM_SPLIT. */
    public static final StrataOption<Boolean> BYTE_STREAM_SPLIT =
            StrataOption.bool(
                    OPTION_PREFIX + "byte-stream-split",
                    false,
                    "shredded DOUBLE/FLOAT sub-columns whose dictionary falls back are written"
                            + " BYTE_STREAM_SPLIT (about 16 % fewer bytes for measured values)"
                            + " instead of PLAIN; Paimon's own Parquet readers refuse"
                            + " BYTE_STREAM_SPLIT pages, so only tables no other engine reads"
                            + " should set it");

    public static final StrataOption<Integer> MAX_SEGMENTS =
            StrataOption.integer(
                    OPTION_PREFIX + "max-segments",
                    GroupPlacement.DEFAULT_MAX_SEGMENTS,
                    1,
                    "most ownership segments (row ranges in which a shredded value column held"
                            + " one key) recorded per column and row group in Strata's footer; a"
                            + " column with more is recorded as fragmented and key reads over it"
                            + " decode `__field_mapping`");

    /** Used when no placement key is set: keys that never meet share a column. */
    public static final PlacementPolicy DEFAULT_POLICY = PlacementPolicy.DISJOINT;

    private static final Pattern FIELD_OPTION =
            Pattern.compile(
                    "^fields\\.(.+)\\.(map\\.storage-layout|map\\.shared-shredding\\.max-columns|map\\.shared-shredding\\.column-placement-policy|strata-shredded\\.column-placement-policy)$");
    private static final String FILE_FORMAT = "file.format";
    private static final String FORMAT_PER_LEVEL = "file.format.per.level";
    private static final String CHANGELOG_FORMAT = "changelog-file.format";
    private static final String COMPRESSION = "file.compression";
    private static final String COMPRESSION_PER_LEVEL = "file.compression.per.level";
    private static final String CHANGELOG_COMPRESSION = "changelog-file.compression";

    private ShreddingOptions() {}

    public static String layoutKey(String column) {
        return "fields." + column + "." + LAYOUT_SUFFIX;
    }

    public static String maxColumnsKey(String column) {
        return "fields." + column + "." + MAX_COLUMNS_SUFFIX;
    }

    public static String policyKey(String column) {
        return "fields." + column + "." + POLICY_SUFFIX;
    }

    /** The key for {@code policy}: Strata's for its own policies, else Paimon's. */
    public static String policyKey(String column, String policy) {
        PlacementPolicy p = PlacementPolicy.parseOrNull(policy);
        return p == PlacementPolicy.STABLE || p == PlacementPolicy.DISJOINT
                ? strataPolicyKey(column)
                : policyKey(column);
    }

    public static String strataPolicyKey(String column) {
        return "fields." + column + "." + STRATA_POLICY_SUFFIX;
    }

    public static final class ColumnLayout {
        private final String column;
        private final int maxColumns;
        private final PlacementPolicy policy;

        ColumnLayout(String column, int maxColumns, PlacementPolicy policy) {
            this.column = column;
            this.maxColumns = maxColumns;
            this.policy = policy;
        }

        public String column() {
            return column;
        }

        public int maxColumns() {
            return maxColumns;
        }

        public PlacementPolicy policy() {
            return policy;
        }
    }

    /** Checks the layout options against the schema on CREATE and ALTER TABLE. */
    public static void validate(
            String tableName, RowType rowType, Map<String, String> tableOptions) {
        byteStreamSplit(tableName, tableOptions);
        maxSegments(tableName, tableOptions);
        List<String> shredded = new ArrayList<>();
        for (Map.Entry<String, String> e : tableOptions.entrySet()) {
            Matcher m = FIELD_OPTION.matcher(e.getKey());
            if (!m.matches()) {
                continue;
            }
            String column = m.group(1);
            String suffix = m.group(2);
            String value = e.getValue();
            if (column.indexOf('.') >= 0 && rowType.containsField(column)) {
                throw fail(
                        tableName,
                        "Option '"
                                + e.getKey()
                                + "' names column '"
                                + column
                                + "', but Paimon reads the column of a 'fields.' option up to its "
                                + "first dot (column '"
                                + column.substring(0, column.indexOf('.'))
                                + "'), so no option can be set for a column whose name holds a dot.",
                        "Rename the column without a dot (ALTER TABLE ... RENAME COLUMN) to shred it.");
            }
            if (suffix.equals(MAX_COLUMNS_SUFFIX)) {
                parseMaxColumns(tableName, column, value);
                continue;
            }
            if (suffix.equals(POLICY_SUFFIX)) {
                parsePolicy(tableName, column, value);
                continue;
            }
            if (suffix.equals(STRATA_POLICY_SUFFIX)) {
                parseStrataPolicy(tableName, column, value);
                continue;
            }
            String layout = parseLayout(tableName, column, value);
            if (!rowType.containsField(column)) {
                throw fail(
                        tableName,
                        "Column '"
                                + column
                                + "' is configured with map.storage-layout but does not exist in table schema.",
                        "Remove option '"
                                + e.getKey()
                                + "' or add the column; existing columns: "
                                + rowType.getFieldNames()
                                + ".");
            }
            DataType type = rowType.getField(column).type();
            if (type.getTypeRoot() != DataTypeRoot.MAP) {
                throw fail(
                        tableName,
                        "Column '"
                                + column
                                + "' is configured with map.storage-layout but its type is not MAP.",
                        "Option '"
                                + e.getKey()
                                + "' only applies to MAP columns; '"
                                + column
                                + "' is "
                                + type
                                + ".");
            }
            if (layout.equals(LAYOUT_SHARED)) {
                MapType map = (MapType) type;
                if (map.getKeyType().getTypeRoot() != DataTypeRoot.VARCHAR) {
                    throw fail(
                            tableName,
                            "Column '"
                                    + column
                                    + "' is configured with map.storage-layout=shared-shredding but its type is not MAP<STRING NOT NULL, T>.",
                            "Found "
                                    + type
                                    + "; use a MAP with STRING keys or set '"
                                    + e.getKey()
                                    + "' = 'default'.");
                }
                if (map.getKeyType().isNullable()) {
                    throw fail(
                            tableName,
                            "Column '"
                                    + column
                                    + "' is configured with map.storage-layout=shared-shredding but its map key type is nullable.",
                            "Declare the key as STRING NOT NULL (Spark's MAP<STRING, T> already is) or set '"
                                    + e.getKey()
                                    + "' = 'default'.");
                }
                if (contains(map.getValueType(), DataTypeRoot.BLOB)) {
                    throw fail(
                            tableName,
                            "MAP shared-shredding field '"
                                    + column
                                    + "' cannot contain BLOB fields.",
                            "Change the value type "
                                    + map.getValueType()
                                    + " or set '"
                                    + e.getKey()
                                    + "' = 'default'.");
                }
                if (contains(map.getValueType(), DataTypeRoot.VECTOR)) {
                    throw fail(
                            tableName,
                            "MAP shared-shredding field '"
                                    + column
                                    + "' cannot contain VECTOR fields.",
                            "Change the value type "
                                    + map.getValueType()
                                    + " or set '"
                                    + e.getKey()
                                    + "' = 'default'.");
                }
                parseMaxColumns(tableName, column, tableOptions.get(maxColumnsKey(column)));
                parsePolicy(tableName, column, tableOptions.get(policyKey(column)));
                shredded.add(column);
            }
        }
        if (shredded.isEmpty()) {
            return;
        }
        checkFormat(tableName, shredded, FILE_FORMAT, tableOptions.get(FILE_FORMAT));
        checkFormat(tableName, shredded, CHANGELOG_FORMAT, tableOptions.get(CHANGELOG_FORMAT));
        for (Map.Entry<String, String> level :
                perLevel(tableOptions, FORMAT_PER_LEVEL).entrySet()) {
            checkFormat(tableName, shredded, level.getKey(), level.getValue());
        }
        checkCompression(tableName, COMPRESSION, tableOptions.get(COMPRESSION));
        checkCompression(tableName, CHANGELOG_COMPRESSION, tableOptions.get(CHANGELOG_COMPRESSION));
        for (Map.Entry<String, String> level :
                perLevel(tableOptions, COMPRESSION_PER_LEVEL).entrySet()) {
            checkCompression(tableName, level.getKey(), level.getValue());
        }
        for (DataField f : rowType.getFields()) {
            if (contains(f.type(), DataTypeRoot.VARIANT)) {
                throw fail(
                        tableName,
                        "MAP shared-shredding cannot be used with Variant fields.",
                        "Column '"
                                + f.name()
                                + "' is "
                                + f.type()
                                + "; shredded columns "
                                + shredded
                                + " need a table without VARIANT columns.");
            }
            if (contains(f.type(), DataTypeRoot.MULTISET)) {
                throw fail(
                        tableName,
                        "MAP shared-shredding cannot be used with MULTISET fields.",
                        "Column '"
                                + f.name()
                                + "' is "
                                + f.type()
                                + "; shredded columns "
                                + shredded
                                + " need a table without MULTISET columns.");
            }
        }
        String bucket = tableOptions.get("bucket");
        if (bucket != null && bucket.trim().equals("-2")) {
            throw fail(
                    tableName,
                    "MAP shared-shredding currently does not support postpone bucket mode.",
                    "Option 'bucket' is -2; use a fixed bucket count ('bucket' = 'N', N > 0), "
                            + "or, for a table without a primary key, -1.");
        }
        for (Map.Entry<String, String> e : tableOptions.entrySet()) {
            if (e.getKey().startsWith("file-index.") && e.getKey().endsWith(".columns")) {
                for (String col : shredded) {
                    for (String item : e.getValue().split(",")) {
                        String it = item.trim();
                        if (it.startsWith(col + "[")) {
                            throw fail(
                                    tableName,
                                    "Column '"
                                            + col
                                            + "' is configured with map.storage-layout=shared-shredding, which does not support nested file index.",
                                    "Remove '" + it + "' from option '" + e.getKey() + "'.");
                        }
                    }
                }
            }
        }
    }

    /** The table's shredded columns with their settings, in schema order (options valid). */
    public static Map<String, ColumnLayout> shreddedColumns(
            RowType rowType, Map<String, String> tableOptions) {
        Map<String, ColumnLayout> out = new LinkedHashMap<>();
        for (DataField f : rowType.getFields()) {
            String layout = tableOptions.get(layoutKey(f.name()));
            if (layout == null || !layout.trim().equalsIgnoreCase(LAYOUT_SHARED)) {
                continue;
            }
            if (!(f.type() instanceof MapType)
                    || ((MapType) f.type()).getKeyType().getTypeRoot() != DataTypeRoot.VARCHAR) {
                continue;
            }
            out.put(
                    f.name(),
                    new ColumnLayout(
                            f.name(),
                            parseMaxColumns(
                                    "table", f.name(), tableOptions.get(maxColumnsKey(f.name()))),
                            policy(f.name(), tableOptions)));
        }
        return out;
    }

    /** The policy Strata's writers use: Strata's key when set, else Paimon's key. */
    private static PlacementPolicy policy(String column, Map<String, String> tableOptions) {
        String strata = tableOptions.get(strataPolicyKey(column));
        if (strata != null) {
            return parseStrataPolicy("table", column, strata);
        }
        return parsePolicy("table", column, tableOptions.get(policyKey(column)));
    }

    /** Refuses {@code stable} newly set under Paimon's key: Apache Paimon 2.0 cannot open that. */
    public static void checkNoNewLegacyKeys(
            String tableName, Map<String, String> proposed, Map<String, String> previous) {
        for (Map.Entry<String, String> e : proposed.entrySet()) {
            Matcher m = FIELD_OPTION.matcher(e.getKey());
            if (!m.matches()
                    || !m.group(2).equals(POLICY_SUFFIX)
                    || PlacementPolicy.parseOrNull(e.getValue()) != PlacementPolicy.STABLE) {
                continue;
            }
            if (previous != null && e.getValue().equals(previous.get(e.getKey()))) {
                continue;
            }
            throw new IllegalArgumentException(
                    "Cannot "
                            + (previous == null ? "create table " : "alter table ")
                            + tableName
                            + " with option '"
                            + e.getKey()
                            + "' = '"
                            + e.getValue()
                            + "': Apache Paimon 2.0 validates that key and cannot open a table whose"
                            + " value it does not know ('stable' is Strata's own policy). Set '"
                            + strataPolicyKey(m.group(1))
                            + "' = 'stable' instead.");
        }
    }

    /** Moves {@code stable} from Paimon's key to Strata's, so Paimon 2.0 can open the table. */
    public static Map<String, String> withCurrentKeys(Map<String, String> tableOptions) {
        Map<String, String> out = null;
        for (Map.Entry<String, String> e : tableOptions.entrySet()) {
            Matcher m = FIELD_OPTION.matcher(e.getKey());
            if (m.matches()
                    && m.group(2).equals(POLICY_SUFFIX)
                    && PlacementPolicy.parseOrNull(e.getValue()) == PlacementPolicy.STABLE) {
                if (out == null) {
                    out = new LinkedHashMap<>(tableOptions);
                }
                out.remove(e.getKey());
                out.putIfAbsent(strataPolicyKey(m.group(1)), PlacementPolicy.STABLE.optionValue());
            }
        }
        return out == null ? tableOptions : out;
    }

    private static Map<String, String> perLevel(Map<String, String> options, String key) {
        Map<String, String> out = new LinkedHashMap<>();
        String v = options.get(key);
        if (v != null && !v.isBlank()) {
            for (String item : v.split(",")) {
                String[] kv = item.split(":", 2);
                if (kv.length == 2) {
                    out.put(key + "." + kv[0].trim(), kv[1].trim());
                }
            }
        }
        String prefix = key + ".";
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /** Parquet only (Paimon's PIP-43 also allows ORC). */
    private static void checkFormat(String table, List<String> shredded, String key, String value) {
        if (value == null || value.isBlank()) {
            return;
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (!v.equals(CoreOptions.FILE_FORMAT_PARQUET)) {
            throw fail(
                    table,
                    "shared-shredding column"
                            + (shredded.size() == 1
                                    ? " '" + shredded.get(0) + "'"
                                    : "s " + shredded)
                            + " can only be stored in Parquet by Strata, but "
                            + key
                            + " is "
                            + value
                            + " (Strata supports parquet only).",
                    "Set '"
                            + key
                            + "' = 'parquet', or set 'fields.<column>.map.storage-layout' = 'default'.");
        }
    }

    private static void checkCompression(String table, String key, String value) {
        if (value == null || value.isBlank()) {
            return;
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (!v.equals("none") && !v.equals("lz4") && !v.equals("zstd")) {
            throw fail(
                    table,
                    "MAP shared-shredding only supports none/lz4/zstd compression, but "
                            + key
                            + " is "
                            + value
                            + ".",
                    "Set '" + key + "' to one of none, lz4, zstd.");
        }
    }

    private static String parseLayout(String table, String column, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (v.equals(LAYOUT_DEFAULT) || v.equals(LAYOUT_SHARED)) {
            return v;
        }
        throw fail(
                table,
                "option '" + layoutKey(column) + "' has value '" + value + "'.",
                "Could not parse value for enum. Expected one of: ["
                        + LAYOUT_DEFAULT
                        + ", "
                        + LAYOUT_SHARED
                        + "].");
    }

    public static boolean byteStreamSplit(String table, Map<String, String> tableOptions) {
        return BYTE_STREAM_SPLIT.read(tableOptions, doWhat(table));
    }

    public static int maxSegments(String table, Map<String, String> tableOptions) {
        return MAX_SEGMENTS.read(tableOptions, doWhat(table));
    }

    static int parseMaxColumns(String table, String column, String value) {
        if (value == null) {
            return DEFAULT_MAX_COLUMNS;
        }
        int k;
        try {
            k = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw fail(
                    table,
                    "option '"
                            + maxColumnsKey(column)
                            + "' has value '"
                            + value
                            + "', which is not an integer.",
                    "options map.shared-shredding.max-columns must > 0; use an integer such as "
                            + DEFAULT_MAX_COLUMNS
                            + ".");
        }
        if (k <= 0) {
            throw fail(
                    table,
                    "option '" + maxColumnsKey(column) + "' has value '" + value + "'.",
                    "options map.shared-shredding.max-columns must > 0; use an integer such as "
                            + DEFAULT_MAX_COLUMNS
                            + ".");
        }
        return k;
    }

    static PlacementPolicy parsePolicy(String table, String column, String value) {
        if (value == null) {
            return DEFAULT_POLICY;
        }
        PlacementPolicy p = PlacementPolicy.parseOrNull(value);
        // 'stable' is still read here from tables of earlier versions (moved by withCurrentKeys).
        if (p == null || p == PlacementPolicy.DISJOINT) {
            throw fail(
                    table,
                    "option '" + policyKey(column) + "' has value '" + value + "'.",
                    "Could not parse value for enum. Expected one of: [plain, sequential, lru]"
                            + " (Strata's own 'disjoint' and 'stable' go under '"
                            + strataPolicyKey(column)
                            + "').");
        }
        return p;
    }

    static PlacementPolicy parseStrataPolicy(String table, String column, String value) {
        PlacementPolicy p = PlacementPolicy.parseOrNull(value);
        if (p == PlacementPolicy.STABLE || p == PlacementPolicy.DISJOINT) {
            return p;
        }
        throw fail(
                table,
                "option '" + strataPolicyKey(column) + "' has value '" + value + "'.",
                "Strata's key takes only Strata's own policies 'disjoint' and 'stable'; set Paimon's policies (plain,"
                        + " sequential, lru) under '"
                        + policyKey(column)
                        + "'.");
    }

    private static IllegalArgumentException fail(String table, String why, String what) {
        return new IllegalArgumentException("Cannot " + doWhat(table) + ": " + why + " " + what);
    }

    private static String doWhat(String table) {
        return "configure map storage layout for table " + table;
    }

    private static boolean contains(DataType type, DataTypeRoot root) {
        if (type.getTypeRoot() == root) {
            return true;
        }
        if (type instanceof ArrayType) {
            return contains(((ArrayType) type).getElementType(), root);
        }
        if (type instanceof MapType) {
            return contains(((MapType) type).getKeyType(), root)
                    || contains(((MapType) type).getValueType(), root);
        }
        if (type instanceof MultisetType) {
            return contains(((MultisetType) type).getElementType(), root);
        }
        if (type instanceof RowType) {
            for (DataField f : ((RowType) type).getFields()) {
                if (contains(f.type(), root)) {
                    return true;
                }
            }
        }
        return false;
    }
}
