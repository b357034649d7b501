package dev.strata.spark.data;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.TestSeeds;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * A {@link PaimonToSpark.RowView} reads what {@link PaimonToSpark#convert} copies: every supported
 * type, NULLs and nested values, through the typed getters Spark's generated code calls and the
 * generic {@code get}; {@code copy()} keeps a row after the view moved on (seed from {@link
 * TestSeeds}). Oracle: the converted row, itself checked against the values written.
 */
class PaimonToSparkTest {

    private static final RowType TYPE =
            RowType.of(
                    DataTypes.BOOLEAN(),
                    DataTypes.TINYINT(),
                    DataTypes.SMALLINT(),
                    DataTypes.INT(),
                    DataTypes.BIGINT(),
                    DataTypes.FLOAT(),
                    DataTypes.DOUBLE(),
                    DataTypes.STRING(),
                    DataTypes.BYTES(),
                    DataTypes.DECIMAL(10, 2),
                    DataTypes.DECIMAL(30, 5),
                    DataTypes.DATE(),
                    DataTypes.TIMESTAMP(6),
                    DataTypes.TIMESTAMP(3),
                    DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6),
                    DataTypes.ARRAY(DataTypes.STRING()),
                    DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE()),
                    DataTypes.ROW(DataTypes.INT(), DataTypes.STRING()));

    @Test
    void theViewReadsWhatTheConverterCopiesAndACopyOutlivesIt() {
        Random random = TestSeeds.random("paimon-to-spark-view");
        PaimonToSpark converter = PaimonToSpark.forRowType(TYPE);
        PaimonToSpark.RowView view = converter.newView();
        StructType spark = SparkTypes.toSpark(TYPE);
        List<InternalRow> copies = new ArrayList<>();
        List<InternalRow> expected = new ArrayList<>();
        for (int r = 0; r < 200; r++) {
            GenericRow row = row(random, r);
            InternalRow converted = converter.convert(row);
            InternalRow seen = view.of(row);
            assertThat(seen.numFields()).isEqualTo(TYPE.getFieldCount());
            for (int i = 0; i < TYPE.getFieldCount(); i++) {
                DataType t = spark.fields()[i].dataType();
                assertThat(seen.isNullAt(i))
                        .as("field %s of row %s", i, r)
                        .isEqualTo(row.isNullAt(i));
                if (row.isNullAt(i)) {
                    continue;
                }
                assertThat(comparable(seen.get(i, t)))
                        .as("field %s of row %s", i, r)
                        .isEqualTo(comparable(converted.get(i, t)));
            }
            if (!row.isNullAt(0)) {
                assertThat(seen.getBoolean(0)).isEqualTo(row.getBoolean(0));
            }
            if (!row.isNullAt(4)) {
                assertThat(seen.getLong(4)).isEqualTo(row.getLong(4));
            }
            if (!row.isNullAt(6)) {
                assertThat(seen.getDouble(6)).isEqualTo(row.getDouble(6));
            }
            if (!row.isNullAt(7)) {
                assertThat(seen.getUTF8String(7).toString()).isEqualTo(row.getString(7).toString());
            }
            if (!row.isNullAt(9)) {
                assertThat(seen.getDecimal(9, 10, 2).toJavaBigDecimal())
                        .isEqualByComparingTo(row.getDecimal(9, 10, 2).toBigDecimal());
            }
            if (!row.isNullAt(12)) {
                assertThat(seen.getLong(12)).isEqualTo(row.getTimestamp(12, 6).toMicros());
            }
            if (!row.isNullAt(13)) {
                assertThat(seen.getLong(13)).isEqualTo(row.getTimestamp(13, 3).toMicros());
            }
            copies.add(seen.copy());
            expected.add(converted);
        }
        // The view now shows the last row; each copy still holds its own.
        for (int r = 0; r < copies.size(); r++) {
            List<Object> copy = new ArrayList<>();
            List<Object> want = new ArrayList<>();
            copies.get(r).toSeq(spark).foreach(x -> copy.add(comparable(x)));
            expected.get(r).toSeq(spark).foreach(x -> want.add(comparable(x)));
            assertThat(copy).as("copy of row %s", r).isEqualTo(want);
        }
    }

    /** Spark's maps have no value equality: a map as its key and value arrays. */
    private static Object comparable(Object value) {
        if (value instanceof org.apache.spark.sql.catalyst.util.MapData) {
            org.apache.spark.sql.catalyst.util.MapData m =
                    (org.apache.spark.sql.catalyst.util.MapData) value;
            return List.of(m.keyArray(), m.valueArray());
        }
        if (value instanceof byte[]) {
            return java.util.Arrays.toString((byte[]) value);
        }
        return value;
    }

    private static GenericRow row(Random random, int r) {
        Object[] v = new Object[TYPE.getFieldCount()];
        v[0] = random.nextBoolean();
        v[1] = (byte) random.nextInt();
        v[2] = (short) random.nextInt();
        v[3] = random.nextInt();
        v[4] = random.nextLong();
        v[5] = random.nextFloat();
        v[6] = random.nextDouble() * 1e6;
        v[7] = BinaryString.fromString("s" + random.nextInt(1000) + (r % 7 == 0 ? "ü€" : ""));
        byte[] bytes = new byte[random.nextInt(8)];
        random.nextBytes(bytes);
        v[8] = bytes;
        v[9] =
                org.apache.paimon.data.Decimal.fromBigDecimal(
                        BigDecimal.valueOf(random.nextInt(100_000_000), 2), 10, 2);
        v[10] =
                org.apache.paimon.data.Decimal.fromBigDecimal(
                        new BigDecimal(new java.math.BigInteger(90, random), 5), 30, 5);
        v[11] = random.nextInt(40_000);
        long micros = (long) (random.nextDouble() * 2e15);
        v[12] = Timestamp.fromMicros(micros);
        v[13] = Timestamp.fromEpochMillis(micros / 1000);
        v[14] = Timestamp.fromMicros(micros + 17);
        v[15] =
                new GenericArray(
                        new Object[] {
                            BinaryString.fromString("a" + r), null, BinaryString.fromString("c")
                        });
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(BinaryString.fromString("k" + r), random.nextDouble());
        map.put(BinaryString.fromString("n"), null);
        v[16] = new GenericMap(map);
        v[17] = GenericRow.of(r, r % 3 == 0 ? null : BinaryString.fromString("x" + r));
        // A NULL in every field, in turn.
        v[r % v.length] = null;
        return GenericRow.of(v);
    }
}
