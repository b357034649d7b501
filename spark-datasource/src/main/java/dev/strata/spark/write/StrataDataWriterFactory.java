package dev.strata.spark.write;

import dev.strata.spark.data.SparkToPaimon;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;

/** Ships the job's Paimon write builder to executors and opens one writer per task. */
final class StrataDataWriterFactory implements DataWriterFactory {

    private static final long serialVersionUID = 1L;

    private final String tableName;
    private final BatchWriteBuilder builder;
    private final RowType rowType;

    StrataDataWriterFactory(String tableName, BatchWriteBuilder builder, RowType rowType) {
        this.tableName = tableName;
        this.builder = builder;
        this.rowType = rowType;
    }

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
        return new StrataDataWriter(tableName, PaimonTaskWriter.open(builder), SparkToPaimon.forRowType(rowType));
    }
}
