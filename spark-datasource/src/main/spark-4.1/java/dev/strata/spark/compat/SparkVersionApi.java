package dev.strata.spark.compat;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;

/**
 * The few Spark calls whose signatures differ between Spark minors, compiled once per minor (this
 * copy is built into the Spark 4.1 jars). Spark 4.1: {@code UnresolvedFunction.ignoreNulls} is a
 * boolean and {@code CatalogManager} a class. Code calling these compiles against every supported
 * minor; everything else uses APIs the minors share.
 */
public final class SparkVersionApi {

    /** The Spark minor this copy is compiled for. */
    public static final String SPARK_MINOR = "4.1";

    private SparkVersionApi() {}

    /** Whether a parsed function call says IGNORE NULLS. */
    public static boolean ignoresNulls(UnresolvedFunction f) {
        return f.ignoreNulls();
    }

    /** The identifier of the built-in function of that name in Spark's built-in registry. */
    public static FunctionIdentifier builtinFunctionId(String name) {
        return FunctionIdentifier.apply(name);
    }

    /**
     * The session's catalog of that name (loading and initializing it on first use, as SQL does).
     */
    public static CatalogPlugin catalog(SparkSession spark, String name) {
        return spark.sessionState().catalogManager().catalog(name);
    }

    /** The session's current catalog. */
    public static CatalogPlugin currentCatalog(SparkSession spark) {
        return spark.sessionState().catalogManager().currentCatalog();
    }

    /** The session's current namespace (what {@code USE} set) in its current catalog. */
    public static String[] currentNamespace(SparkSession spark) {
        return spark.sessionState().catalogManager().currentNamespace();
    }
}
