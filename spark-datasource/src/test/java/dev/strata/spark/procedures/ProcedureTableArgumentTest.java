package dev.strata.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.spark.StrataSparkTestBase;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * The {@code table} argument of procedures is a SQL multi-part identifier: backquoted parts may
 * hold dots, the catalog's own name may lead, and anything else is refused saying what was
 * expected. The same names reach Strata's system tables.
 */
class ProcedureTableArgumentTest extends StrataSparkTestBase {

    @Test
    void backquotedPartsWithDotsNameTheTable() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.args");
        sql(
                "CREATE TABLE lake.args.`we.ird` (id BIGINT, body STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '1', 'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')");
        sql("INSERT INTO lake.args.`we.ird` VALUES (1, 'a'), (2, 'b')");

        List<Row> report = sql("CALL lake.sys.compact(table => 'lake.args.`we.ird`')");
        assertThat(report).singleElement().satisfies(r -> assertThat(r.getLong(4)).isEqualTo(2));
        assertThat(sql("CALL lake.sys.create_tag(table => 'args.`we.ird`', tag => 't1')"))
                .singleElement()
                .satisfies(r -> assertThat(r.getString(0)).isEqualTo("t1"));
        assertThat(sql("SELECT sum(rows), sum(rows_not_covered) FROM lake.args.`we.ird$fulltext`"))
                .singleElement()
                .satisfies(
                        r -> {
                            assertThat(r.getLong(0)).isEqualTo(2);
                            assertThat(r.getLong(1)).isZero();
                        });
    }

    @Test
    void aBareTableNameIsATableOfTheCurrentDatabase() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.bare");
        sql(
                "CREATE TABLE lake.bare.t (id BIGINT, body STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '1', 'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')");
        sql("INSERT INTO lake.bare.t VALUES (1, 'a'), (2, 'b')");
        String catalog = spark.catalog().currentCatalog();
        String database = spark.catalog().currentDatabase();
        try {
            sql("USE lake.bare");
            assertThat(sql("CALL lake.sys.compact(table => 't')"))
                    .singleElement()
                    .satisfies(r -> assertThat(r.getLong(4)).isEqualTo(2));
            assertThat(sql("CALL lake.sys.create_tag(table => 't', tag => 'v1')"))
                    .singleElement()
                    .satisfies(r -> assertThat(r.getString(0)).isEqualTo("v1"));
            assertThat(sql("SELECT tag_name FROM lake.bare.`t$tags`"))
                    .singleElement()
                    .satisfies(r -> assertThat(r.getString(0)).isEqualTo("v1"));
            assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 'no_such')"))
                    .hasMessageContaining(
                            "Cannot run lake.sys.compact on lake.bare.no_such: the table does not exist");
        } finally {
            sql("USE `" + catalog + "`.`" + database + "`");
        }
        // Outside this catalog a bare name names no database of it.
        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 't')"))
                .hasMessageContaining(
                        "Cannot run lake.sys.compact: table => 't' is not of the form 'db.table'");
    }

    @Test
    void aTableArgumentThatIsNotDbDotTableIsRefusedSayingWhatToPass() {
        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 'args.we.ird')"))
                .hasMessageContaining(
                        "Cannot run lake.sys.compact: table => 'args.we.ird' is not of the form 'db.table'");
        assertThatThrownBy(
                        () -> sql("CALL lake.sys.rebuild_pk_fulltext(table => 'args.`unclosed')"))
                .hasMessageContaining(
                        "Cannot run lake.sys.rebuild_pk_fulltext: table => 'args.`unclosed' is not a table name")
                .hasMessageNotContaining("== SQL ==");
        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 123)"))
                .hasMessageContaining("table => '123' is not a table name")
                .hasMessageContaining("Pass table => 'db.table'")
                .hasMessageNotContaining("== SQL ==");
        // Spark's parse error starts with a line break: the reason read "()".
        for (String bad : new String[] {"123", "../args.p"}) {
            assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => '%s')", bad))
                    .hasMessageContaining("is not a table name (")
                    .hasMessageNotContaining("is not a table name ()");
        }
        assertThatThrownBy(() -> sql("CALL lake.sys.expire_snapshots(table => ' ')"))
                .hasMessageContaining(
                        "Cannot run lake.sys.expire_snapshots: argument table is empty");
        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 'args.no_such')"))
                .hasMessageContaining(
                        "Cannot run lake.sys.compact on lake.args.no_such: the table does not exist");
    }
}
