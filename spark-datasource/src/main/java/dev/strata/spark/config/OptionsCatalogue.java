package dev.strata.spark.config;

import dev.strata.index.options.AnalyzerSettings;
import dev.strata.index.options.FullTextDefinition;
import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.options.StrataOption;
import dev.strata.shredding.parquet.PageChecksums;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.paimon.CoreOptions;

/**
 * Every setting a Strata user can give, in README order; the README's option table is generated
 * from here ({@link #markdownTable()}, checked by a test).
 */
public final class OptionsCatalogue {

    public enum Kind {
        CATALOG("catalog (`spark.sql.catalog.<name>.<key>`)"),
        SPARK("Spark"),
        SESSION("Spark SQL setting (`SET`, `--conf`)"),
        TABLE("table option (TBLPROPERTIES)"),
        PAIMON_TABLE("table option, Paimon's"),
        SPARK_CONF("Spark configuration of each JVM (`--conf`, `spark-defaults.conf`)");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** {@code values} says what is valid and the default. */
    public record Entry(String key, Kind kind, String values, String meaning) {

        static <T> Entry of(StrataOption<T> option, Kind kind) {
            return of(option.key(), option, kind);
        }

        static <T> Entry of(String key, StrataOption<T> option, Kind kind) {
            String values =
                    option.defaultValue() == null
                            ? option.expected()
                            : option.expected() + " (default `" + option.defaultValue() + "`)";
            return new Entry(key, kind, values, option.description());
        }
    }

    private static final String COLUMN = "<col>";

    private static final List<Entry> ENTRIES = entries();

    private OptionsCatalogue() {}

    private static List<Entry> entries() {
        List<Entry> e = new ArrayList<>();
        e.add(
                new Entry(
                        "spark.sql.catalog.<name>",
                        Kind.SPARK,
                        "`dev.strata.spark.StrataCatalog`",
                        "registers a Strata catalog under `<name>`"));
        e.add(
                new Entry(
                        "warehouse",
                        Kind.CATALOG,
                        "a directory or URI Paimon's FileIO accepts (required)",
                        "where the catalog's tables live"));
        e.add(Entry.of(CatalogSettings.ALLOW_EXTERNAL_PATHS, Kind.CATALOG));
        e.add(
                new Entry(
                        "<key>",
                        Kind.CATALOG,
                        "as Paimon defines it",
                        "any other key is passed to Paimon as a catalog option (`metastore`, `uri`,"
                                + " `lock.enabled`, ...)"));
        e.add(
                new Entry(
                        "spark.sql.extensions",
                        Kind.SPARK,
                        "`dev.strata.spark.StrataExtensions`",
                        "plan rules and the table functions"));
        e.add(Entry.of(SessionSettings.SEARCH_DRIVER_MAX_BUCKETS, Kind.SESSION));
        e.add(Entry.of(SessionSettings.SEARCH_FRESH, Kind.SESSION));
        e.add(Entry.of(SessionSettings.COLUMNAR_READS, Kind.SESSION));
        e.add(
                new Entry(
                        FullTextDefinition.COLUMNS,
                        Kind.TABLE,
                        "one column name",
                        "the one CHAR/VARCHAR/STRING column of a primary-key table that gets"
                                + " full-text archives (enables them); `"
                                + FullTextDefinition.LEGACY_COLUMNS
                                + "` of earlier versions is still read, see [Other Paimon"
                                + " engines](#other-paimon-engines-and-the-keys-of-earlier-versions)"));
        e.add(
                new Entry(
                        FullTextDefinition.columnOptionsKey(COLUMN),
                        Kind.TABLE,
                        "a JSON object",
                        "the indexed column's analyzer options (`"
                                + String.join("`, `", analyzerKeys())
                                + "`); table-level `"
                                + FullTextDefinition.FULL_TEXT_PREFIX
                                + "<option>` keys set them for the table"));
        e.add(
                new Entry(
                        ShreddingOptions.strataPolicyKey(COLUMN),
                        Kind.TABLE,
                        "`"
                                + PlacementPolicy.DISJOINT.optionValue()
                                + "` or `"
                                + PlacementPolicy.STABLE.optionValue()
                                + "`",
                        "Strata's writers place the shredded map's keys with Strata's own policy"
                                + " instead of Paimon's `"
                                + ShreddingOptions.policyKey(COLUMN)
                                + "`; with neither key set Strata's writers use `"
                                + ShreddingOptions.DEFAULT_POLICY.optionValue()
                                + "`"));
        e.add(Entry.of(ShreddingOptions.BYTE_STREAM_SPLIT, Kind.TABLE));
        e.add(Entry.of(ShreddingOptions.MAX_SEGMENTS, Kind.TABLE));
        e.add(Entry.of(CatalogSettings.CUSTOM_KEYS, Kind.TABLE));
        e.add(
                new Entry(
                        PageChecksums.VERIFY_OPTION,
                        Kind.TABLE,
                        "true or false (Strata sets `true` at CREATE TABLE and when loading a"
                                + " table without it)",
                        "readers verify each Parquet page's CRC before decoding it"));
        e.add(
                new Entry(
                        ShreddingOptions.layoutKey(COLUMN),
                        Kind.PAIMON_TABLE,
                        "`"
                                + ShreddingOptions.LAYOUT_SHARED
                                + "` or `"
                                + ShreddingOptions.LAYOUT_DEFAULT
                                + "` (default)",
                        "`"
                                + ShreddingOptions.LAYOUT_SHARED
                                + "` stores the `MAP<STRING, T>` column in the shared-shredding"
                                + " layout (see [Shredded MAP columns](#shredded-map-columns))"));
        e.add(
                new Entry(
                        ShreddingOptions.maxColumnsKey(COLUMN),
                        Kind.PAIMON_TABLE,
                        "an integer > 0 (default `" + ShreddingOptions.DEFAULT_MAX_COLUMNS + "`)",
                        "K, the most shared sub-columns a file spreads the values over"));
        e.add(
                new Entry(
                        ShreddingOptions.policyKey(COLUMN),
                        Kind.PAIMON_TABLE,
                        "`plain`, `sequential` or `lru` (default)",
                        "Paimon's placement of keys in the shared sub-columns"));
        e.add(Entry.of(SparkCacheSettings.FOOTER_CACHE_FILES, Kind.SPARK_CONF));
        e.add(Entry.of(SparkCacheSettings.OPEN_ARCHIVES, Kind.SPARK_CONF));
        return Collections.unmodifiableList(e);
    }

