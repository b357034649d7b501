package dev.strata.spark.catalog;

import java.util.Arrays;
import org.apache.paimon.catalog.Identifier;
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

    /** {@code catalog.ns} for messages, parts quoted with backticks where SQL needs it. */
    public static String qualifiedNamespace(String catalog, String[] namespace) {
        StringBuilder sb = new StringBuilder(QuotingUtils.quoteIfNeeded(catalog));
        Arrays.stream(namespace).forEach(n -> sb.append('.').append(QuotingUtils.quoteIfNeeded(n)));
        return sb.toString();
    }
}
