package dev.strata.spark.read;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A {@code count(*)} of an exact text match that the indexes answered on the driver (the matching
 * row positions of every file the scan reads, deletion vectors applied): one row, no Spark job,
 * nothing read.
 */
final class TextMatchCount implements LocalScan {

    private final String tableName;
    private final TextMatchPushdown textMatch;
    private final int counts;
    private final long count;

    /**
     * @param counts how many {@code count(*)} columns the row has (Spark pushes each aggregate
     *     once)
     */
    TextMatchCount(String tableName, TextMatchPushdown textMatch, int counts, long count) {
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
                + " [PushedTextMatch: "
                + textMatch.describe()
                + ", PushedAggregates: [COUNT(*)], Rows: "
                + count
                + "]";
    }
}
