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
 * When a Strata scan reads column batches instead of rows. The benchmark of issue 4 showed the row
 * path spending almost all its time assembling records (parquet-mr's record API) for every row,
 * although only a few sub-columns of the shredded map are read; the columnar path decodes the
 * selected keys' sub-columns column by column into Spark vectors ({@link ShreddedColumnarReader}).
 *
 * <p>Used for append tables whose read columns are all BIGINT, INT, DOUBLE or STRING, or
 * shared-shredding maps of such values read with selected keys (every use is a {@code m['k']}
 * lookup), without a pushed limit. Everything else, and every split that is not a plain list of
 * current-schema shredded files without deletion vectors, keeps Paimon's row reader (split-wise
 * through {@link RowsToColumns}). {@code spark.sql.strata.columnarReads.enabled} = false turns the
 * columnar path off.
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
        switch (type.getTypeRoot()) {
            case BIGINT:
            case INTEGER:
            case DOUBLE:
            case VARCHAR:
                return true;
            default:
                return false;
        }
    }
}
