package dev.strata.spark.read;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A {@code count(*)} answered on the driver without reading: one row, no Spark job (the operators
 * above it are evaluated on the driver too, by the catalyst rules' driver strategy).
 */
public final class PushedCount implements LocalScan {

    private final String tableName;
    private final TextMatchPushdown textMatch;
    private final int counts;
    private final long count;

    /** {@code textMatch} null: split row counts; {@code counts}: {@code count(*)} columns. */
    PushedCount(String tableName, TextMatchPushdown textMatch, int counts, long count) {
        this.tableName = tableName;
        this.textMatch = textMatch;
        this.counts = counts;
        this.count = count;
    }

    @Override
    public InternalRow[] rows() {
        Object[] values = new Object[counts];
        java.util.Arrays.fill(values, count);
        return new InternalRow[] {new GenericInternalRow(values)};
    }

    @Override
    public StructType readSchema() {
        StructField[] fields = new StructField[counts];
        for (int i = 0; i < counts; i++) {
            fields[i] =
                    DataTypes.createStructField(
                            "count(*)" + (i == 0 ? "" : "_" + i), DataTypes.LongType, false);
        }
        return DataTypes.createStructType(fields);
    }

    @Override
    public String description() {
        return tableName
                + " ["
                + (textMatch == null ? "" : "PushedTextMatch: " + textMatch.describe() + ", ")
                + "PushedAggregates: [COUNT(*)], Rows: "
                + count
                + "]";
    }
}
