package dev.strata.shredding.layout;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects {@link KeyZones} for one shredded column while a file is written: values are added per
 * key id and the current row group is sealed when the Parquet writer flushes it. A key's counts and
 * LONG/DOUBLE bounds are one record of {@value #STRIDE} longs, so with thousands of keys an entry
 * touches one record, not one array per statistic.
 */
public final class ZoneAccumulator {

    private static final int STRIDE = 4;
    private static final long ONE_NULL = 1L << 32;

    private final ValueKind kind;
    private final List<KeyZones> sealed = new ArrayList<>();

    /** Per id: present | nulls << 32, NaNs, min, max (DOUBLE bounds as raw bits). */
    private long[] stats = new long[64 * STRIDE];

    /** BYTES/DECIMAL bounds by id (null: no value yet). */
    private Object[] min = new Object[0];

    private Object[] max = new Object[0];
    private int highestId = -1;

    public ZoneAccumulator(ValueKind kind) {
        this.kind = kind;
    }

    private int record(int id) {
        int at = id * STRIDE;
        if (at >= stats.length) {
            stats = Arrays.copyOf(stats, Math.max(at + STRIDE, stats.length * 2));
        }
        if (id > highestId) {
            highestId = id;
        }
        return at;
    }

    private static int present(long counts) {
        return (int) counts;
    }

    private static int nulls(long counts) {
        return (int) (counts >>> 32);
    }

    /** Records key {@code id} in a row: NULL, or a value in domain form (null: unordered kind). */
    public void add(int id, boolean valueIsNull, Object domainValue) {
        int at = record(id);
        if (valueIsNull) {
            stats[at] += 1 + ONE_NULL;
            return;
        }
        switch (kind) {
            case LONG:
                if (domainValue != null) {
                    addLong(id, (Long) domainValue);
                    return;
                }
                break;
            case DOUBLE:
                if (domainValue != null) {
                    addDouble(id, (Double) domainValue);
                    return;
                }
                break;
            case BYTES:
                if (domainValue != null) {
                    byte[] bytes = (byte[]) domainValue;
                    addBytes(id, bytes, 0, bytes.length);
                    return;
                }
                break;
            case DECIMAL:
                if (domainValue != null) {
                    decimalValue(id, (BigDecimal) domainValue);
                }
                break;
            default:
                break;
        }
        stats[at]++;
    }

    private void decimalValue(int id, BigDecimal v) {
        boundsFor(id);
        if (min[id] == null) {
            min[id] = v;
            max[id] = v;
            return;
        }
        if (v.compareTo((BigDecimal) min[id]) < 0) {
            min[id] = v;
        }
        if (v.compareTo((BigDecimal) max[id]) > 0) {
            max[id] = v;
        }
    }

    private void boundsFor(int id) {
        if (id >= min.length) {
            int n = Math.max(id + 1, min.length * 2);
            min = Arrays.copyOf(min, n);
            max = Arrays.copyOf(max, n);
        }
    }

    /** {@link #add} for a non-null value of a {@link ValueKind#LONG} column, without boxing. */
    public void addLong(int id, long v) {
        int at = record(id);
        long[] s = stats;
        long counts = s[at];
        if (present(counts) == nulls(counts)) {
            s[at + 2] = v;
            s[at + 3] = v;
        } else {
            if (v < s[at + 2]) {
                s[at + 2] = v;
            }
            if (v > s[at + 3]) {
                s[at + 3] = v;
            }
        }
        s[at] = counts + 1;
    }

    /** {@link #add} for a non-null BYTES value, copied only when it becomes a bound. */
    public void addBytes(int id, byte[] bytes, int offset, int length) {
        int at = record(id);
        stats[at]++;
        boundsFor(id);
        byte[] lo = (byte[]) min[id];
        if (lo == null) {
            byte[] v = Arrays.copyOfRange(bytes, offset, offset + length);
            min[id] = v;
            max[id] = v;
            return;
        }
        int end = offset + length;
        if (Arrays.compareUnsigned(bytes, offset, end, lo, 0, lo.length) < 0) {
            min[id] = Arrays.copyOfRange(bytes, offset, end);
        } else {
            byte[] hi = (byte[]) max[id];
            if (Arrays.compareUnsigned(bytes, offset, end, hi, 0, hi.length) > 0) {
                max[id] = Arrays.copyOfRange(bytes, offset, end);
            }
        }
    }

    /** {@link #add} for a non-null value of a {@link ValueKind#DOUBLE} column, without boxing. */
    public void addDouble(int id, double v) {
        int at = record(id);
        long[] s = stats;
        long counts = s[at];
        s[at] = counts + 1;
        if (Double.isNaN(v)) {
            s[at + 1]++;
            return;
        }
        if (present(counts) == nulls(counts) + s[at + 1]) {
            s[at + 2] = Double.doubleToRawLongBits(v);
            s[at + 3] = Double.doubleToRawLongBits(v);
            return;
        }
        double lo = Double.longBitsToDouble(s[at + 2]);
        double hi = Double.longBitsToDouble(s[at + 3]);
        // -0.0 orders below 0.0 in the bounds.
        if (v < lo || (v == 0.0 && Double.compare(v, lo) < 0)) {
            s[at + 2] = Double.doubleToRawLongBits(v);
        }
        if (v > hi || (v == 0.0 && Double.compare(v, hi) > 0)) {
            s[at + 3] = Double.doubleToRawLongBits(v);
        }
    }

    public void sealRowGroup(long rowCount) {
        long[] s = stats;
        int count = 0;
        for (int id = 0; id <= highestId; id++) {
            if (present(s[id * STRIDE]) > 0) {
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
            int at = id * STRIDE;
            long counts = s[at];
            if (present(counts) == 0) {
                continue;
            }
            ids[j] = id;
            p[j] = present(counts);
            nu[j] = nulls(counts);
            na[j] = (int) s[at + 1];
            boolean hasBounds = p[j] > nu[j] + na[j];
            switch (kind) {
                case LONG:
                    if (hasBounds) {
                        mi[j] = s[at + 2];
                        ma[j] = s[at + 3];
                    }
                    break;
                case DOUBLE:
                    if (hasBounds) {
                        mi[j] = Double.longBitsToDouble(s[at + 2]);
                        ma[j] = Double.longBitsToDouble(s[at + 3]);
                    }
                    break;
                case BYTES:
                    if (id < min.length && min[id] != null) {
                        mi[j] = ShreddingFooter.lowerBound((byte[]) min[id]);
                        ma[j] = ShreddingFooter.upperBound((byte[]) max[id]);
                    }
                    break;
                case DECIMAL:
                    if (id < min.length && min[id] != null) {
                        mi[j] = min[id];
                        ma[j] = max[id];
                    }
                    break;
                default:
                    break;
            }
            j++;
        }
        sealed.add(new KeyZones(rowCount, truncated, ids, p, nu, na, mi, ma));
        int clear = highestId + 1;
        Arrays.fill(s, 0, Math.min(s.length, clear * STRIDE), 0L);
        Arrays.fill(min, 0, Math.min(min.length, clear), null);
        Arrays.fill(max, 0, Math.min(max.length, clear), null);
        highestId = -1;
    }

    public List<KeyZones> sealedGroups() {
        return sealed;
    }
}
