package dev.strata.spark.write;

import dev.strata.spark.data.SparkToPaimon;
import java.util.List;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;

/** Ships the job's Paimon write builder to executors and opens one writer per task. */
final class StrataDataWriterFactory implements DeltaWriterFactory {

    private static final long serialVersionUID = 1L;

    private final String tableName;
    private final FileStoreTable table;
    private final BatchWriteBuilder builder;
    private final List<String> rowIdColumns;
    private final PendingMessages pending;
    private final boolean overwrite;

    StrataDataWriterFactory(
            String tableName,
            FileStoreTable table,
            BatchWriteBuilder builder,
            boolean overwrite,
            List<String> rowIdColumns,
            PendingMessages pending) {
        this.tableName = tableName;
        this.table = table;
        this.builder = builder;
        this.overwrite = overwrite;
        this.rowIdColumns = rowIdColumns;
        this.pending = pending;
    }

    @Override
    public DeltaWriter<InternalRow> createWriter(int partitionId, long taskId) {
        KeyRows keys =
                rowIdColumns.isEmpty()
                        ? null
                        : new KeyRows(tableName, table.rowType(), rowIdColumns);
        return new StrataDataWriter(
                tableName,
                table,
                PaimonTaskWriter.open(table, builder, overwrite),
                SparkToPaimon.forRowType(table.rowType()),
                keys,
                pending,
                partitionId + "-" + taskId);
    }
}
