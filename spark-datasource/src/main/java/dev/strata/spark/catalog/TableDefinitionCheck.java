package dev.strata.spark.catalog;

import org.apache.paimon.schema.TableSchema;

/**
 * A rule a table definition must satisfy before the catalog writes it. Checks run on CREATE TABLE
 * (with no previous schema) and on ALTER TABLE (with the schema the change would produce), so a
 * definition that breaks a rule is refused before anything reaches the warehouse.
 */
@FunctionalInterface
public interface TableDefinitionCheck {

    /**
     * Throws {@link IllegalArgumentException} naming the table, the column or option and what is
     * allowed when {@code proposed} is not acceptable.
     *
     * @param table the qualified table name, for messages
     * @param proposed the schema that would be written
     * @param previous the current schema on ALTER TABLE, {@code null} on CREATE TABLE
     */
    void check(String table, TableSchema proposed, TableSchema previous);
}
