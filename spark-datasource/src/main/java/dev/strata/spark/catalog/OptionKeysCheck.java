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
import org.apache.paimon.options.ConfigOption;
import org.apache.paimon.options.FallbackKey;
import org.apache.paimon.schema.TableSchema;

/**
 * Refuses a new table option key that is not an option Paimon or Strata declares but is a few
 * typing mistakes away from one ({@code 'bukket'} for {@code 'bucket'}): Paimon keeps unknown keys
 * without a word, so a misspelled option would silently do nothing. Known keys are Paimon's {@link
 * CoreOptions#getOptions()} (with their fallback and deprecated keys) and Strata's table options.
 * Unknown keys far from every known key pass, as do {@code fields.<column>.*} keys (per-column
 * options Paimon matches by pattern) and keys listed in {@link CatalogSettings#CUSTOM_KEYS}, which
 * is how a table keeps an intentional custom key. Only keys a statement adds are checked, so
 * existing tables keep their options.
 */
final class OptionKeysCheck implements TableDefinitionCheck {

    private static final Set<String> KNOWN = known();

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
            if (before.containsKey(key)
                    || KNOWN.contains(key)
                    || custom.contains(key)
                    || key.startsWith("fields.")) {
                continue;
            }
            List<String> close = closeKeys(key);
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

    /** The known keys within a typing mistake or two of {@code key}, closest first. */
    static List<String> closeKeys(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        // one edit for short keys, two for longer ones: 'bukket' (1 from 'bucket'), but not every
        // short custom key next to some option
        int limit = k.length() < 10 ? 1 : 2;
        List<String> found = new ArrayList<>();
        for (int d = 0; d <= limit && found.isEmpty(); d++) {
            for (String known : KNOWN) {
                if (Math.abs(known.length() - k.length()) <= d && distance(k, known) == d) {
                    found.add(known);
                }
            }
        }
        return found;
    }

    /** Levenshtein distance (insertions, deletions, substitutions). */
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
