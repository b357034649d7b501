package dev.strata.spark.functions;

import dev.strata.spark.data.SparkToPaimon;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.bucket.BucketFunction;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;

/**
 * Paimon's fixed bucket of a key, exactly as Paimon's writer computes it; shared by {@code
 * paimon_bucket}, {@code bucket} and the driver's key lookups.
 */
public final class PaimonBuckets {

    private final RowType keyType;
    private final InternalRowSerializer serializer;
    private final BucketFunction function;

    public PaimonBuckets(CoreOptions.BucketFunctionType type, RowType keyType) {
        this.keyType = keyType;
        this.serializer = new InternalRowSerializer(keyType);
        this.function = BucketFunction.create(type, keyType);
    }

    /** The key is in the columns of {@code input} from {@code first} on. */
    int bucket(InternalRow input, int first, DataType[] sparkTypes, int numBuckets) {
        int count = keyType.getFieldCount();
        GenericRow key = new GenericRow(count);
        for (int i = 0; i < count; i++) {
            Object value = input.isNullAt(first + i) ? null : input.get(first + i, sparkTypes[i]);
            key.setField(i, SparkToPaimon.value(value, keyType.getTypeAt(i)));
        }
        return bucket(key, numBuckets);
    }

    /** The bucket of a key given as Paimon's internal values; safe to call from any thread. */
    public int bucket(GenericRow key, int numBuckets) {
        BinaryRow binary;
        // The serializer writes into one reused row: the driver's lookups call from several
        // threads, and a shared row gave keys another key's bucket (rows silently not found).
        synchronized (serializer) {
            binary = serializer.toBinaryRow(key).copy();
        }
        return function.bucket(binary, numBuckets);
    }
}
