package dev.strata.index.search;

import dev.strata.index.archive.ArchiveFormat;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.paimon.deletionvectors.DeletionVectorJudger;

/**
 * Matches documents whose archive row id is live (in an active source, not deleted by its deletion
 * vector), as a FILTER clause so the top-k is taken among live rows. A row id is judged by a binary
 * search over source ranges and one deletion-vector probe; live rows are never enumerated.
 */
final class LiveRowsQuery extends Query {

    private final String archive;
    private final long[] offsets;
    private final long[] rowCounts;
    private final boolean[] active;
    private final DeletionVectorJudger[] deletions;

    LiveRowsQuery(
            String archive,
            long[] offsets,
            long[] rowCounts,
            boolean[] active,
            DeletionVectorJudger[] deletions) {
        this.archive = archive;
        this.offsets = offsets;
        this.rowCounts = rowCounts;
        this.active = active;
        this.deletions = deletions;
    }

    boolean isLive(long rowId) {
        int i = Arrays.binarySearch(offsets, rowId);
        if (i < 0) {
            i = -i - 2;
        }
        if (i < 0 || rowId - offsets[i] >= rowCounts[i] || !active[i]) {
            return false;
        }
        return deletions[i] == null || !deletions[i].isDeleted(rowId - offsets[i]);
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        return new ConstantScoreWeight(this, boost) {
            @Override
            public Scorer scorer(LeafReaderContext context) throws IOException {
                NumericDocValues rowIds =
                        context.reader().getNumericDocValues(ArchiveFormat.ROW_ID_FIELD);
                if (rowIds == null) {
                    return null;
                }
                DocIdSetIterator approximation = DocIdSetIterator.all(context.reader().maxDoc());
                TwoPhaseIterator live =
                        new TwoPhaseIterator(approximation) {
                            @Override
                            public boolean matches() throws IOException {
                                return rowIds.advanceExact(approximation.docID())
                                        && isLive(rowIds.longValue());
                            }

                            @Override
                            public float matchCost() {
                                return 20f;
                            }
                        };
                return new ConstantScoreScorer(this, score(), scoreMode, live);
            }

            @Override
            public boolean isCacheable(LeafReaderContext ctx) {
                return false;
            }
        };
    }

    @Override
    public String toString(String field) {
        return "LiveRows(" + archive + ")";
    }

    @Override
    public void visit(QueryVisitor visitor) {
        visitor.visitLeaf(this);
    }

    @Override
    public boolean equals(Object other) {
        return this == other;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
