package dev.strata.spark.functions;

import dev.strata.spark.data.ColumnReferences;
import java.io.Serializable;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.JsonSerdeUtil;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.functions.BoundFunction;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code paimon_bucket(numBuckets, bucketFunctionType, bucketKeyTypeJson, key1, key2, ...)}: the
 * bucket Paimon's writer assigns. Writes are clustered by (partition, this), so each bucket is
 * written by exactly one task, as Paimon's primary-key merge requires. Key types are passed as JSON
 * since Spark types lack details (e.g. timestamp precision) that change the {@code BinaryRow}
 * layout.
 */
final class PaimonBucketFunction implements UnboundFunction {

    static final String NAME = "paimon_bucket";

    static Transform transform(
            int numBuckets, CoreOptions.BucketFunctionType type, RowType bucketKeyType) {
        Expression[] args = new Expression[3 + bucketKeyType.getFieldCount()];
        args[0] = Expressions.literal(numBuckets);
        args[1] = Expressions.literal(type.name());
        args[2] = Expressions.literal(JsonSerdeUtil.toJson(bucketKeyType));
        for (int i = 0; i < bucketKeyType.getFieldCount(); i++) {
            NamedReference ref =
                    Expressions.column(
                            ColumnReferences.quoted(bucketKeyType.getFieldNames().get(i)));
            args[3 + i] = ref;
        }
        return Expressions.apply(NAME, args);
    }

    @Override
    public BoundFunction bind(StructType inputType) {
        StructField[] fields = inputType.fields();
        if (fields.length < 4
                || !fields[0].dataType().equals(DataTypes.IntegerType)
                || !fields[1].dataType().equals(DataTypes.StringType)
                || !fields[2].dataType().equals(DataTypes.StringType)) {
            throw new UnsupportedOperationException(
                    "Cannot bind "
                            + NAME
                            + " to "
                            + inputType.simpleString()
                            + ": expected (int numBuckets, "
                            + "string bucketFunctionType, string bucketKeyTypeJson, key columns...).");
        }
        return new Bound(inputType);
    }

    @Override
    public String description() {
        return NAME
                + "(numBuckets, bucketFunctionType, bucketKeyTypeJson, keys...): Paimon's fixed bucket of a row";
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Its Paimon state is built from the first row's constant arguments. */
    static final class Bound implements ScalarFunction<Integer>, Serializable {

        private static final long serialVersionUID = 1L;

        private final StructType inputType;
        private transient State state;

        Bound(StructType inputType) {
            this.inputType = inputType;
        }

        @Override
        public DataType[] inputTypes() {
            StructField[] fields = inputType.fields();
            DataType[] types = new DataType[fields.length];
            for (int i = 0; i < fields.length; i++) {
                types[i] = fields[i].dataType();
            }
            return types;
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
            return "strata." + NAME + "(" + inputType.simpleString() + ")";
        }

        @Override
        public Integer produceResult(InternalRow input) {
            State s = state;
            String typeJson = input.getUTF8String(2).toString();
            if (s == null || !s.typeJson.equals(typeJson)) {
                DataType[] types = inputTypes();
                s =
                        new State(
                                input.getUTF8String(1).toString(),
                                typeJson,
                                java.util.Arrays.copyOfRange(types, 3, types.length));
                state = s;
            }
            return s.buckets.bucket(input, 3, s.keyTypes, input.getInt(0));
        }
    }

    private static final class State {
        final String typeJson;
        final PaimonBuckets buckets;
        final DataType[] keyTypes;

        State(String functionType, String typeJson, DataType[] keyTypes) {
            this.typeJson = typeJson;
            this.keyTypes = keyTypes;
            this.buckets =
                    new PaimonBuckets(
                            CoreOptions.BucketFunctionType.valueOf(functionType),
                            JsonSerdeUtil.fromJson(typeJson, RowType.class));
        }
    }
}
