package dev.strata.shredding.allocate;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/** K for a column's next file from the maximum row widths W of its last {@value #WINDOW} files. */
public final class KAdaptation {

    static final int WINDOW = 20;
    private static final int ABSOLUTE_SLACK = 4;
    private static final double RELATIVE_SLACK = 1.25;

    private final int maxColumns;
    private final Deque<Integer> window = new ArrayDeque<>();

    public KAdaptation(int maxColumns) {
        if (maxColumns < 1) {
            throw new IllegalArgumentException(
                    "Cannot adapt K: max-columns must be > 0 but was " + maxColumns + ".");
        }
        this.maxColumns = maxColumns;
    }

    public synchronized int nextK() {
        if (window.isEmpty()) {
            return maxColumns;
        }
        return choose(
                window.stream().mapToInt(Integer::intValue).toArray(), window.size(), maxColumns);
    }

    /** Whether a file has completed in this window (else {@link #nextK()} is K_max). */
    public synchronized boolean hasHistory() {
        return !window.isEmpty();
    }

    /**
     * The rule of {@link #nextK()} applied to any widths {@code widths[0..n)} (sorted in place):
     * the maximum when it is within 4 or within 1.25× of the P90 (1-based rank ceil(0.9·n)), else
     * the P90, clamped to [1, maxColumns]; 1 when {@code n} is 0. The writer also applies it to the
     * map widths of a file's first rows.
     */
    public static int choose(int[] widths, int n, int maxColumns) {
        if (n == 0) {
            return 1;
        }
        Arrays.sort(widths, 0, n);
        int max = widths[n - 1];
        int rank = (int) Math.ceil(0.9 * n);
        rank = Math.max(1, Math.min(n, rank));
        int p = widths[rank - 1];
        int chosen =
                (max - p <= ABSOLUTE_SLACK || max <= (int) Math.ceil(RELATIVE_SLACK * p)) ? max : p;
        return Math.max(1, Math.min(maxColumns, chosen));
    }

    /** Reports the W of a file that closed successfully. */
    public synchronized void fileCompleted(int maxRowWidth) {
        window.addLast(maxRowWidth);
        while (window.size() > WINDOW) {
            window.removeFirst();
        }
    }
}
