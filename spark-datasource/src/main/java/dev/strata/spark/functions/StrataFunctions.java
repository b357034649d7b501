package dev.strata.spark.functions;

import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;

/** The functions a Strata catalog serves through Spark's {@code FunctionCatalog}. */
public final class StrataFunctions {

    private StrataFunctions() {}

    /** Names of all functions. */
    public static List<String> names() {
        return List.of(PaimonBucketFunction.NAME);
    }

    /** The function with the given name, or {@code null}. */
    public static UnboundFunction load(String name) {
        if (PaimonBucketFunction.NAME.equals(name.toLowerCase(Locale.ROOT))) {
            return new PaimonBucketFunction();
        }
        return null;
    }
}
