package dev.strata.shredding.read;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.DecimalType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Turns a decoded Parquet value into the Paimon object of its column's type (as Paimon's own
 * Parquet reader returns it), for the row path: INT32 as byte, short, int (DATE and TIME too) or
 * long; INT64 as long, an unscaled decimal or a timestamp in the file's unit (micros when the file
 * names none); FLOAT and DOUBLE; BOOLEAN; BINARY as {@link BinaryString} for strings, bytes for
 * binaries, or an unscaled decimal; INT96 as a timestamp.
 */
final class PaimonValues {

    interface Value {
        Object get(Decoded c, int ordinal);
    }

    /** Decoded values of a column by ordinal, in the array of their Parquet type. */
    interface Decoded {
        /** INT32 values, and BOOLEAN ones as 0 / 1. */
        int getInt(int ordinal);

        long getLong(int ordinal);

        /** DOUBLE and FLOAT values. */
        double getDouble(int ordinal);

        /** BINARY, FIXED_LEN_BYTE_ARRAY and INT96 values. */
        byte[] getBytes(int ordinal);
    }

    private PaimonValues() {}

    /** The conversion of Parquet type {@code file} to {@code type}; null if the row path can't. */
    static Value of(DataType type, Type file) {
        if (!file.isPrimitive() || file.getRepetition() == Type.Repetition.REPEATED) {
            return null;
        }
        PrimitiveType p = file.asPrimitiveType();
        PrimitiveTypeName physical = p.getPrimitiveTypeName();
        if (physical == PrimitiveTypeName.INT96) {
            boolean timestamp =
                    type.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                            || type.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
            return timestamp ? (c, o) -> int96(c.getBytes(o)) : null;
        }
        boolean int32 = physical == PrimitiveTypeName.INT32;
        boolean int64 = physical == PrimitiveTypeName.INT64;
        boolean binary =
                physical == PrimitiveTypeName.BINARY
                        || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return physical == PrimitiveTypeName.BOOLEAN ? (c, o) -> c.getInt(o) != 0 : null;
            case TINYINT:
                return int32 ? (c, o) -> (byte) c.getInt(o) : null;
            case SMALLINT:
                return int32 ? (c, o) -> (short) c.getInt(o) : null;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return int32 ? (c, o) -> c.getInt(o) : null;
            case BIGINT:
                return int64 ? (c, o) -> c.getLong(o) : int32 ? (c, o) -> (long) c.getInt(o) : null;
            case FLOAT:
                return physical == PrimitiveTypeName.FLOAT
                        ? (c, o) -> (float) c.getDouble(o)
                        : null;
            case DOUBLE:
                return physical == PrimitiveTypeName.DOUBLE || physical == PrimitiveTypeName.FLOAT
                        ? (c, o) -> c.getDouble(o)
                        : null;
            case CHAR:
            case VARCHAR:
                return binary ? (c, o) -> BinaryString.fromBytes(c.getBytes(o)) : null;
            case BINARY:
            case VARBINARY:
                return binary ? (c, o) -> c.getBytes(o) : null;
            case DECIMAL:
                {
                    int precision = ((DecimalType) type).getPrecision();
                    int scale = ((DecimalType) type).getScale();
                    if (int32) {
                        return (c, o) -> Decimal.fromUnscaledLong(c.getInt(o), precision, scale);
                    }
                    if (int64) {
                        return (c, o) -> Decimal.fromUnscaledLong(c.getLong(o), precision, scale);
                    }
                    return binary
                            ? (c, o) -> Decimal.fromUnscaledBytes(c.getBytes(o), precision, scale)
                            : null;
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                {
                    if (!int64) {
                        return null;
                    }
                    LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
                    LogicalTypeAnnotation.TimeUnit unit =
                            a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation
                                    ? ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) a)
                                            .getUnit()
                                    : LogicalTypeAnnotation.TimeUnit.MICROS;
                    switch (unit) {
                        case MILLIS:
                            return (c, o) -> Timestamp.fromEpochMillis(c.getLong(o));
                        case MICROS:
                            return (c, o) -> Timestamp.fromMicros(c.getLong(o));
                        default:
                            return (c, o) ->
                                    Timestamp.fromEpochMillis(
                                            Math.floorDiv(c.getLong(o), 1_000_000L),
                                            (int) Math.floorMod(c.getLong(o), 1_000_000L));
                    }
                }
            default:
                return null;
        }
    }

    /** Days from the Julian day 0 to 1970-01-01. */
    private static final int JULIAN_EPOCH_DAY = 2_440_588;

    /**
     * An INT96 timestamp (8 bytes little-endian nanoseconds of the day, then 4 bytes little-endian
     * Julian day) as Paimon's Parquet reader decodes it (UTC): milliseconds since the epoch and the
     * nanoseconds within the millisecond.
     */
    static Timestamp int96(byte[] b) {
        java.nio.ByteBuffer buf =
                java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = buf.getLong();
        int julianDay = buf.getInt();
        long millis = (julianDay - JULIAN_EPOCH_DAY) * 86_400_000L + nanosOfDay / 1_000_000L;
        return Timestamp.fromEpochMillis(millis, (int) (nanosOfDay % 1_000_000L));
    }
}
