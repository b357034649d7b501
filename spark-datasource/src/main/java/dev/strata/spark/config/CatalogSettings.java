package dev.strata.spark.config;

import dev.strata.shredding.options.StrataOption;

/** Strata's own catalog option and table option that are not about a storage layout. */
public final class CatalogSettings {

    /** Catalog option: whether table options may write files outside the warehouse. */
    public static final StrataOption<Boolean> ALLOW_EXTERNAL_PATHS =
            StrataOption.bool(
                    "allow-external-paths",
                    false,
                    "allow table options that write files outside the warehouse, to absolute"
                            + " locations only (see [Safety](#safety))");

    /** Table option listing custom keys (comma separated) that are kept although close to one. */
    public static final StrataOption<String> CUSTOM_KEYS =
            StrataOption.text(
                    "strata.custom-options",
                    "comma-separated keys",
                    "custom option keys to keep although they are one or two typing mistakes"
                            + " from a Paimon or Strata option (such keys are refused otherwise)");

    private CatalogSettings() {}
}
