package dev.strata.spark.compat;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry$;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;

/**
 * Spark calls whose signatures differ between minors; this copy is for 4.2, where {@code
 * UnresolvedFunction.ignoreNulls} is an {@code Option}, {@code CatalogManager} an interface, and
 * function registries take only qualified names.
 */
public final class SparkVersionApi {

    public static final String SPARK_MINOR = "4.2";

    private SparkVersionApi() {}

    public static boolean ignoresNulls(UnresolvedFunction f) {
        // 4.2 keeps "not said" (None) apart from RESPECT NULLS (Some(false)).
        return f.ignoreNulls().isDefined() && (Boolean) f.ignoreNulls().get();
    }

    public static FunctionIdentifier builtinFunctionId(String name) {
        // 4.2's registries take only qualified names: built-ins are system.builtin.<name>.
        return FunctionRegistry$.MODULE$.builtinFunctionIdentifier(name);
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
