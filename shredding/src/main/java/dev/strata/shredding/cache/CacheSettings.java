package dev.strata.shredding.cache;

import java.util.ServiceLoader;

/**
 * Sizes of the per-JVM caches, as the engine around Strata configures them. Strata's Spark
 * connector provides one (from the Spark configuration of the driver or executor JVM); without a
 * provider, as in tests of the Spark-free modules, every cache keeps its default size.
 */
public interface CacheSettings {

    /** Data files whose footers {@code ShreddedFooters} keeps, or {@code null} for its default. */
    Integer footerCacheFiles();

    /** Full-text archives {@code OpenArchives} keeps open, or {@code null} for its default. */
    Integer openArchives();

    /** The first provider on the class path, or one that leaves every default. */
    static CacheSettings load() {
        for (CacheSettings s :
                ServiceLoader.load(CacheSettings.class, CacheSettings.class.getClassLoader())) {
            return s;
        }
        return new CacheSettings() {
            @Override
            public Integer footerCacheFiles() {
                return null;
            }

            @Override
            public Integer openArchives() {
                return null;
            }
        };
    }
}
