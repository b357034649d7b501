package dev.strata.spark.catalog;

import dev.strata.spark.config.CatalogSettings;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.fs.Path;
import org.apache.paimon.iceberg.IcebergOptions;
import org.apache.paimon.options.ConfigOption;
import org.apache.paimon.options.FallbackKey;
import org.apache.spark.sql.connector.catalog.TableCatalog;

/**
 * Checks the table options that decide where files go, at CREATE, CTAS and ALTER, so that no file
 * lands outside the warehouse unless the catalog sets {@code allow-external-paths}. External data,
 * index and blob locations need the switch and must be absolute without {@code .}/{@code ..};
 * {@code path} and {@code location} are always refused; {@code data-file.path-directory} must stay
 * inside the table; prefixes may not contain separators; branch and tag names follow {@link
 * WarehouseNames}; Iceberg metadata outside the table and commit/tag callbacks (arbitrary code)
 * need the switch. Options that only choose among external paths are not checked.
 */
public final class LocationOptions {

    private enum Rule {
        EXTERNAL_LOCATIONS,
        TABLE_LOCATION,
        SUB_DIRECTORY,
        FILE_NAME_PREFIX,
        BRANCH_NAME,
        TAG_NAME,
        TAG_NAMES,
        CALLBACK_CLASSES
    }

    private static final String ICEBERG_STORAGE = IcebergOptions.METADATA_ICEBERG_STORAGE.key();
    private static final String ICEBERG_STORAGE_LOCATION =
            IcebergOptions.METADATA_ICEBERG_STORAGE_LOCATION.key();
    private static final List<String> ICEBERG_STORAGE_VALUES =
            List.of("disabled", "table-location", "hadoop-catalog", "hive-catalog", "rest-catalog");
    private static final List<String> ICEBERG_LOCATION_VALUES =
            List.of("table-location", "catalog-storage");

    private static final Map<String, Rule> RULES = rules();

    private LocationOptions() {}

    private static Map<String, Rule> rules() {
        Map<String, Rule> rules = new LinkedHashMap<>();
        add(
                rules,
                Rule.EXTERNAL_LOCATIONS,
                CoreOptions.DATA_FILE_EXTERNAL_PATHS,
                CoreOptions.GLOBAL_INDEX_EXTERNAL_PATH,
                CoreOptions.BLOB_EXTERNAL_STORAGE_PATH);
        add(rules, Rule.TABLE_LOCATION, CoreOptions.PATH);
        rules.put(TableCatalog.PROP_LOCATION, Rule.TABLE_LOCATION);
        add(rules, Rule.SUB_DIRECTORY, CoreOptions.DATA_FILE_PATH_DIRECTORY);
        add(
                rules,
                Rule.FILE_NAME_PREFIX,
                CoreOptions.DATA_FILE_PREFIX,
                CoreOptions.CHANGELOG_FILE_PREFIX);
        add(
                rules,
                Rule.BRANCH_NAME,
                CoreOptions.BRANCH,
                CoreOptions.SCAN_FALLBACK_BRANCH,
                CoreOptions.SCAN_PRIMARY_BRANCH,
                CoreOptions.SCAN_FALLBACK_SNAPSHOT_BRANCH,
                CoreOptions.SCAN_FALLBACK_DELTA_BRANCH);
        add(
                rules,
                Rule.TAG_NAME,
                CoreOptions.SCAN_TAG_NAME,
                CoreOptions.SCAN_VERSION,
                CoreOptions.TAG_BATCH_CUSTOMIZED_NAME,
                CoreOptions.INCREMENTAL_TO_AUTO_TAG);
        add(rules, Rule.TAG_NAMES, CoreOptions.INCREMENTAL_BETWEEN);
        add(rules, Rule.CALLBACK_CLASSES, CoreOptions.COMMIT_CALLBACKS, CoreOptions.TAG_CALLBACKS);
        return rules;
    }

    private static void add(Map<String, Rule> rules, Rule rule, ConfigOption<?>... options) {
        for (ConfigOption<?> option : options) {
            rules.put(option.key().toLowerCase(Locale.ROOT), rule);
            for (FallbackKey fallback : option.fallbackKeys()) {
                rules.put(fallback.getKey().toLowerCase(Locale.ROOT), rule);
            }
        }
    }

