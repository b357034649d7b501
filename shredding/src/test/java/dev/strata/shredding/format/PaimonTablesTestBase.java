package dev.strata.shredding.format;

import java.util.List;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh Paimon warehouse ({@link PaimonTables}) in a temporary directory for each test. */
abstract class PaimonTablesTestBase {

    @TempDir java.nio.file.Path tmp;

    PaimonTables tables;

    @BeforeEach
    void openTables() throws Exception {
        tables = new PaimonTables(tmp);
    }

    @AfterEach
    void closeTables() throws Exception {
        tables.close();
    }

    /**
     * Writes the rows (their row kinds included) as one batch commit through Paimon's table write.
     */
    void write(FileStoreTable table, List<InternalRow> rows) throws Exception {
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite().withIOManager(IOManager.create(tmp.toString()));
                BatchTableCommit c = wb.newCommit()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            c.commit(w.prepareCommit());
        }
    }

    /** Fully compacts buckets 0..buckets-1 of an unpartitioned table in one commit. */
    void compactBuckets(FileStoreTable table, int buckets) throws Exception {
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite().withIOManager(IOManager.create(tmp.toString()));
                BatchTableCommit c = wb.newCommit()) {
            for (int bucket = 0; bucket < buckets; bucket++) {
                w.compact(BinaryRow.EMPTY_ROW, bucket, true);
            }
            c.commit(w.prepareCommit());
        }
    }
}
