package dev.strata.spark.write;

import java.io.IOException;

import dev.strata.spark.data.SparkToPaimon;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** Writes one task's rows through Paimon. */
final class StrataDataWriter implements DataWriter<InternalRow> {

    private final String tableName;
    private final PaimonTaskWriter writer;
    private final SparkToPaimon converter;

    StrataDataWriter(String tableName, PaimonTaskWriter writer, SparkToPaimon converter) {
        this.tableName = tableName;
        this.writer = writer;
        this.converter = converter;
    }

    @Override
    public void write(InternalRow row) throws IOException {
        try {
            writer.write(converter.convert(row));
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
