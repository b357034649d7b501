package dev.strata.spark;

import dev.strata.testing.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One local Spark context per test JVM, shared by the test classes: starting a context costs
 * seconds per class, while what a class must not share is its SQL settings, catalogs, temporary
 * views and current namespace, which a {@link SparkSession#newSession() new session} of the shared
 * context has of its own. {@link #release} drops what a session leaves in the parts sessions do
 * share: tables of Spark's session catalog and cached data.
 *
 * <p>A class that asks for other context settings (master, static SQL settings such as {@code
 * spark.sql.extensions}) gets a fresh context; the previous one is stopped.
 */
public final class SharedSpark {

    private static SparkSession context;
    private static Map<String, String> contextConf;
    private static Path sessionCatalogDir;

    private SharedSpark() {}

    /**
     * A new session over the shared context started with {@code contextConf} (plus a local[2]
     * master on the loopback address without UI), with {@code sessionConf} set on it; it becomes
     * the active and default session.
     */
    public static synchronized SparkSession newSession(
            Map<String, String> contextConf, Map<String, String> sessionConf) {
        if (context == null
                || context.sparkContext().isStopped()
                || !SharedSpark.contextConf.equals(contextConf)) {
            stopContext();
            start(contextConf);
        }
        SparkSession session = context.newSession();
        sessionConf.forEach((k, v) -> session.conf().set(k, v));
        SparkSession.setActiveSession(session);
        SparkSession.setDefaultSession(session);
        return session;
    }

    /**
     * Drops the tables and databases {@code session} left in Spark's session catalog (shared by all
     * sessions of the context) and uncaches its data; the context keeps running.
     */
    public static synchronized void release(SparkSession session) {
        if (session == null || session.sparkContext().isStopped()) {
            return;
        }
        for (Row ns : session.sql("SHOW NAMESPACES IN spark_catalog").collectAsList()) {
            String db = ns.getString(0);
            if (db.equals("default")) {
                for (Row t : session.sql("SHOW TABLES IN spark_catalog.default").collectAsList()) {
                    if (!t.getBoolean(2)) {
                        session.sql(
                                "DROP TABLE IF EXISTS spark_catalog.default.`"
                                        + t.getString(1)
                                        + "`");
                    }
                }
            } else {
                session.sql("DROP NAMESPACE IF EXISTS spark_catalog.`" + db + "` CASCADE");
            }
        }
        session.catalog().clearCache();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
    }

    private static void start(Map<String, String> conf) {
        try {
            sessionCatalogDir = Files.createTempDirectory("strata-spark-warehouse-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path dir = sessionCatalogDir;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> TempDirs.delete(dir)));
        Map<String, String> all = new HashMap<>();
        all.put("spark.master", "local[2]");
        all.put("spark.app.name", "strata-tests");
        all.put("spark.ui.enabled", "false");
        all.put("spark.driver.host", "127.0.0.1");
        all.put("spark.driver.bindAddress", "127.0.0.1");
        all.put("spark.sql.warehouse.dir", dir.toUri().toString());
        all.putAll(conf);
        SparkSession.Builder builder = SparkSession.builder();
        all.forEach(builder::config);
        context = builder.getOrCreate();
        contextConf = Map.copyOf(conf);
    }

    private static void stopContext() {
        if (context != null) {
            context.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
            TempDirs.delete(sessionCatalogDir);
            context = null;
        }
    }
}
