package dev.strata.spark.search;

import java.util.ArrayList;
import java.util.List;

import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;

/**
 * A search of few buckets answered on the driver, without a Spark job: each bucket is searched in turn
 * (archives stay open in the driver's {@link dev.strata.index.archive.OpenArchives} between queries) and
 * the rows handed to Spark as a local relation. Searches of more buckets than
 * {@value FullTextScans#DRIVER_MAX_BUCKETS} allows run as executor tasks ({@link FullTextScan}).
 */
final class LocalFullTextScan implements LocalScan {

    private final String tableName;
    private final FileStoreTable table;
    private final SearchPlan plan;
    private final String query;
    private final int k;
    private final String where;
    private final List<String> columns;
    private final boolean score;
    private final StructType readSchema;
    private InternalRow[] rows;

    LocalFullTextScan(String tableName, FileStoreTable table, SearchPlan plan, String query, int k, String where,
            List<String> columns, boolean score, StructType readSchema) {
        this.tableName = tableName;
        this.table = table;
        this.plan = plan;
        this.query = query;
        this.k = k;
        this.where = where;
        this.columns = columns;
        this.score = score;
        this.readSchema = readSchema;
    }

    @Override
    public StructType readSchema() {
        return readSchema;
    }

    @Override
    public String description() {
        return FullTextScans.describe(tableName, query, k, where, plan, "driver");
    }

    @Override
    public synchronized InternalRow[] rows() {
        if (rows == null) {
            List<InternalRow> all = new ArrayList<>();
            for (BucketSearchPartition bucket : plan.buckets) {
                all.addAll(BucketSearch.run(tableName, table, plan.snapshotId, bucket.partition, bucket.bucket,
                        query, k, columns, score).rows);
            }
            rows = all.toArray(new InternalRow[0]);
        }
        return rows;
    }
}
