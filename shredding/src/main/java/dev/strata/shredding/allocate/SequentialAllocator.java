package dev.strata.shredding.allocate;

import java.util.Arrays;

/** Ids sorted ascending (first-seen order in the file), then placed like {@link PlainAllocator}. */
final class SequentialAllocator extends ColumnAllocator {

    private int[] sorted = new int[16];

    SequentialAllocator(int k) {
        super(k);
    }

    @Override
    void place(int[] ids, int n, int[] mapping) {
        if (sorted.length < n) {
            sorted = new int[Math.max(n, sorted.length * 2)];
        }
        System.arraycopy(ids, 0, sorted, 0, n);
        Arrays.sort(sorted, 0, n);
        int k = mapping.length;
        for (int i = 0; i < n; i++) {
            if (i < k) {
                mapping[i] = sorted[i];
            } else {
                addOverflow(sorted[i]);
            }
        }
    }
}
