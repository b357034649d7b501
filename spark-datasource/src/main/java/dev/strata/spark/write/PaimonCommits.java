package dev.strata.spark.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.index.IndexPathFactory;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;

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
     * Deletes everything the messages would have added: data files (through Paimon's abort), generated
     * full-text archives and other new index files such as deletion vectors.
     */
    public static void abort(FileStoreTable table, BatchWriteBuilder builder, List<CommitMessage> messages)
            throws Exception {
        try (BatchTableCommit commit = builder.newCommit()) {
            deleteNewIndexFiles(table, messages);
            commit.abort(messages);
        }
    }

    /**
     * Paimon's abort deletes data files only: the index files a message adds (full-text archives, deletion
     * vectors) go here.
     */
    private static void deleteNewIndexFiles(FileStoreTable table, List<CommitMessage> messages) throws IOException {
        for (CommitMessage message : messages) {
            CommitMessageImpl m = (CommitMessageImpl) message;
            List<IndexFileMeta> created = new ArrayList<>();
            if (m.newFilesIncrement() != null) {
                created.addAll(m.newFilesIncrement().newIndexFiles());
            }
            if (m.compactIncrement() != null) {
                created.addAll(m.compactIncrement().newIndexFiles());
            }
            IndexPathFactory paths = table.store().pathFactory().indexFileFactory(m.partition(), m.bucket());
            for (IndexFileMeta meta : created) {
                table.fileIO().deleteQuietly(paths.toPath(meta));
            }
        }
    }
}
