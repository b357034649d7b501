package dev.strata.spark.write;

import dev.strata.spark.data.SparkToPaimon;
import java.io.IOException;
import java.util.List;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.types.RowKind;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** Writes one task's rows through Paimon as {@code +I}, {@code -D} and {@code +U} rows. */
final class StrataDataWriter implements DeltaWriter<InternalRow> {

    private final String tableName;
    private final FileStoreTable table;
    private final PaimonTaskWriter writer;
    private final SparkToPaimon converter;
    private final KeyRows keys;
    private final PendingMessages pending;
    private final String attempt;

    /** {@code keys} is null for INSERT; {@code attempt} is unique within the job. */
    StrataDataWriter(
            String tableName,
            FileStoreTable table,
            PaimonTaskWriter writer,
            SparkToPaimon converter,
            KeyRows keys,
            PendingMessages pending,
            String attempt) {
        this.tableName = tableName;
        this.table = table;
        this.writer = writer;
        this.converter = converter;
        this.keys = keys;
        this.pending = pending;
        this.attempt = attempt;
    }

    @Override
    public void insert(InternalRow row) throws IOException {
        write(converter.convert(row));
    }

    @Override
    public void delete(InternalRow metadata, InternalRow id) throws IOException {
        write(rowLevelKeys().deleteRow(id));
    }

    @Override
    public void update(InternalRow metadata, InternalRow id, InternalRow row) throws IOException {
        GenericRow updated = converter.convert(row);
        rowLevelKeys().checkSameKey(id, updated);
        updated.setRowKind(RowKind.UPDATE_AFTER);
        write(updated);
    }

    private KeyRows rowLevelKeys() {
        if (keys == null) {
            throw new IllegalStateException(
                    "Cannot delete or update rows of "
                            + tableName
                            + " in a plain write: only row-level statements (DELETE, UPDATE, MERGE) send them.");
        }
        return keys;
    }

    private void write(GenericRow row) throws IOException {
        try {
            writer.write(row);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Cannot write a row to " + tableName + ": " + e.getMessage(), e);
        }
    }

    @Override
    public WriterCommitMessage commit() throws IOException {
        List<CommitMessage> messages;
        try {
            messages = writer.prepareCommit();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(
                    "Cannot prepare the commit of a task writing "
                            + tableName
                            + ": "
                            + e.getMessage(),
                    e);
        }
        try {
            pending.record(attempt, messages);
        } catch (IOException | RuntimeException e) {
            // Unrecorded, the driver might never learn of these files: delete them.
            try {
                PaimonCommits.discard(table, messages);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw new IOException(
                    String.format(
                            "Cannot record the commit messages of a task writing %s in %s: %s. The task's files were "
                                    + "deleted; Spark retries the task.",
                            tableName, pending.dir(), e.getMessage()),
                    e);
        }
        return StrataCommitMessage.of(messages);
    }

    @Override
    public void abort() throws IOException {
        try {
            writer.abort();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(
                    "Cannot abort a task writing " + tableName + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            writer.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
