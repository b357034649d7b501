package dev.strata.spark.catalog;

import java.util.List;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A read-only system table of Strata whose rows are computed on the driver from table metadata (no
 * Spark job): {@code t$fulltext} ({@link FullTextSystemTable}) and {@code t$shredding} ({@link
 * ShreddingSystemTable}). The rows are computed when the query is planned, with only the columns
 * the query uses.
 */
final class DriverSystemTable extends ReadOnlySystemTable {

    /** Computes the rows of a system table; {@code required} are the columns the query reads. */
    interface Rows {
        /** Full rows in the table's schema; columns not in {@code required} may be left null. */
        List<Object[]> compute(Set<String> required);
    }

    private final Rows rows;

    DriverSystemTable(String name, StructType schema, Rows rows) {
        super(name, schema);
        this.rows = rows;
    }

    @Override
    Scan scan(StructType required) {
        return new RowsScan(required);
    }

    private final class RowsScan implements LocalScan {
        private final StructType readSchema;
        private InternalRow[] computed;

        RowsScan(StructType readSchema) {
            this.readSchema = readSchema;
        }

        @Override
        public StructType readSchema() {
            return readSchema;
        }

        @Override
        public String description() {
            return "Strata system table " + name();
        }

        @Override
        public InternalRow[] rows() {
            if (computed == null) {
                int[] positions = new int[readSchema.fields().length];
                int i = 0;
                for (StructField f : readSchema.fields()) {
                    positions[i++] = schema().fieldIndex(f.name());
                }
                List<Object[]> full = rows.compute(Set.of(readSchema.fieldNames()));
                InternalRow[] out = new InternalRow[full.size()];
                for (int r = 0; r < out.length; r++) {
                    Object[] values = new Object[positions.length];
                    for (int c = 0; c < positions.length; c++) {
                        values[c] = full.get(r)[positions[c]];
                    }
                    out[r] = new GenericInternalRow(values);
                }
                computed = out;
            }
            return computed;
        }
    }
}
