package dev.strata.spark.catalog;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A read-only system table of Strata whose rows are computed on the driver from table metadata (no Spark job):
 * {@code t$fulltext} ({@link FullTextSystemTable}) and {@code t$shredding} ({@link ShreddingSystemTable}). The
 * rows are computed when the query is planned, with only the columns the query uses.
 */
final class DriverSystemTable implements SupportsRead {

    /** Computes the rows of a system table; {@code required} are the columns the query reads. */
    interface Rows {
        /** Full rows in the table's schema; columns not in {@code required} may be left null. */
        List<Object[]> compute(Set<String> required);
    }

    private final String name;
    private final StructType schema;
    private final Rows rows;

    DriverSystemTable(String name, StructType schema, Rows rows) {
        this.name = name;
        this.schema = schema;
        this.rows = rows;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new Builder();
    }

    private final class Builder implements ScanBuilder, SupportsPushDownRequiredColumns {
        private StructType required = schema;

        @Override
        public void pruneColumns(StructType requiredSchema) {
            this.required = requiredSchema;
        }

        @Override
        public Scan build() {
            return new RowsScan(required);
        }
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
            return "Strata system table " + name;
        }

        @Override
        public InternalRow[] rows() {
            if (computed == null) {
                int[] positions = new int[readSchema.fields().length];
                int i = 0;
                for (StructField f : readSchema.fields()) {
                    positions[i++] = schema.fieldIndex(f.name());
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
