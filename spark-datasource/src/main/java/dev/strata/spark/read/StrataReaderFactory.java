package dev.strata.spark.read;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Opens a Paimon reader for a split on an executor. */
final class StrataReaderFactory implements PartitionReaderFactory {

    private static final long serialVersionUID = 1L;

    private final String tableName;
    private final ReadBuilder readBuilder;
    private final RowType readType;

    StrataReaderFactory(String tableName, ReadBuilder readBuilder, RowType readType) {
        this.tableName = tableName;
        this.readBuilder = readBuilder;
        this.readType = readType;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        StrataInputPartition input = (StrataInputPartition) partition;
        try {
            return new StrataRowReader(readBuilder.newRead().createReader(input.split()), readType);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open split of " + tableName + ": " + e.getMessage(), e);
        }
    }
}
