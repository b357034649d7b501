package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.spark.compat.SparkVersionApi;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Names that are not one path segment are refused before any file operation, and DROP deletes only
 * inside the warehouse. Every attack runs as SQL against a real warehouse next to a sentinel file
 * outside it and a table inside it; after each refusal both are unchanged and no file appeared
 * outside the warehouse.
 */
class WarehouseNamesTest extends StrataSparkTestBase {

    private static final String SENTINEL_TEXT = "must survive";
    private static final List<List<Object>> KEPT_ROWS = List.of(list(1, "a"), list(2, "b"));

    private Path sentinel;
    private Path foreignDatabase;

    @BeforeAll
    void createSentinelsAndKeptTable() throws IOException {
        sentinel = root.resolve("outside").resolve("sentinel.txt");
        Files.createDirectories(sentinel.getParent());
        Files.writeString(sentinel, SENTINEL_TEXT);
        // a directory that DROP NAMESPACE lake.`../x` would resolve to (<warehouse>/../x.db)
        foreignDatabase = root.resolve("x.db");
        Files.createDirectories(foreignDatabase);
        Files.writeString(foreignDatabase.resolve("foreign.txt"), SENTINEL_TEXT);
        sql("CREATE NAMESPACE lake.keep");
        sql("CREATE TABLE lake.keep.t (id INT, v STRING)");
        sql("INSERT INTO lake.keep.t VALUES (1, 'a'), (2, 'b')");
        sql("CREATE NAMESPACE lake.db");
    }

    @BeforeEach
    void everythingIntactBefore() throws IOException {
        assertIntact();
    }

    /**
     * The sentinel, the foreign directory and the kept table are as created; nothing new outside.
     */
    private void assertIntact() throws IOException {
        assertThat(sentinel).exists();
        assertThat(Files.readString(sentinel, StandardCharsets.UTF_8)).isEqualTo(SENTINEL_TEXT);
        assertThat(foreignDatabase.resolve("foreign.txt")).exists();
        assertThat(values(sql("SELECT id, v FROM lake.keep.t ORDER BY id"))).isEqualTo(KEPT_ROWS);
        try (Stream<Path> top = Files.list(root)) {
            assertThat(
                            top.map(p -> p.getFileName().toString())
                                    .filter(n -> !n.equals("spark-warehouse")))
                    .containsExactlyInAnyOrder("warehouse", "outside", "x.db");
        }
        try (Stream<Path> outside = Files.list(sentinel.getParent())) {
            assertThat(outside.map(p -> p.getFileName().toString()))
                    .containsExactly("sentinel.txt");
        }
        try (Stream<Path> foreign = Files.list(foreignDatabase)) {
            assertThat(foreign.map(p -> p.getFileName().toString())).containsExactly("foreign.txt");
        }
        // only database directories at the warehouse's top level: a table named '..' would put its
        // schema and snapshot directories here
        try (Stream<Path> top = Files.list(warehouse)) {
            assertThat(top.map(p -> p.getFileName().toString())).allMatch(n -> n.endsWith(".db"));
        }
    }

    private void assertRefused(Executable statement, String... messageParts) throws IOException {
        assertThatThrownBy(statement::execute).hasMessageContainingAll(messageParts);
        assertIntact();
    }

    @Test
    void tableNamedDotDotIsNeitherCreatedNorDropped() throws IOException {
        String rule =
                "Table names must not be empty, '.' or '..' and must not contain '/', '\\' or control characters.";
        assertRefused(
                () -> sql("CREATE TABLE lake.db.`..` (x INT)"),
                "Cannot use table lake.db.`..`: the name '..' is a relative path step.",
                rule);
        assertRefused(
                () -> sql("DROP TABLE lake.db.`..`"),
                "Cannot use table lake.db.`..`: the name '..' is a relative path step.",
                rule);
        assertRefused(
                () -> sql("CREATE TABLE lake.db.`.` (x INT)"),
                "the name '.' is a relative path step");
        // the catalog's own entry points check too, whatever existence checks Spark made before
        TableCatalog lake = (TableCatalog) SparkVersionApi.catalog(spark, "lake");
        Identifier dotDot = Identifier.of(new String[] {"db"}, "..");
        assertRefused(
                () ->
                        lake.createTable(
                                dotDot,
                                new StructType().add("x", "int"),
                                new Transform[0],
                                Map.of()),
                "Cannot create table lake.db.`..`: the name '..' is a relative path step.",
                rule);
        assertRefused(
                () -> lake.dropTable(dotDot),
                "Cannot drop table lake.db.`..`: the name '..' is a relative path step.",
                rule);
        assertRefused(
                () -> sql("DROP TABLE IF EXISTS lake.db.`.`"),
                "the name '.' is a relative path step");
    }

