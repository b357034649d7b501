package dev.strata.index.search;

import dev.strata.index.archive.ArchiveFormat;
import java.io.IOException;
import java.io.Serializable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MultiTermQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.util.automaton.ByteRunAutomaton;

/**
 * The BM25 collection statistics of the text field over every index a search reads (the archives of
 * all searched buckets and levels plus the rows indexed at query time), summed as if one Lucene
 * index held all their documents: per field the maximum document count, the document count, the sum
 * of term frequencies and of document frequencies; per query term its document frequency and total
 * term frequency. A search that scores every index with the same sums gives rows of different
 * buckets, partitions and levels comparable scores (Lucene's {@link IndexSearcher#termStatistics}
 * and {@link IndexSearcher#collectionStatistics} are the hooks). As in Lucene, documents of rows
 * deleted since their index was written still count.
 *
 * <p>Terms are the ones the query holds after it is rewritten against each index (a fuzzy query
 * expands to different terms in different indexes; all of them are collected, and its terms are
 * scored with the largest document frequency among them, as Lucene blends a fuzzy query's terms in
 * one index). A term a query uses both plainly and inside a fuzzy expansion gets the blended
 * frequency in both places.
 */
public final class CorpusStats implements Serializable {

    private static final long serialVersionUID = 1L;

    private long maxDoc;
    private long docCount;
    private long sumTotalTermFreq;
    private long sumDocFreq;

    /** Term text → {docFreq, totalTermFreq}. */
    private final Map<String, long[]> terms = new LinkedHashMap<>();

    /**
     * Per scoring multi-term query (a fuzzy query, by its text): the terms it expanded to in any
     * index. Lucene scores such a query's terms with a blended document frequency, the largest of
     * its terms'.
     */
    private final Map<String, Set<String>> blendedGroups = new LinkedHashMap<>();

    /** Statistics of nothing (the neutral element of {@link #add}). */
    public static CorpusStats empty() {
        return new CorpusStats();
    }

    /** Adds the statistics of one index for the terms of {@code query} (parsed for that index). */
    static CorpusStats of(IndexReader reader, Query query) throws IOException {
        CorpusStats stats = new CorpusStats();
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setQueryCache(null);
        Query rewritten = searcher.rewrite(query);
        Set<Term> collected = new HashSet<>();
        rewritten.visit(QueryVisitor.termCollector(collected));
        Set<MultiTermQuery> blended = new HashSet<>();
        query.visit(
                new QueryVisitor() {
                    @Override
                    public void consumeTermsMatching(
                            Query q, String field, Supplier<ByteRunAutomaton> automaton) {
                        if (q instanceof MultiTermQuery
                                && ((MultiTermQuery) q).getRewriteMethod()
                                        instanceof
                                        MultiTermQuery.TopTermsBlendedFreqScoringRewrite) {
                            blended.add((MultiTermQuery) q);
                        }
                    }

                    @Override
                    public QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
                        return occur == BooleanClause.Occur.MUST_NOT
                                ? QueryVisitor.EMPTY_VISITOR
                                : this;
                    }
                });
        for (MultiTermQuery q : blended) {
            Set<Term> expanded = new HashSet<>();
            searcher.rewrite(q).visit(QueryVisitor.termCollector(expanded));
            Set<String> group =
                    stats.blendedGroups.computeIfAbsent(q.toString(), x -> new HashSet<>());
            for (Term t : expanded) {
                group.add(t.text());
            }
        }
        CollectionStatistics field = searcher.collectionStatistics(ArchiveFormat.TEXT_FIELD);
        if (field != null) {
            stats.maxDoc = field.maxDoc();
            stats.docCount = field.docCount();
            stats.sumTotalTermFreq = field.sumTotalTermFreq();
            stats.sumDocFreq = field.sumDocFreq();
        }
        for (Term t : collected) {
            if (!ArchiveFormat.TEXT_FIELD.equals(t.field())) {
                continue;
            }
            TermStates states = TermStates.build(searcher, t, true);
            if (states.docFreq() > 0) {
                stats.terms.put(t.text(), new long[] {states.docFreq(), states.totalTermFreq()});
            }
        }
        return stats;
    }

    /** The sum of this and {@code other} (a new object). */
    public CorpusStats add(CorpusStats other) {
        CorpusStats sum = new CorpusStats();
        sum.maxDoc = maxDoc + other.maxDoc;
        sum.docCount = docCount + other.docCount;
        sum.sumTotalTermFreq = sumTotalTermFreq + other.sumTotalTermFreq;
        sum.sumDocFreq = sumDocFreq + other.sumDocFreq;
        for (CorpusStats s : new CorpusStats[] {this, other}) {
            for (Map.Entry<String, long[]> e : s.terms.entrySet()) {
                long[] v = sum.terms.computeIfAbsent(e.getKey(), x -> new long[2]);
                v[0] += e.getValue()[0];
                v[1] += e.getValue()[1];
            }
            for (Map.Entry<String, Set<String>> e : s.blendedGroups.entrySet()) {
                sum.blendedGroups
                        .computeIfAbsent(e.getKey(), x -> new HashSet<>())
                        .addAll(e.getValue());
            }
        }
        return sum;
    }

    /** Documents with the text field, over all indexes. */
    public long docCount() {
        return docCount;
    }

    /**
     * A searcher over {@code reader} that scores with these statistics (BM25, no query cache).
     * Terms these statistics do not know keep the reader's own statistics.
     */
    IndexSearcher searcher(IndexReader reader) {
        // A term of a blended group is scored with the group's largest document frequency, as
        // Lucene does in one index.
        Map<String, Long> blendedDf = new HashMap<>();
        for (Set<String> group : blendedGroups.values()) {
            long max = 0;
            for (String t : group) {
                long[] v = terms.get(t);
                max = Math.max(max, v == null ? 0 : v[0]);
            }
            for (String t : group) {
                blendedDf.merge(t, max, Math::max);
            }
        }
        IndexSearcher searcher =
                new IndexSearcher(reader) {
                    @Override
                    public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq)
                            throws IOException {
                        long[] global =
                                ArchiveFormat.TEXT_FIELD.equals(term.field())
                                        ? terms.get(term.text())
                                        : null;
                        long df =
                                global == null
                                        ? 0
                                        : Math.max(
                                                global[0], blendedDf.getOrDefault(term.text(), 0L));
                        if (df < docFreq) {
                            // Not a term of the statistics (or fewer documents than this index
                            // alone): its own.
                            return super.termStatistics(term, docFreq, totalTermFreq);
                        }
                        // BM25 reads only the document frequency; the total term frequency just has
                        // to be >= it.
                        return new TermStatistics(term.bytes(), df, Math.max(global[1], df));
                    }

                    @Override
                    public CollectionStatistics collectionStatistics(String field)
                            throws IOException {
                        CollectionStatistics local = super.collectionStatistics(field);
                        if (!ArchiveFormat.TEXT_FIELD.equals(field)
                                || local == null
                                || docCount < local.docCount()
                                || sumDocFreq < docCount
                                || sumTotalTermFreq < sumDocFreq) {
                            return local;
                        }
                        return new CollectionStatistics(
                                field,
                                Math.max(maxDoc, docCount),
                                docCount,
                                sumTotalTermFreq,
                                sumDocFreq);
                    }
                };
        searcher.setSimilarity(new BM25Similarity());
        searcher.setQueryCache(null);
        return searcher;
    }

    @Override
    public String toString() {
        return "CorpusStats{docCount="
                + docCount
                + ", sumTotalTermFreq="
                + sumTotalTermFreq
                + ", terms="
                + terms.size()
                + "}";
    }
}
