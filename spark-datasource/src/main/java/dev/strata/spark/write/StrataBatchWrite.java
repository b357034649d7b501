package dev.strata.spark.write;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * A job's write: the driver commits all task messages in one commit through {@link PaimonCommits}.
 * Tasks record their messages in the pending directory first, so an abort also deletes files of
 * tasks whose messages Spark dropped (the {@code null} slots).
 */
final class StrataBatchWrite implements DeltaBatchWrite {

    private final String tableName;
    private final FileStoreTable table;
    private final WriteMode mode;
    private final BatchWriteBuilder builder;
    private final PaimonCommits.Commit commit;
    private final List<String> rowIdColumns;

    StrataBatchWrite(
            String tableName,
            FileStoreTable table,
            LogicalWriteInfo info,
            WriteMode mode,
            List<String> rowIdColumns) {
        this.tableName = tableName;
        this.rowIdColumns = rowIdColumns;
        Map<String, String> dynamic = new HashMap<>();
        if (mode.overwrite()) {
            dynamic.put(
                    CoreOptions.DYNAMIC_PARTITION_OVERWRITE.key(),
                    Boolean.toString(mode.dynamic()));
        }
        this.table = dynamic.isEmpty() ? table : table.copy(dynamic);
        this.mode = mode;
        BatchWriteBuilder b = this.table.newBatchWriteBuilder();
        this.builder = mode.overwrite() ? b.withOverwrite(mode.staticPartition()) : b;
        this.commit =
                PaimonCommits.prepare(
                        this.table,
                        mode.overwrite() ? mode.staticPartition() : null,
                        mode.rowLevel()
                                ? String.format("the %s statement on %s", mode, tableName)
                                : String.format("the write (%s) to %s", mode, tableName));
    }

    @Override
    public StrataDataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        return new StrataDataWriterFactory(
                tableName, table, builder, mode.overwrite(), rowIdColumns, commit.pending());
    }

    @Override
    public void commit(WriterCommitMessage[] messages) {
        List<CommitMessage> all = StrataCommitMessage.flatten(messages);
        commit.commit(all);
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        List<CommitMessage> all = StrataCommitMessage.flatten(messages);
        try {
            commit.abort(all);
        } catch (Exception e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot clean up the aborted write to %s: %s. Files of the aborted job may remain; "
                                    + "Paimon's remove_orphan_files removes them.",
                            tableName, e.getMessage()),
                    e);
        }
    }
}
