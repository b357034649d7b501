package dev.strata.spark.functions;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;

/** The functions a Strata catalog serves through Spark's {@code FunctionCatalog}: one registry. */
public final class StrataFunctions {

    private static final Map<String, Supplier<UnboundFunction>> REGISTRY = new LinkedHashMap<>();

    static {
        REGISTRY.put(PaimonBucketFunction.NAME, PaimonBucketFunction::new);
        REGISTRY.put(BucketTransformFunction.NAME, BucketTransformFunction::new);
    }

    private StrataFunctions() {}

    /** Names of all functions. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.keySet());
    }

    /** The function with the given name, or {@code null}. */
    public static UnboundFunction load(String name) {
        Supplier<UnboundFunction> function = REGISTRY.get(name.toLowerCase(Locale.ROOT));
        return function == null ? null : function.get();
    }
}
