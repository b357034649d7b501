package dev.strata.spark.errors;

import org.apache.spark.QueryContext;
import org.apache.spark.sql.AnalysisException;
import scala.Option;
import scala.collection.immutable.Map$;

/** Builds Spark exceptions that carry Strata's own messages. */
public final class StrataErrors {

    private StrataErrors() {}

    /**
     * Throws an {@link AnalysisException} (checked for javac, so thrown here); the return type lets
     * call sites write {@code throw StrataErrors.analysis(...)}.
     */
    public static RuntimeException analysis(String message, Throwable cause) {
        throw StrataErrors.<RuntimeException>sneaky(
                new AnalysisException(
                        message,
                        Option.empty(),
                        Option.empty(),
                        Option.apply(cause),
                        Option.empty(),
                        Map$.MODULE$.empty(),
                        new QueryContext[0]));
    }

    public static RuntimeException analysis(String message) {
        return analysis(message, null);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }

    /** Without Paimon's wrapper prefixes. */
    public static String rootMessage(Throwable t) {
        Throwable current = t;
        while (current.getCause() != null
                && current.getCause() != current
                && (current.getMessage() == null
                        || current instanceof java.lang.reflect.InvocationTargetException
                        || current instanceof java.io.UncheckedIOException)) {
            current = current.getCause();
        }
        return current.getMessage() == null
                ? current.getClass().getSimpleName()
                : current.getMessage();
    }
}
