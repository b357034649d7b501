package dev.strata.shredding.options;

import java.util.Map;
import java.util.function.Predicate;
import org.apache.paimon.options.ConfigOption;
import org.apache.paimon.options.ConfigOptions;
import org.apache.paimon.options.Options;

/**
 * One Strata setting: Paimon's typed {@link ConfigOption} (key, type, default, description) and the
 * values it accepts. Table options, catalog options and Spark SQL settings are all declared this
 * way, read by {@link #read} with one rule (trimmed, case-insensitive booleans, decimal integers,
 * one error form) and listed in the README from their declarations.
 */
public final class StrataOption<T> {

    private final ConfigOption<T> option;
    private final String expected;
    private final Predicate<T> valid;
    private final String description;

    private StrataOption(
            ConfigOption<T> option, String expected, Predicate<T> valid, String description) {
        this.option = option;
        this.expected = expected;
        this.valid = valid;
        this.description = description;
    }

    public static StrataOption<Boolean> bool(String key, boolean defaultValue, String description) {
        return new StrataOption<>(
                ConfigOptions.key(key)
                        .booleanType()
                        .defaultValue(defaultValue)
                        .withDescription(description),
                "true or false",
                v -> true,
                description);
    }

    public static StrataOption<Integer> integer(
            String key, int defaultValue, int min, String description) {
        return new StrataOption<>(
                ConfigOptions.key(key)
                        .intType()
                        .defaultValue(defaultValue)
                        .withDescription(description),
                "an integer " + (min == 1 ? "> 0" : ">= " + min),
                v -> v >= min,
                description);
    }

    /** A text setting without a default; any value is accepted here (its user checks it). */
    public static StrataOption<String> text(String key, String expected, String description) {
        return new StrataOption<>(
                ConfigOptions.key(key).stringType().noDefaultValue().withDescription(description),
                expected,
                v -> true,
                description);
    }

    public String key() {
        return option.key();
    }

    public ConfigOption<T> option() {
        return option;
    }

    /** The default value, {@code null} for none. */
    public T defaultValue() {
        return option.defaultValue();
    }

    /** What the setting does (Markdown, for the README's option table). */
    public String description() {
        return description;
    }

    /** What a valid value is, in words ("true or false", "an integer >= 0"). */
    public String expected() {
        return expected;
    }

    /** The value of this setting in {@code source} (its default when absent). */
    public T read(Map<String, String> source, String doWhat) {
        return read(source.get(option.key()), doWhat);
    }

    /**
     * The value {@code raw} means (the default when {@code raw} is null), or an {@link
     * IllegalArgumentException} reading {@code "Cannot <doWhat>: option '<key>' has value '<raw>',
     * expected <expected>. ..."}.
     */
    public T read(String raw, String doWhat) {
        if (raw == null) {
            return option.defaultValue();
        }
        T value;
        try {
            value = Options.fromMap(Map.of(option.key(), raw.trim())).get(option);
        } catch (RuntimeException e) {
            value = null;
        }
        if (value == null || !valid.test(value)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s: option '%s' has value '%s', expected %s. Set it to %s%s.",
                            doWhat,
                            option.key(),
                            raw,
                            expected,
                            expected,
                            option.hasDefaultValue()
                                    ? ", or remove it for the default (" + defaultValue() + ")"
                                    : ""));
        }
        return value;
    }
}
