package dev.strata.spark.catalog;

import java.util.Arrays;

import org.apache.paimon.catalog.Identifier;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;

/** Maps Spark identifiers (one-level namespace = Paimon database) to Paimon identifiers. */
public final class StrataTableNames {

    private StrataTableNames() {}

    /** The Paimon identifier of a Spark table identifier; refuses nested namespaces. */
    public static Identifier toPaimon(String catalog, org.apache.spark.sql.connector.catalog.Identifier ident)
            throws NoSuchTableException {
        if (ident.namespace().length != 1) {
            throw new NoSuchTableException(ident);
        }
        return Identifier.create(ident.namespace()[0], ident.name());
    }

    /** Like {@link #toPaimon} for identifiers already known to have a one-level namespace. */
    public static Identifier toPaimonUnchecked(org.apache.spark.sql.connector.catalog.Identifier ident) {
        return Identifier.create(ident.namespace()[0], ident.name());
    }

    /** {@code catalog.ns.name} for messages. */
    public static String qualified(String catalog, org.apache.spark.sql.connector.catalog.Identifier ident) {
        StringBuilder sb = new StringBuilder(catalog);
        Arrays.stream(ident.namespace()).forEach(n -> sb.append('.').append(n));
        return sb.append('.').append(ident.name()).toString();
    }

    /** {@code catalog.db.table} for messages. */
    public static String qualified(String catalog, Identifier ident) {
        return catalog + "." + ident.getDatabaseName() + "." + ident.getObjectName();
    }
}
