package dev.strata.index;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.options.FullTextDefinition;
import dev.strata.index.search.SearchQuery;
import dev.strata.index.search.TextMatcher;
import java.util.List;
import java.util.Map;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.parquet.hadoop.ParquetOutputFormat;

/**
 * Entry point of primary-key full-text archives for engines: is the feature on, is a table
 * definition valid, may a schema change be applied. Options and requirements: {@link
 * FullTextDefinition#resolve}.
 */
public final class PkFullTextIndex {

    /** The index type of archives in Paimon's index manifest. */
    public static final String INDEX_TYPE = ArchiveFiles.INDEX_TYPE;

    /** The option that enables the index. */
    public static final String COLUMNS_OPTION = FullTextDefinition.COLUMNS;

    /** Parquet's page size key, as a Paimon table option. */
    public static final String PAGE_SIZE_OPTION = ParquetOutputFormat.PAGE_SIZE;

    /**
     * The page size of the data files Strata writes for an indexed table that sets none: a search
     * reads each hit's row by inflating the page that holds it, which at Parquet's 1 MB costs about
     * a millisecond a hit; 128 KB pages make that ~8x cheaper for ~2 % more bytes.
     */
    public static final int PAGE_BYTES = 128 << 10;

    private PkFullTextIndex() {}

    /**
     * The options Strata's writers add to an indexed table's own: {@link #PAGE_BYTES} pages unless
     * the table sets a page size (empty for other tables).
     */
    public static Map<String, String> writeDefaults(Map<String, String> tableOptions) {
        return isEnabled(tableOptions) && !tableOptions.containsKey(PAGE_SIZE_OPTION)
                ? Map.of(PAGE_SIZE_OPTION, Integer.toString(PAGE_BYTES))
                : Map.of();
    }

    /** Whether the table has the primary-key full-text index configured. */
    public static boolean isEnabled(FileStoreTable table) {
        return FullTextDefinition.isEnabled(table.options());
    }

    /** Whether these table options configure the index. */
    public static boolean isEnabled(Map<String, String> options) {
        return FullTextDefinition.isEnabled(options);
    }

    /** The indexed column of an enabled table (validates the table first). */
    public static String indexedColumn(FileStoreTable table) {
        return definition(table).column();
    }

    /** The per-row matcher of {@code query} with the table's current analyzer. */
    public static TextMatcher matcher(FileStoreTable table, String query) {
        FullTextDefinition definition = definition(table);
        return TextMatcher.of(
                definition.analyzer(),
                definition.padded(),
                new SearchQuery(query, table.fullName(), definition.column()));
    }

    static FullTextDefinition definition(FileStoreTable table) {
        TableSchema schema = table.schema();
        return FullTextDefinition.resolve(
                table.fullName(),
                schema.logicalRowType(),
                schema.primaryKeys(),
                schema.partitionKeys(),
                schema.options());
    }

    /** Validates a table definition when the index is configured; does nothing otherwise. */
    public static void validate(String tableName, TableSchema schema) {
        validate(
                tableName,
                schema.logicalRowType(),
                schema.primaryKeys(),
                schema.partitionKeys(),
                schema.options());
    }

    /** As {@link #validate(String, TableSchema)}, from the parts of a CREATE TABLE. */
    public static void validate(
            String tableName,
            RowType rowType,
            List<String> primaryKeys,
            List<String> partitionKeys,
            Map<String, String> options) {
        if (FullTextDefinition.isEnabled(options)) {
            FullTextDefinition.resolve(tableName, rowType, primaryKeys, partitionKeys, options);
        }
    }

    /**
     * Checks an ALTER TABLE: the new schema must be valid, and the indexed column may not be
     * dropped, renamed or retyped while it stays indexed.
     */
    public static void validateSchemaChange(
            String tableName, TableSchema oldSchema, TableSchema newSchema) {
        if (FullTextDefinition.isEnabled(oldSchema.options())) {
            String column = FullTextDefinition.columnsValue(oldSchema.options()).trim();
            String key = FullTextDefinition.columnsKey(oldSchema.options());
            DataField before = oldSchema.nameToFieldMap().get(column);
            if (before != null && FullTextDefinition.isEnabled(newSchema.options())) {
                DataField after = newSchema.idToFieldMap().get(before.id());
                String todo =
                        " Remove option '"
                                + key
                                + "' first (ALTER TABLE ... UNSET TBLPROPERTIES), then change the column.";
                if (after == null) {
                    throw new IllegalArgumentException(
                            "Cannot drop column "
                                    + tableName
                                    + "."
                                    + column
                                    + ": it is the primary-key full-text index column (option '"
                                    + key
                                    + "' = '"
                                    + column
                                    + "')."
                                    + todo);
                }
                // A rename that the option follows keeps the archives: they name the column by
                // field id.
                if (!after.name().equals(before.name())
                        && !after.name()
                                .equals(
                                        FullTextDefinition.columnsValue(newSchema.options())
                                                .trim())) {
                    throw new IllegalArgumentException(
                            "Cannot rename column "
                                    + tableName
                                    + "."
                                    + column
                                    + " to '"
                                    + after.name()
                                    + "': it is the primary-key full-text index column (option '"
                                    + key
                                    + "' = '"
                                    + column
                                    + "')."
                                    + todo);
                }
                if (!after.type().copy(true).equals(before.type().copy(true))) {
                    throw new IllegalArgumentException(
                            "Cannot update type of column "
                                    + tableName
                                    + "."
                                    + column
                                    + " from "
                                    + before.type()
                                    + " to "
                                    + after.type()
                                    + ": it is the primary-key full-text index column (option '"
                                    + key
                                    + "' = '"
                                    + column
                                    + "')."
                                    + todo);
                }
            }
        }
        validate(tableName, newSchema);
    }
}
