package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Statements new users run that used to fail with errors naming nothing they could fix, or to
 * succeed where they should not: compaction of an empty append table, tag names with a comma, a
 * catalog-qualified RENAME TO, and misspelled table options.
 */
class StatementErrorsTest extends StrataSparkTestBase {

    @BeforeAll
    void createNamespace() {
        sql("CREATE NAMESPACE lake.f");
    }

    @Test
    void compactingAnEmptyAppendTableCompactsNothing() {
        sql("CREATE TABLE lake.f.emptyap (id INT, v STRING)");
        assertThat(sql("CALL lake.sys.compact(table => 'f.emptyap')")).isEmpty();
        sql("CREATE TABLE lake.f.emptyparted (id INT, dt STRING) PARTITIONED BY (dt)");
        assertThat(
                        sql(
                                "CALL lake.sys.compact(table => 'f.emptyparted', where => 'dt = ''2026-11-01''')"))
                .isEmpty();
        // and the table still takes rows and compacts them afterwards
        sql("INSERT INTO lake.f.emptyap VALUES (1, 'a')");
        sql("INSERT INTO lake.f.emptyap VALUES (2, 'b')");
        sql("CALL lake.sys.compact(table => 'f.emptyap')");
        assertThat(values(sql("SELECT id, v FROM lake.f.emptyap ORDER BY id")))
                .containsExactly(list(1, "a"), list(2, "b"));
    }

    @Test
    void tagNamesWithACommaAreRefusedAtCreation() {
        sql("CREATE TABLE lake.f.tagged (id INT)");
        sql("INSERT INTO lake.f.tagged VALUES (1)");
        assertThatThrownBy(() -> sql("CALL lake.sys.create_tag(table => 'f.tagged', tag => 'a,b')"))
                .hasMessageContaining("Cannot create tag 'a,b' of lake.f.tagged")
                .hasMessageContaining("must not contain ','");
        assertThat(sql("SELECT tag_name FROM lake.f.`tagged$tags`")).isEmpty();
        sql("CALL lake.sys.create_tag(table => 'f.tagged', tag => 'a')");
        sql("CALL lake.sys.create_tag(table => 'f.tagged', tag => 'b')");
        assertThat(values(sql("CALL lake.sys.delete_tag(table => 'f.tagged', tag => 'a,b')")))
                .containsExactly(list("a"), list("b"));
        assertThat(sql("SELECT tag_name FROM lake.f.`tagged$tags`")).isEmpty();
    }

    @Test
    void renameToACatalogQualifiedName() {
        sql("CREATE TABLE lake.f.movable (id INT)");
        sql("INSERT INTO lake.f.movable VALUES (7)");
        assertThatThrownBy(() -> sql("ALTER TABLE lake.f.movable RENAME TO lake.f.`../t2`"))
                .hasMessageContaining("Cannot rename table lake.f.movable to")
                .hasMessageContaining("contains '/'")
                .hasMessageContaining("Table names must not");
        assertThatThrownBy(() -> sql("ALTER TABLE lake.f.movable RENAME TO other.f.t2"))
                .hasMessageContaining("the new name must be db.table or lake.db.table");
        sql("ALTER TABLE lake.f.movable RENAME TO lake.f.moved");
        assertThat(values(sql("SELECT id FROM lake.f.moved"))).containsExactly(list(7));
    }

