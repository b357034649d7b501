package dev.strata.spark.catalog;

import org.apache.paimon.schema.TableSchema;

/** A rule a table definition must satisfy on CREATE and ALTER before anything is written. */
@FunctionalInterface
public interface TableDefinitionCheck {

    /**
     * Throws {@link IllegalArgumentException} naming what is wrong; {@code previous} is null on
     * CREATE.
     */
    void check(String table, TableSchema proposed, TableSchema previous);
}
