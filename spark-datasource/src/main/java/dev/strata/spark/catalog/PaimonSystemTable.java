package dev.strata.spark.catalog;

import dev.strata.spark.data.PaimonToSpark;
import dev.strata.spark.data.SparkTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A Paimon system table ({@code t$snapshots}, ...) as a read-only Spark table, read by Paimon's own
 * {@link ReadBuilder}, one task per split.
 */
public final class PaimonSystemTable extends ReadOnlySystemTable {

    private final Table table;

    public PaimonSystemTable(String name, Table table) {
        super(name, SparkTypes.toSpark(table.rowType()));
        this.table = table;
    }

    @Override
    Scan scan(StructType required) {
        List<String> names = table.rowType().getFieldNames();
        int[] projection = new int[required.fields().length];
        int i = 0;
        for (StructField f : required.fields()) {
            projection[i++] = names.indexOf(f.name());
        }
        return new SystemScan(
                name(),
                table.newReadBuilder().withProjection(projection),
                table.rowType().project(projection),
                required);
    }

    private static final class SystemScan implements Scan, Batch {
        private final String name;
        private final ReadBuilder readBuilder;
        private final RowType readType;
        private final StructType readSchema;

        SystemScan(String name, ReadBuilder readBuilder, RowType readType, StructType readSchema) {
            this.name = name;
            this.readBuilder = readBuilder;
            this.readType = readType;
            this.readSchema = readSchema;
        }

        @Override
        public StructType readSchema() {
            return readSchema;
        }

        @Override
        public String description() {
            return "Paimon system table " + name;
        }

        @Override
        public Batch toBatch() {
            return this;
        }

        @Override
        public InputPartition[] planInputPartitions() {
            List<Split> splits = readBuilder.newScan().plan().splits();
            InputPartition[] parts = new InputPartition[splits.size()];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = new SplitPartition(splits.get(i));
            }
            return parts;
        }

        @Override
        public PartitionReaderFactory createReaderFactory() {
            return new Readers(name, readBuilder, readType);
        }
    }

    private static final class SplitPartition implements InputPartition {
        private static final long serialVersionUID = 1L;
        final Split split;

        SplitPartition(Split split) {
            this.split = split;
        }
    }

    private static final class Readers implements PartitionReaderFactory {
        private static final long serialVersionUID = 1L;
        private final String name;
        private final ReadBuilder readBuilder;
        private final RowType readType;

        Readers(String name, ReadBuilder readBuilder, RowType readType) {
            this.name = name;
            this.readBuilder = readBuilder;
            this.readType = readType;
        }

        @Override
        public PartitionReader<org.apache.spark.sql.catalyst.InternalRow> createReader(
                InputPartition partition) {
            PaimonToSpark converter = PaimonToSpark.forRowType(readType);
            RecordReader<InternalRow> reader;
            try {
                reader = readBuilder.newRead().createReader(((SplitPartition) partition).split);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot read system table " + name + ": " + e.getMessage(), e);
            }
            // audit_log and friends are not metadata-sized: read batch by batch.
            return new PartitionReader<>() {
                private RecordReader.RecordIterator<InternalRow> batch;
                private org.apache.spark.sql.catalyst.InternalRow current;

                @Override
                public boolean next() throws IOException {
                    while (true) {
                        if (batch == null) {
                            batch = reader.readBatch();
                            if (batch == null) {
                                return false;
                            }
                        }
                        InternalRow row = batch.next();
                        if (row != null) {
                            current = converter.convert(row);
                            return true;
                        }
                        batch.releaseBatch();
                        batch = null;
                    }
                }

                @Override
                public org.apache.spark.sql.catalyst.InternalRow get() {
                    return current;
                }

                @Override
                public void close() throws IOException {
                    if (batch != null) {
                        batch.releaseBatch();
                    }
                    reader.close();
                }
            };
        }
    }
}
