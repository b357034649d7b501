package dev.strata.spark.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.spark.StrataSparkTestBase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Paimon's system tables read through the Strata catalog, checked against the snapshot, schema and
 * data files on disk.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SystemTablesTest extends StrataSparkTestBase {

    private Path table;

    @BeforeAll
    void createTable() {
        sql("CREATE NAMESPACE lake.sys_t");
        sql(
                "CREATE TABLE lake.sys_t.t (id BIGINT, dt STRING, v STRING) PARTITIONED BY (dt) TBLPROPERTIES ("
                        + "'primary-key' = 'id,dt', 'bucket' = '2', 'write-only' = 'true')");
        sql("INSERT INTO lake.sys_t.t VALUES (1, 'a', 'x'), (2, 'a', 'y'), (3, 'b', 'z')");
        sql("INSERT INTO lake.sys_t.t VALUES (4, 'b', 'w')");
        sql("ALTER TABLE lake.sys_t.t SET TBLPROPERTIES ('snapshot.num-retained.max' = '50')");
        table = warehouse.resolve("sys_t.db").resolve("t");
    }

    private static Set<String> names(Path dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .map(p -> p.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static Set<String> sorted(Stream<String> names) {
        return names.collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void snapshotsAreTheSnapshotFilesOnDisk() throws IOException {
        List<Row> rows =
                sql(
                        "SELECT snapshot_id, commit_kind FROM lake.sys_t.`t$snapshots` ORDER BY snapshot_id");
        Set<String> onDisk = names(table.resolve("snapshot"), "snapshot-");
        assertThat(sorted(rows.stream().map(r -> "snapshot-" + r.getLong(0)))).isEqualTo(onDisk);
        assertThat(rows).extracting(r -> r.getString(1)).containsOnly("APPEND");
    }

    @Test
    void schemasAndOptionsAreTheSchemaFilesOnDisk() throws IOException {
        List<Row> schemas = sql("SELECT schema_id FROM lake.sys_t.`t$schemas`");
        assertThat(sorted(schemas.stream().map(r -> "schema-" + r.getLong(0))))
                .isEqualTo(names(table.resolve("schema"), "schema-"));
        List<Row> options =
                sql(
                        "SELECT key, value FROM lake.sys_t.`t$options` WHERE key IN ('bucket', 'write-only', "
                                + "'snapshot.num-retained.max') ORDER BY key");
        assertThat(values(options))
                .containsExactly(
                        List.of("bucket", "2"),
                        List.of("snapshot.num-retained.max", "50"),
                        List.of("write-only", "true"));
    }

    @Test
    void filesAreTheDataFilesOnDiskAndPartitionsCountTheirRows() throws IOException {
        // Nothing was compacted or expired: every data file on disk is live.
        List<Row> files = sql("SELECT file_path, record_count FROM lake.sys_t.`t$files`");
        assertThat(
                        sorted(
                                files.stream()
                                        .map(
                                                r ->
                                                        Path.of(r.getString(0))
                                                                .getFileName()
                                                                .toString())))
                .isEqualTo(names(table, "data-"));
        assertThat(files.stream().mapToLong(r -> r.getLong(1)).sum()).isEqualTo(4);
        List<Row> partitions =
                sql(
                        "SELECT partition, record_count FROM lake.sys_t.`t$partitions` ORDER BY partition");
        assertThat(partitions).hasSize(2);
        assertThat(partitions.stream().mapToLong(r -> r.getLong(1)).sum()).isEqualTo(4);
        assertThat(sql("SELECT count(*) FROM lake.sys_t.`t$manifests`").get(0).getLong(0))
                .isPositive();
        assertThat(sql("SELECT count(*) FROM lake.sys_t.`t$buckets`").get(0).getLong(0))
                .isPositive();
        assertThat(sql("SELECT count(*) FROM lake.sys_t.`t$tags`").get(0).getLong(0)).isZero();
    }

    @Test
    void auditLogShowsEveryRowWithItsKind() {
        List<Row> rows = sql("SELECT rowkind, id FROM lake.sys_t.`t$audit_log` ORDER BY id");
        assertThat(values(rows))
                .containsExactly(
                        List.of("+I", 1L), List.of("+I", 2L), List.of("+I", 3L), List.of("+I", 4L));
    }

    @Test
    void systemTablesAreReadOnlyWithAClearError() {
        assertThatThrownBy(
                        () ->
                                sql(
                                        "INSERT INTO lake.sys_t.`t$snapshots` SELECT * FROM lake.sys_t.`t$snapshots`"))
                .hasMessageContaining("t$snapshots");
        assertThatThrownBy(() -> sql("SELECT * FROM lake.sys_t.`t$no_such_table`"))
                .hasMessageContaining("t$no_such_table");
        assertThatThrownBy(() -> sql("SELECT * FROM lake.sys_t.`t$fulltext$snapshots`"))
                .hasMessageStartingWith("Cannot load table lake.sys_t.`t$fulltext$snapshots`")
                .hasMessageContaining("holds another '$'")
                .hasMessageContaining("lake.sys_t.`t$snapshots`");
        // Before: TABLE_OR_VIEW_NOT_FOUND.
        assertThatThrownBy(() -> sql("SELECT * FROM lake.sys_t.`t$fulltext` VERSION AS OF 1"))
                .hasMessageStartingWith(
                        "Cannot time travel lake.sys_t.`t$fulltext` to VERSION AS OF: Strata's"
                                + " system tables describe the latest snapshot only");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "SELECT * FROM lake.sys_t.`t$shredding` TIMESTAMP AS OF"
                                                + " '2020-01-01 00:00:00'"))
                .hasMessageContaining("lake.sys_t.t TIMESTAMP AS OF");
    }

    /** Errors name system tables in the quoted form, which Spark 4.2's parser accepts too. */
    @Test
    void errorsNameSystemTablesInAFormThatParses() {
        assertThatThrownBy(() -> sql("SELECT * FROM lake.sys_t.t VERSION AS OF 999"))
                .hasMessageContaining("lake.sys_t.`t$snapshots`");
        assertThatThrownBy(() -> sql("CALL lake.sys.rollback(table => 'sys_t.t', snapshot => 999)"))
                .hasMessageContaining("lake.sys_t.`t$snapshots`");
        assertThatThrownBy(() -> sql("CALL lake.sys.delete_tag(table => 'sys_t.t', tag => 'nope')"))
                .hasMessageContaining("lake.sys_t.`t$tags`");
        assertThat(sql("SELECT count(*) FROM lake.sys_t.`t$snapshots`").get(0).getLong(0))
                .isPositive();
    }
}
