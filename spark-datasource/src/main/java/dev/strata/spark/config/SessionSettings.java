package dev.strata.spark.config;

import dev.strata.shredding.options.StrataOption;
import org.apache.spark.sql.internal.SQLConf;

/**
 * Strata's Spark SQL settings ({@code SET spark.sql.strata.<name> = <value>}), read per query.
 * Named like Spark's own SQL settings, dotted camelCase: Spark's {@code SET} takes such a key as
 * typed, while a key with '-' needs backticks.
 */
public final class SessionSettings {

    public static final StrataOption<Integer> SEARCH_DRIVER_MAX_BUCKETS =
            StrataOption.integer(
                    "spark.sql.strata.search.driverMaxBuckets",
                    16,
                    0,
                    "searches of at most this many (partition, bucket)s run on the driver without"
                            + " a Spark job, larger ones as one executor task per bucket; 0 = always"
                            + " executor tasks");

    public static final StrataOption<Boolean> SEARCH_FRESH =
            StrataOption.bool(
                    "spark.sql.strata.search.fresh",
                    true,
                    "`full_text_search` and `text_match` also index, at query time, the live rows"
                            + " no current archive covers (level 0, missing or stale archives);"
                            + " false = archived rows only, the fastest answer");

    public static final StrataOption<Boolean> COLUMNAR_READS =
            StrataOption.bool(
                    "spark.sql.strata.columnarReads.enabled",
                    true,
                    "append scans reading shared-shredding maps by key use the columnar reader");

    private SessionSettings() {}

    /** The setting's value in the current session; an error names it and {@code doWhat}. */
    public static <T> T get(StrataOption<T> setting, String doWhat) {
        return setting.read(SQLConf.get().getConfString(setting.key(), null), doWhat);
    }
}
