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
 * The BM25 collection statistics of the text field summed over every index a search reads, as if
 * one index held all their documents, so rows of different buckets and levels score comparably
 * (deleted rows still count, as in Lucene). A fuzzy query's expansions from every index are scored
 * with the group's largest document frequency, as Lucene blends them within one index.
 */
public final class CorpusStats implements Serializable {

    private static final long serialVersionUID = 1L;

    private long maxDoc;
    private long docCount;
    private long sumTotalTermFreq;
    private long sumDocFreq;

    /** Term text → {docFreq, totalTermFreq}. */
    private final Map<String, long[]> terms = new LinkedHashMap<>();

    /** The terms each blended multi-term (fuzzy) query, by its text, expanded to in any index. */
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

    /** A BM25 searcher over {@code reader} using these statistics where they know the term. */
    IndexSearcher searcher(IndexReader reader) {
        // Blended group terms get the group's largest document frequency, as in one Lucene index.
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
                            // Unknown term (or fewer docs than this index alone): its own.
                            return super.termStatistics(term, docFreq, totalTermFreq);
                        }
                        // BM25 reads only the df; totalTermFreq need only be >= it.
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
