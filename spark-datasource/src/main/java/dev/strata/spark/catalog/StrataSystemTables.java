package dev.strata.spark.catalog;

import java.util.Locale;
import java.util.Map;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.connector.catalog.Table;

/**
 * Strata's own read-only system tables ({@code t$<suffix>}), one registry of suffix and factory;
 * every other {@code $} suffix is Paimon's.
 */
public final class StrataSystemTables {

    /** Builds the system table {@code systemName} over the data table {@code baseName}. */
    @FunctionalInterface
    public interface Factory {
        Table create(String systemName, String baseName, FileStoreTable table);
    }

    private static final Map<String, Factory> REGISTRY =
            Map.of(
                    FullTextSystemTable.SUFFIX, FullTextSystemTable::of,
                    ShreddingSystemTable.SUFFIX, ShreddingSystemTable::of);

    private StrataSystemTables() {}

    /** The factory of Strata's system table with this suffix (any case), or {@code null}. */
    public static Factory forSuffix(String suffix) {
        return REGISTRY.get(suffix.toLowerCase(Locale.ROOT));
    }
}
