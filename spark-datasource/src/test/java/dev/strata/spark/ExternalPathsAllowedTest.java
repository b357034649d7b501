package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.paimon.io.DataFileMeta;
import org.junit.jupiter.api.Test;

/**
 * A catalog with {@code allow-external-paths = true}: absolute external locations are accepted and
 * really hold the table's data files, relative or {@code ..} locations are still refused, and DROP
 * TABLE deletes only the table's own directory, never the external root other data may share.
 */
class ExternalPathsAllowedTest extends StrataSparkTestBase {

    @Override
    protected Map<String, String> extraConf() {
        return Map.of("spark.sql.catalog.lake.allow-external-paths", "true");
    }

    private static List<Path> parquetFiles(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().endsWith(".parquet"))
                    .toList();
        }
    }

    @Test
    void absoluteExternalPathsHoldTheDataFilesAndReadBack() throws Exception {
        Path external = root.resolve("ext-write");
        sql("CREATE NAMESPACE IF NOT EXISTS lake.db");
        sql(
                "CREATE TABLE lake.db.ext (id INT, v STRING) TBLPROPERTIES ("
                        + "'data-file.external-paths' = '%s', 'data-file.external-paths.strategy' = 'round-robin')",
                external.toUri());
        sql("INSERT INTO lake.db.ext VALUES (1, 'one'), (2, 'two'), (3, NULL)");
        sql("INSERT INTO lake.db.ext VALUES (4, 'four')");

        // every data file of the snapshot is one of the files in the external directory, none in
        // the table's
        List<DataFileMeta> files =
                paimonTable("db", "ext").newSnapshotReader().read().dataSplits().stream()
                        .flatMap(s -> s.dataFiles().stream())
                        .toList();
        assertThat(files).isNotEmpty();
        assertThat(files)
                .allSatisfy(
                        f ->
                                assertThat(f.externalPath())
                                        .hasValueSatisfying(
                                                p ->
                                                        assertThat(java.net.URI.create(p).getPath())
                                                                .startsWith(external + "/")));
        assertThat(parquetFiles(external).stream().map(p -> p.getFileName().toString()))
                .containsExactlyInAnyOrderElementsOf(
                        files.stream().map(DataFileMeta::fileName).toList());
        assertThat(parquetFiles(warehouse.resolve("db.db").resolve("ext"))).isEmpty();
        assertThat(values(sql("SELECT id, v FROM lake.db.ext ORDER BY id")))
                .containsExactly(list(1, "one"), list(2, "two"), list(3, null), list(4, "four"));
    }

    @Test
    void relativeOrDotDotExternalPathsAreRefusedEvenWhenAllowed() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.rel");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.rel.t (id INT) TBLPROPERTIES ("
                                                + "'data-file.external-paths' = '../../outside')"))
                .hasMessageContainingAll(
                        "Cannot create table lake.rel.t: option 'data-file.external-paths' holds "
                                + "'../../outside', which contains the relative path step '..'.",
                        "Use absolute locations");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.rel.t (id INT) TBLPROPERTIES ("
                                                + "'data-file.external-paths' = 'outside')"))
                .hasMessageContaining("holds 'outside', which is a relative path.");
        String sneaky = root.resolve("ext-ok").toUri() + "/../../../outside";
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.rel.t (id INT) TBLPROPERTIES ("
                                                + "'data-file.external-paths' = '%s,%s')",
                                        root.resolve("ext-ok").toUri(), sneaky))
                .hasMessageContaining("contains the relative path step '..'");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.rel.t (id INT) TBLPROPERTIES ('path' = '%s')",
                                        root.resolve("outside").toUri()))
                .hasMessageContaining("option 'path' would place the table outside");
        assertThat(sql("SHOW TABLES IN lake.rel")).isEmpty();
        assertThat(root.resolve("outside")).doesNotExist();
        assertThat(root.resolve("ext-ok")).doesNotExist();
    }

    @Test
    void dropTableKeepsTheExternalRootAndWhatElseItHolds() throws IOException {
        Path external = root.resolve("ext-shared");
        Files.createDirectories(external);
        Path foreign = external.resolve("someone-elses.txt");
        Files.writeString(foreign, "must survive");
        sql("CREATE NAMESPACE IF NOT EXISTS lake.dropper");
        sql(
                "CREATE TABLE lake.dropper.t (id INT) TBLPROPERTIES ("
                        + "'data-file.external-paths' = '%s', 'data-file.external-paths.strategy' = 'round-robin')",
                external.toUri());
        sql("INSERT INTO lake.dropper.t VALUES (1), (2)");
        assertThat(parquetFiles(external)).isNotEmpty();

        sql("DROP TABLE lake.dropper.t");

        assertThat(sql("SHOW TABLES IN lake.dropper")).isEmpty();
        assertThat(warehouse.resolve("dropper.db").resolve("t")).doesNotExist();
        assertThat(foreign).hasContent("must survive");
        // a new table of the same name starts empty
        sql("CREATE TABLE lake.dropper.t (id INT)");
        assertThat(sql("SELECT * FROM lake.dropper.t")).isEmpty();
    }
}
