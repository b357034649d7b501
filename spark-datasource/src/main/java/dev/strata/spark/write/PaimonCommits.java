package dev.strata.spark.write;

import java.util.List;

import dev.strata.index.PkFullTextIndex;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;

/** Driver-side commit and abort of the messages a job's tasks produced. */
public final class PaimonCommits {

    private PaimonCommits() {}

    /** Commits all messages in one snapshot. */
    public static void commit(BatchWriteBuilder builder, List<CommitMessage> messages) throws Exception {
        try (BatchTableCommit commit = builder.newCommit()) {
            commit.commit(messages);
        }
    }

    /**
     * Deletes everything the messages would have added: data files (through Paimon's abort) and generated
     * full-text archives.
     */
    public static void abort(FileStoreTable table, BatchWriteBuilder builder, List<CommitMessage> messages)
            throws Exception {
        try (BatchTableCommit commit = builder.newCommit()) {
            if (PkFullTextIndex.isEnabled(table)) {
                PkFullTextIndex.deleteUncommittedArchives(table, messages);
            }
            commit.abort(messages);
        }
    }
}
