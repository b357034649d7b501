package dev.strata.spark.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.spark.StrataSparkTestBase;
import dev.strata.spark.compat.SparkVersionApi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * Files of a writer task whose commit message never reached the driver: the real DSv2 write objects
 * of a Strata table (batch write, writer factory, data writers writing real rows) on a primary-key
 * table with deletion vectors and full-text archives, so tasks write data files, deletion-vector
 * files and archives. Spark aborts a failed job with {@code null} in the slots of tasks it got no
 * message from; the abort must still delete those tasks' files.
 */
class LostTaskMessagesTest extends StrataSparkTestBase {

    private static final String DB = "pend";

    private void create(String name) {
        sql("CREATE NAMESPACE IF NOT EXISTS lake." + DB);
        // Two partitions of one bucket each: task 0 writes partition 0, task 1 partition 1, as
        // Spark's clustering by
        // (partition, bucket) would hand them out.
        sql(
                "CREATE TABLE lake.%s.%s (p INT NOT NULL, id BIGINT NOT NULL, body STRING) PARTITIONED BY (p) "
                        + "TBLPROPERTIES ('primary-key' = 'p,id', 'bucket' = '1', 'deletion-vectors.enabled' = 'true', "
                        + "'strata-full-text.index.columns' = 'body')",
                DB, name);
        sql(
                "INSERT INTO lake.%s.%s SELECT cast(id %% 2 AS INT), id, concat('first word', cast(id AS STRING)) "
                        + "FROM range(0, 60)",
                DB, name);
    }

    private Path tableDir(String name) {
        return warehouse.resolve(DB + ".db").resolve(name);
    }

    private List<List<Object>> contents(String name) {
        return values(sql("SELECT p, id, body FROM lake.%s.%s ORDER BY id", DB, name));
    }

    private BatchWrite batchWrite(String name) throws Exception {
        TableCatalog lake = (TableCatalog) SparkVersionApi.catalog(spark, "lake");
        Table table = lake.loadTable(Identifier.of(new String[] {DB}, name));
        StructType schema = table.schema();
        LogicalWriteInfo info =
                new LogicalWriteInfo() {
                    @Override
                    public CaseInsensitiveStringMap options() {
                        return CaseInsensitiveStringMap.empty();
                    }

                    @Override
                    public String queryId() {
                        return "lost-task-messages";
                    }

                    @Override
                    public StructType schema() {
                        return schema;
                    }
                };
        return ((SupportsWrite) table).newWriteBuilder(info).build().toBatch();
    }

    /**
     * One task: writes the rows {@code from..to} of table partition {@code partition} (ids {@code
     * id % 2 == partition}, updating those that exist) and returns its commit message.
     */
    private static WriterCommitMessage task(
            DataWriterFactory factory, int partition, long taskId, long from, long to)
            throws IOException {
        DataWriter<InternalRow> writer = factory.createWriter(partition, taskId);
        try {
            for (long id = from; id < to; id++) {
                if (id % 2 == partition) {
                    writer.write(
                            new GenericInternalRow(
                                    new Object[] {
                                        partition, id, UTF8String.fromString("second word" + id)
                                    }));
                }
            }
            return writer.commit();
        } finally {
            writer.close();
        }
    }

    private static DataWriterFactory factory(BatchWrite write) {
        return write.createBatchWriterFactory(
                new PhysicalWriteInfo() {
                    @Override
                    public int numPartitions() {
                        return 2;
                    }
                });
    }

    /**
     * Bucket, index and pending files under the table directory (not snapshots, manifests or
     * schemas).
     */
    private List<String> files(String name) throws IOException {
        return dataAndIndexFilesOnDisk(tableDir(name));
    }

    @Test
    void abortWithAMissingTaskMessageDeletesTheFilesOfBothTasks() throws Exception {
        create("dropped");
        List<String> before = files("dropped");
        List<List<Object>> rows = contents("dropped");
        assertThat(before)
                .anyMatch(f -> f.startsWith("index/"))
                .anyMatch(f -> f.startsWith("p=1/bucket-0/"));

        BatchWrite write = batchWrite("dropped");
        DataWriterFactory factory = factory(write);
        WriterCommitMessage first = task(factory, 0, 7001, 0, 40);
        WriterCommitMessage second = task(factory, 1, 7002, 40, 90);
        assertThat(files("dropped"))
                .as("both tasks wrote files")
                .hasSizeGreaterThan(before.size() + 2);

        // Another task failed first: Spark aborts with a null where the second task's message would
        // be.
        write.abort(new WriterCommitMessage[] {first, null});

        assertThat(files("dropped")).as("files after the abort").isEqualTo(before);
        assertThat(tableDir("dropped").resolve(PendingMessages.DIRECTORY)).doesNotExist();
        assertThat(contents("dropped")).isEqualTo(rows);
    }