    @Test
    void tableNamesWithSeparatorsOrControlCharactersAreRefusedNamingTheCharacter()
            throws IOException {
        assertRefused(
                () -> sql("CREATE TABLE lake.db.`../../outside/t` (x INT)"),
                "Cannot use table lake.db.`../../outside/t`",
                "contains '/' (U+002F)");
        assertRefused(
                () -> sql("CREATE TABLE lake.db.`..\\..\\outside` (x INT)"),
                "contains '\\' (U+005C)");
        assertRefused(
                () -> sql("CREATE TABLE lake.db.`bell\u0007` (x INT)"),
                "contains the control character U+0007 at position 4");
        assertRefused(
                () -> sql("CREATE TABLE lake.db.`del\u007f` (x INT)"), "control character U+007F");
        assertRefused(
                () -> sql("CREATE TABLE lake.db.`../../outside` AS SELECT 1 AS x"),
                "Cannot use table lake.db.`../../outside`",
                "contains '/' (U+002F)");
        assertRefused(
                () -> sql("INSERT INTO lake.db.`../../outside` VALUES (1)"),
                "contains '/' (U+002F)");
        assertRefused(() -> sql("SELECT * FROM lake.db.`../../outside`"), "contains '/' (U+002F)");
        assertRefused(
                () -> sql("DROP TABLE lake.db.`../../outside/sentinel.txt`"),
                "Cannot use table lake.db.`../../outside/sentinel.txt`",
                "contains '/' (U+002F)");
    }

    @Test
    void namespacesOutsideTheWarehouseAreNeitherCreatedNorDropped() throws IOException {
        String rule =
                "Namespace names must not be empty, '.' or '..' and must not contain '/', '\\' or control "
                        + "characters.";
        assertRefused(
                () -> sql("DROP NAMESPACE lake.`../x` CASCADE"),
                "Cannot use namespace lake.`../x`: the name '../x' contains '/' (U+002F).",
                rule);
        assertRefused(
                () -> sql("DROP NAMESPACE IF EXISTS lake.`../x` CASCADE"), "contains '/' (U+002F)");
        // Spark 4.1 asks whether the namespace exists first ("Cannot use ..."), 4.2 goes straight
        // to
        // createNamespace ("Cannot create ..."): either way the name is refused before any file.
        assertRefused(
                () -> sql("CREATE NAMESPACE lake.`../y`"),
                "namespace lake.`../y`: the name '../y' contains '/' (U+002F)");
        assertRefused(
                () -> sql("CREATE NAMESPACE lake.`..`"), "the name '..' is a relative path step");
        assertRefused(
                () -> sql("CREATE TABLE lake.`../x`.t (x INT)"),
                "Cannot use table lake.`../x`.t",
                "contains '/' (U+002F)",
                rule);
        assertRefused(() -> sql("SHOW TABLES IN lake.`../x`"), "contains '/' (U+002F)");
        assertRefused(
                () ->
                        sql(
                                "CREATE NAMESPACE lake.located LOCATION '%s'",
                                sentinel.getParent().toUri()),
                "Cannot create namespace lake.located with LOCATION");
    }

    @Test
    void renameIntoANameOutsideTheWarehouseIsRefused() throws IOException {
        sql("CREATE TABLE lake.db.movable (x INT)");
        sql("INSERT INTO lake.db.movable VALUES (7)");
        assertRefused(
                () -> sql("ALTER TABLE lake.db.movable RENAME TO db.`../../outside/moved`"),
                "Cannot rename table lake.db.movable to lake.db.`../../outside/moved`",
                "contains '/' (U+002F)");
        assertRefused(
                () -> sql("ALTER TABLE lake.db.movable RENAME TO db.`..`"),
                "'..' is a relative path step");
        assertThat(values(sql("SELECT x FROM lake.db.movable"))).containsExactly(list(7));
        sql("ALTER TABLE lake.db.movable RENAME TO db.moved_ok");
        assertThat(values(sql("SELECT x FROM lake.db.moved_ok"))).containsExactly(list(7));
    }

    @Test
    void systemTableBranchAndTagNamesAreChecked() throws IOException {
        assertRefused(
                () -> sql("SELECT * FROM lake.db.`..$snapshots`"),
                "lake.db.`..$snapshots`: the name '..' is a relative path step");
        assertRefused(
                () -> sql("SELECT * FROM lake.keep.`t$branch_..`"),
                "the name '..' is a relative path step",
                "Branch names must not be empty");
        assertRefused(
                () -> sql("SELECT * FROM lake.keep.t VERSION AS OF '../../outside/sentinel'"),
                "Cannot time travel table lake.keep.t to VERSION AS OF",
                "contains '/' (U+002F)",
                "Tag names must not be empty");
        // Before: Paimon's "Cannot clean up because we can't determine the success".
        assertRefused(
                () ->
                        sql(
                                "CALL lake.sys.create_tag(table => 'keep.t', tag => '%s')",
                                "t".repeat(300)),
                "is 300 bytes long, more than the 200",
                "Tag names must not be empty");
        // snapshot ids still work
        assertThat(sql("SELECT * FROM lake.keep.t VERSION AS OF 1")).hasSize(2);
    }

    @Test
    void procedureTableArgumentsAreParsedAsIdentifiersAndChecked() throws IOException {
        assertRefused(
                () -> sql("CALL lake.sys.compact(table => 'db.`..`')"),
                "Cannot run lake.sys.compact on lake.db.`..`: the name '..' is a relative path step");
        assertRefused(
                () -> sql("CALL lake.sys.compact(table => 'db.`../../outside`')"),
                "contains '/' (U+002F)");
        assertRefused(
                () -> sql("CALL lake.sys.compact(table => '`../x`.t')"),
                "Cannot run lake.sys.compact on lake.`../x`.t",
                "contains '/' (U+002F)");
        // a quoted plain name is the table itself
        sql("CALL lake.sys.compact(table => 'lake.`keep`.`t`')");
        assertThat(values(sql("SELECT id, v FROM lake.keep.t ORDER BY id"))).isEqualTo(KEPT_ROWS);
    }
}
