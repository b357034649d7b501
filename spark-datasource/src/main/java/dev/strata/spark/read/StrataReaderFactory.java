package dev.strata.spark.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.Map;

import dev.strata.shredding.ShreddedReadMetrics;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Opens a Paimon reader for a split on an executor, configured for the split's {@link SplitReadMode}. */
final class StrataReaderFactory implements PartitionReaderFactory {

    private static final long serialVersionUID = 1L;

    private final String tableName;
    private final EnumMap<SplitReadMode, ReadBuilder> readers;
    private final RowType readType;

    StrataReaderFactory(String tableName, Map<SplitReadMode, ReadBuilder> readers, RowType readType) {
        this.tableName = tableName;
        this.readers = new EnumMap<>(readers);
        this.readType = readType;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        StrataInputPartition input = (StrataInputPartition) partition;
        ReadBuilder builder = readers.get(input.mode());
        if (builder == null) {
            throw new IllegalStateException("Cannot open split of " + tableName + ": no reader was prepared for mode "
                    + input.mode() + " (prepared: " + readers.keySet() + "). This is a bug in the Strata scan.");
        }
        // Counters of the shredded reader are thread-local: collect from here (the task thread) until close.
        ShreddedReadMetrics.Scope metrics = ShreddedReadMetrics.collect();
        try {
            return new StrataRowReader(builder.newRead().createReader(input.split()), readType, metrics);
        } catch (IOException e) {
            metrics.close();
            throw new UncheckedIOException("Cannot open split of " + tableName + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
    }
}
