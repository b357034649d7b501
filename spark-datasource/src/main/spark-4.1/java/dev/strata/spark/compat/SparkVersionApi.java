package dev.strata.spark.compat;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;

/**
 * Spark calls whose signatures differ between minors; this copy is for 4.1, where {@code
 * UnresolvedFunction.ignoreNulls} is a boolean and {@code CatalogManager} a class.
 */
public final class SparkVersionApi {

    public static final String SPARK_MINOR = "4.1";

    private SparkVersionApi() {}

    public static boolean ignoresNulls(UnresolvedFunction f) {
        return f.ignoreNulls();
    }

    public static FunctionIdentifier builtinFunctionId(String name) {
        return FunctionIdentifier.apply(name);
    }

    /** Loads and initializes it on first use, as SQL does. */
    public static CatalogPlugin catalog(SparkSession spark, String name) {
        return spark.sessionState().catalogManager().catalog(name);
    }

    public static CatalogPlugin currentCatalog(SparkSession spark) {
        return spark.sessionState().catalogManager().currentCatalog();
    }

    /** What {@code USE} set. */
    public static String[] currentNamespace(SparkSession spark) {
        return spark.sessionState().catalogManager().currentNamespace();
    }
}
