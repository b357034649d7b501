package dev.strata.spark.functions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.TestSeeds;
import java.nio.file.Path;
import java.util.Random;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.JsonSerdeUtil;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paimon_bucket} must agree with the bucket Paimon's own writer assigns, or writers would
 * collide.
 */
class PaimonBucketFunctionTest {

    @Test
    void agreesWithPaimonsWriterForCompositeKeysOfSeveralTypes(@TempDir Path dir) throws Exception {
        Options options = new Options();
        options.set("warehouse", dir.toUri().toString());
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            catalog.createDatabase("db", true);
            for (String functionType : new String[] {"default", "mod"}) {
                boolean mod = functionType.equals("mod");
                Schema.Builder schema =
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT())
                                .column("name", DataTypes.STRING())
                                .column("ts", DataTypes.TIMESTAMP(3))
                                .column("v", DataTypes.DOUBLE())
                                .option("bucket", "7")
                                .option("bucket-function.type", functionType);
                schema =
                        mod
                                ? schema.primaryKey("id").option("bucket-key", "id")
                                : schema.primaryKey("id", "name", "ts");
                Identifier id = Identifier.create("db", "t_" + functionType);
                catalog.createTable(id, schema.build(), false);
                FileStoreTable table = (FileStoreTable) catalog.getTable(id);
                check(table);
            }
        }
    }

    /**
     * {@code bucket(N, key)}, the function behind a scan's reported bucketing, bound with the key's
     * Spark type as Spark binds it, agrees with Paimon's writer for one-column keys of the types it
     * serves, and refuses to serve a TIMESTAMP(3) key (its layout is not TIMESTAMP(6)'s).
     */
    @Test
    void theBucketTransformAgreesWithPaimonsWriterForOneColumnKeys(@TempDir Path dir)
            throws Exception {
        Random random = new Random(TestSeeds.seed("bucket transform"));
        org.apache.paimon.types.DataType[] types = {
            DataTypes.INT(),
            DataTypes.BIGINT(),
            DataTypes.STRING(),
            DataTypes.DECIMAL(20, 4),
            DataTypes.DATE(),
            DataTypes.TIMESTAMP(6),
            DataTypes.DOUBLE()
        };
        assertThat(BucketTransformFunction.supports(DataTypes.TIMESTAMP(3))).isFalse();
        Options options = new Options();
        options.set("warehouse", dir.toUri().toString());
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            catalog.createDatabase("db", true);
            for (int t = 0; t < types.length; t++) {
                org.apache.paimon.types.DataType type = types[t];
                assertThat(BucketTransformFunction.supports(type)).as(type.toString()).isTrue();
                Identifier id = Identifier.create("db", "k" + t);
                catalog.createTable(
                        id,
                        Schema.newBuilder()
                                .column("k", type.copy(false))
                                .column("v", DataTypes.INT())
                                .primaryKey("k")
                                .option("bucket", "7")
                                .build(),
                        false);
                FileStoreTable table = (FileStoreTable) catalog.getTable(id);
                org.apache.spark.sql.types.DataType sparkType =
                        dev.strata.spark.data.SparkTypes.toSpark("k", type);
                org.apache.spark.sql.connector.catalog.functions.ScalarFunction<Integer> bound =
                        (org.apache.spark.sql.connector.catalog.functions.ScalarFunction<Integer>)
                                new BucketTransformFunction()
                                        .bind(new StructType().add("n", "int").add("k", sparkType));
                try (BatchTableWrite write = table.newBatchWriteBuilder().newWrite()) {
                    for (int i = 0; i < 500; i++) {
                        Object paimon = value(type, random);
                        Object spark =
                                dev.strata.spark.data.PaimonToSpark.value(
                                        GenericRow.of(paimon), 0, type);
                        assertThat(
                                        bound.produceResult(
                                                new GenericInternalRow(new Object[] {7, spark})))
                                .as("%s key %s", type, paimon)
                                .isEqualTo(write.getBucket(GenericRow.of(paimon, 1)));
                    }
                }
            }
        }
    }

    private static Object value(org.apache.paimon.types.DataType type, Random random) {
        switch (type.getTypeRoot()) {
            case INTEGER:
                return random.nextInt();
            case BIGINT:
                return random.nextLong();
            case VARCHAR:
                return BinaryString.fromString("s" + random.nextInt(100_000));
            case DECIMAL:
                return org.apache.paimon.data.Decimal.fromBigDecimal(
                        java.math.BigDecimal.valueOf(random.nextInt(), 4), 20, 4);
            case DATE:
                return random.nextInt(40_000);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return Timestamp.fromMicros(1_700_000_000_000_000L + random.nextInt());
            case DOUBLE:
                return random.nextDouble();
            default:
                throw new IllegalArgumentException(type.toString());
        }
    }

    private static void check(FileStoreTable table) throws Exception {
        long seed = TestSeeds.seed("paimon_bucket " + table.name());
        Random random = new Random(seed);
        CoreOptions options = table.coreOptions();
        RowType keyType = table.rowType().project(table.schema().bucketKeys());
        StructType sparkInput =
                new StructType().add("n", "int").add("f", "string").add("t", "string");
        for (String field : keyType.getFieldNames()) {
            sparkInput =
                    sparkInput.add(
                            field,
                            dev.strata.spark.data.SparkTypes.toSpark(
                                    field, keyType.getField(field).type()));
        }
        PaimonBucketFunction.Bound bound =
                (PaimonBucketFunction.Bound) new PaimonBucketFunction().bind(sparkInput);
        try (BatchTableWrite write = table.newBatchWriteBuilder().newWrite()) {
            for (int i = 0; i < 2000; i++) {
                long idValue = random.nextLong();
                String name = "n" + random.nextInt(500);
                long millis = 1_700_000_000_000L + random.nextInt(1_000_000_000);
                GenericRow row =
                        GenericRow.of(
                                idValue,
                                BinaryString.fromString(name),
                                Timestamp.fromEpochMillis(millis),
                                random.nextDouble());
                Object[] args = new Object[3 + keyType.getFieldCount()];
                args[0] = options.bucket();
                args[1] = UTF8String.fromString(options.bucketFunctionType().name());
                args[2] = UTF8String.fromString(JsonSerdeUtil.toJson(keyType));
                for (int k = 0; k < keyType.getFieldCount(); k++) {
                    String field = keyType.getFieldNames().get(k);
                    args[3 + k] =
                            field.equals("id")
                                    ? (Object) idValue
                                    : field.equals("name")
                                            ? UTF8String.fromString(name)
                                            : (Object) (millis * 1000);
                }
                assertThat(bound.produceResult(new GenericInternalRow(args)))
                        .as(
                                "%s row %d (%s)",
                                table.name(), i, TestSeeds.describe("paimon_bucket", seed))
                        .isEqualTo(write.getBucket(row));
            }
        }
    }
}
