package dev.strata.spark.write;

import dev.strata.index.DeletionVectorChecksums;
import dev.strata.index.PkFullTextIndex;
import dev.strata.index.PkFullTextWriteHook;
import java.io.File;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;

/**
 * The Paimon table write of one Spark task (INSERT or compaction), and the single place a task's
 * commit messages are produced. Full-text maintainers, restored from the snapshot Paimon's writer
 * restores from, add their archive changes to the same messages in {@link #prepareCommit()}, so
 * data and archives land in one snapshot. Postpone-bucket writes have none: the compaction that
 * assigns real buckets builds the archives.
 */
public final class PaimonTaskWriter implements AutoCloseable {

    /** Paimon's postpone bucket; archives never cover it. */
    private static final int POSTPONE_BUCKET = -2;

    private final FileStoreTable table;
    private final Long restored;
    private final BatchTableWrite write;
    private final IOManager ioManager;
    private final PkFullTextWriteHook fullText;
    private boolean closed;

    private PaimonTaskWriter(
            FileStoreTable table,
            Long restored,
            BatchTableWrite write,
            IOManager ioManager,
            PkFullTextWriteHook fullText) {
        this.table = table;
        this.restored = restored;
        this.write = write;
        this.ioManager = ioManager;
        this.fullText = fullText;
    }

    /** {@code table} with the job's dynamic options; {@code builder} shipped from the driver. */
    public static PaimonTaskWriter open(FileStoreTable table, BatchWriteBuilder builder) {
        return open(table, builder, false);
    }

    /**
     * As {@link #open(FileStoreTable, BatchWriteBuilder)}; {@code overwrite}: the builder's write
     * replaces its partitions, so Paimon's writers start every bucket empty, and so do the
     * full-text maintainers (the overwrite commit drops the partitions' archives).
     */
    public static PaimonTaskWriter open(
            FileStoreTable table, BatchWriteBuilder builder, boolean overwrite) {
        String tmp = new File(System.getProperty("java.io.tmpdir")).getAbsolutePath();
        PkFullTextWriteHook fullText = null;
        // Paimon's writers restore their buckets from this snapshot or a later one.
        Long restored = table.snapshotManager().latestSnapshotId();
        if (PkFullTextIndex.isEnabled(table) && table.coreOptions().bucket() != POSTPONE_BUCKET) {
            fullText = PkFullTextWriteHook.create(table, overwrite ? null : restored, null);
        }
        IOManager ioManager = IOManager.create(tmp);
        BatchTableWrite write = builder.newWrite();
        write.withIOManager(ioManager);
        return new PaimonTaskWriter(table, restored, write, ioManager, fullText);
    }

    public void write(InternalRow row) throws Exception {
        try {
            write.write(row);
        } catch (RuntimeException e) {
            throw explained(e, "write into ");
        }
    }

    public void write(InternalRow row, int bucket) throws Exception {
        try {
            write.write(row, bucket);
        } catch (RuntimeException e) {
            throw explained(e, "write into ");
        }
    }

    /** Compacts one bucket; {@code full} rewrites it into the top level. */
    public void compact(BinaryRow partition, int bucket, boolean full) throws Exception {
        try {
            write.compact(partition, bucket, full);
        } catch (RuntimeException e) {
            throw explained(e, "compact ");
        }
    }

    /**
     * Paimon's writer restoring a bucket of another bucket count ({@code AbstractFileStoreWrite}).
     */
    private static final Pattern NEW_BUCKET_COUNT =
            Pattern.compile(
                    "Try to write (?:partition \\{(.*)\\}|table) with a new bucket num (\\d+), but"
                            + " the previous bucket num is (\\d+)\\..*",
                    Pattern.DOTALL);

    /**
     * Paimon's refusal after ALTER TABLE SET 'bucket' tells a Flink user to "switch to batch mode":
     * said here as the commit path says it, naming the table and partition.
     */
    private RuntimeException explained(RuntimeException e, String doWhat) {
        Matcher m = e.getMessage() == null ? null : NEW_BUCKET_COUNT.matcher(e.getMessage());
        if (m == null || !m.matches()) {
            return e;
        }
        String partition = m.group(1) == null ? null : m.group(1).replace(", ", "/");
        // Without Paimon's exception as the cause: Spark prints a task failure's whole chain.
        return new IllegalStateException(
                PaimonCommits.bucketCountMessage(
                        doWhat + table.fullName(),
                        partition,
                        Integer.parseInt(m.group(3)),
                        Integer.parseInt(m.group(2))));
    }

    /** Flushes and waits for compaction and archive builds. */
    public List<CommitMessage> prepareCommit() throws Exception {
        List<CommitMessage> messages = write.prepareCommit();
        // A damaged restored deletion vector must fail the task, not be rewritten with a valid
        // checksum.
        try {
            DeletionVectorChecksums.verifyRestored(table, restored, messages);
        } catch (Exception e) {
            try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
                commit.abort(messages);
            } catch (Exception cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return fullText == null ? messages : fullText.prepareCommit(messages, true);
    }

    /** Deletes generated archives; Paimon's writers delete their unreported data files. */
    public void abort() throws Exception {
        try {
            if (fullText != null) {
                fullText.abort();
            }
        } finally {
            close();
        }
    }

    @Override
    public void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (fullText != null) {
                fullText.close();
            }
        } finally {
            try {
                write.close();
            } finally {
                ioManager.close();
            }
        }
    }
}
