package dev.strata.spark.write;

import dev.strata.index.DeletionVectorChecksums;
import dev.strata.index.PkFullTextIndex;
import dev.strata.index.PkFullTextWriteHook;
import java.io.File;
import java.util.List;
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
        write.write(row);
    }

    public void write(InternalRow row, int bucket) throws Exception {
        write.write(row, bucket);
    }

    /** Compacts one bucket; {@code full} rewrites it into the top level. */
    public void compact(BinaryRow partition, int bucket, boolean full) throws Exception {
        write.compact(partition, bucket, full);
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
