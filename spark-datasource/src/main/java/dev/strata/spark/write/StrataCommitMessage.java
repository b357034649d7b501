package dev.strata.spark.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageSerializer;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * Carries a task's Paimon commit messages to the driver, in Paimon's own versioned serialization so
 * the bytes do not depend on Java serialization of Paimon's classes.
 */
public final class StrataCommitMessage implements WriterCommitMessage {

    private static final long serialVersionUID = 1L;

    private final int version;
    private final List<byte[]> messages;

    private StrataCommitMessage(int version, List<byte[]> messages) {
        this.version = version;
        this.messages = messages;
    }

    public static StrataCommitMessage of(List<CommitMessage> messages) {
        CommitMessageSerializer serializer = new CommitMessageSerializer();
        List<byte[]> bytes = new ArrayList<>(messages.size());
        try {
            for (CommitMessage m : messages) {
                bytes.add(serializer.serialize(m));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot serialize Paimon commit messages: " + e.getMessage(), e);
        }
        return new StrataCommitMessage(serializer.getVersion(), bytes);
    }

    public List<CommitMessage> messages() {
        CommitMessageSerializer serializer = new CommitMessageSerializer();
        List<CommitMessage> out = new ArrayList<>(messages.size());
        try {
            for (byte[] b : messages) {
                out.add(serializer.deserialize(version, b));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read Paimon commit messages: " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * All Paimon messages of a job's task messages (Spark passes null for tasks that did not
     * finish).
     */
    public static List<CommitMessage> flatten(WriterCommitMessage[] taskMessages) {
        List<CommitMessage> all = new ArrayList<>();
        for (WriterCommitMessage m : taskMessages) {
            if (m instanceof StrataCommitMessage) {
                all.addAll(((StrataCommitMessage) m).messages());
            }
        }
        return all;
    }
}
