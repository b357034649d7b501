package dev.strata.spark.read;

import dev.strata.spark.config.SessionSettings;
import java.util.List;
import java.util.Map;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;

/**
 * When a scan reads column batches ({@link ShreddedColumnarReader}) instead of assembling records:
 * append tables whose read columns are {@link ColumnarType}s or selected-key maps of them, without
 * a pushed limit. Other splits keep Paimon's row reader (through {@link RowsToColumns}).
 */
final class ColumnarReads {

    private ColumnarReads() {}

    static boolean eligible(
            FileStoreTable table, RowType readType, MapPushdown pushdown, Integer limit) {
        if (!SessionSettings.get(
                SessionSettings.COLUMNAR_READS, "plan the scan of table " + table.fullName())) {
            return false;
        }
        if (!table.primaryKeys().isEmpty()
                || limit != null
                || readType.getFieldCount() == 0
                || pushdown.selectedKeys().isEmpty()) {
            return false;
        }
        Map<String, List<String>> keys = pushdown.selectedKeys();
        for (DataField f : readType.getFields()) {
            if (f.type() instanceof MapType) {
                MapType m = (MapType) f.type();
                if (!keys.containsKey(f.name())
                        || m.getKeyType().getTypeRoot() != DataTypeRoot.VARCHAR
                        || !supportedValue(m.getValueType())) {
                    return false;
                }
            } else if (!supportedValue(f.type())) {
                return false;
            }
        }
        return true;
    }

    static boolean supportedValue(DataType type) {
        return ColumnarType.of(type) != null;
    }
}
