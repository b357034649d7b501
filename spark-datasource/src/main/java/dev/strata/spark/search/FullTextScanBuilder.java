package dev.strata.spark.search;

import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Column pruning for a search: only the requested columns of the hit rows are read. */
final class FullTextScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns {

    private final String tableName;
    private final FileStoreTable table;
    private final String query;
    private final int k;
    private final String where;
    private StructType required;

    FullTextScanBuilder(
            String tableName,
            FileStoreTable table,
            StructType schema,
            String query,
            int k,
            String where) {
        this.tableName = tableName;
        this.table = table;
        this.required = schema;
        this.query = query;
        this.k = k;
        this.where = where;
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        this.required = requiredSchema;
    }

    @Override
    public Scan build() {
        List<String> columns = new ArrayList<>();
        boolean score = false;
        for (StructField f : required.fields()) {
            if (f.name().equals(FullTextSearchTable.SCORE)) {
                score = true;
            } else {
                columns.add(f.name());
            }
        }
        return FullTextScans.create(
                new SearchRequest(
                        tableName,
                        table,
                        query,
                        k,
                        where,
                        columns,
                        score,
                        required,
                        FullTextScans.fresh()));
    }
}
