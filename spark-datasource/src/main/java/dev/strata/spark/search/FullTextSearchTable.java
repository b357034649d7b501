package dev.strata.spark.search;

import dev.strata.index.PkFullTextIndex;
import dev.strata.spark.catalog.PartitionSelector;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.errors.StrataErrors;
import java.util.EnumSet;
import java.util.Set;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * {@code full_text_search(table, column, query, k[, where])}: the table's columns plus {@code
 * _score DOUBLE}. Each bucket's top k rows come from one task per bucket, or from the driver for
 * few buckets; the function's plan then keeps the global top k.
 */
public final class FullTextSearchTable implements SupportsRead {

    public static final String SCORE = "_score";

    private final String tableName;
    private final FileStoreTable table;
    private final String query;
    private final int k;
    private final String where;
    private final StructType schema;

    private FullTextSearchTable(
            String tableName, FileStoreTable table, String query, int k, String where) {
        this.tableName = tableName;
        this.table = table;
        this.query = query;
        this.k = k;
        this.where = where;
        this.schema = SparkTypes.toSpark(table.rowType()).add(SCORE, DataTypes.DoubleType, false);
    }

    /** Throws an AnalysisException naming the table, the column and what is allowed. */
    public static FullTextSearchTable create(
            String tableName,
            FileStoreTable table,
            String column,
            String query,
            int k,
            String where) {
        if (!PkFullTextIndex.isEnabled(table)) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot search %s: it has no full-text index (option '%s' is not set). Set it with ALTER TABLE "
                                    + "%s SET TBLPROPERTIES ('%s' = '<text column>') and run CALL <catalog>.sys.compact.",
                            tableName,
                            PkFullTextIndex.COLUMNS_OPTION,
                            tableName,
                            PkFullTextIndex.COLUMNS_OPTION));
        }
        String indexed = PkFullTextIndex.indexedColumn(table);
        if (!indexed.equals(column)) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot search column %s of %s: the full-text index covers column '%s' only. Search '%s'.",
                            column, tableName, indexed, indexed));
        }
        if (query == null || query.isBlank()) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot search %s.%s: the query is empty. Pass a Lucene query such as 'disk AND \"write failure\"'.",
                            tableName, column));
        }
        if (k <= 0) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot search %s.%s: k must be positive, found %d.",
                            tableName, column, k));
        }
        try {
            // A bad query fails the statement here.
            PkFullTextIndex.matcher(table, query);
        } catch (IllegalArgumentException e) {
            throw StrataErrors.analysis(e.getMessage(), e);
        }
        PartitionSelector.check(table, tableName, where);
        return new FullTextSearchTable(tableName, table, query, k, where);
    }

    @Override
    public String name() {
        return "full_text_search(" + tableName + ")";
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new FullTextScanBuilder(tableName, table, schema, query, k, where);
    }

    public int k() {
        return k;
    }

    public FileStoreTable paimonTable() {
        return table;
    }
}
