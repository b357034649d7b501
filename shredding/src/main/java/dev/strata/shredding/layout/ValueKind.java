package dev.strata.shredding.layout;

import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.TimestampType;

/**
 * The comparison domain of a map value type, used by per-key zone statistics and by the pruning
 * engine. Values of a domain are: {@link #LONG} a {@code Long} (integers, boolean as 0/1, DATE as
 * epoch days, TIME as millis of day, TIMESTAMP up to precision 6 as epoch micros); {@link #DOUBLE}
 * a {@code Double} (FLOAT widened); {@link #BYTES} a {@code byte[]} compared as unsigned bytes
 * (CHAR/VARCHAR as UTF-8, BINARY/VARBINARY); {@link #DECIMAL} a {@code java.math.BigDecimal};
 * {@link #NONE} no ordering (nested types, TIMESTAMP with nanosecond precision) — only presence and
 * null counts.
 */
public enum ValueKind {
    NONE(0),
    LONG(1),
    DOUBLE(2),
    BYTES(3),
    DECIMAL(4);

    private final int code;

    ValueKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static ValueKind fromCode(int code) {
        for (ValueKind k : values()) {
            if (k.code == code) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown value kind code " + code);
    }

    public static ValueKind of(DataType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return LONG;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return ((TimestampType) type).getPrecision() <= 6 ? LONG : NONE;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((LocalZonedTimestampType) type).getPrecision() <= 6 ? LONG : NONE;
            case FLOAT:
            case DOUBLE:
                return DOUBLE;
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return BYTES;
            case DECIMAL:
                return ((DecimalType) type).getPrecision() > 0 ? DECIMAL : NONE;
            default:
                return NONE;
        }
    }
}
