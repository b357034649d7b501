package dev.strata.shredding.pushdown;

import dev.strata.shredding.layout.Domain;
import dev.strata.shredding.layout.ValueKind;
import java.util.Arrays;
import java.util.List;

/**
 * Whether a value range may hold a value satisfying a leaf: the shared test of chunk statistics and
 * per-key zone statistics. NaN: Spark orders NaN above every number and {@code NaN = NaN}; when NaN
 * may be present (Parquet statistics do not say) only operators NaN cannot satisfy are refuted.
 */
final class StatsAdmit {

    private StatsAdmit() {}

    /** {@code lits} in the domain; {@code min}/{@code max} null: unbounded; NaN: DOUBLE only. */
    static boolean admits(
            ValueKind kind,
            MapPredicate.Op op,
            List<Object> lits,
            Object min,
            Object max,
            boolean nanPossible) {
        if (op == MapPredicate.Op.IS_NOT_NULL) {
            return true;
        }
        if (kind == ValueKind.NONE) {
            return true;
        }
        if (kind == ValueKind.DOUBLE) {
            if ((min != null && Double.isNaN((Double) min))
                    || (max != null && Double.isNaN((Double) max))) {
                return true;
            }
            for (Object l : lits) {
                if (Double.isNaN((Double) l)) {
                    return true;
                }
            }
            if (nanPossible
                    && (op == MapPredicate.Op.GT
                            || op == MapPredicate.Op.GT_EQ
                            || op == MapPredicate.Op.NOT_EQ)) {
                return true;
            }
        }
        switch (op) {
            case EQ:
                return inRange(kind, lits.get(0), min, max);
            case IN:
                for (Object l : lits) {
                    if (inRange(kind, l, min, max)) {
                        return true;
                    }
                }
                return false;
            case NOT_EQ:
                return min == null
                        || max == null
                        || Domain.compare(kind, min, max) != 0
                        || Domain.compare(kind, min, lits.get(0)) != 0;
            case LT:
                return min == null || Domain.compare(kind, min, lits.get(0)) < 0;
            case LT_EQ:
                return min == null || Domain.compare(kind, min, lits.get(0)) <= 0;
            case GT:
                return max == null || Domain.compare(kind, max, lits.get(0)) > 0;
            case GT_EQ:
                return max == null || Domain.compare(kind, max, lits.get(0)) >= 0;
            case STARTS_WITH:
                {
                    if (kind != ValueKind.BYTES) {
                        return true;
                    }
                    byte[] prefix = (byte[]) lits.get(0);
                    if (max != null && Arrays.compareUnsigned((byte[]) max, prefix) < 0) {
                        return false;
                    }
                    if (min != null) {
                        byte[] m = (byte[]) min;
                        byte[] head =
                                m.length > prefix.length
                                        ? java.util.Arrays.copyOf(m, prefix.length)
                                        : m;
                        return Arrays.compareUnsigned(head, prefix) <= 0;
                    }
                    return true;
                }
            default:
                return true;
        }
    }

    /**
     * Whether a DOUBLE leaf may hold for a range whose only non-null values are NaN: NaN satisfies
     * {@code >} and {@code <>} of a number, {@code >=} of anything, {@code =}, {@code IN} and
     * {@code <=} of NaN, and never {@code <}.
     */
    static boolean admitsNaN(MapPredicate.Op op, List<Object> lits) {
        switch (op) {
            case IS_NOT_NULL:
            case GT_EQ:
                return true;
            case LT:
                return false;
            case GT:
            case NOT_EQ:
                return !Double.isNaN((Double) lits.get(0));
            case EQ:
            case LT_EQ:
                return Double.isNaN((Double) lits.get(0));
            case IN:
                for (Object l : lits) {
                    if (Double.isNaN((Double) l)) {
                        return true;
                    }
                }
                return false;
            default:
                return true;
        }
    }

    private static boolean inRange(ValueKind kind, Object v, Object min, Object max) {
        return (min == null || Domain.compare(kind, min, v) <= 0)
                && (max == null || Domain.compare(kind, v, max) <= 0);
    }
}
