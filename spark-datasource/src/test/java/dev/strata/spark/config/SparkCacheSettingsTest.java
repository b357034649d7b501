package dev.strata.spark.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.cache.CacheSettings;
import dev.strata.spark.SharedSpark;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The caches of a Spark JVM take their sizes from that JVM's Spark configuration: the Spark-free
 * modules find this connector's provider through {@code META-INF/services}.
 */
class SparkCacheSettingsTest {

    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SharedSpark.newSession(Map.of(), Map.of());
    }

    @AfterAll
    static void stop() {
        SharedSpark.release(spark);
    }

    @Test
    void cachesOfASparkJvmAreSizedByItsSparkConfiguration() {
        CacheSettings settings = CacheSettings.load();
        assertThat(settings).isInstanceOf(SparkCacheSettings.class);
        SparkConf conf = SparkEnv.get().conf();
        assertThat(settings.openArchives()).isEqualTo(64);
        assertThat(settings.footerCacheFiles()).isEqualTo(256);
        try {
            conf.set(SparkCacheSettings.OPEN_ARCHIVES.key(), "7");
            conf.set(SparkCacheSettings.FOOTER_CACHE_FILES.key(), "0");
            assertThat(settings.openArchives()).isEqualTo(7);
            assertThat(settings.footerCacheFiles()).isZero();
            conf.set(SparkCacheSettings.OPEN_ARCHIVES.key(), "-1");
            assertThatThrownBy(settings::openArchives)
                    .hasMessage(
                            "Cannot size the Strata caches of this JVM: option"
                                    + " 'spark.strata.cache.openArchives' has value '-1', expected"
                                    + " an integer >= 0. Set it to an integer >= 0, or remove it"
                                    + " for the default (64).");
        } finally {
            conf.remove(SparkCacheSettings.OPEN_ARCHIVES.key());
            conf.remove(SparkCacheSettings.FOOTER_CACHE_FILES.key());
        }
    }
}
