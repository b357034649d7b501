package dev.strata.spark.catalog;

import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypeFamily;
import org.apache.paimon.types.RowType;

/**
 * Paimon names a partition's directory after the text of its values, and a BINARY value has no
 * stable text (Paimon 1.4 and 2.0 print the byte array's identity): every write would put its files
 * under a new directory that readers never find again. So BINARY partition columns are refused
 * where a table is defined and where it is written.
 */
public final class PartitionTypeCheck implements TableDefinitionCheck {

    @Override
    public void check(String table, TableSchema proposed, TableSchema previous) {
        refuseBinary("define table " + table, proposed.logicalPartitionType());
    }

    /** Throws when a partition column of {@code partitionType} is BINARY or VARBINARY. */
    public static void refuseBinary(String what, RowType partitionType) {
        for (DataField f : partitionType.getFields()) {
            if (f.type().is(DataTypeFamily.BINARY_STRING)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot %s: partition column %s is BINARY, whose values Paimon cannot "
                                        + "name as partition directories (each write would name a new "
                                        + "directory and its rows could not be read back). Partition by "
                                        + "a STRING column instead, for example hex(%s).",
                                what, f.name(), f.name()));
            }
        }
    }
}
