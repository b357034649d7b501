package dev.strata.spark.write;

import java.io.IOException;

import dev.strata.spark.data.SparkToPaimon;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.RowKind;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * Writes one task's rows through Paimon: inserted rows as {@code +I}; for row-level statements also deletes
 * as {@code -D} rows of the key and updates as {@code +U} rows, which the table's merge engine applies.
 */
final class StrataDataWriter implements DeltaWriter<InternalRow> {

    private final String tableName;
    private final PaimonTaskWriter writer;
    private final SparkToPaimon converter;
    private final KeyRows keys;

    /** @param keys the delete rows of a row-level statement; null for INSERT, which has no deletes or updates */
    StrataDataWriter(String tableName, PaimonTaskWriter writer, SparkToPaimon converter, KeyRows keys) {
        this.tableName = tableName;
        this.writer = writer;
        this.converter = converter;
        this.keys = keys;
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
            throw new IllegalStateException("Cannot delete or update rows of " + tableName
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
        try {
            return StrataCommitMessage.of(writer.prepareCommit());
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Cannot prepare the commit of a task writing " + tableName + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void abort() throws IOException {
        try {
            writer.abort();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Cannot abort a task writing " + tableName + ": " + e.getMessage(), e);
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
