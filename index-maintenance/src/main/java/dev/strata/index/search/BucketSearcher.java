package dev.strata.index.search;

import dev.strata.index.archive.ArchiveFormat;
import dev.strata.index.archive.ArchiveHeaders;
import dev.strata.index.archive.ArchiveReader;
import dev.strata.index.archive.HeaderLookup;
import dev.strata.index.archive.OpenArchives;
import dev.strata.index.source.SourceFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.utils.RoaringBitmap32;
import org.apache.paimon.utils.SerializationUtils;

/**
 * Searches the current archives of one bucket. Each archive's query runs with a filter of its live
 * rows (sources active in the snapshot, not deleted by their deletion vectors) inside, so the top-k
 * is taken among live rows only. Archives are opened through the JVM's {@link OpenArchives}.
 */
public final class BucketSearcher {

    private BucketSearcher() {}

    /**
     * The top-k live hits of {@code archives}, scored with {@code global} (null: each its own);
     * hits tying the k-th score are cut by {@code keyOrder} over their primary keys (the table's
     * trimmed key), so that the search's ties are ordered by key (null: by position).
     */
    public static List<SearchHit> search(
            BinaryRow partition,
            int bucket,
            ArchiveHeaders.Statement headers,
            List<IndexFileMeta> archives,
            List<DataFileMeta> activeFiles,
            Map<String, DeletionVector> deletionVectors,
            CorpusStats global,
            SearchQuery query,
            int k,
            Comparator<InternalRow> keyOrder)
            throws IOException {
        checkK(k);
        checkQuery(query);
        Map<String, DataFileMeta> byName = byName(activeFiles);
        List<SearchHit> all = new ArrayList<>();
        for (IndexFileMeta archive : archives) {
            ArchiveRows rows = ArchiveRows.of(headers, archive, byName, deletionVectors);
            if (!rows.anyLive) {
                continue;
            }
            try (OpenArchives.Lease lease = OpenArchives.shared().acquire(headers, archive)) {
                ArchiveReader reader = lease.reader();
                Query filtered = rows.live(parse(reader.header().analyzer().newAnalyzer(), query));
                IndexSearcher searcher = searcher(reader.indexReader(), global);
                List<LeafReaderContext> leaves = reader.indexReader().leaves();
                for (ScoreDoc sd : best(searcher, filtered, k, keyOrder, archive.fileName())) {
                    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(sd.doc, leaves));
                    NumericDocValues rowIds =
                            leaf.reader().getNumericDocValues(ArchiveFormat.ROW_ID_FIELD);
                    if (rowIds == null || !rowIds.advanceExact(sd.doc - leaf.docBase)) {
                        throw new IOException(
                                "Full-text archive "
                                        + archive.fileName()
                                        + " document "
                                        + sd.doc
                                        + " has no row id.");
                    }
                    long rowId = rowIds.longValue();
                    int i = rows.sourceOf(rowId);
                    all.add(
                            new SearchHit(
                                    partition,
                                    bucket,
                                    rows.sources.get(i).fileName(),
                                    rowId - rows.offsets[i],
                                    sd.score,
                                    key(leaf, sd.doc, archive.fileName())));
                }
            } catch (IOException | RuntimeException e) {
                throw ArchiveReader.diagnose(headers.files(), archive, e);
            }
        }
        return topK(all, k, keyOrder);
    }

    /**
     * The k best documents of {@code query}. Lucene breaks ties by document number; where documents
     * tie the k-th score beyond k, those with the smallest primary keys by {@code keyOrder} are
     * kept instead (every matching document is scored then, so only then).
     */
    private static List<ScoreDoc> best(
            IndexSearcher searcher,
            Query query,
            int k,
            Comparator<InternalRow> keyOrder,
            String index)
            throws IOException {
        ScoreDoc[] docs =
                searcher.search(query, keyOrder == null || k == Integer.MAX_VALUE ? k : k + 1)
                        .scoreDocs;
        if (keyOrder == null || docs.length <= k || docs[k].score < docs[k - 1].score) {
            return java.util.Arrays.asList(docs).subList(0, Math.min(k, docs.length));
        }
        float kth = docs[k - 1].score;
        List<ScoreDoc> better = new ArrayList<>();
        List<Map.Entry<BinaryRow, ScoreDoc>> tied = new ArrayList<>();
        Weight weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.COMPLETE, 1f);
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            Scorer scorer = weight.scorer(leaf);
            if (scorer == null) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetIterator it = scorer.iterator();
            for (int d = it.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = it.nextDoc()) {
                if (live != null && !live.get(d)) {
                    continue;
                }
                float score = scorer.score();
                if (score > kth) {
                    better.add(new ScoreDoc(leaf.docBase + d, score));
                } else if (score == kth) {
                    int doc = leaf.docBase + d;
                    tied.add(Map.entry(key(leaf, doc, index), new ScoreDoc(doc, score)));
                }
            }
        }
        tied.sort(Map.Entry.comparingByKey(keyOrder));
        List<ScoreDoc> out = new ArrayList<>(better);
        for (int i = 0; i < tied.size() && out.size() < k; i++) {
            out.add(tied.get(i).getValue());
        }
        return out;
    }

    /** The query's term statistics over the archives {@link #search} reads and {@code fresh}. */
    public static CorpusStats stats(
            ArchiveHeaders.Statement headers,
            List<IndexFileMeta> archives,
            List<DataFileMeta> activeFiles,
            Map<String, DeletionVector> deletionVectors,
            FreshRows fresh,
            Analyzer freshAnalyzer,
            SearchQuery query)
            throws IOException {
        checkQuery(query);
        Map<String, DataFileMeta> byName = byName(activeFiles);
        CorpusStats sum = CorpusStats.empty();
        for (IndexFileMeta archive : archives) {
            if (!ArchiveRows.of(headers, archive, byName, deletionVectors).anyLive) {
                continue;
            }
            try (OpenArchives.Lease lease = OpenArchives.shared().acquire(headers, archive)) {
                ArchiveReader reader = lease.reader();
                sum =
                        sum.add(
                                CorpusStats.of(
                                        reader.indexReader(),
                                        parse(reader.header().analyzer().newAnalyzer(), query)));
            } catch (IOException | RuntimeException e) {
                throw ArchiveReader.diagnose(headers.files(), archive, e);
            }
        }
        if (fresh != null && fresh.documents() > 0) {
            sum = sum.add(CorpusStats.of(fresh.reader(), parse(freshAnalyzer, query)));
        }
        return sum;
    }

    /** Live rows of the current archives matching the query, as positions by data file (no k). */
    public static Map<String, RoaringBitmap32> matchAll(
            ArchiveHeaders.Statement headers,
            List<IndexFileMeta> archives,
            List<DataFileMeta> activeFiles,
            Map<String, DeletionVector> deletionVectors,
            SearchQuery query)
            throws IOException {
        checkQuery(query);
        Map<String, DataFileMeta> byName = byName(activeFiles);
        Map<String, RoaringBitmap32> out = new HashMap<>();
        for (IndexFileMeta archive : archives) {
            ArchiveRows rows = ArchiveRows.of(headers, archive, byName, deletionVectors);
            if (!rows.anyLive) {
                continue;
            }
            try (OpenArchives.Lease lease = OpenArchives.shared().acquire(headers, archive)) {
                ArchiveReader reader = lease.reader();
                forEachMatch(
                        reader.indexReader(),
                        rows.live(parse(reader.header().analyzer().newAnalyzer(), query)),
                        "full-text archive " + archive.fileName(),
                        rowId -> {
                            int i = rows.sourceOf(rowId);
                            out.computeIfAbsent(
                                            rows.sources.get(i).fileName(),
                                            f -> new RoaringBitmap32())
                                    .add((int) (rowId - rows.offsets[i]));
                        });
            } catch (IOException | RuntimeException e) {
                throw ArchiveReader.diagnose(headers.files(), archive, e);
            }
        }
        return out;
    }

    /** What {@link #countWhereAllLive} counted, and the archives it left to match by position. */
    public static final class Count {
        private final long count;
        private final List<IndexFileMeta> notCounted;

        Count(long count, List<IndexFileMeta> notCounted) {
            this.count = count;
            this.notCounted = notCounted;
        }

        /** Documents of the counted archives that match every query. */
        public long count() {
            return count;
        }

        public List<IndexFileMeta> notCounted() {
            return notCounted;
        }
    }

    /**
     * Counts the documents matching all {@code queries} in each archive whose sources are all
     * active, in {@code readFiles} and without deleted rows, so every document is a live row and
     * Lucene counts without row positions. Other archives are returned for {@link #matchAll}.
     */
    public static Count countWhereAllLive(
            ArchiveHeaders.Statement headers,
            List<IndexFileMeta> archives,
            List<DataFileMeta> activeFiles,
            Map<String, DeletionVector> deletionVectors,
            List<SearchQuery> queries,
            Set<String> readFiles)
            throws IOException {
        queries.forEach(BucketSearcher::checkQuery);
        Map<String, DataFileMeta> byName = byName(activeFiles);
        long count = 0;
        List<IndexFileMeta> notCounted = new ArrayList<>();
        for (IndexFileMeta archive : archives) {
            ArchiveRows rows = ArchiveRows.of(headers, archive, byName, deletionVectors);
            boolean allRead = rows.sources.stream().allMatch(s -> readFiles.contains(s.fileName()));
            if (!rows.allLive || !allRead) {
                notCounted.add(archive);
                continue;
            }
            try (OpenArchives.Lease lease = OpenArchives.shared().acquire(headers, archive)) {
                ArchiveReader reader = lease.reader();
                Query matched;
                try (Analyzer analyzer = reader.header().analyzer().newAnalyzer()) {
                    if (queries.size() == 1) {
                        matched = parse(analyzer, queries.get(0));
                    } else {
                        BooleanQuery.Builder all = new BooleanQuery.Builder();
                        for (SearchQuery query : queries) {
                            all.add(parse(analyzer, query), BooleanClause.Occur.FILTER);
                        }
                        matched = all.build();
                    }
                }
                IndexSearcher searcher = new IndexSearcher(reader.indexReader());
                searcher.setQueryCache(null);
                count += searcher.count(matched);
            } catch (IOException | RuntimeException e) {
                throw ArchiveReader.diagnose(headers.files(), archive, e);
            }
        }
        return new Count(count, notCounted);
    }

    /** Matches among the rows indexed at query time, as positions by data file. */
    public static Map<String, RoaringBitmap32> matchAllFresh(
            FreshRows fresh, Analyzer analyzer, SearchQuery query) throws IOException {
        checkQuery(query);
        Map<String, RoaringBitmap32> out = new HashMap<>();
        if (fresh.documents() == 0) {
            return out;
        }
        forEachMatch(
                fresh.reader(),
                parse(analyzer, query),
                "rows indexed at query time",
                rowId -> {
                    int file = fresh.fileOf(rowId);
                    out.computeIfAbsent(
                                    fresh.files().get(file).fileName(), f -> new RoaringBitmap32())
                            .add((int) fresh.positionOf(rowId, file));
                });
        return out;
    }

    private interface RowIdConsumer {
        void accept(long rowId) throws IOException;
    }

    /** Calls {@code consumer} with the row id of every live document matching {@code query}. */
    private static void forEachMatch(
            IndexReader reader, Query query, String what, RowIdConsumer consumer)
            throws IOException {
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setQueryCache(null);
        Weight weight =
                searcher.createWeight(searcher.rewrite(query), ScoreMode.COMPLETE_NO_SCORES, 1f);
        for (LeafReaderContext leaf : reader.leaves()) {
            Scorer scorer = weight.scorer(leaf);
            if (scorer == null) {
                continue;
            }
            Bits liveDocs = leaf.reader().getLiveDocs();
            NumericDocValues rowIds = leaf.reader().getNumericDocValues(ArchiveFormat.ROW_ID_FIELD);
            DocIdSetIterator docs = scorer.iterator();
            for (int doc = docs.nextDoc();
                    doc != DocIdSetIterator.NO_MORE_DOCS;
                    doc = docs.nextDoc()) {
                if (liveDocs != null && !liveDocs.get(doc)) {
                    continue;
                }
                if (rowIds == null || !rowIds.advanceExact(doc)) {
                    throw new IOException(
                            "In "
                                    + what
                                    + ", document "
                                    + (leaf.docBase + doc)
                                    + " has no row id.");
                }
                consumer.accept(rowIds.longValue());
            }
        }
    }

    /**
     * The top-k rows indexed at query time, scored with {@code global} (null: their own); ties at
     * the k-th score cut by {@code keyOrder} (null: by position).
     */
    public static List<SearchHit> searchFresh(
            BinaryRow partition,
            int bucket,
            FreshRows fresh,
            Analyzer analyzer,
            CorpusStats global,
            SearchQuery query,
            int k,
            Comparator<InternalRow> keyOrder)
            throws IOException {
        checkK(k);
        checkQuery(query);
        List<SearchHit> hits = new ArrayList<>();
        if (fresh.documents() == 0) {
            return hits;
        }
        IndexSearcher searcher = searcher(fresh.reader(), global);
        List<LeafReaderContext> leaves = fresh.reader().leaves();
        for (ScoreDoc sd :
                best(
                        searcher,
                        parse(analyzer, query),
                        k,
                        keyOrder,
                        "of rows indexed at query time")) {
            LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(sd.doc, leaves));
            NumericDocValues rowIds = leaf.reader().getNumericDocValues(ArchiveFormat.ROW_ID_FIELD);
            if (rowIds == null || !rowIds.advanceExact(sd.doc - leaf.docBase)) {
                throw new IOException(
                        "Rows indexed at query time: document " + sd.doc + " has no row id.");
            }
            int file = fresh.fileOf(rowIds.longValue());
            hits.add(
                    new SearchHit(
                            partition,
                            bucket,
                            fresh.files().get(file).fileName(),
                            fresh.positionOf(rowIds.longValue(), file),
                            sd.score,
                            key(leaf, sd.doc, "of rows indexed at query time")));
        }
        return hits;
    }

    /** The primary key stored in {@link ArchiveFormat#KEY_FIELD}; every document has one. */
    private static BinaryRow key(LeafReaderContext leaf, int doc, String index) throws IOException {
        BinaryDocValues keys = leaf.reader().getBinaryDocValues(ArchiveFormat.KEY_FIELD);
        if (keys == null || !keys.advanceExact(doc - leaf.docBase)) {
            throw new IOException(
                    "Cannot read the primary key of document "
                            + doc
                            + " of full-text index "
                            + index
                            + ": every document stores one, this one has none.");
        }
        BytesRef bytes = keys.binaryValue();
        return SerializationUtils.deserializeBinaryRow(
                java.util.Arrays.copyOfRange(
                        bytes.bytes, bytes.offset, bytes.offset + bytes.length));
    }

    private static Map<String, DataFileMeta> byName(List<DataFileMeta> files) {
        Map<String, DataFileMeta> byName = new HashMap<>();
        for (DataFileMeta f : files) {
            byName.put(f.fileName(), f);
        }
        return byName;
    }

    /** Row-id ranges of one archive's sources, with liveness (active file, deletion vector). */
    private static final class ArchiveRows {
        final String archive;
        final List<SourceFile> sources;
        final long[] offsets;
        final long[] counts;
        final boolean[] active;
        final DeletionVector[] dvs;
        final long total;
        final boolean anyLive;

        /** Every source active and without deleted rows: every document is a live row. */
        final boolean allLive;

        private ArchiveRows(
                String archive,
                List<SourceFile> sources,
                long[] offsets,
                long[] counts,
                boolean[] active,
                DeletionVector[] dvs,
                long total,
                boolean anyLive,
                boolean allLive) {
            this.archive = archive;
            this.sources = sources;
            this.offsets = offsets;
            this.counts = counts;
            this.active = active;
            this.dvs = dvs;
            this.total = total;
            this.anyLive = anyLive;
            this.allLive = allLive;
        }

        static ArchiveRows of(
                HeaderLookup headers,
                IndexFileMeta archive,
                Map<String, DataFileMeta> activeByName,
                Map<String, DeletionVector> deletionVectors)
                throws IOException {
            List<SourceFile> sources = headers.header(archive).sourceMeta().sourceFiles();
            int n = sources.size();
            long[] offsets = new long[n];
            long[] counts = new long[n];
            boolean[] active = new boolean[n];
            DeletionVector[] dvs = new DeletionVector[n];
            long offset = 0;
            boolean anyLive = false;
            boolean allLive = true;
            for (int i = 0; i < n; i++) {
                SourceFile s = sources.get(i);
                DataFileMeta file = activeByName.get(s.fileName());
                if (file != null && file.rowCount() != s.rowCount()) {
                    throw new IllegalStateException(
                            "Cannot search full-text archive "
                                    + archive.fileName()
                                    + ": data file "
                                    + s.fileName()
                                    + " has "
                                    + file.rowCount()
                                    + " rows, the archive recorded "
                                    + s.rowCount()
                                    + ".");
                }
                offsets[i] = offset;
                counts[i] = s.rowCount();
                active[i] = file != null;
                DeletionVector dv = deletionVectors.get(s.fileName());
                dvs[i] = dv == null || dv.isEmpty() ? null : dv;
                if (active[i] && (dvs[i] == null || dvs[i].getCardinality() < s.rowCount())) {
                    anyLive = true;
                }
                allLive &= active[i] && dvs[i] == null;
                offset += s.rowCount();
            }
            return new ArchiveRows(
                    archive.fileName(),
                    sources,
                    offsets,
                    counts,
                    active,
                    dvs,
                    offset,
                    anyLive,
                    allLive);
        }

        /**
         * {@code parsed} restricted to the live rows; as it is when all rows are live (judging each
         * candidate's row id would cost a doc-values read and a binary search for nothing).
         */
        Query live(Query parsed) {
            if (allLive) {
                return parsed;
            }
            return new BooleanQuery.Builder()
                    .add(parsed, BooleanClause.Occur.MUST)
                    .add(
                            new LiveRowsQuery(archive, offsets, counts, active, dvs),
                            BooleanClause.Occur.FILTER)
                    .build();
        }

        /** The index of the source holding archive row {@code rowId}. */
        int sourceOf(long rowId) throws IOException {
            if (rowId < 0 || rowId >= total) {
                throw new IOException(
                        "Full-text archive "
                                + archive
                                + " row id "
                                + rowId
                                + " is outside [0, "
                                + total
                                + ").");
            }
            int i = java.util.Arrays.binarySearch(offsets, rowId);
            return i < 0 ? -i - 2 : i;
        }
    }

    private static IndexSearcher searcher(IndexReader reader, CorpusStats global) {
        if (global != null) {
            return global.searcher(reader);
        }
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setSimilarity(new BM25Similarity());
        searcher.setQueryCache(null);
        return searcher;
    }

    private static void checkK(int k) {
        if (k <= 0) {
            throw new IllegalArgumentException(
                    "Cannot search full-text archives: k must be positive, but was " + k + ".");
        }
    }

    private static void checkQuery(SearchQuery query) {
        if (query.text() == null || query.text().trim().isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot search full-text archives: the query is blank. Give a Lucene query string.");
        }
    }

    /** The k best hits by score, ties broken by position; a duplicate position keeps its best. */
    public static List<SearchHit> topK(List<SearchHit> hits, int k) {
        return topK(hits, k, null);
    }

    /** As above, ties broken by {@code keyOrder} over the hits' keys first (null: none). */
    public static List<SearchHit> topK(
            List<SearchHit> hits, int k, Comparator<InternalRow> keyOrder) {
        Map<String, SearchHit> best = new LinkedHashMap<>();
        for (SearchHit h : hits) {
            String key =
                    java.util.Arrays.toString(h.partition().toBytes())
                            + "/"
                            + h.bucket()
                            + "/"
                            + h.fileName()
                            + "/"
                            + h.position();
            SearchHit old = best.get(key);
            if (old == null || SearchHit.RANKING.compare(h, old) < 0) {
                best.put(key, h);
            }
        }
        List<SearchHit> sorted = new ArrayList<>(best.values());
        sorted.sort(
                keyOrder == null
                        ? SearchHit.RANKING
                        : (a, b) -> {
                            int c = Float.compare(b.score(), a.score());
                            if (c == 0 && a.key() != null && b.key() != null) {
                                c = keyOrder.compare(a.key(), b.key());
                            }
                            return c != 0 ? c : SearchHit.RANKING.compare(a, b);
                        });
        return sorted.size() > k ? new ArrayList<>(sorted.subList(0, k)) : sorted;
    }

    static Query parse(Analyzer analyzer, SearchQuery query) {
        return SearchQueries.parse(analyzer, query);
    }
}
