package dev.strata.spark.procedures;

import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;

/**
 * What procedures need of the catalog that serves them: its name (to qualify tables in messages and
 * to accept {@code table => 'catalog.db.t'}) and the Paimon table behind an identifier, loaded as
 * the catalog's reads and writes load it. The procedures parse and check the {@code table} argument
 * themselves ({@link ProcedureTable}).
 */
public interface TableResolver {

    /** The catalog's name, e.g. {@code lake}. */
    String name();

    /** The Paimon data table behind {@code ident}. */
    FileStoreTable loadPaimonTable(Identifier ident) throws NoSuchTableException;
}
