package dev.strata.shredding.layout;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Comparison helpers over the values of a {@link ValueKind}. */
public final class Domain {

    private Domain() {}

    /** Compares two values of one kind; doubles numerically ({@code -0.0 == 0.0}), NaN kept out. */
    public static int compare(ValueKind kind, Object a, Object b) {
        switch (kind) {
            case LONG:
                return Long.compare((Long) a, (Long) b);
            case DOUBLE:
                {
                    double x = (Double) a;
                    double y = (Double) b;
                    return x < y ? -1 : (x > y ? 1 : 0);
                }
            case BYTES:
                return Arrays.compareUnsigned((byte[]) a, (byte[]) b);
            case DECIMAL:
                return ((BigDecimal) a).compareTo((BigDecimal) b);
            default:
                throw new IllegalArgumentException("no ordering for kind " + kind);
        }
    }

    /**
     * Converts a predicate literal to the kind's domain, or null when it does not belong to it (the
     * caller then treats the leaf as "may match"). Accepted: integral boxes and Boolean for LONG;
     * any number for DOUBLE; String or byte[] for BYTES; BigDecimal or integral boxes for DECIMAL.
     */
    public static Object literal(ValueKind kind, Object literal) {
        if (literal == null) {
            return null;
        }
        switch (kind) {
            case LONG:
                if (literal instanceof Long
                        || literal instanceof Integer
                        || literal instanceof Short
                        || literal instanceof Byte) {
                    return ((Number) literal).longValue();
                }
                if (literal instanceof Boolean) {
                    return ((Boolean) literal) ? 1L : 0L;
                }
                return null;
            case DOUBLE:
                if (literal instanceof Double
                        || literal instanceof Float
                        || literal instanceof Long
                        || literal instanceof Integer
                        || literal instanceof Short
                        || literal instanceof Byte) {
                    return ((Number) literal).doubleValue();
                }
                return null;
            case BYTES:
                if (literal instanceof String) {
                    return ((String) literal).getBytes(StandardCharsets.UTF_8);
                }
                if (literal instanceof byte[]) {
                    return literal;
                }
                return null;
            case DECIMAL:
                if (literal instanceof BigDecimal) {
                    return literal;
                }
                if (literal instanceof Long
                        || literal instanceof Integer
                        || literal instanceof Short
                        || literal instanceof Byte) {
                    return BigDecimal.valueOf(((Number) literal).longValue());
                }
                return null;
            default:
                return null;
        }
    }

    public static boolean isNaN(ValueKind kind, Object v) {
        return kind == ValueKind.DOUBLE && Double.isNaN((Double) v);
    }
}
