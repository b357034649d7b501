package dev.strata.shredding.layout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects {@link KeyZones} for one shredded column while a file is written: values are added per
 * key id and the current row group is sealed when the Parquet writer flushes it.
 */
public final class ZoneAccumulator {

    private final ValueKind kind;
    private final List<KeyZones> sealed = new ArrayList<>();
    private int[] present = new int[64];
    private int[] nulls = new int[64];
    private int[] nans = new int[64];
    private Object[] min = new Object[64];
    private Object[] max = new Object[64];
    private long[] lmin = new long[64];
    private long[] lmax = new long[64];
    private double[] dmin = new double[64];
    private double[] dmax = new double[64];
    private boolean[] hasValue = new boolean[64];
    private int highestId = -1;

    public ZoneAccumulator(ValueKind kind) {
        this.kind = kind;
    }

    private void ensure(int id) {
        if (id < present.length) {
            return;
        }
        int n = Math.max(id + 1, present.length * 2);
        present = Arrays.copyOf(present, n);
        nulls = Arrays.copyOf(nulls, n);
        nans = Arrays.copyOf(nans, n);
        min = Arrays.copyOf(min, n);
        max = Arrays.copyOf(max, n);
        lmin = Arrays.copyOf(lmin, n);
        lmax = Arrays.copyOf(lmax, n);
        dmin = Arrays.copyOf(dmin, n);
        dmax = Arrays.copyOf(dmax, n);
        hasValue = Arrays.copyOf(hasValue, n);
    }

    /**
     * Records that key {@code id} is present in a row, with a NULL value or with a value whose
     * domain form is {@code domainValue} (null when the kind has no ordering).
     */
    public void add(int id, boolean valueIsNull, Object domainValue) {
        ensure(id);
        highestId = Math.max(highestId, id);
        present[id]++;
        if (valueIsNull) {
            nulls[id]++;
            return;
        }
        if (domainValue == null) {
            return;
        }
        switch (kind) {
            case LONG:
                longValue(id, (Long) domainValue);
                break;
            case DOUBLE:
                doubleValue(id, (Double) domainValue);
                break;
            case BYTES:
            case DECIMAL:
                if (!hasValue[id]) {
                    min[id] = domainValue;
                    max[id] = domainValue;
                } else {
                    if (Domain.compare(kind, domainValue, min[id]) < 0) {
                        min[id] = domainValue;
                    }
                    if (Domain.compare(kind, domainValue, max[id]) > 0) {
                        max[id] = domainValue;
                    }
                }
                hasValue[id] = true;
                break;
            default:
                break;
        }
    }

    /** {@link #add} for a non-null value of a {@link ValueKind#LONG} column, without boxing. */
    public void addLong(int id, long v) {
        ensure(id);
        highestId = Math.max(highestId, id);
        present[id]++;
        longValue(id, v);
    }

    /** {@link #add} for a non-null value of a {@link ValueKind#DOUBLE} column, without boxing. */
    public void addDouble(int id, double v) {
        ensure(id);
        highestId = Math.max(highestId, id);
        present[id]++;
        doubleValue(id, v);
    }

    private void longValue(int id, long v) {
        if (!hasValue[id]) {
            lmin[id] = v;
            lmax[id] = v;
        } else {
            if (v < lmin[id]) {
                lmin[id] = v;
            }
            if (v > lmax[id]) {
                lmax[id] = v;
            }
        }
        hasValue[id] = true;
    }

    private void doubleValue(int id, double v) {
        if (Double.isNaN(v)) {
            nans[id]++;
            return;
        }
        if (!hasValue[id]) {
            dmin[id] = v;
            dmax[id] = v;
        } else {
            if (v < dmin[id] || (v == 0.0 && Double.compare(v, dmin[id]) < 0)) {
                dmin[id] = v;
            }
            if (v > dmax[id] || (v == 0.0 && Double.compare(v, dmax[id]) > 0)) {
                dmax[id] = v;
            }
        }
        hasValue[id] = true;
    }

    /** Seals the current row group, which held {@code rowCount} rows. */
    public void sealRowGroup(long rowCount) {
        int count = 0;
        for (int id = 0; id <= highestId; id++) {
            if (present[id] > 0) {
                count++;
            }
        }
        boolean truncated = count > ShreddingFooter.MAX_ZONE_KEYS;
        int n = Math.min(count, ShreddingFooter.MAX_ZONE_KEYS);
        int[] ids = new int[n];
        int[] p = new int[n];
        int[] nu = new int[n];
        int[] na = new int[n];
        Object[] mi = new Object[n];
        Object[] ma = new Object[n];
        int j = 0;
        for (int id = 0; id <= highestId && j < n; id++) {
            if (present[id] == 0) {
                continue;
            }
            ids[j] = id;
            p[j] = present[id];
            nu[j] = nulls[id];
            na[j] = nans[id];
            if (hasValue[id]) {
                switch (kind) {
                    case LONG:
                        mi[j] = lmin[id];
                        ma[j] = lmax[id];
                        break;
                    case DOUBLE:
                        mi[j] = dmin[id];
                        ma[j] = dmax[id];
                        break;
                    case BYTES:
                        mi[j] = ShreddingFooter.lowerBound((byte[]) min[id]);
                        ma[j] = ShreddingFooter.upperBound((byte[]) max[id]);
                        break;
                    case DECIMAL:
                        mi[j] = min[id];
                        ma[j] = max[id];
                        break;
                    default:
                        break;
                }
            }
            j++;
        }
        sealed.add(new KeyZones(rowCount, truncated, ids, p, nu, na, mi, ma));
        int clear = highestId + 1;
        Arrays.fill(present, 0, clear, 0);
        Arrays.fill(nulls, 0, clear, 0);
        Arrays.fill(nans, 0, clear, 0);
        Arrays.fill(hasValue, 0, clear, false);
        Arrays.fill(min, 0, clear, null);
        Arrays.fill(max, 0, clear, null);
        highestId = -1;
    }

    public List<KeyZones> sealedGroups() {
        return sealed;
    }
}
