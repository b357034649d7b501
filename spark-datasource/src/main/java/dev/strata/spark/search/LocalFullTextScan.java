package dev.strata.spark.search;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.search.ParallelBuckets;
import dev.strata.index.search.SearchHit;
import dev.strata.spark.data.PaimonToSpark;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.read.PlainScan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.InterpretedOrdering$;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;
import scala.math.Ordering;

/**
 * A search of few buckets answered on the driver without a Spark job: buckets are searched in
 * parallel, then only the rows of the global top-k hits (and ties with the k-th) are read.
 */
final class LocalFullTextScan implements DriverSearch {

    private final SearchRequest request;
    private final SearchPlan plan;
    private InternalRow[] rows;

    /** Per bucket of the plan. */
    private List<List<SearchHit>> kept;

    private boolean archivedOnly;

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
     * The k-th best score, or negative infinity with at most k hits. Hits tying it are all read, as
     * their primary keys order them.
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

    /**
     * Of {@code hits} (per bucket, every hit scoring at least {@code cut}), those the search's own
     * {@code Sort(_score DESC, primary key)} and {@code LIMIT k} keep: the hits tying {@code cut}
     * ordered by their primary keys (stored with each hit), as Spark orders those values. Without
     * it every bucket's tying hits were read, k per bucket: a common term in short documents ties
     * most scores. Unchanged when a tying hit's row reads as deleted.
     */
    private List<List<SearchHit>> firstByKey(List<List<SearchHit>> hits, float cut)
            throws IOException {
        int better = 0;
        int tying = 0;
        for (List<SearchHit> bucket : hits) {
            for (SearchHit h : bucket) {
                if (h.score() > cut) {
                    better++;
                } else {
                    tying++;
                }
            }
        }
        if (better + tying <= request.k) {
            return hits;
        }
        List<String> key = request.table.primaryKeys();
        RowType keyType = request.table.rowType().project(key);
        PaimonToSpark converter = PaimonToSpark.forRowType(keyType);
        List<DataType> types = new ArrayList<>();
        for (StructField f : SparkTypes.toSpark(keyType).fields()) {
            types.add(f.dataType());
        }
        List<Tie> tied = new ArrayList<>();
        for (int i = 0; i < hits.size(); i++) {
            List<SearchHit> ties = new ArrayList<>();
            for (SearchHit h : hits.get(i)) {
                if (h.score() <= cut) {
                    ties.add(h);
                }
            }
            List<org.apache.paimon.data.InternalRow> keys = plan.prepared(i).rows(ties, key);
            for (int t = 0; t < ties.size(); t++) {
                if (keys.get(t) == null) {
                    return hits;
                }
                tied.add(new Tie(i, ties.get(t), converter.convert(keys.get(t))));
            }
        }
        Ordering<InternalRow> order =
                InterpretedOrdering$.MODULE$.forSchema(
                        CollectionConverters.asScala(types).toList());
        tied.sort((a, b) -> order.compare(a.key, b.key));
        List<List<SearchHit>> kept = new ArrayList<>();
        for (List<SearchHit> bucket : hits) {
            List<SearchHit> top = new ArrayList<>();
            for (SearchHit h : bucket) {
                if (h.score() > cut) {
                    top.add(h);
                }
            }
            kept.add(top);
        }
        for (Tie t : tied.subList(0, request.k - better)) {
            kept.get(t.bucket).add(t.hit);
        }
        return kept;
    }

    /** A hit tying the k-th score, with its bucket's index and its primary key as Spark values. */
    private record Tie(int bucket, SearchHit hit, InternalRow key) {}

    /** The rows of {@code hits} (per bucket), deleted ones left out. */
    private List<InternalRow> read(List<List<SearchHit>> hits) throws IOException {
        List<Integer> buckets = new ArrayList<>();
        for (int i = 0; i < hits.size(); i++) {
            if (!hits.get(i).isEmpty()) {
                buckets.add(i);
            }
        }
        List<InternalRow> found = new ArrayList<>();
        for (List<InternalRow> bucket :
                ParallelBuckets.map(buckets, i -> request.rows(plan, i, hits.get(i)))) {
            found.addAll(bucket);
        }
        return found;
    }

    private static int count(List<List<SearchHit>> hits) {
        return hits.stream().mapToInt(List::size).sum();
    }

    /** Hits whose rows {@link #rows} read, over all buckets. */
    int hitsRead() {
        rows();
        return count(kept);
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
                List<PkFullTextSearcher.BucketResult> results =
                        ParallelBuckets.map(all, i -> request.hits(plan, i));
                List<List<SearchHit>> hits = new ArrayList<>();
                boolean archived = true;
                for (PkFullTextSearcher.BucketResult result : results) {
                    hits.add(new ArrayList<>(result.hits()));
                    archived &=
                            result.unsearchableRows() == 0 && result.rowsIndexedAtQueryTime() == 0;
                }
                float cut = cut(hits, request.k);
                for (int i = 0; i < hits.size(); i++) {
                    List<SearchHit> top = new ArrayList<>();
                    for (SearchHit h : hits.get(i)) {
                        if (h.score() >= cut) {
                            top.add(h);
                        }
                    }
                    hits.set(i, top);
                }
                List<List<SearchHit>> chosen = firstByKey(hits, cut);
                rowsFound = read(chosen);
                if (chosen != hits && rowsFound.size() < count(chosen)) {
                    // a chosen row is gone (none should be: hits are live rows): read every tie
                    chosen = hits;
                    rowsFound = read(hits);
                }
                kept = chosen;
                archivedOnly = archived;
            } catch (IOException e) {
                throw new UncheckedIOException(e); // each bucket reports its own failure
            }
            rows = rowsFound.toArray(new InternalRow[0]);
        }
        return rows;
    }

    @Override
    public List<String> primaryKeys() {
        return request.table.primaryKeys();
    }

    @Override
    public synchronized Optional<InternalRow[]> hitRowsIn(Scan scan) {
        rows();
        Optional<PlainScan> plain = PlainScan.of(scan);
        if (!archivedOnly
                || plain.isEmpty()
                || !readsSearchedSnapshot(plain.get().table())
                || !request.table.rowType().getFieldNames().containsAll(plain.get().columns())) {
            return Optional.empty();
        }
        List<Integer> read = new ArrayList<>();
        for (int i = 0; i < kept.size(); i++) {
            if (!kept.get(i).isEmpty() && plain.get().reads(plan.buckets.get(i).partition)) {
                read.add(i);
            }
        }
        List<InternalRow> found = new ArrayList<>();
        try {
            for (List<InternalRow> bucket :
                    ParallelBuckets.map(
                            read,
                            i ->
                                    request.rows(
                                            plan, i, kept.get(i), plain.get().columns(), false))) {
                found.addAll(bucket);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.of(found.toArray(new InternalRow[0]));
    }

    /** The searched table and branch, at the search's snapshot. */
    private boolean readsSearchedSnapshot(FileStoreTable other) {
        FileStoreTable searched = request.table;
        if (!other.location().equals(searched.location())
                || !other.coreOptions().branch().equals(searched.coreOptions().branch())) {
            return false;
        }
        CoreOptions options = other.coreOptions();
        Long snapshot;
        switch (options.startupMode()) {
            case LATEST_FULL:
                snapshot = other.snapshotManager().latestSnapshotId();
                break;
            case FROM_SNAPSHOT:
            case FROM_SNAPSHOT_FULL:
                snapshot = options.scanSnapshotId();
                break;
            default:
                return false;
        }
        return snapshot != null && snapshot == plan.snapshotId;
    }
}
