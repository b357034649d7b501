package dev.strata.spark.read;

import dev.strata.shredding.pushdown.MapPredicate;
import java.util.List;
import java.util.Map;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * The child JVM of {@link BoundedMemoryReadTest}: reads {@code id} and {@code m[key]} of one
 * shredded file through the Spark columnar reader into 4096-row vectors, optionally with {@code
 * m[key] > threshold} pushed as the row filter, and prints {@code rows present sumOfValues
 * sumOfIds}.
 */
final class LargeRowGroupRead {

    private LargeRowGroupRead() {}

    public static void main(String[] args) throws Exception {
        String path = args[0];
        String key = args[1];
        MapPredicate predicate =
                args.length > 2
                        ? MapPredicate.leaf(
                                "m", key, MapPredicate.Op.GT, Double.parseDouble(args[2]))
                        : null;
        RowType readType =
                RowType.of(
                        new org.apache.paimon.types.DataType[] {
                            DataTypes.BIGINT(),
                            DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE())
                        },
                        new String[] {"id", "m"});
        LocalFileIO io = LocalFileIO.create();
        long size = io.getFileSize(new org.apache.paimon.fs.Path(path));
        int capacity = 4096;
        WritableColumnVector[] vectors =
                OnHeapColumnVector.allocateColumns(
                        capacity, dev.strata.spark.data.SparkTypes.toSpark(readType));
        long rows = 0;
        long present = 0;
        double sum = 0;
        long ids = 0;
        try (ShreddedFileColumns columns =
                new ShreddedFileColumns(
                        io,
                        path,
                        size,
                        KeyColumns.none(readType),
                        Map.of("m", List.of(key)),
                        predicate,
                        true)) {
            if (!columns.readable()) {
                throw new IllegalStateException(
                        "file " + path + " is not readable by the columnar path");
            }
            int n;
            while (true) {
                for (WritableColumnVector v : vectors) {
                    v.reset();
                }
                n = columns.read(vectors, 0, capacity);
                if (n == 0) {
                    break;
                }
                for (int r = 0; r < n; r++) {
                    rows++;
                    ids += vectors[0].getLong(r);
                    if (!vectors[1].isNullAt(r) && vectors[1].getMap(r).numElements() == 1) {
                        present++;
                        sum += vectors[1].getMap(r).valueArray().getDouble(0);
                    }
                }
            }
        }
        System.out.println(rows + " " + present + " " + sum + " " + ids);
    }
}
