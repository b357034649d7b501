package dev.strata.spark.write;

import java.io.File;
import java.util.List;

import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;

/**
 * The Paimon table write of one Spark task, shared by INSERT tasks and compaction tasks. It owns the
 * task's spill directory and is the single place where a task's commit messages are produced, so features
 * that must ride in the same commit as the data (the full-text maintainer's index increments) hook into
 * {@link #prepareCommit()}.
 */
public final class PaimonTaskWriter implements AutoCloseable {

    private final BatchTableWrite write;
    private final IOManager ioManager;
    private boolean closed;

    private PaimonTaskWriter(BatchTableWrite write, IOManager ioManager) {
        this.write = write;
        this.ioManager = ioManager;
    }

    /** Opens a writer; {@code builder} is the job's write builder shipped from the driver. */
    public static PaimonTaskWriter open(BatchWriteBuilder builder) {
        IOManager ioManager = IOManager.create(new File(System.getProperty("java.io.tmpdir")).getAbsolutePath());
        BatchTableWrite write = builder.newWrite();
        write.withIOManager(ioManager);
        return new PaimonTaskWriter(write, ioManager);
    }

    public void write(InternalRow row) throws Exception {
        write.write(row);
    }

    /** Compacts one bucket; {@code full} rewrites it into the top level. */
    public void compact(BinaryRow partition, int bucket, boolean full) throws Exception {
        write.compact(partition, bucket, full);
    }

    /** Flushes and waits for compaction; the messages describe everything this task changed. */
    public List<CommitMessage> prepareCommit() throws Exception {
        return write.prepareCommit();
    }

    /**
     * Gives up the task's work: Paimon's writers delete the files they wrote but did not hand over in a
     * commit message.
     */
    public void abort() throws Exception {
        close();
    }

    @Override
    public void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        try {
            write.close();
        } finally {
            ioManager.close();
        }
    }
}
