package dev.strata.spark.read;

import dev.strata.shredding.parquet.MapSelection;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.JoinedRow;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.ProjectedRow;

/**
 * A scan's output with map keys as columns ({@link MapPushdown#keyColumnName}): the first {@link
 * #returned} read columns, then one column per key with its first entry's value or NULL, as Spark's
 * {@code m['k']}. A map column read only for its keys is not returned.
 */
final class KeyColumns implements Serializable {

    private static final long serialVersionUID = 1L;

    private final RowType readType;
    private final int returned;
    private final int[] mapOrdinals;
    private final String[] keys;
    private final RowType outputType;

    /** {@code returned}: a prefix of {@code readType}; the arrays are per key column. */
    KeyColumns(RowType readType, int returned, int[] mapOrdinals, String[] keys, String[] names) {
        this.readType = readType;
        this.returned = returned;
        this.mapOrdinals = mapOrdinals.clone();
        this.keys = keys.clone();
        List<DataField> fields = new ArrayList<>(readType.getFields().subList(0, returned));
        int id = readType.getFields().stream().mapToInt(DataField::id).max().orElse(-1);
        for (int c = 0; c < keys.length; c++) {
            DataType value = ((MapType) readType.getTypeAt(mapOrdinals[c])).getValueType();
            fields.add(new DataField(++id, names[c], value.copy(true)));
        }
        this.outputType = new RowType(fields);
    }

    static KeyColumns none(RowType readType) {
        return new KeyColumns(
                readType, readType.getFieldCount(), new int[0], new String[0], new String[0]);
    }

    boolean isNone() {
        return keys.length == 0 && returned == readType.getFieldCount();
    }

    RowType readType() {
        return readType;
    }

    RowType outputType() {
        return outputType;
    }

    int returned() {
        return returned;
    }

    int count() {
        return keys.length;
    }

    int mapOrdinal(int column) {
        return mapOrdinals[column];
    }

    String key(int column) {
        return keys[column];
    }

    /** One per reader. */
    Projector projector() {
        return new Projector();
    }

    /** Reuses its output row: a row it returns is valid until the next call. */
    final class Projector {
        private final ProjectedRow head;
        private final GenericRow values = new GenericRow(keys.length);
        private final JoinedRow joined = new JoinedRow();
        private final BinaryString[] binaryKeys = new BinaryString[keys.length];
        private final InternalArray.ElementGetter[] getters =
                new InternalArray.ElementGetter[keys.length];

        private Projector() {
            int[] prefix = new int[returned];
            for (int i = 0; i < returned; i++) {
                prefix[i] = i;
            }
            head = returned == readType.getFieldCount() ? null : ProjectedRow.from(prefix);
            for (int c = 0; c < keys.length; c++) {
                binaryKeys[c] = BinaryString.fromString(keys[c]);
                getters[c] =
                        InternalArray.createElementGetter(
                                ((MapType) readType.getTypeAt(mapOrdinals[c])).getValueType());
            }
        }

        InternalRow project(InternalRow row) {
            if (isNone()) {
                return row;
            }
            for (int c = 0; c < keys.length; c++) {
                values.setField(c, valueOf(row, c));
            }
            return joined.replace(head == null ? row : head.replaceRow(row), values);
        }

        private Object valueOf(InternalRow row, int c) {
            int ordinal = mapOrdinals[c];
            if (row.isNullAt(ordinal)) {
                return null;
            }
            InternalMap map = row.getMap(ordinal);
            int i = MapSelection.indexOf(map.keyArray(), binaryKeys[c]);
            return i < 0 ? null : getters[c].getElementOrNull(map.valueArray(), i);
        }
    }
}
