package dev.strata.index.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryRowWriter;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.deletionvectors.Bitmap64DeletionVector;
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorJudger;
import org.junit.jupiter.api.Test;

class LiveRowsAndRankingTest {

    /**
     * Sources of a billion and of 2^62 rows: a filter that enumerated or materialised live rows
     * could not even allocate them, so judging them proves it works by ranges and probes.
     */
    @Test
    void liveRowFilterOverMoreRowsThanCouldBeEnumeratedJudgesByRanges() {
        long billion = 1_000_000_000L;
        long huge = 1L << 62;
        Bitmap64DeletionVector dv = new Bitmap64DeletionVector();
        dv.delete(999_999_998L);
        LiveRowsQuery live =
                new LiveRowsQuery(
                        "a",
                        new long[] {0, billion, billion + huge},
                        new long[] {billion, huge, 3},
                        new boolean[] {true, true, false},
                        new DeletionVectorJudger[] {dv, null, null});
        assertThat(live.isLive(0)).isTrue();
        assertThat(live.isLive(999_999_998L)).isFalse();
        assertThat(live.isLive(999_999_999L)).isTrue();
        assertThat(live.isLive(billion + huge - 1)).as("last row of the 2^62-row source").isTrue();
        assertThat(live.isLive(billion + huge)).as("inactive source").isFalse();
        assertThat(live.isLive(billion + huge + 3)).as("beyond the archive").isFalse();
    }

    @Test
    void deletionVectorIsShiftedBySourceOffset() {
        BitmapDeletionVector dvB = new BitmapDeletionVector();
        dvB.delete(1);
        LiveRowsQuery live =
                new LiveRowsQuery(
                        "ab",
                        new long[] {0, 3},
                        new long[] {3, 3},
                        new boolean[] {true, true},
                        new DeletionVectorJudger[] {null, dvB});
        // Archive rows 0-2 are file a, 3-5 file b; b's position 1 is archive row 4.
        assertThat(Arrays.asList(live.isLive(0), live.isLive(3), live.isLive(4), live.isLive(5)))
                .containsExactly(true, true, false, true);
    }

    private static BinaryRow partition(String value) {
        BinaryRow row = new BinaryRow(1);
        BinaryRowWriter writer = new BinaryRowWriter(row);
        writer.writeString(0, BinaryString.fromString(value));
        writer.complete();
        return row;
    }

    @Test
    void ranksByScoreThenPartitionBucketFileAndPositionAndKeepsBestOfDuplicates() {
        BinaryRow p1 = partition("a");
        BinaryRow p2 = partition("b");
        List<SearchHit> hits =
                Arrays.asList(
                        new SearchHit(p2, 0, "f", 0, 5f),
                        new SearchHit(p1, 1, "f", 0, 5f),
                        new SearchHit(p1, 0, "g", 0, 5f),
                        new SearchHit(p1, 0, "f", 2, 5f),
                        new SearchHit(p1, 0, "f", 1, 5f),
                        new SearchHit(p1, 0, "f", 1, 4f),
                        new SearchHit(p1, 0, "z", 9, 9f));
        List<SearchHit> top = BucketSearcher.topK(hits, 5);
        assertThat(top)
                .containsExactly(
                        new SearchHit(p1, 0, "z", 9, 9f),
                        new SearchHit(p1, 0, "f", 1, 5f),
                        new SearchHit(p1, 0, "f", 2, 5f),
                        new SearchHit(p1, 0, "g", 0, 5f),
                        new SearchHit(p1, 1, "f", 0, 5f));
    }
}
