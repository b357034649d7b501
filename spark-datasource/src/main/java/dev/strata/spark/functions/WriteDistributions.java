package dev.strata.spark.functions;

import dev.strata.spark.data.ColumnReferences;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;

/** The input distribution a write into a Paimon table needs. */
public final class WriteDistributions {

    private WriteDistributions() {}

    /**
     * Fixed-bucket tables: clustered by partition columns and {@code paimon_bucket}, so each
     * (partition, bucket) lands in one task. Tables without buckets accept rows anywhere.
     */
    public static Distribution forTable(FileStoreTable table) {
        CoreOptions options = table.coreOptions();
        int buckets = options.bucket();
        if (buckets <= 0) {
            return Distributions.unspecified();
        }
        List<Expression> clustering = new ArrayList<>();
        for (String partitionKey : table.partitionKeys()) {
            clustering.add(Expressions.identity(ColumnReferences.quoted(partitionKey)));
        }
        RowType bucketKeyType = table.rowType().project(table.schema().bucketKeys());
        clustering.add(
                PaimonBucketFunction.transform(
                        buckets, options.bucketFunctionType(), bucketKeyType));
        return Distributions.clustered(clustering.toArray(new Expression[0]));
    }
}