    private static List<String> analyzerKeys() {
        return List.of(
                AnalyzerSettings.ANALYZER,
                AnalyzerSettings.LOWERCASE,
                AnalyzerSettings.MAX_TOKEN_LENGTH,
                AnalyzerSettings.NGRAM_MIN,
                AnalyzerSettings.NGRAM_MAX);
    }

    public static List<Entry> all() {
        return ENTRIES;
    }

    /** Strata's table option keys, per-column ones excluded. */
    public static Set<String> strataTableKeys() {
        Set<String> keys = new LinkedHashSet<>();
        for (Entry e : ENTRIES) {
            if (e.kind() == Kind.TABLE && !e.key().startsWith(CoreOptions.FIELDS_PREFIX + ".")) {
                keys.add(e.key());
            }
        }
        for (String k : analyzerKeys()) {
            keys.add(FullTextDefinition.FULL_TEXT_PREFIX + k);
        }
        return keys;
    }

    /** What follows {@code fields.<column>.}, legacy full-text key included. */
    public static Set<String> strataColumnKeySuffixes() {
        String prefix = CoreOptions.FIELDS_PREFIX + "." + COLUMN + ".";
        Set<String> suffixes = new LinkedHashSet<>();
        for (Entry e : ENTRIES) {
            if (e.key().startsWith(prefix)) {
                suffixes.add(e.key().substring(prefix.length()));
            }
        }
        suffixes.add(FullTextDefinition.legacyColumnOptionsKey(COLUMN).substring(prefix.length()));
        return suffixes;
    }

    public static String markdownTable() {
        StringBuilder out = new StringBuilder();
        out.append("| key | where | values | meaning |\n|---|---|---|---|\n");
        for (Entry e : ENTRIES) {
            out.append("| `")
                    .append(e.key())
                    .append("` | ")
                    .append(e.kind().label)
                    .append(" | ")
                    .append(e.values())
                    .append(" | ")
                    .append(e.meaning().replace("|", "\\|"))
                    .append(" |\n");
        }
        return out.toString();
    }
}
