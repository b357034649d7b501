package dev.strata.index.search;

import java.io.Serializable;
import java.util.Comparator;
import java.util.Objects;
import org.apache.paimon.data.BinaryRow;

/**
 * One live row found by a search: its position (partition, bucket, data file, row), BM25 score and
 * primary key. The key spares data file reads for key columns; equality and ranking ignore it.
 */
public final class SearchHit implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Score descending, then position (partition bytes unsigned, bucket, file name, row). */
    public static final Comparator<SearchHit> RANKING =
            Comparator.comparingDouble((SearchHit h) -> -h.score)
                    .thenComparing(SearchHit::comparePosition);

    private final BinaryRow partition;
    private final int bucket;
    private final String fileName;
    private final long position;
    private final float score;
    private final BinaryRow key;

    public SearchHit(BinaryRow partition, int bucket, String fileName, long position, float score) {
        this(partition, bucket, fileName, position, score, null);
    }

    /** {@code key} may be null only where no key is needed (ranking by position). */
    public SearchHit(
            BinaryRow partition,
            int bucket,
            String fileName,
            long position,
            float score,
            BinaryRow key) {
        this.partition = Objects.requireNonNull(partition);
        this.bucket = bucket;
        this.fileName = Objects.requireNonNull(fileName);
        this.position = position;
        this.score = score;
        this.key = key;
    }

    public BinaryRow partition() {
        return partition;
    }

    public int bucket() {
        return bucket;
    }

    public String fileName() {
        return fileName;
    }

    public long position() {
        return position;
    }

    public float score() {
        return score;
    }

    /** The row's primary key without the partition fields. */
    public BinaryRow key() {
        return key;
    }

    static int comparePosition(SearchHit a, SearchHit b) {
        int c = compareUnsigned(a.partition.toBytes(), b.partition.toBytes());
        if (c != 0) {
            return c;
        }
        c = Integer.compare(a.bucket, b.bucket);
        if (c != 0) {
            return c;
        }
        c = a.fileName.compareTo(b.fileName);
        return c != 0 ? c : Long.compare(a.position, b.position);
    }

    private static int compareUnsigned(byte[] a, byte[] b) {
        return java.util.Arrays.compareUnsigned(a, b);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SearchHit)) {
            return false;
        }
        SearchHit h = (SearchHit) o;
        return bucket == h.bucket
                && position == h.position
                && Float.compare(score, h.score) == 0
                && partition.equals(h.partition)
                && fileName.equals(h.fileName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partition, bucket, fileName, position, score);
    }

    @Override
    public String toString() {
        return "SearchHit{bucket="
                + bucket
                + ", file="
                + fileName
                + ", position="
                + position
                + ", score="
                + score
                + "}";
    }
}