    @Test
    void misspelledTableOptionsAreRefusedNamingTheKnownKey() {
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.f.typo (id INT NOT NULL) TBLPROPERTIES"
                                                + " ('primary-key' = 'id', 'bukket' = '4')"))
                .hasMessageContaining("Cannot set option 'bukket' for table lake.f.typo")
                .hasMessageContaining("close to 'bucket'")
                .hasMessageContaining("'strata.custom-options' = 'bukket'");
        assertThat(sql("SHOW TABLES IN lake.f LIKE 'typo'")).isEmpty();
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.f.typo2 (id INT NOT NULL, body STRING) TBLPROPERTIES"
                                                + " ('primary-key' = 'id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true',"
                                                + " 'strata-full-text.index.column' = 'body')"))
                .hasMessageContaining("close to 'strata-full-text.index.columns'");

        // keys Paimon accepts, per-column patterns, far-off custom keys and listed custom keys
        sql(
                "CREATE TABLE lake.f.opts (id INT NOT NULL, m MAP<STRING, INT>) TBLPROPERTIES"
                        + " ('primary-key' = 'id', 'bucket' = '2', 'fields.m.map.storage-layout' = 'shared-shredding',"
                        + " 'file.compression' = 'zstd', 'my.team.owner' = 'ops',"
                        + " 'bukket' = 'x', 'strata.custom-options' = 'bukket')");
        assertThat(values(sql("SHOW TBLPROPERTIES lake.f.opts ('bukket')")))
                .containsExactly(list("bukket", "x"));

        // ALTER TABLE checks the keys it adds
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.f.opts SET TBLPROPERTIES ('snapshot.num-retained.mn' = '5')"))
                .hasMessageContaining("Cannot set option 'snapshot.num-retained.mn'")
                .hasMessageContaining("'snapshot.num-retained.min'");
        sql("ALTER TABLE lake.f.opts SET TBLPROPERTIES ('snapshot.num-retained.min' = '5')");
        assertThat(values(sql("SHOW TBLPROPERTIES lake.f.opts ('snapshot.num-retained.min')")))
                .isEqualTo(List.of(list("snapshot.num-retained.min", "5")));
    }

    @Test
    void misspelledPerColumnOptionsAreRefusedNamingTheColumnsKey() {
        // Paimon keeps any fields.<column>.* key: these tables would have been created as plain
        // MAPs, with Paimon's default K, and without the aggregate function.
        String[][] cases = {
            {"'fields.m.map.storage-layot' = 'shared-shredding'", "'fields.m.map.storage-layout'"},
            {
                "'fields.m.map.storage-layout' = 'shared-shredding', 'fields.m.map.max-columns' = '8'",
                "'fields.m.map.shared-shredding.max-columns'"
            },
            {
                "'fields.m.map.storage-layout' = 'shared-shredding',"
                        + " 'fields.m.map.shared-shredding.max-colums' = '8'",
                "'fields.m.map.shared-shredding.max-columns'"
            },
            {
                "'merge-engine' = 'aggregation', 'fields.v.aggregate-functon' = 'sum'",
                "'fields.v.aggregate-function'"
            },
        };
        for (String[] c : cases) {
            assertThatThrownBy(
                            () ->
                                    sql(
                                            "CREATE TABLE lake.f.coltypo (id INT NOT NULL, v BIGINT,"
                                                    + " m MAP<STRING, DOUBLE>) TBLPROPERTIES"
                                                    + " ('primary-key' = 'id', 'bucket' = '1', "
                                                    + c[0]
                                                    + ")"))
                    .as(c[0])
                    .hasMessageContaining("for table lake.f.coltypo")
                    .hasMessageContaining("close to " + c[1]);
            assertThat(sql("SHOW TABLES IN lake.f LIKE 'coltypo'")).isEmpty();
        }

        // Paimon's and Strata's per-column keys, a group of columns, and a custom key far from
        // every option pass; ALTER TABLE checks the keys it adds.
        sql(
                "CREATE TABLE lake.f.colopts (id INT NOT NULL, a BIGINT, b BIGINT, v BIGINT,"
                        + " m MAP<STRING, DOUBLE>) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1', 'merge-engine' = 'partial-update',"
                        + " 'fields.v.sequence-group' = 'a,b', 'fields.a.stats-mode' = 'full',"
                        + " 'fields.m.map.storage-layout' = 'shared-shredding',"
                        + " 'fields.m.map.shared-shredding.max-columns' = '8',"
                        + " 'fields.m.owner-team' = 'ops')");
        assertThat(values(sql("SHOW TBLPROPERTIES lake.f.colopts ('fields.m.owner-team')")))
                .containsExactly(list("fields.m.owner-team", "ops"));
        // A column name with a dot: the key names column `a.b`, not column a.
        sql(
                "CREATE TABLE lake.f.dotted (a INT, `a.b` BIGINT) TBLPROPERTIES"
                        + " ('fields.a.b.stats-mode' = 'full')");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.f.colopts SET TBLPROPERTIES"
                                                + " ('fields.m.map.column-placement-policy' = 'lru')"))
                .hasMessageContaining("'fields.m.map.column-placement-policy'")
                .hasMessageContaining(
                        "close to 'fields.m.map.shared-shredding.column-placement-policy'");
    }
}
