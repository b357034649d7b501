package dev.strata.spark.config;

import dev.strata.shredding.cache.CacheSettings;
import dev.strata.shredding.options.StrataOption;
import org.apache.spark.SparkEnv;

/**
 * The per-JVM cache sizes from the Spark configuration of the JVM that runs Strata (driver or
 * executor: {@code --conf}, {@code spark-defaults.conf}); found by {@link CacheSettings#load()}
 * through {@code META-INF/services} when a cache is first used in the JVM.
 */
public final class SparkCacheSettings implements CacheSettings {

    public static final StrataOption<Integer> FOOTER_CACHE_FILES =
            StrataOption.integer(
                    "spark.strata.cache.footerFiles",
                    dev.strata.shredding.parquet.ShreddedFooters.DEFAULT_CAPACITY,
                    0,
                    "data files whose parsed footer and shredding metadata stay cached in each"
                            + " driver and executor JVM; 0 = decode per open");

    public static final StrataOption<Integer> OPEN_ARCHIVES =
            StrataOption.integer(
                    "spark.strata.cache.openArchives",
                    dev.strata.index.archive.OpenArchives.DEFAULT_CAPACITY,
                    0,
                    "full-text archives kept open in each driver and executor JVM; 0 = open per"
                            + " search");

    @Override
    public Integer footerCacheFiles() {
        return read(FOOTER_CACHE_FILES);
    }

    @Override
    public Integer openArchives() {
        return read(OPEN_ARCHIVES);
    }

    private static Integer read(StrataOption<Integer> option) {
        SparkEnv env = SparkEnv.get();
        if (env == null) {
            return null; // not in a Spark JVM: the cache's default
        }
        return option.read(
                env.conf().get(option.key(), null), "size the Strata caches of this JVM");
    }
}
