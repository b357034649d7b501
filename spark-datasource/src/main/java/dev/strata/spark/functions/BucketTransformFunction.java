package dev.strata.spark.functions;

import dev.strata.spark.data.SparkTypes;
import java.io.Serializable;
import java.util.EnumSet;
import java.util.Set;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.functions.BoundFunction;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code bucket(numBuckets, key)}: Paimon's default bucket of a one-column key, for
 * storage-partitioned joins. Spark binds it with the Spark type, so only key types whose Paimon
 * layout that type decides are served ({@link #supports}).
 */
public final class BucketTransformFunction implements UnboundFunction {

    public static final String NAME = "bucket";

    private static final Set<DataTypeRoot> LAYOUT_FROM_SPARK_TYPE =
            EnumSet.of(
                    DataTypeRoot.BOOLEAN,
                    DataTypeRoot.TINYINT,
                    DataTypeRoot.SMALLINT,
                    DataTypeRoot.INTEGER,
                    DataTypeRoot.BIGINT,
                    DataTypeRoot.FLOAT,
                    DataTypeRoot.DOUBLE,
                    DataTypeRoot.DATE,
                    DataTypeRoot.DECIMAL,
                    DataTypeRoot.CHAR,
                    DataTypeRoot.VARCHAR,
                    DataTypeRoot.BINARY,
                    DataTypeRoot.VARBINARY);

    /** Spark's timestamps carry microseconds: Paimon's layout for precision 6. */
    private static final int SPARK_TIMESTAMP_PRECISION = 6;

    /** Hashes the same when rebuilt from its Spark type (TIMESTAMP(3) would not). */
    public static boolean supports(org.apache.paimon.types.DataType type) {
        if (type instanceof TimestampType) {
            return ((TimestampType) type).getPrecision() == SPARK_TIMESTAMP_PRECISION;
        }
        if (type instanceof LocalZonedTimestampType) {
            return ((LocalZonedTimestampType) type).getPrecision() == SPARK_TIMESTAMP_PRECISION;
        }
        return LAYOUT_FROM_SPARK_TYPE.contains(type.getTypeRoot());
    }

    @Override
    public BoundFunction bind(StructType inputType) {
        StructField[] fields = inputType.fields();
        if (fields.length != 2 || !fields[0].dataType().equals(DataTypes.IntegerType)) {
            throw new UnsupportedOperationException(
                    "Cannot bind "
                            + NAME
                            + " to "
                            + inputType.simpleString()
                            + ": expected (int numBuckets, one key column).");
        }
        return new Bound(fields[1].dataType());
    }

    @Override
    public String description() {
        return NAME + "(numBuckets, key): Paimon's default fixed bucket of a one-column key";
    }

    @Override
    public String name() {
        return NAME;
    }

    private static final class Bound implements ScalarFunction<Integer>, Serializable {

        private static final long serialVersionUID = 1L;

        private final DataType keyType;
        private transient PaimonBuckets buckets;
        private transient DataType[] keyTypes;

        Bound(DataType keyType) {
            this.keyType = keyType;
        }

        @Override
        public DataType[] inputTypes() {
            return new DataType[] {DataTypes.IntegerType, keyType};
        }

        @Override
        public DataType resultType() {
            return DataTypes.IntegerType;
        }

        @Override
        public boolean isResultNullable() {
            return false;
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public String canonicalName() {
            return "strata.bucket(int, " + keyType.catalogString() + ")";
        }

        @Override
        public Integer produceResult(InternalRow input) {
            if (buckets == null) {
                keyTypes = new DataType[] {keyType};
                buckets =
                        new PaimonBuckets(
                                CoreOptions.BucketFunctionType.DEFAULT,
                                RowType.of(
                                        new DataField(
                                                0,
                                                "key",
                                                SparkTypes.toPaimon(NAME, "key", keyType, null))));
            }
            return buckets.bucket(input, 1, keyTypes, input.getInt(0));
        }
    }
}