    /**
     * Checks the options a CREATE or ALTER would store. Only new or changed values are checked, so
     * a table keeps options its catalog allowed at creation. {@code current} is empty on CREATE.
     */
    public static void check(
            String action,
            String catalog,
            Map<String, String> proposed,
            Map<String, String> current,
            boolean allowExternal) {
        for (Map.Entry<String, String> e : proposed.entrySet()) {
            Rule rule = RULES.get(e.getKey().toLowerCase(Locale.ROOT));
            if (rule == null || Objects.equals(current.get(e.getKey()), e.getValue())) {
                continue;
            }
            check(
                    action,
                    catalog,
                    e.getKey(),
                    e.getValue() == null ? "" : e.getValue(),
                    rule,
                    allowExternal);
        }
        if (changed(proposed, current, ICEBERG_STORAGE)
                || changed(proposed, current, ICEBERG_STORAGE_LOCATION)) {
            checkIceberg(action, catalog, proposed, allowExternal);
        }
    }

    private static boolean changed(
            Map<String, String> proposed, Map<String, String> current, String key) {
        return !Objects.equals(get(proposed, key), get(current, key));
    }

    /** In any letter case. */
    private static String get(Map<String, String> options, String key) {
        String exact = options.get(key);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().equalsIgnoreCase(key)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** As Paimon spells enum values: lower case, words joined by '-'. */
    private static String enumValue(String value) {
        return value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Iceberg metadata goes inside the table only for {@code table-location}; otherwise under
     * {@code <warehouse>/iceberg/<db>/<table>}, which DROP leaves, and hive/rest-catalog also
     * register the table elsewhere. Both options are judged together, as Paimon reads them.
     */
    private static void checkIceberg(
            String action, String catalog, Map<String, String> proposed, boolean allow) {
        String storageRaw = get(proposed, ICEBERG_STORAGE);
        String storage = storageRaw == null ? "disabled" : enumValue(storageRaw);
        if (!ICEBERG_STORAGE_VALUES.contains(storage)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s: option '%s' = '%s' is not one of %s.",
                            action,
                            ICEBERG_STORAGE,
                            WarehouseNames.printable(storageRaw),
                            String.join(", ", ICEBERG_STORAGE_VALUES)));
        }
        String locationRaw = get(proposed, ICEBERG_STORAGE_LOCATION);
        String location = locationRaw == null ? null : enumValue(locationRaw);
        if (location != null && !ICEBERG_LOCATION_VALUES.contains(location)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s: option '%s' = '%s' is not one of %s.",
                            action,
                            ICEBERG_STORAGE_LOCATION,
                            WarehouseNames.printable(locationRaw),
                            String.join(", ", ICEBERG_LOCATION_VALUES)));
        }
        if (storage.equals("disabled") || allow) {
            return;
        }
        String switchHint =
                String.format(
                        "set spark.sql.catalog.%s.%s=true to allow it",
                        catalog, CatalogSettings.ALLOW_EXTERNAL_PATHS.key());
        if (storage.equals("hive-catalog") || storage.equals("rest-catalog")) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s: option '%s' = '%s' registers the table's Iceberg metadata in "
                                    + "another catalog, outside the table's directory. Use '%s' = "
                                    + "'table-location' to keep Iceberg metadata inside the table, or %s.",
                            action, ICEBERG_STORAGE, storage, ICEBERG_STORAGE, switchHint));
        }
        String effective =
                location != null
                        ? location
                        : storage.equals("table-location") ? "table-location" : "catalog-storage";
        if (effective.equals("catalog-storage")) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s: option '%s' = '%s'%s writes Iceberg metadata to "
                                    + "<warehouse>/iceberg/<db>/<table>, outside the table's directory, "
                                    + "where DROP TABLE leaves it. Set '%s' = 'table-location' to keep it "
                                    + "inside the table, or %s.",
                            action,
                            ICEBERG_STORAGE,
                            storage,
                            location == null
                                    ? ""
                                    : " with '"
                                            + ICEBERG_STORAGE_LOCATION
                                            + "' = '"
                                            + location
                                            + "'",
                            ICEBERG_STORAGE_LOCATION,
                            switchHint));
        }
    }

    private static void check(
            String action, String catalog, String key, String value, Rule rule, boolean allow) {
        switch (rule) {
            case EXTERNAL_LOCATIONS:
                if (!allow) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Cannot %s: option '%s' moves files outside the warehouse. Set "
                                            + "spark.sql.catalog.%s.%s=true to allow absolute external locations.",
                                    action,
                                    key,
                                    catalog,
                                    CatalogSettings.ALLOW_EXTERNAL_PATHS.key()));
                }
                for (String location : value.split(",")) {
                    String problem = notAbsolute(location.trim());
                    if (problem != null) {
                        throw new IllegalArgumentException(
                                String.format(
                                        "Cannot %s: option '%s' holds '%s', which %s. Use absolute locations, e.g. "
                                                + "file:/data/ext or s3://bucket/ext, without '.' or '..' segments.",
                                        action,
                                        key,
                                        WarehouseNames.printable(location.trim()),
                                        problem));
                    }
                }
                return;
            case TABLE_LOCATION:
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot %s: option '%s' would place the table outside the catalog's layout; tables of "
                                        + "catalog %s live in the warehouse at <namespace>.db/<table>. Remove the option "
                                        + "(or the LOCATION clause).",
                                action, key, catalog));
            case SUB_DIRECTORY:
                String problem = notSubDirectory(value);
                if (problem != null) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Cannot %s: option '%s' = '%s' %s. It names a sub-directory inside the table: "
                                            + "segments separated by '/', none empty, '.' or '..', without a leading '/', "
                                            + "'\\', ':' or control characters.",
                                    action, key, WarehouseNames.printable(value), problem));
                }
                return;
            case FILE_NAME_PREFIX:
                String bad = WarehouseNames.characterProblem(value);
                if (bad != null) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Cannot %s: option '%s': %s. File name prefixes must not contain '/', '\\' or "
                                            + "control characters.",
                                    action, key, bad.replace("the name", "the value")));
                }
                return;
            case BRANCH_NAME:
                WarehouseNames.check(
                        action + ": option '" + key + "'", WarehouseNames.Kind.BRANCH, value);
                return;
            case TAG_NAME:
                WarehouseNames.check(
                        action + ": option '" + key + "'", WarehouseNames.Kind.TAG, value);
                return;
            case TAG_NAMES:
                for (String tag : value.split(",")) {
                    WarehouseNames.check(
                            action + ": option '" + key + "'", WarehouseNames.Kind.TAG, tag.trim());
                }
                return;
            case CALLBACK_CLASSES:
                if (!allow && !value.trim().isEmpty()) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Cannot %s: option '%s' runs the classes '%s' after every commit or tag; "
                                            + "they may write anywhere. Remove the option, or set "
                                            + "spark.sql.catalog.%s.%s=true to allow it.",
                                    action,
                                    key,
                                    WarehouseNames.printable(value),
                                    catalog,
                                    CatalogSettings.ALLOW_EXTERNAL_PATHS.key()));
                }
                return;
            default:
                throw new IllegalStateException("Unhandled rule " + rule);
        }
    }

    /** Why {@code location} is not absolute without relative steps, or null. */
    static String notAbsolute(String location) {
        if (location.isEmpty()) {
            return "is empty";
        }
        String characters = WarehouseNames.controlProblem(location);
        if (characters != null) {
            return characters.replace("the name", "the location");
        }
        for (String segment : location.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return "contains the relative path step '" + segment + "'";
            }
        }
        URI uri;
        try {
            uri = new Path(location).toUri();
        } catch (RuntimeException e) {
            return "is not a valid URI (" + e.getMessage() + ")";
        }
        if (uri.getPath() == null || !uri.getPath().startsWith("/")) {
            return "is a relative path";
        }
        return null;
    }

    /** Why {@code dir} is not a relative sub-directory, or null. */
    static String notSubDirectory(String dir) {
        if (dir.isEmpty()) {
            return "is empty";
        }
        if (dir.startsWith("/")) {
            return "starts with '/' (U+002F), an absolute path";
        }
        int colon = dir.indexOf(':');
        if (colon >= 0) {
            return "contains ':' (U+003A), which makes it a URI";
        }
        for (String segment : dir.split("/", -1)) {
            String problem = WarehouseNames.problem(segment);
            if (problem != null) {
                return "has a segment where " + problem.replace("the name", "the segment");
            }
        }
        return null;
    }
}
