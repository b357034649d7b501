package dev.strata.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.spark.StrataSparkTestBase;
import dev.strata.spark.write.PaimonCommits;
import dev.strata.spark.write.PendingMessages;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.junit.jupiter.api.Test;

/**
 * A compaction through the shared procedure runner whose driver never gets one task's outcome: the
 * real compaction task ({@link CompactProcedure.CompactBucket}) on a primary-key table with
 * deletion vectors and full-text archives, so its tasks write data files, deletion-vector files and
 * archives. Whatever ends the run (another task failing, the commit failing, the commit succeeding
 * without the lost outcome), no file of the lost task stays on disk unreferenced.
 */
class LostProcedureOutcomesTest extends StrataSparkTestBase {

    private static final String DB = "lostproc";
    private static final List<String> LABELS = List.of("bucket 0", "bucket 1");

    private FileStoreTable create(String name) throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake." + DB);
        sql(
                "CREATE TABLE lake.%s.%s (id BIGINT NOT NULL, body STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '2', 'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')",
                DB, name);
        for (int round = 0; round < 3; round++) {
            sql(
                    "INSERT INTO lake.%s.%s SELECT id, concat('round%d word', cast(id AS STRING)) FROM range(0, %d)",
                    DB, name, round, 50 + 10 * round);
        }
        // As CompactProcedure does for a full compaction of a full-text table.
        return paimonTable(DB, name).copy(Map.of("compaction.force-rewrite-all-files", "true"));
    }

    private Path tableDir(String name) {
        return warehouse.resolve(DB + ".db").resolve(name);
    }

    private List<List<Object>> contents(String name) {
        return values(sql("SELECT id, body FROM lake.%s.%s ORDER BY id", DB, name));
    }

    private static ProcedureRun run(String name, FileStoreTable table) {
        String full = "lake." + DB + "." + name;
        return new ProcedureRun(
                CompactProcedure.NAME, "compact", full, table, "the compaction of " + full);
    }

    private static List<TaskAttempts.Outcome> compactBothBuckets(
            ProcedureRun run, FileStoreTable table) {
        List<BucketRef> tasks =
                List.of(
                        new BucketRef(BinaryRow.EMPTY_ROW, 0),
                        new BucketRef(BinaryRow.EMPTY_ROW, 1));
        return run.runTasks(
                "2 buckets",
                tasks,
                new CompactProcedure.CompactBucket(table, table.newBatchWriteBuilder(), true),
                LABELS);
    }

    private List<String> names(String name) throws Exception {
        return dataAndIndexFilesOnDisk(tableDir(name)).stream()
                .map(f -> f.substring(f.lastIndexOf('/') + 1))
                .toList();
    }

    @Test
    void aFailedTaskBesideALostOutcomeDeletesTheFilesOfBoth() throws Exception {
        FileStoreTable table = create("failed");
        List<String> before = dataAndIndexFilesOnDisk(tableDir("failed"));
        List<List<Object>> rows = contents("failed");

        ProcedureRun run = run("failed", table);
        List<TaskAttempts.Outcome> outcomes = compactBothBuckets(run, table);
        assertThat(dataAndIndexFilesOnDisk(tableDir("failed")))
                .hasSizeGreaterThan(before.size() + 4);

        // The driver got bucket 0's outcome; bucket 1's task finished but what reached the driver
        // is a failure.
        List<TaskAttempts.Outcome> received =
                List.of(
                        outcomes.get(0),
                        TaskAttempts.failed(new IllegalStateException("executor lost")));
        assertThatThrownBy(() -> run.messagesOrAbort(received, LABELS))
                .hasMessageStartingWith(
                        "Cannot compact lake.lostproc.failed: 1 of 2 tasks failed (bucket 1: ");

        assertThat(dataAndIndexFilesOnDisk(tableDir("failed"))).isEqualTo(before);
        assertThat(tableDir("failed").resolve(PendingMessages.DIRECTORY)).doesNotExist();
        assertThat(contents("failed")).isEqualTo(rows);
    }

    @Test
    void aFailedCommitWithoutALostOutcomeDeletesTheFilesOfBoth() throws Exception {
        FileStoreTable table = create("conflict");
        ProcedureRun run = run("conflict", table);
        List<TaskAttempts.Outcome> outcomes = compactBothBuckets(run, table);
        // Another writer replaces every file the compaction read: its commit must fail.
        sql("INSERT OVERWRITE lake.%s.conflict SELECT id, 'overwritten' FROM range(0, 5)", DB);
        List<List<Object>> rows = contents("conflict");

        List<CommitMessage> received = ProcedureRun.messages(outcomes.subList(0, 1));
        assertThatThrownBy(() -> run.commit(received))
                .isInstanceOf(PaimonCommits.CommitFailedException.class)
                .hasMessageStartingWith("Cannot commit the compaction of lake.lostproc.conflict: ");

        assertThat(names("conflict"))
                .containsExactlyInAnyOrderElementsOf(
                        referencedFileNames(paimonTable(DB, "conflict")));
        assertThat(tableDir("conflict").resolve(PendingMessages.DIRECTORY)).doesNotExist();
        assertThat(contents("conflict")).isEqualTo(rows);
    }

    @Test
    void aCommitWithoutALostOutcomeDeletesTheLostTasksFiles() throws Exception {
        FileStoreTable table = create("partial");
        List<List<Object>> rows = contents("partial");
        String bucketOne =
                "SELECT file_path FROM lake."
                        + DB
                        + ".`partial$files` WHERE bucket = 1 ORDER BY file_path";
        List<List<Object>> bucketOneFiles = values(sql(bucketOne));
        ProcedureRun run = run("partial", table);
        List<TaskAttempts.Outcome> outcomes = compactBothBuckets(run, table);

        run.commit(new ArrayList<>(ProcedureRun.messages(outcomes.subList(0, 1))));

        assertThat(names("partial"))
                .containsExactlyInAnyOrderElementsOf(
                        referencedFileNames(paimonTable(DB, "partial")));
        assertThat(tableDir("partial").resolve(PendingMessages.DIRECTORY)).doesNotExist();
        assertThat(contents("partial")).isEqualTo(rows);
        assertThat(values(sql(bucketOne)))
                .as("bucket 1 was not compacted")
                .isEqualTo(bucketOneFiles);
    }
}
