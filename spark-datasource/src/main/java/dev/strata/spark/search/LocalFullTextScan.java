package dev.strata.spark.search;

import dev.strata.index.search.ParallelBuckets;
import dev.strata.index.search.SearchHit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;

/**
 * A search of few buckets answered on the driver, without a Spark job: the buckets are searched on
 * the driver's processors in parallel ({@link ParallelBuckets}), then only the rows of the global
 * top-k hits (and of hits tied with the k-th) are read (archives stay open in the driver's {@link
 * dev.strata.index.archive.OpenArchives} between queries) and the rows handed to Spark as a local
 * relation. Searches of more buckets than {@code spark.sql.strata.search.driverMaxBuckets} allows
 * run as executor tasks ({@link FullTextScan}).
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

    /**
     * The k-th best score over every bucket's hits (each bucket's top k), or negative infinity when
     * there are at most k hits. A hit scoring below it cannot be in the top k, so its row is not
     * read; hits scoring exactly it are all read, as their primary keys order them.
     */
    private static float cut(List<List<SearchHit>> hits, int k) {
        List<Float> scores = new ArrayList<>();
        hits.forEach(bucket -> bucket.forEach(h -> scores.add(h.score())));
        if (scores.size() <= k) {
            return Float.NEGATIVE_INFINITY;
        }
        scores.sort(java.util.Comparator.reverseOrder());
        return scores.get(k - 1);
    }

    @Override
    public synchronized InternalRow[] rows() {
        if (rows == null) {
            List<InternalRow> rowsFound = new ArrayList<>();
            try {
                List<Integer> all = new ArrayList<>();
                for (int i = 0; i < plan.buckets.size(); i++) {
                    all.add(i);
                }
                List<List<SearchHit>> hits = ParallelBuckets.map(all, i -> request.hits(plan, i));
                float cut = cut(hits, request.k);
                List<Integer> read = new ArrayList<>();
                for (int i = 0; i < hits.size(); i++) {
                    List<SearchHit> kept = new ArrayList<>();
                    for (SearchHit h : hits.get(i)) {
                        if (h.score() >= cut) {
                            kept.add(h);
                        }
                    }
                    hits.set(i, kept);
                    if (!kept.isEmpty()) {
                        read.add(i);
                    }
                }
                for (List<InternalRow> found :
                        ParallelBuckets.map(read, i -> request.rows(plan, i, hits.get(i)))) {
                    found.forEach(rowsFound::add);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e); // each bucket reports its own failure
            }
            rows = rowsFound.toArray(new InternalRow[0]);
        }
        return rows;
    }
}
