package dev.strata.spark.catalog;

import dev.strata.spark.config.CatalogSettings;
import dev.strata.spark.config.OptionsCatalogue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.mergetree.compact.PartialUpdateMergeFunction;
import org.apache.paimon.options.ConfigOption;
import org.apache.paimon.options.FallbackKey;
import org.apache.paimon.schema.TableSchema;

/**
 * Refuses a new option key that is a typo of a known Paimon or Strata key ({@code 'bukket'}):
 * Paimon silently keeps unknown keys. Keys far from every known key pass, as do those listed in
 * {@link CatalogSettings#CUSTOM_KEYS}; only keys a statement adds are checked.
 */
final class OptionKeysCheck implements TableDefinitionCheck {

    private static final String FIELDS = CoreOptions.FIELDS_PREFIX + ".";

    private static final Set<String> KNOWN = known();

    /** What may follow {@code fields.<column>.}. */
    private static final Set<String> COLUMN_SUFFIXES = columnSuffixes();

    private static Set<String> columnSuffixes() {
        Set<String> suffixes =
                new TreeSet<>(
                        List.of(
                                CoreOptions.AGG_FUNCTION,
                                CoreOptions.IGNORE_RETRACT,
                                CoreOptions.NESTED_KEY,
                                CoreOptions.COUNT_LIMIT,
                                CoreOptions.DISTINCT,
                                CoreOptions.LIST_AGG_DELIMITER,
                                CoreOptions.MERGE_MAP_TS_FIELD,
                                CoreOptions.STATS_MODE_SUFFIX,
                                PartialUpdateMergeFunction.SEQUENCE_GROUP));
        suffixes.addAll(OptionsCatalogue.strataColumnKeySuffixes());
        return Collections.unmodifiableSet(suffixes);
    }

    private static Set<String> known() {
        Set<String> keys = new TreeSet<>();
        for (ConfigOption<?> option : CoreOptions.getOptions()) {
            keys.add(option.key());
            for (FallbackKey fallback : option.fallbackKeys()) {
                keys.add(fallback.getKey());
            }
            option.deprecatedKeys().forEach(keys::add);
        }
        keys.addAll(OptionsCatalogue.strataTableKeys());
        return Collections.unmodifiableSet(keys);
    }

    @Override
    public void check(String table, TableSchema proposed, TableSchema previous) {
        Map<String, String> options = proposed.options();
        Map<String, String> before = previous == null ? Map.of() : previous.options();
        Set<String> custom =
                Arrays.stream(
                                options.getOrDefault(CatalogSettings.CUSTOM_KEYS.key(), "")
                                        .split(","))
                        .map(String::trim)
                        .collect(Collectors.toSet());
        for (String key : options.keySet()) {
            if (before.containsKey(key) || KNOWN.contains(key) || custom.contains(key)) {
                continue;
            }
            List<String> close =
                    key.startsWith(FIELDS) ? closeColumnKeys(key, proposed) : closeKeys(key);
            if (!close.isEmpty()) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot set option '%s' for table %s: it is not a Paimon or Strata table option,"
                                        + " and it is close to %s, so it is probably misspelled (Paimon would"
                                        + " keep it and ignore it). Use %s; to keep '%s' as a custom option, also"
                                        + " set '%s' = '%s'.",
                                key,
                                table,
                                quoted(close),
                                close.size() == 1 ? "that key" : "one of those keys",
                                key,
                                CatalogSettings.CUSTOM_KEYS.key(),
                                key));
            }
        }
    }

    /**
     * For {@code fields.<columns>.<suffix>} naming table columns with an unknown suffix: the keys
     * it probably means, a typo away or with dotted parts left out ({@code map.max-columns}).
     */
    static List<String> closeColumnKeys(String key, TableSchema schema) {
        Set<String> columns = new TreeSet<>(schema.fieldNames());
        String rest = key.substring(FIELDS.length());
        // Column names may hold dots: every split naming columns is tried before suggesting.
        List<Integer> splits = new ArrayList<>();
        for (int dot = rest.indexOf('.'); dot > 0; dot = rest.indexOf('.', dot + 1)) {
            if (Arrays.stream(rest.substring(0, dot).split(",", -1)).allMatch(columns::contains)) {
                if (COLUMN_SUFFIXES.contains(rest.substring(dot + 1))) {
                    return List.of();
                }
                splits.add(dot);
            }
        }
        if (splits.isEmpty()) {
            return List.of();
        }
        String named = rest.substring(0, splits.get(0));
        String suffix = rest.substring(splits.get(0) + 1);
        List<String> found = new ArrayList<>();
        for (String known : close(suffix, COLUMN_SUFFIXES)) {
            found.add(FIELDS + named + "." + known);
        }
        if (found.isEmpty()) {
            for (String known : COLUMN_SUFFIXES) {
                if (partsOf(suffix, known)) {
                    found.add(FIELDS + named + "." + known);
                }
            }
        }
        return found;
    }

    /** {@code map.max-columns} of {@code map.shared-shredding.max-columns}: last part kept. */
    private static boolean partsOf(String suffix, String known) {
        String[] parts = suffix.toLowerCase(Locale.ROOT).split("\\.");
        String[] knownParts = known.split("\\.");
        if (!parts[parts.length - 1].equals(knownParts[knownParts.length - 1])) {
            return false;
        }
        int at = 0;
        for (String part : parts) {
            while (at < knownParts.length && !knownParts[at].equals(part)) {
                at++;
            }
            if (at++ == knownParts.length) {
                return false;
            }
        }
        return true;
    }

    /** Closest first. */
    static List<String> closeKeys(String key) {
        return close(key, KNOWN);
    }

    private static List<String> close(String key, Set<String> knownKeys) {
        String k = key.toLowerCase(Locale.ROOT);
        // Two edits would put every short custom key next to some option.
        int limit = k.length() < 10 ? 1 : 2;
        List<String> found = new ArrayList<>();
        for (int d = 0; d <= limit && found.isEmpty(); d++) {
            for (String known : knownKeys) {
                if (Math.abs(known.length() - k.length()) <= d && distance(k, known) == d) {
                    found.add(known);
                }
            }
        }
        return found;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(substitute, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String quoted(List<String> keys) {
        return keys.stream().map(k -> "'" + k + "'").collect(Collectors.joining(", "));
    }
}
