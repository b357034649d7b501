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

    /**
     * The Paimon identifier of a Spark table identifier; refuses nested namespaces, and names that
     * are not a single path segment ({@link WarehouseNames}) before anything touches the warehouse.
     *
     * @param verb what is being done, for messages: {@code create table}, {@code drop table}, ...
     */
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

    /** Like {@link #toPaimon} for identifiers already known to have a one-level namespace. */
    public static Identifier toPaimonUnchecked(
            org.apache.spark.sql.connector.catalog.Identifier ident) {
        return Identifier.create(ident.namespace()[0], ident.name());
    }

    /** {@code catalog.ns.name} for messages, parts quoted with backticks where SQL needs it. */
    public static String qualified(
            String catalog, org.apache.spark.sql.connector.catalog.Identifier ident) {
        StringBuilder sb = new StringBuilder(QuotingUtils.quoteIfNeeded(catalog));
        Arrays.stream(ident.namespace())
                .forEach(n -> sb.append('.').append(QuotingUtils.quoteIfNeeded(n)));
        return sb.append('.').append(QuotingUtils.quoteIfNeeded(ident.name())).toString();
    }

    /** {@code catalog.db.table} for messages, parts quoted with backticks where SQL needs it. */
    public static String qualified(String catalog, Identifier ident) {
        return QuotingUtils.quoteIfNeeded(catalog)
                + "."
                + QuotingUtils.quoteIfNeeded(ident.getDatabaseName())
                + "."
                + QuotingUtils.quoteIfNeeded(ident.getObjectName());
    }

    /**
     * {@code catalog.db.`table$suffix`} for messages: the system table quoted as a whole, the one
     * form Spark 4.2's parser accepts besides 4.1's.
     */
    public static String systemTable(
            String catalog,
            org.apache.spark.sql.connector.catalog.Identifier ident,
            String suffix) {
        return qualifiedNamespace(catalog, ident.namespace())
                + ".`"
                + (ident.name() + "$" + suffix).replace("`", "``")
                + "`";
    }

    /** A table named in a function or procedure argument: its catalog's name and identifier. */
    public record ArgumentTable(
            String catalog, org.apache.spark.sql.connector.catalog.Identifier ident) {}

    /**
     * The table a parsed name argument ({@code catalog.db.t}, {@code db.t} or {@code t}) names,
     * {@code db.t} in {@code defaultCatalog}, a bare {@code t} in the session's current database
     * when that is a one-level database of {@code defaultCatalog} (after {@code USE lake.db}, as
     * {@code FROM t} reads); null for any other form.
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

    /** {@code catalog.ns} for messages, parts quoted with backticks where SQL needs it. */
    public static String qualifiedNamespace(String catalog, String[] namespace) {
        StringBuilder sb = new StringBuilder(QuotingUtils.quoteIfNeeded(catalog));
        Arrays.stream(namespace).forEach(n -> sb.append('.').append(QuotingUtils.quoteIfNeeded(n)));
        return sb.toString();
    }
}