    @Test
    void abortWithNoTaskMessageAtAllDeletesEveryTasksFiles() throws Exception {
        create("cancelled");
        List<String> before = files("cancelled");
        List<List<Object>> rows = contents("cancelled");

        BatchWrite write = batchWrite("cancelled");
        DataWriterFactory factory = factory(write);
        task(factory, 0, 7101, 0, 30);
        task(factory, 1, 7102, 30, 80);
        // The job was cancelled after both tasks finished: no message reached the driver.
        write.abort(new WriterCommitMessage[] {null, null});

        assertThat(files("cancelled")).isEqualTo(before);
        assertThat(contents("cancelled")).isEqualTo(rows);
    }

    @Test
    void aCommitDeletesTheFilesOfAnAttemptWhoseMessageItDidNotGet() throws Exception {
        create("zombie");
        BatchWrite write = batchWrite("zombie");
        DataWriterFactory factory = factory(write);
        // Attempt 1 of partition 1 finished, but its executor was lost before the driver got its
        // message; attempt
        // 2 of the same partition wrote the same rows again and reported.
        task(factory, 1, 7201, 40, 90);
        WriterCommitMessage retry = task(factory, 1, 7202, 40, 90);
        WriterCommitMessage first = task(factory, 0, 7203, 0, 40);
        write.commit(new WriterCommitMessage[] {first, retry});

        List<List<Object>> expected = new ArrayList<>();
        for (long id = 0; id < 90; id++) {
            int p = (int) (id % 2);
            boolean written = p == 0 ? id < 40 : id >= 40;
            if (id < 60 || written) {
                expected.add(List.of(p, id, (written ? "second word" : "first word") + id));
            }
        }
        assertThat(contents("zombie")).isEqualTo(expected);
        assertThat(tableDir("zombie").resolve(PendingMessages.DIRECTORY)).doesNotExist();
        // Every data and index file left is referenced by a snapshot: the zombie attempt's files
        // are gone.
        assertThat(files("zombie").stream().map(f -> f.substring(f.lastIndexOf('/') + 1)).toList())
                .containsExactlyInAnyOrderElementsOf(
                        referencedFileNames(paimonTable(DB, "zombie")));
    }

    @Test
    void aSuccessfulInsertLeavesNoPendingDirectory() throws Exception {
        create("insert");
        sql(
                "INSERT INTO lake.%s.insert SELECT cast(id %% 2 AS INT), id, 'more' FROM range(50, 120)",
                DB);
        assertThat(tableDir("insert").resolve(PendingMessages.DIRECTORY)).doesNotExist();
        assertThat(contents("insert")).hasSize(120);
    }

    @Test
    void removeOrphanFilesCleansUpAfterACrashedDriver() throws Exception {
        create("crashed");
        List<String> before = files("crashed");
        List<List<Object>> rows = contents("crashed");

        BatchWrite write = batchWrite("crashed");
        DataWriterFactory factory = factory(write);
        task(factory, 0, 7301, 0, 30);
        task(factory, 1, 7302, 30, 80);
        // The driver died here: neither commit nor abort ran. Two days later:
        List<String> left = files("crashed");
        assertThat(left).anyMatch(f -> f.startsWith(PendingMessages.DIRECTORY + "/"));
        ageEverything("crashed", 2);

        List<Row> dry =
                sql(
                        "CALL lake.sys.remove_orphan_files(table => '%s.crashed', dry_run => true)",
                        DB);
        assertThat(dry.get(0).getLong(0))
                .as("the dry run counts the task files and the markers")
                .isEqualTo(left.size() - before.size());
        assertThat(files("crashed")).isEqualTo(left);

        List<Row> done = sql("CALL lake.sys.remove_orphan_files(table => '%s.crashed')", DB);
        assertThat(done.get(0).getLong(0)).isEqualTo(left.size() - before.size());
        assertThat(files("crashed")).isEqualTo(before);
        assertThat(tableDir("crashed").resolve(PendingMessages.DIRECTORY)).doesNotExist();
        assertThat(contents("crashed")).isEqualTo(rows);
    }

    @Test
    void removeOrphanFilesLeavesTheRecordsOfARunningJob() throws Exception {
        create("running");
        ageEverything("running", 2);
        BatchWrite write = batchWrite("running");
        DataWriterFactory factory = factory(write);
        WriterCommitMessage first = task(factory, 0, 7401, 0, 30);
        WriterCommitMessage second = task(factory, 1, 7402, 30, 80);
        List<String> written = files("running");

        sql("CALL lake.sys.remove_orphan_files(table => '%s.running')", DB);

        assertThat(files("running")).isEqualTo(written);
        write.commit(new WriterCommitMessage[] {first, second});
        // The 60 rows and the odd ids 61..79 the second task added.
        assertThat(contents("running")).hasSize(70);
    }

    /** Sets the modification time of every file and directory of the table {@code days} back. */
    private void ageEverything(String name, int days) throws IOException {
        FileTime old = FileTime.from(Instant.now().minus(days, ChronoUnit.DAYS));
        List<Path> all;
        try (Stream<Path> walk = Files.walk(tableDir(name))) {
            all = walk.toList();
        }
        for (Path p : all) {
            Files.setLastModifiedTime(p, old);
        }
    }
}
