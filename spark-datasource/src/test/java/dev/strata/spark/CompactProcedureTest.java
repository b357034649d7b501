package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** {@code CALL lake.sys.compact}: same answers, fewer files, one snapshot, typed report rows. */
class CompactProcedureTest extends StrataSparkTestBase {

    private void writeBatches(String table, int batches) {
        for (int b = 0; b < batches; b++) {
            sql(
                    "INSERT INTO %s SELECT id, concat('d', id %% 2), concat('v%d_', id), %d FROM range(0, 300)",
                    table, b, b);
        }
    }

    private static int fileCount(FileStoreTable table) {
        return table.newSnapshotReader().read().dataSplits().stream()
                .mapToInt(s -> s.dataFiles().size())
                .sum();
    }

    @Test
    void fullCompactionKeepsTheAnswerAndReducesFilesInOneSnapshot() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.c");
        sql(
                "CREATE TABLE lake.c.pk (id BIGINT, dt STRING, v STRING, b INT) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '3')");
        writeBatches("lake.c.pk", 4);
        List<Row> before = sql("SELECT * FROM lake.c.pk ORDER BY id");
        FileStoreTable table = paimonTable("c", "pk");
        int filesBefore = fileCount(table);
        long snapshotBefore = table.latestSnapshot().get().id();

        List<Row> report = df("CALL lake.sys.compact(table => 'c.pk')").collectAsList();
        StructType schema = df("CALL lake.sys.compact(table => 'c.pk', full => false)").schema();
        assertThat(schema.fields())
                .extracting(f -> f.name() + ":" + f.dataType().simpleString() + ":" + f.nullable())
                .containsExactly(
                        "partition:string:false",
                        "bucket:int:false",
                        "files_before:int:false",
                        "files_after:int:false",
                        "rows:bigint:false");

        FileStoreTable after = paimonTable("c", "pk");
        Snapshot compacted = after.snapshotManager().snapshot(snapshotBefore + 1);
        assertThat(compacted.commitKind()).isEqualTo(Snapshot.CommitKind.COMPACT);
        assertThat(sql("SELECT * FROM lake.c.pk ORDER BY id")).containsExactlyElementsOf(before);
        assertThat(fileCount(after)).isLessThan(filesBefore);
        for (DataSplit split : after.newSnapshotReader().read().dataSplits()) {
            assertThat(split.dataFiles()).allSatisfy(f -> assertThat(f.level()).isEqualTo(5));
        }

