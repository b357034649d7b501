package dev.strata.spark.catalog;

import dev.strata.spark.compat.SparkVersionApi;
import java.util.Arrays;
import java.util.List;
import org.apache.paimon.catalog.Identifier;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.util.QuotingUtils;

/** Maps Spark identifiers (one-level namespace = Paimon database) to Paimon identifiers. */
public final class StrataTableNames {

    private StrataTableNames() {}

    /** Refuses nested namespaces and unsafe names ({@link WarehouseNames}). */
    public static Identifier toPaimon(
            String catalog, org.apache.spark.sql.connector.catalog.Identifier ident, String verb)
            throws NoSuchTableException {
        if (ident.namespace().length != 1) {
            throw new NoSuchTableException(ident);
        }
        Identifier id = Identifier.create(ident.namespace()[0], ident.name());
        WarehouseNames.checkTable(verb + " " + qualified(catalog, ident), id);
        return id;
    }

    /** For identifiers known to have a one-level namespace. */
    public static Identifier toPaimonUnchecked(
            org.apache.spark.sql.connector.catalog.Identifier ident) {
        return Identifier.create(ident.namespace()[0], ident.name());
    }

    /** For messages, parts quoted with backticks where SQL needs it. */
    public static String qualified(
            String catalog, org.apache.spark.sql.connector.catalog.Identifier ident) {
        StringBuilder sb = new StringBuilder(QuotingUtils.quoteIfNeeded(catalog));
        Arrays.stream(ident.namespace())
                .forEach(n -> sb.append('.').append(QuotingUtils.quoteIfNeeded(n)));
        return sb.append('.').append(QuotingUtils.quoteIfNeeded(ident.name())).toString();
    }

    public static String qualified(String catalog, Identifier ident) {
        return QuotingUtils.quoteIfNeeded(catalog)
                + "."
                + QuotingUtils.quoteIfNeeded(ident.getDatabaseName())
                + "."
                + QuotingUtils.quoteIfNeeded(ident.getObjectName());
    }

    /** {@code catalog.db.`table$suffix`}: the one form both Spark 4.1 and 4.2 parse. */
    public static String systemTable(
            String catalog,
            org.apache.spark.sql.connector.catalog.Identifier ident,
            String suffix) {
        return qualifiedNamespace(catalog, ident.namespace())
                + ".`"
                + (ident.name() + "$" + suffix).replace("`", "``")
                + "`";
    }

    /** A table named in a function or procedure argument. */
    public record ArgumentTable(
            String catalog, org.apache.spark.sql.connector.catalog.Identifier ident) {}

    /**
     * {@code catalog.db.t}, {@code db.t} in {@code defaultCatalog}, or {@code t} in the current
     * database when it belongs to {@code defaultCatalog}; null otherwise.
     */
    public static ArgumentTable fromArgument(
            SparkSession spark, List<String> parts, String defaultCatalog) {
        switch (parts.size()) {
            case 3:
                return new ArgumentTable(
                        parts.get(0),
                        org.apache.spark.sql.connector.catalog.Identifier.of(
                                new String[] {parts.get(1)}, parts.get(2)));
            case 2:
                return new ArgumentTable(
                        defaultCatalog,
                        org.apache.spark.sql.connector.catalog.Identifier.of(
                                new String[] {parts.get(0)}, parts.get(1)));
            case 1:
                String[] current = SparkVersionApi.currentNamespace(spark);
                if (current.length == 1
                        && SparkVersionApi.currentCatalog(spark).name().equals(defaultCatalog)) {
                    return new ArgumentTable(
                            defaultCatalog,
                            org.apache.spark.sql.connector.catalog.Identifier.of(
                                    current, parts.get(0)));
                }
                return null;
            default:
                return null;
        }
    }

    public static String qualifiedNamespace(String catalog, String[] namespace) {
        StringBuilder sb = new StringBuilder(QuotingUtils.quoteIfNeeded(catalog));
        Arrays.stream(namespace).forEach(n -> sb.append('.').append(QuotingUtils.quoteIfNeeded(n)));
        return sb.toString();
    }
}
