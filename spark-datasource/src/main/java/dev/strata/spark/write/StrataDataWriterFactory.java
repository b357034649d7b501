package dev.strata.spark.write;

import dev.strata.spark.data.SparkToPaimon;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;

/** Ships the job's Paimon write builder to executors and opens one writer per task. */
final class StrataDataWriterFactory implements DataWriterFactory {

    private static final long serialVersionUID = 1L;

    private final String tableName;
    private final FileStoreTable table;
    private final BatchWriteBuilder builder;

    StrataDataWriterFactory(String tableName, FileStoreTable table, BatchWriteBuilder builder) {
        this.tableName = tableName;
        this.table = table;
        this.builder = builder;
    }

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
        return new StrataDataWriter(tableName, PaimonTaskWriter.open(table, builder), SparkToPaimon.forRowType(table.rowType()));
    }
}
