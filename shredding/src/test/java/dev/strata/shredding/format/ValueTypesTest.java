package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.parquet.ArrayBackedMap;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

/**
 * Every value type Paimon stores, nested values, and two shredded maps per table, with overflow
 * (K=2).
 */
class ValueTypesTest extends PaimonTablesTestBase {

    private static final DataType[] VALUE_TYPES = {
        DataTypes.BOOLEAN(),
        DataTypes.TINYINT(),
        DataTypes.SMALLINT(),
        DataTypes.INT(),
        DataTypes.BIGINT(),
        DataTypes.FLOAT(),
        DataTypes.DOUBLE(),
        DataTypes.DECIMAL(9, 2),
        DataTypes.DECIMAL(18, 4),
        DataTypes.DECIMAL(30, 6),
        DataTypes.STRING(),
        DataTypes.BYTES(),
        DataTypes.DATE(),
        DataTypes.TIME(),
        DataTypes.TIMESTAMP(3),
        DataTypes.TIMESTAMP(6),
        DataTypes.TIMESTAMP(9),
        DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6),
        DataTypes.ARRAY(DataTypes.INT()),
        DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.BIGINT()),
        DataTypes.ROW(
                DataTypes.FIELD(0, "a", DataTypes.INT()),
                DataTypes.FIELD(1, "b", DataTypes.ARRAY(DataTypes.STRING())))
    };

    static Object sample(DataType t, int i) {
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return i % 2 == 0;
            case TINYINT:
                return (byte) i;
            case SMALLINT:
                return (short) (i * 100);
            case INTEGER:
                return i * 1000;
            case BIGINT:
                return i * 10_000_000_000L;
            case FLOAT:
                return i + 0.5f;
            case DOUBLE:
                return i - 0.25;
            case DECIMAL:
                {
                    var d = (org.apache.paimon.types.DecimalType) t;
                    return Decimal.fromBigDecimal(
                            new BigDecimal(i + "." + "1".repeat(d.getScale())),
                            d.getPrecision(),
                            d.getScale());
                }
            case VARCHAR:
                return BinaryString.fromString("välue-" + i);
            case VARBINARY:
                return new byte[] {(byte) i, 0, (byte) -i};
            case DATE:
                return 19_000 + i;
            case TIME_WITHOUT_TIME_ZONE:
                return 3_600_000 + i;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                {
                    int p =
                            t instanceof org.apache.paimon.types.TimestampType
                                    ? ((org.apache.paimon.types.TimestampType) t).getPrecision()
                                    : ((org.apache.paimon.types.LocalZonedTimestampType) t)
                                            .getPrecision();
                    long millis = 1_700_000_000_000L + i;
                    int nanos = p <= 3 ? 0 : p <= 6 ? (i % 1000) * 1000 : i % 1_000_000;
                    return Timestamp.fromEpochMillis(millis, nanos);
                }
            case ARRAY:
                return new GenericArray(new Object[] {i, null, i + 1});
            case MAP:
                return new ArrayBackedMap(
                        new Object[] {BinaryString.fromString("x"), BinaryString.fromString("y")},
                        new Object[] {(long) i, null});
            case ROW:
                return GenericRow.of(
                        i, new GenericArray(new Object[] {BinaryString.fromString("s" + i), null}));
            default:
                throw new IllegalArgumentException(t.toString());
        }
    }

    @Test
    void everyValueTypeRoundTripsThroughTheFormatWithOverflow() throws Exception {
        Schema.Builder b = Schema.newBuilder().column("id", DataTypes.INT().notNull());
        Map<String, String> options = new HashMap<>();
        for (int c = 0; c < VALUE_TYPES.length; c++) {
            b.column("m" + c, DataTypes.MAP(DataTypes.STRING().notNull(), VALUE_TYPES[c]));
            options.put(ShreddingOptions.layoutKey("m" + c), "shared-shredding");
            options.put(ShreddingOptions.maxColumnsKey("m" + c), "2");
        }
        b.column("plain", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.INT()));
        b.primaryKey("id").option("bucket", "1");
        Schema provisional = b.build();
        RowType rowType = provisional.rowType();
        ShreddingOptions.validate("db.types", rowType, options);
        options.forEach(b::option);
        tables.catalog.createTable(Identifier.create("db", "types"), b.build(), false);
        FileStoreTable table = tables.table("types");

        List<InternalRow> written = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Object[] fields = new Object[VALUE_TYPES.length + 2];
            fields[0] = i;
            for (int c = 0; c < VALUE_TYPES.length; c++) {
                DataType t = VALUE_TYPES[c];
                int mode = (i + c) % 5;
                if (mode == 0) {
                    fields[c + 1] = null;
                } else if (mode == 1) {
                    fields[c + 1] = new ArrayBackedMap(new Object[0], new Object[0]);
                } else {
                    fields[c + 1] =
                            new ArrayBackedMap(
                                    new Object[] {
                                        BinaryString.fromString("a"),
                                        BinaryString.fromString("b"),
                                        BinaryString.fromString("c"),
                                        BinaryString.fromString("")
                                    },
                                    new Object[] {
                                        sample(t, i), null, sample(t, i + 1), sample(t, i + 2)
                                    });
                }
            }
            fields[VALUE_TYPES.length + 1] =
                    new ArrayBackedMap(
                            new Object[] {BinaryString.fromString("p")}, new Object[] {i});
            written.add(GenericRow.of(fields));
        }
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite();
                BatchTableCommit commit = wb.newCommit()) {
            for (InternalRow r : written) {
                w.write(r);
            }
            commit.commit(w.prepareCommit());
        }
        assertThat(PaimonTables.fileLayouts(table)).containsOnlyKeys("parquet:shredded");

        RowType type = table.rowType();
        InternalRowSerializer serializer = new InternalRowSerializer(type);
        Map<Integer, String> expected = new HashMap<>();
        for (InternalRow r : written) {
            expected.put(r.getInt(0), render(serializer, r, type));
        }
        Map<Integer, String> actual = new HashMap<>();
        try (RecordReader<InternalRow> reader =
                table.newReadBuilder()
                        .newRead()
                        .createReader(table.newReadBuilder().newScan().plan().splits())) {
            reader.forEachRemaining(r -> actual.put(r.getInt(0), render(serializer, r, type)));
        }
        assertThat(actual).isEqualTo(expected);
    }

    /** A canonical text of a row: maps as entries (the layout keeps plain order for these rows). */
    static String render(InternalRowSerializer serializer, InternalRow row, RowType type) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < type.getFieldCount(); i++) {
            Object v = InternalRow.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row);
            s.append(i).append(':').append(text(type.getTypeAt(i), v)).append(';');
        }
        return s.toString();
    }

    private static String text(DataType t, Object v) {
        if (v == null) {
            return "null";
        }
        switch (t.getTypeRoot()) {
            case MAP:
                {
                    var m = (org.apache.paimon.data.InternalMap) v;
                    var mt = (org.apache.paimon.types.MapType) t;
                    List<String> entries = new ArrayList<>();
                    for (int i = 0; i < m.size(); i++) {
                        Object k =
                                org.apache.paimon.data.InternalArray.createElementGetter(
                                                mt.getKeyType())
                                        .getElementOrNull(m.keyArray(), i);
                        Object x =
                                org.apache.paimon.data.InternalArray.createElementGetter(
                                                mt.getValueType())
                                        .getElementOrNull(m.valueArray(), i);
                        entries.add(text(mt.getKeyType(), k) + "=" + text(mt.getValueType(), x));
                    }
                    java.util.Collections.sort(entries);
                    return entries.toString();
                }
            case ARRAY:
                {
                    var a = (org.apache.paimon.data.InternalArray) v;
                    var et = ((org.apache.paimon.types.ArrayType) t).getElementType();
                    List<String> items = new ArrayList<>();
                    for (int i = 0; i < a.size(); i++) {
                        items.add(
                                text(
                                        et,
                                        org.apache.paimon.data.InternalArray.createElementGetter(et)
                                                .getElementOrNull(a, i)));
                    }
                    return items.toString();
                }
            case ROW:
                {
                    var r = (InternalRow) v;
                    var rt = (RowType) t;
                    StringBuilder s = new StringBuilder("(");
                    for (int i = 0; i < rt.getFieldCount(); i++) {
                        s.append(
                                        text(
                                                rt.getTypeAt(i),
                                                InternalRow.createFieldGetter(rt.getTypeAt(i), i)
                                                        .getFieldOrNull(r)))
                                .append(',');
                    }
                    return s.append(')').toString();
                }
            case VARBINARY:
            case BINARY:
                return java.util.Arrays.toString((byte[]) v);
            default:
                return String.valueOf(v);
        }
    }
}
