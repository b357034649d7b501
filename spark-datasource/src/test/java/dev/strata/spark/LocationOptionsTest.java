package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Table options that would put files outside the warehouse are refused at CREATE TABLE, CTAS and
 * ALTER TABLE while the catalog does not set {@code allow-external-paths}; after each refusal no
 * file exists outside the warehouse, the other table is unchanged, and the error names the table
 * and the option.
 */
class LocationOptionsTest extends StrataSparkTestBase {

    private static final List<List<Object>> KEPT_ROWS = List.of(list(1, "a"), list(2, "b"));

    private Path sentinel;
    private Path external;

    @BeforeAll
    void createSentinelAndKeptTable() throws IOException {
        sentinel = root.resolve("outside").resolve("sentinel.txt");
        Files.createDirectories(sentinel.getParent());
        Files.writeString(sentinel, "must survive");
        external = root.resolve("ext");
        sql("CREATE NAMESPACE lake.keep");
        sql("CREATE TABLE lake.keep.t (id INT, v STRING)");
        sql("INSERT INTO lake.keep.t VALUES (1, 'a'), (2, 'b')");
        sql("CREATE NAMESPACE lake.db");
    }

    @BeforeEach
    void intactBefore() throws IOException {
        assertIntact();
    }

    /** Nothing outside the warehouse but the sentinel; the kept table answers as written. */
    private void assertIntact() throws IOException {
        try (Stream<Path> top = Files.list(root)) {
            assertThat(
                            top.map(p -> p.getFileName().toString())
                                    .filter(n -> !n.equals("spark-warehouse")))
                    .containsExactlyInAnyOrder("warehouse", "outside");
        }
        try (Stream<Path> outside = Files.walk(sentinel.getParent())) {
            assertThat(outside.filter(Files::isRegularFile)).containsExactly(sentinel);
        }
        assertThat(values(sql("SELECT id, v FROM lake.keep.t ORDER BY id"))).isEqualTo(KEPT_ROWS);
        try (Stream<Path> top = Files.list(warehouse)) {
            assertThat(top.map(p -> p.getFileName().toString())).allMatch(n -> n.endsWith(".db"));
        }
    }

    private void assertRefused(Executable statement, String... messageParts) throws IOException {
        assertThatThrownBy(statement::execute).hasMessageContainingAll(messageParts);
        assertIntact();
        assertThat(sql("SHOW TABLES IN lake.db")).isEmpty();
    }

