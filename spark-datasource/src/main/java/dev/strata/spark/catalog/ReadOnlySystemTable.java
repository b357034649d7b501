package dev.strata.spark.catalog;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** Base of read-only system tables; subclasses differ only in how {@link #scan} produces rows. */
abstract class ReadOnlySystemTable implements SupportsRead {

    private final String name;
    private final StructType schema;

    ReadOnlySystemTable(String name, StructType schema) {
        this.name = name;
        this.schema = schema;
    }

    /** {@code required} is a subset of {@link #schema()}, in its order. */
    abstract Scan scan(StructType required);

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final StructType schema() {
        return schema;
    }

    @Override
    public final Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public final ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
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
            return scan(required);
        }
    }
}
