package dev.strata.spark.write;

import dev.strata.spark.data.SparkToPaimon;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The {@code -D} rows of a row-level statement's deletes, built from Spark's row id (the primary
 * key). The merge engine ignores non-key fields, so those hold nulls, or a placeholder where NOT
 * NULL (Paimon's writer refuses nulls there).
 */
final class KeyRows {

    private final String tableName;
    private final List<String> rowIdNames;
    private final int arity;
    private final int[] keyFields;
    private final SparkToPaimon keyConverter;
    private final Object[] placeholders;

    KeyRows(String tableName, RowType rowType, List<String> rowIdColumns) {
        this.tableName = tableName;
        this.rowIdNames = List.copyOf(rowIdColumns);
        this.arity = rowType.getFieldCount();
        this.keyFields = new int[rowIdColumns.size()];
        for (int i = 0; i < keyFields.length; i++) {
            keyFields[i] = rowType.getFieldIndex(rowIdColumns.get(i));
            if (keyFields[i] < 0) {
                throw new IllegalStateException(
                        String.format(
                                "Cannot write the row changes of %s: Spark's row id column %s is not a column of the table; "
                                        + "columns are %s.",
                                tableName, rowIdColumns.get(i), rowType.getFieldNames()));
            }
        }
        this.keyConverter = SparkToPaimon.forRowType(rowType.project(keyFields));
        this.placeholders = new Object[arity];
        for (int i = 0; i < arity; i++) {
            DataType type = rowType.getTypeAt(i);
            placeholders[i] = type.isNullable() ? null : placeholder(type);
        }
    }

    GenericRow deleteRow(InternalRow rowId) {
        GenericRow key = keyConverter.convert(rowId);
        GenericRow out = new GenericRow(RowKind.DELETE, arity);
        for (int i = 0; i < arity; i++) {
            out.setField(i, placeholders[i]);
        }
        for (int i = 0; i < keyFields.length; i++) {
            out.setField(keyFields[i], key.getField(i));
        }
        return out;
    }

    /**
     * Refuses an update that changes the key: the old key's delete and the new key's insert may
     * belong to buckets other tasks write, and a bucket must be written by one task.
     */
    void checkSameKey(InternalRow rowId, GenericRow updated) {
        GenericRow key = keyConverter.convert(rowId);
        for (int i = 0; i < keyFields.length; i++) {
            if (!Objects.deepEquals(key.getField(i), updated.getField(keyFields[i]))) {
                throw new UnsupportedOperationException(
                        String.format(
                                "Cannot change primary-key column %s of %s from %s to %s in an UPDATE or MERGE: Strata "
                                        + "updates rows in place by primary key. Delete the old rows and insert the new ones "
                                        + "(DELETE FROM, then INSERT INTO) instead.",
                                rowIdNames.get(i),
                                tableName,
                                key.getField(i),
                                updated.getField(keyFields[i])));
            }
        }
    }

    private static Object placeholder(DataType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return false;
            case TINYINT:
                return (byte) 0;
            case SMALLINT:
                return (short) 0;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return 0;
            case BIGINT:
                return 0L;
            case FLOAT:
                return 0f;
            case DOUBLE:
                return 0d;
            case CHAR:
            case VARCHAR:
                return BinaryString.EMPTY_UTF8;
            case BINARY:
            case VARBINARY:
                return new byte[0];
            case DECIMAL:
                return Decimal.zero(
                        ((DecimalType) type).getPrecision(), ((DecimalType) type).getScale());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Timestamp.fromEpochMillis(0);
            case ARRAY:
                return new GenericArray(new Object[0]);
            case MAP:
            case MULTISET:
                return new GenericMap(new HashMap<>());
            case ROW:
                {
                    List<DataField> fields = ((RowType) type).getFields();
                    GenericRow row = new GenericRow(fields.size());
                    for (int i = 0; i < fields.size(); i++) {
                        DataType t = fields.get(i).type();
                        row.setField(i, t.isNullable() ? null : placeholder(t));
                    }
                    return row;
                }
            default:
                throw new UnsupportedOperationException(
                        "Cannot write a delete row with a NOT NULL field of type "
                                + type
                                + ": no placeholder value.");
        }
    }
}
