package dev.strata.spark.search;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;

/**
 * A search of few buckets answered on the driver, without a Spark job: each bucket is searched in
 * turn (archives stay open in the driver's {@link dev.strata.index.archive.OpenArchives} between
 * queries) and the rows handed to Spark as a local relation. Searches of more buckets than {@value
 * FullTextScans#DRIVER_MAX_BUCKETS} allows run as executor tasks ({@link FullTextScan}).
 */
final class LocalFullTextScan implements LocalScan {

    private final SearchRequest request;
    private final SearchPlan plan;
    private InternalRow[] rows;

    LocalFullTextScan(SearchRequest request, SearchPlan plan) {
        this.request = request;
        this.plan = plan;
    }

    @Override
    public StructType readSchema() {
        return request.readSchema;
    }

    @Override
    public String description() {
        return request.describe(plan, "driver");
    }

    @Override
    public synchronized InternalRow[] rows() {
        if (rows == null) {
            List<InternalRow> all = new ArrayList<>();
            for (BucketSearchPartition bucket : plan.buckets) {
                all.addAll(request.search(plan, bucket).rows);
            }
            rows = all.toArray(new InternalRow[0]);
        }
        return rows;
    }
}
