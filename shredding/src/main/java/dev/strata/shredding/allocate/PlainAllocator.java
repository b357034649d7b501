package dev.strata.shredding.allocate;

/** The first K ids in entry order take columns 0..K-1; the rest overflow in entry order. */
final class PlainAllocator extends ColumnAllocator {

    PlainAllocator(int k) {
        super(k);
    }

    @Override
    void place(int[] ids, int n, int[] mapping) {
        int k = mapping.length;
        for (int i = 0; i < n; i++) {
            if (i < k) {
                mapping[i] = ids[i];
            } else {
                addOverflow(ids[i]);
            }
        }
    }
}
