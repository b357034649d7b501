package dev.strata.spark.search;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.search.SearchHit;
import java.io.Serializable;
import java.util.List;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.types.StructType;

/** One {@code full_text_search} call after column pruning. */
final class SearchRequest implements Serializable {

    private static final long serialVersionUID = 1L;

    final String tableName;
    final FileStoreTable table;
    final String query;
    final int k;
    final String where;

    /** {@code _score} follows them when {@link #score} is set. */
    final List<String> columns;

    final boolean score;
    final StructType readSchema;

    /** Index rows no current archive covers at query time. */
    final boolean fresh;

    SearchRequest(
            String tableName,
            FileStoreTable table,
            String query,
            int k,
            String where,
            List<String> columns,
            boolean score,
            StructType readSchema,
            boolean fresh) {
        this.fresh = fresh;
        this.tableName = tableName;
        this.table = table;
        this.query = query;
        this.k = k;
        this.where = where;
        this.columns = columns;
        this.score = score;
        this.readSchema = readSchema;
    }

    BucketSearch.Found search(SearchPlan plan, BucketSearchPartition bucket) {
        return BucketSearch.run(
                tableName,
                table,
                plan.snapshotId,
                bucket.partition,
                bucket.bucket,
                query,
                k,
                columns,
                score,
                plan.stats,
                fresh);
    }

    /** Searched in what the driver classified while planning. */
    PkFullTextSearcher.BucketResult hits(SearchPlan plan, int i) {
        PkFullTextSearcher.PreparedBucket prepared = plan.prepared(i);
        return BucketSearch.hits(
                tableName,
                plan.buckets.get(i).bucket,
                fresh,
                () -> prepared.search(query, k, plan.stats));
    }

    List<org.apache.spark.sql.catalyst.InternalRow> rows(
            SearchPlan plan, int i, List<SearchHit> hits) {
        return rows(plan, i, hits, columns, score);
    }

    List<org.apache.spark.sql.catalyst.InternalRow> rows(
            SearchPlan plan, int i, List<SearchHit> hits, List<String> columns, boolean score) {
        return BucketSearch.rows(
                tableName,
                table,
                plan.buckets.get(i).bucket,
                hits,
                columns,
                score,
                plan.prepared(i));
    }

    String describe(SearchPlan plan, String runsOn) {
        return "full_text_search "
                + tableName
                + " [query: "
                + query
                + ", k: "
                + k
                + (where == null ? "" : ", where: " + where)
                + ", buckets: "
                + plan.buckets.size()
                + ", snapshot: "
                + plan.snapshotId
                + ", fresh rows: "
                + (fresh ? "indexed at query time" : "not searched")
                + ", on: "
                + runsOn
                + "]";
    }
}
