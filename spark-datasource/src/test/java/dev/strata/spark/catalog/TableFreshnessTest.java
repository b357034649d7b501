package dev.strata.spark.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.spark.StrataCatalog;
import dev.strata.spark.StrataSparkTestBase;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A statement sees what another writer committed before it started: catalog {@code other} is a
 * second Strata catalog over the same warehouse (its own Paimon catalog and table objects, as a
 * second {@code strata-sql} process would have), and every change it makes is read back through
 * {@code lake}, whose tables were loaded (and are cached) before the change. Oracle: the rows and
 * columns written.
 */
class TableFreshnessTest extends StrataSparkTestBase {

    @Override
    protected Map<String, String> extraConf() {
        return Map.of(
                "spark.sql.catalog.other",
                StrataCatalog.class.getName(),
                "spark.sql.catalog.other.warehouse",
                warehouse.toUri().toString());
    }

    @Test
    void rowsAndColumnsAnotherCatalogWroteAreSeenByTheNextStatement() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.fresh");
        sql(
                "CREATE TABLE lake.fresh.t (id BIGINT NOT NULL, v STRING) TBLPROPERTIES "
                        + "('primary-key' = 'id', 'bucket' = '2')");
        sql("INSERT INTO lake.fresh.t VALUES (1, 'a')");
        assertThat(values(sql("SELECT * FROM lake.fresh.t ORDER BY id")))
                .containsExactly(List.of(1L, "a"));

        sql("INSERT INTO other.fresh.t VALUES (2, 'b')");
        assertThat(values(sql("SELECT * FROM lake.fresh.t ORDER BY id")))
                .containsExactly(List.of(1L, "a"), List.of(2L, "b"));

        sql("ALTER TABLE other.fresh.t ADD COLUMNS (c INT)");
        sql("INSERT INTO other.fresh.t VALUES (3, 'c', 30)");
        assertThat(Arrays.asList(df("SELECT * FROM lake.fresh.t").columns()))
                .containsExactly("id", "v", "c");
        assertThat(values(sql("SELECT * FROM lake.fresh.t ORDER BY id")))
                .containsExactly(
                        Arrays.asList(1L, "a", null),
                        Arrays.asList(2L, "b", null),
                        List.of(3L, "c", 30));

        sql("ALTER TABLE other.fresh.t SET TBLPROPERTIES ('fresh.note' = 'seen')");
        assertThat(values(sql("SHOW TBLPROPERTIES lake.fresh.t ('fresh.note')")))
                .containsExactly(List.of("fresh.note", "seen"));
    }

    @Test
    void aTableAnotherCatalogDroppedOrRecreatedIsNotServedFromTheOldOne() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.fresh");
        sql("CREATE TABLE lake.fresh.r (id BIGINT, v STRING)");
        sql("INSERT INTO lake.fresh.r VALUES (1, 'old')");
        assertThat(values(sql("SELECT * FROM lake.fresh.r"))).containsExactly(List.of(1L, "old"));

        sql("DROP TABLE other.fresh.r");
        assertThatThrownBy(() -> sql("SELECT * FROM lake.fresh.r"))
                .hasMessageContaining("fresh")
                .hasMessageContaining("r");

        sql("CREATE TABLE other.fresh.r (k STRING, n INT)");
        sql("INSERT INTO other.fresh.r VALUES ('new', 7)");
        assertThat(Arrays.asList(df("SELECT * FROM lake.fresh.r").columns()))
                .containsExactly("k", "n");
        assertThat(values(sql("SELECT * FROM lake.fresh.r"))).containsExactly(List.of("new", 7));
    }

    @Test
    void aTableRecreatedWithASchemaFileOfTheSameLengthIsLoadedAgain() {
        // The re-created table's schema file has the old one's name and length (same columns, an
        // option value of the same length): only its write time tells it apart.
        sql("CREATE NAMESPACE IF NOT EXISTS lake.fresh");
        sql("CREATE TABLE lake.fresh.s (id BIGINT, v STRING) TBLPROPERTIES ('fresh.note' = 'aaa')");
        assertThat(values(sql("SHOW TBLPROPERTIES lake.fresh.s ('fresh.note')")))
                .containsExactly(List.of("fresh.note", "aaa"));
        assertThat(values(sql("SELECT count(*) FROM lake.fresh.s"))).containsExactly(List.of(0L));

        sql("DROP TABLE other.fresh.s");
        sql(
                "CREATE TABLE other.fresh.s (id BIGINT, v STRING) TBLPROPERTIES ('fresh.note' = 'bbb')");
        assertThat(values(sql("SHOW TBLPROPERTIES lake.fresh.s ('fresh.note')")))
                .containsExactly(List.of("fresh.note", "bbb"));
    }
}