        assertThat(report).hasSize(6);
        assertThat(report.stream().mapToInt(r -> r.getInt(2)).sum()).isEqualTo(filesBefore);
        assertThat(report.stream().mapToInt(r -> r.getInt(3)).sum()).isEqualTo(fileCount(after));
        assertThat(report.stream().mapToLong(r -> r.getLong(4)).sum()).isEqualTo(300L);
        assertThat(report).allSatisfy(r -> assertThat(r.getString(0)).matches("dt=d[01]"));
    }

    @Test
    void deletionVectorTablesKeepTheirAnswer() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.c");
        sql(
                "CREATE TABLE lake.c.dv (id BIGINT, dt STRING, v STRING, b INT) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '3', 'deletion-vectors.enabled' = 'true')");
        writeBatches("lake.c.dv", 4);
        List<Row> before = sql("SELECT * FROM lake.c.dv ORDER BY id");
        List<Row> report = sql("CALL lake.sys.compact(table => 'c.dv')");
        // Only the buckets it changed are reported (each write compacted its own level 0).
        assertThat(report).allSatisfy(r -> assertThat(r.getInt(3)).isLessThan(r.getInt(2)));
        assertThat(sql("SELECT * FROM lake.c.dv ORDER BY id")).containsExactlyElementsOf(before);
    }

    @Test
    void whereSelectsPartitions() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.c");
        sql(
                "CREATE TABLE lake.c.part (id BIGINT, dt STRING, v STRING, b INT) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2')");
        writeBatches("lake.c.part", 3);
        List<Row> report = sql("CALL lake.sys.compact(table => 'c.part', where => 'dt = ''d1''')");
        assertThat(report)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.getString(0)).isEqualTo("dt=d1"));
        FileStoreTable table = paimonTable("c", "part");
        for (DataSplit split : table.newSnapshotReader().read().dataSplits()) {
            boolean d1 = split.partition().getString(0).toString().equals("d1");
            assertThat(split.dataFiles()).hasSize(d1 ? 1 : 3);
        }
    }

    @Test
    void appendTablesWithoutBucketsAreCompacted() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.c");
        sql("CREATE TABLE lake.c.app (id BIGINT, dt STRING, v STRING, b INT) PARTITIONED BY (dt)");
        writeBatches("lake.c.app", 6);
        List<Row> before = sql("SELECT * FROM lake.c.app ORDER BY id, b");
        int filesBefore = fileCount(paimonTable("c", "app"));
        List<Row> report = sql("CALL lake.sys.compact(table => 'c.app')");
        assertThat(fileCount(paimonTable("c", "app"))).isLessThan(filesBefore);
        assertThat(sql("SELECT * FROM lake.c.app ORDER BY id, b"))
                .containsExactlyElementsOf(before);
        assertThat(report.stream().mapToLong(r -> r.getLong(4)).sum()).isEqualTo(1800L);
    }

    @Test
    void aWriteOnlyTableIsCompactedByTheProcedure() {
        // Its writers leave compaction to a dedicated job; the procedure is that job.
        sql("CREATE NAMESPACE IF NOT EXISTS lake.c");
        sql(
                "CREATE TABLE lake.c.wo (id BIGINT, dt STRING, v STRING, b INT) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2', "
                        + "'deletion-vectors.enabled' = 'true', 'write-only' = 'true')");
        writeBatches("lake.c.wo", 2);
        assertThat(sql("SELECT count(*) FROM lake.c.wo").get(0).getLong(0))
                .as("level 0 of a deletion-vector table is read once compacted")
                .isZero();
        List<Row> report = sql("CALL lake.sys.compact(table => 'c.wo')");
        assertThat(report.stream().mapToLong(r -> r.getLong(4)).sum()).isEqualTo(300L);
        assertThat(sql("SELECT count(*), sum(b) FROM lake.c.wo").get(0))
                .isEqualTo(org.apache.spark.sql.RowFactory.create(300L, 300L));
    }

    @Test
    void aFullCompactionMergesAFewSmallAppendFilesAndReportsOnlyWhatItChanged() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.c");
        sql("CREATE TABLE lake.c.few (id BIGINT, dt STRING, v STRING, b INT) PARTITIONED BY (dt)");
        writeBatches("lake.c.few", 3);
        sql("INSERT INTO lake.c.few VALUES (1, 'd9', 'lone', 9)");
        long snapshot = paimonTable("c", "few").latestSnapshot().get().id();
        List<Row> report = sql("CALL lake.sys.compact(table => 'c.few')");
        assertThat(paimonTable("c", "few").latestSnapshot().get().id()).isEqualTo(snapshot + 1);
        // Three INSERTs' files in each of d0 and d1 become one each; d9's lone file is not
        // reported.
        assertThat(report).extracting(r -> r.getString(0)).containsExactly("dt=d0", "dt=d1");
        assertThat(report).allSatisfy(r -> assertThat(r.getInt(2)).isGreaterThanOrEqualTo(3));
        assertThat(report).allSatisfy(r -> assertThat(r.getInt(3)).isEqualTo(1));
        assertThat(fileCount(paimonTable("c", "few"))).isEqualTo(3);
        assertThat(sql("CALL lake.sys.compact(table => 'c.few')")).isEmpty();
    }

    @Test
    void badArgumentsGetClearErrors() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.c");
        sql("CREATE TABLE IF NOT EXISTS lake.c.args (id BIGINT, dt STRING) PARTITIONED BY (dt)");
        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 'c.nope')"))
                .hasMessageContaining("lake.c.nope")
                .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 'nodot')"))
                .hasMessageContaining("'db.table'");
        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 'c.args', where => 'id > 1')"))
                .hasMessageContaining("partition columns [dt]");
        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 'c.args', colour => 'red')"))
                .hasMessageContaining("colour");
        assertThatThrownBy(() -> sql("CALL lake.sys.no_such_procedure(table => 'c.args')"))
                .hasMessageContaining("no_such_procedure")
                .hasMessageContaining("lake.sys.compact");
    }
}
