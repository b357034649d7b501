package dev.strata.spark;

import dev.strata.testing.rows.TypedRowGenerator;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/** Turns {@link TypedRowGenerator} rows into a Spark DataFrame. */
final class TypedRows {

    private TypedRows() {}

    static StructType schema() {
        return StructType.fromDDL(TypedRowGenerator.COLUMNS_DDL);
    }

    static Dataset<Row> dataFrame(SparkSession spark, List<Object[]> rows) {
        List<Row> out = new ArrayList<>(rows.size());
        for (Object[] values : rows) {
            Object[] cells = values.clone();
            int st = TypedRowGenerator.COLUMNS.indexOf("st");
            if (cells[st] != null) {
                cells[st] = RowFactory.create((Object[]) cells[st]);
            }
            out.add(RowFactory.create(cells));
        }
        return spark.createDataFrame(out, schema());
    }
}