    @Test
    void externalLocationsAreRefusedWithoutTheCatalogSwitch() throws IOException {
        String uri = external.toUri().toString();
        for (String option :
                List.of(
                        "data-file.external-paths",
                        "global-index.external-path",
                        "blob-external-storage-path")) {
            assertRefused(
                    () ->
                            sql(
                                    "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('%s' = '%s')",
                                    option, uri),
                    "Cannot create table lake.db.t: option '"
                            + option
                            + "' moves files outside the warehouse. "
                            + "Set spark.sql.catalog.lake.allow-external-paths=true to allow absolute external "
                            + "locations.");
        }
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t TBLPROPERTIES ('data-file.external-paths' = '%s', "
                                        + "'data-file.external-paths.strategy' = 'round-robin') AS SELECT 1 AS id",
                                uri),
                "Cannot create table lake.db.t: option 'data-file.external-paths' moves files outside");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) USING paimon OPTIONS ('data-file.external-paths' "
                                        + "= '%s')",
                                uri),
                "option 'data-file.external-paths' moves files outside");
    }

    @Test
    void alterTableCannotMoveFilesOut() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.alt");
        sql("CREATE TABLE lake.alt.t (id INT, v STRING)");
        sql("INSERT INTO lake.alt.t VALUES (1, 'a')");
        String uri = external.toUri().toString();
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.alt.t SET TBLPROPERTIES ("
                                                + "'data-file.external-paths' = '%s', 'data-file.external-paths.strategy' = 'round-robin')",
                                        uri))
                .hasMessageContaining(
                        "Cannot alter table lake.alt.t: option 'data-file.external-paths' moves files "
                                + "outside the warehouse.");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.alt.t SET TBLPROPERTIES ("
                                                + "'data-file.path-directory' = '../../../../outside')"))
                .hasMessageContainingAll(
                        "Cannot alter table lake.alt.t", "'data-file.path-directory'");
        assertThatThrownBy(() -> sql("ALTER TABLE lake.alt.t SET LOCATION '%s'", uri))
                .hasMessageContainingAll("Cannot alter table lake.alt.t: option 'location'");
        // A value Paimon cannot parse is named with its option, not as "For input string".
        assertThatThrownBy(() -> sql("ALTER TABLE lake.alt.t SET TBLPROPERTIES ('bucket' = 'abc')"))
                .hasMessageContaining(
                        "Cannot alter table lake.alt.t: option 'bucket' cannot be 'abc'");
        assertThat(paimonTable("alt", "t").options())
                .doesNotContainKeys(
                        "data-file.external-paths", "data-file.path-directory", "location");
        // the table still writes inside its own directory
        sql("INSERT INTO lake.alt.t VALUES (2, 'b')");
        assertThat(values(sql("SELECT id, v FROM lake.alt.t ORDER BY id")))
                .containsExactly(list(1, "a"), list(2, "b"));
        assertThat(dataFilesOnDisk("alt", "t")).hasSize(2);
        assertIntact();
    }

    @Test
    void dataFileDirectoryMustStayInsideTheTable() throws IOException {
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('data-file.path-directory' = "
                                        + "'../../..')"),
                "Cannot create table lake.db.t: option 'data-file.path-directory' = '../../..' has a segment where "
                        + "the segment '..' is a relative path step.");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('data-file.path-directory' = '%s')",
                                root.resolve("outside").toString()),
                "option 'data-file.path-directory'",
                "starts with '/' (U+002F)");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('data-file.path-directory' = "
                                        + "'file:/tmp')"),
                "contains ':' (U+003A)");
        // a sub-directory inside the table is fine: the data files land there and read back
        sql(
                "CREATE TABLE lake.db.sub (id INT, v STRING) TBLPROPERTIES ('data-file.path-directory' = 'files/v1')");
        sql("INSERT INTO lake.db.sub VALUES (5, 'e'), (6, 'f')");
        assertThat(values(sql("SELECT id, v FROM lake.db.sub ORDER BY id")))
                .containsExactly(list(5, "e"), list(6, "f"));
        Path dataDir = warehouse.resolve("db.db").resolve("sub").resolve("files").resolve("v1");
        try (Stream<Path> files = Files.walk(dataDir)) {
            assertThat(files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.startsWith("data-") && n.endsWith(".parquet"));
        }
        sql("DROP TABLE lake.db.sub");
    }

    @Test
    void tableLocationPrefixesAndBranchNamesAreChecked() throws IOException {
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('path' = '%s')",
                                root.resolve("outside").toUri()),
                "Cannot create table lake.db.t: option 'path' would place the table outside");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) LOCATION '%s'",
                                root.resolve("outside").toUri()),
                "Cannot create table lake.db.t with LOCATION");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('data-file.prefix' = "
                                        + "'../../../../outside/data-')"),
                "Cannot create table lake.db.t: option 'data-file.prefix'",
                "contains '/' (U+002F)");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('changelog-file.prefix' = 'a\\\\b')"),
                "option 'changelog-file.prefix'",
                "contains '\\' (U+005C)");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('branch' = '../../../../outside')"),
                "Cannot create table lake.db.t: option 'branch'",
                "contains '/' (U+002F)",
                "Branch names must not");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('scan.fallback-branch' = '..')"),
                "option 'scan.fallback-branch'",
                "the name '..' is a relative path step");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('scan.tag-name' = 'a/b')"),
                "option 'scan.tag-name'",
                "Tag names must not");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('incremental-between' = 't1,../t2')"),
                "option 'incremental-between'",
                "the name '../t2' contains '/' (U+002F)",
                "Tag names must not");
    }

    @Test
    void icebergMetadataOutsideTheTableIsRefused() throws IOException {
        for (String storage : List.of("hadoop-catalog", "HADOOP_CATALOG")) {
            assertRefused(
                    () ->
                            sql(
                                    "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('metadata.iceberg.storage' = '%s')",
                                    storage),
                    "Cannot create table lake.db.t: option 'metadata.iceberg.storage' = 'hadoop-catalog' "
                            + "writes Iceberg metadata to <warehouse>/iceberg/<db>/<table>, outside the table's "
                            + "directory, where DROP TABLE leaves it. Set 'metadata.iceberg.storage-location' = "
                            + "'table-location' to keep it inside the table, or set "
                            + "spark.sql.catalog.lake.allow-external-paths=true to allow it.");
        }
        for (String storage : List.of("rest-catalog", "hive-catalog")) {
            assertRefused(
                    () ->
                            sql(
                                    "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('metadata.iceberg.storage' = '%s', "
                                            + "'metadata.iceberg.storage-location' = 'table-location')",
                                    storage),
                    "Cannot create table lake.db.t: option 'metadata.iceberg.storage' = '"
                            + storage
                            + "' registers the table's Iceberg metadata in another catalog");
        }
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t TBLPROPERTIES ('metadata.iceberg.storage' = 'table-location', "
                                        + "'metadata.iceberg.storage-location' = 'catalog-storage') AS SELECT 1 AS id"),
                "option 'metadata.iceberg.storage' = 'table-location' with "
                        + "'metadata.iceberg.storage-location' = 'catalog-storage' writes Iceberg metadata to");
        assertRefused(
                () ->
                        sql(
                                "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('metadata.iceberg.storage' = 'elsewhere')"),
                "option 'metadata.iceberg.storage' = 'elsewhere' is not one of disabled, table-location, "
                        + "hadoop-catalog, hive-catalog, rest-catalog.");
        for (String option : List.of("commit.callbacks", "tag.callbacks")) {
            assertRefused(
                    () ->
                            sql(
                                    "CREATE TABLE lake.db.t (id INT) TBLPROPERTIES ('%s' = 'com.example.Hook')",
                                    option),
                    "Cannot create table lake.db.t: option '"
                            + option
                            + "' runs the classes 'com.example.Hook'");
        }
    }

    @Test
    void alterTableCannotSendIcebergMetadataOut() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ice");
        sql("CREATE TABLE lake.ice.t (id INT, v STRING)");
        sql("INSERT INTO lake.ice.t VALUES (1, 'a')");
        for (String storage : List.of("hadoop-catalog", "rest-catalog")) {
            assertThatThrownBy(
                            () ->
                                    sql(
                                            "ALTER TABLE lake.ice.t SET TBLPROPERTIES ('metadata.iceberg.storage' = '%s')",
                                            storage))
                    .hasMessageContaining(
                            "Cannot alter table lake.ice.t: option 'metadata.iceberg.storage' = '"
                                    + storage
                                    + "'");
        }
        // Inside the table is fine, but the location cannot then be moved out by itself.
        sql(
                "ALTER TABLE lake.ice.t SET TBLPROPERTIES ('metadata.iceberg.storage' = 'hadoop-catalog', "
                        + "'metadata.iceberg.storage-location' = 'table-location')");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.ice.t SET TBLPROPERTIES ("
                                                + "'metadata.iceberg.storage-location' = 'catalog-storage')"))
                .hasMessageContaining(
                        "Cannot alter table lake.ice.t: option 'metadata.iceberg.storage' = 'hadoop-catalog' "
                                + "with 'metadata.iceberg.storage-location' = 'catalog-storage'");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.ice.t UNSET TBLPROPERTIES ("
                                                + "'metadata.iceberg.storage-location')"))
                .hasMessageContaining(
                        "writes Iceberg metadata to <warehouse>/iceberg/<db>/<table>");
        sql("INSERT INTO lake.ice.t VALUES (2, 'b')");
        assertThat(values(sql("SELECT id, v FROM lake.ice.t ORDER BY id")))
                .containsExactly(list(1, "a"), list(2, "b"));
        Path tableDir = warehouse.resolve("ice.db").resolve("t");
        try (Stream<Path> files = Files.walk(tableDir.resolve("metadata"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("Paimon wrote the Iceberg metadata inside the table")
                    .anyMatch(n -> n.endsWith(".metadata.json"));
        }
        assertIntact();
        sql("DROP TABLE lake.ice.t");
        assertThat(tableDir).doesNotExist();
        assertIntact();
    }

    @Test
    void showCreateTablePrintsAStatementThatCreatesTheSameTableUnderAnotherName() {
        sql(
                "CREATE TABLE lake.db.shown (id BIGINT, dt STRING, body STRING) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2', "
                        + "'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')");
        String shown = sql("SHOW CREATE TABLE lake.db.shown").get(0).getString(0);
        assertThat(shown).doesNotContain("'path'");
        sql(shown.replace("lake.db.shown", "lake.db.shown_again"));
        assertThat(sql("SHOW CREATE TABLE lake.db.shown_again").get(0).getString(0))
                .isEqualTo(shown.replace("lake.db.shown", "lake.db.shown_again"));
        // The other cases expect lake.db to hold only what they create.
        sql("DROP TABLE lake.db.shown");
        sql("DROP TABLE lake.db.shown_again");
    }
}
