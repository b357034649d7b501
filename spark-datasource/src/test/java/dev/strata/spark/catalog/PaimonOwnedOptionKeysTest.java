package dev.strata.spark.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.spark.StrataSparkTestBase;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * Strata's settings never sit under keys Apache Paimon 2.0 owns: new definitions that use them are
 * refused naming the key to use, and tables of earlier versions that have them keep working and
 * move with one ALTER TABLE (full-text) or by themselves on their next write (stable placement).
 */
class PaimonOwnedOptionKeysTest extends StrataSparkTestBase {

    /** A table as an earlier Strata version stored it, created through Paimon's own API. */
    private void createStoredTable(String name, Schema schema) throws Exception {
        Options options = new Options();
        options.set("warehouse", warehouse.toUri().toString());
        try (org.apache.paimon.catalog.Catalog catalog =
                CatalogFactory.createCatalog(CatalogContext.create(options))) {
            catalog.createDatabase("old", true);
            catalog.createTable(Identifier.create("old", name), schema, false);
        }
    }

    private List<String> fullTextStates(String table) {
        return sql("SELECT DISTINCT state FROM lake.old.`%s$fulltext` WHERE level > 0", table)
                .stream()
                .map(r -> r.getString(0))
                .toList();
    }

    @Test
    void createOrAlterWithPaimonsFullTextKeysIsRefusedNamingStratasKeys() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.kb");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.kb.refused (id BIGINT, body STRING) TBLPROPERTIES ("
                                                + "'primary-key' = 'id', 'bucket' = '1', 'deletion-vectors.enabled' = 'true', "
                                                + "'pk-full-text.index.columns' = 'body')"))
                .hasMessageContaining(
                        "Cannot create table lake.kb.refused with option 'pk-full-text.index.columns':"
                                + " Apache Paimon 2.0 reads 'pk-full-text.index.columns' as its own"
                                + " full-text index")
                .hasMessageContaining("Set 'strata-full-text.index.columns'");
        sql(
                "CREATE TABLE lake.kb.fresh (id BIGINT, body STRING) TBLPROPERTIES ("
                        + "'primary-key' = 'id', 'bucket' = '1', 'deletion-vectors.enabled' = 'true', "
                        + "'strata-full-text.index.columns' = 'body')");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.kb.fresh SET TBLPROPERTIES ("
                                                + "'fields.body.pk-full-text.index.options' = '{\"analyzer\":\"english\"}')"))
                .hasMessageContaining(
                        "Cannot alter table lake.kb.fresh with option"
                                + " 'fields.body.pk-full-text.index.options'")
                .hasMessageContaining("Set 'fields.body.strata-full-text.index.options'");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.kb.fresh SET TBLPROPERTIES ("
                                                + "'full-text.analyzer' = 'english')"))
                .hasMessageContaining("with option 'full-text.analyzer'")
                .hasMessageContaining("Set 'strata-full-text.analyzer'");
    }

    @Test
    void tableWithTheOldFullTextKeysKeepsWorkingAndOneAlterMovesEveryKey() throws Exception {
        createStoredTable(
                "docs",
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("body", DataTypes.STRING())
                        .primaryKey("id")
                        .option("bucket", "2")
                        .option("deletion-vectors.enabled", "true")
                        .option("pk-full-text.index.columns", "body")
                        .option(
                                "fields.body.pk-full-text.index.options",
                                "{\"analyzer\":\"english\"}")
                        .option("full-text.max-token-length", "100")
                        .build());
        sql(
                "INSERT INTO lake.old.docs VALUES (1, 'disks failing'), (2, 'network ok'),"
                        + " (3, 'a disk')");
        assertThat(fullTextStates("docs")).containsExactly("current");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.old.docs SET TBLPROPERTIES ("
                                                + "'fields.body.pk-full-text.index.options' = '{\"analyzer\":\"simple\"}')"))
                .hasMessageContaining(
                        "ALTER TABLE lake.old.docs SET TBLPROPERTIES"
                                + " ('strata-full-text.index.columns' = 'body') moves all of them");

        sql(
                "ALTER TABLE lake.old.docs SET TBLPROPERTIES ("
                        + "'strata-full-text.index.columns' = 'body')");

        Map<String, String> stored = paimonTable("old", "docs").schema().options();
        assertThat(stored)
                .containsEntry("strata-full-text.index.columns", "body")
                .containsEntry(
                        "fields.body.strata-full-text.index.options", "{\"analyzer\":\"english\"}")
                .containsEntry("strata-full-text.max-token-length", "100")
                .doesNotContainKeys(
                        "pk-full-text.index.columns",
                        "fields.body.pk-full-text.index.options",
                        "full-text.max-token-length");
        // The archives do not depend on the option's name: they stay current.
        assertThat(fullTextStates("docs")).containsExactly("current");
        sql("INSERT INTO lake.old.docs VALUES (4, 'disk again')");
        assertThat(fullTextStates("docs")).containsExactly("current");
        assertThat(sql("SELECT count(*) FROM lake.old.docs").get(0).getLong(0)).isEqualTo(4L);
    }

    @Test
    void stablePlacementIsStoredUnderStratasKeyNeverUnderTheKeyPaimonValidates() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.kb");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.kb.refused_stable (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES ("
                                                + "'fields.m.map.storage-layout' = 'shared-shredding', "
                                                + "'fields.m.map.shared-shredding.column-placement-policy' = 'stable')"))
                .hasMessageContaining(
                        "with option 'fields.m.map.shared-shredding.column-placement-policy' ="
                                + " 'stable': Apache Paimon 2.0 validates that key")
                .hasMessageContaining(
                        "Set 'fields.m.strata-shredded.column-placement-policy' = 'stable'");
        sql(
                "CREATE TABLE lake.kb.stable (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES ("
                        + "'fields.m.map.storage-layout' = 'shared-shredding', "
                        + "'fields.m.strata-shredded.column-placement-policy' = 'stable')");
        assertThat(paimonTable("kb", "stable").schema().options())
                .containsEntry("fields.m.strata-shredded.column-placement-policy", "stable")
                .doesNotContainKey("fields.m.map.shared-shredding.column-placement-policy");

        // A table an earlier version stored with 'stable' under Paimon's key moves on its next
        // write.
        createStoredTable(
                "metrics",
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column(
                                "m",
                                DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.DOUBLE()))
                        .option("fields.m.map.storage-layout", "shared-shredding")
                        .option("fields.m.map.shared-shredding.column-placement-policy", "stable")
                        .build());
        sql(
                "INSERT INTO lake.old.metrics VALUES (1, map('a', 1.0D, 'b', 2.0D)), (2, map('a', 3.0D))");
        assertThat(paimonTable("old", "metrics").schema().options())
                .containsEntry("fields.m.strata-shredded.column-placement-policy", "stable")
                .doesNotContainKey("fields.m.map.shared-shredding.column-placement-policy");
        List<Row> rows = sql("SELECT id, m['a'] FROM lake.old.metrics ORDER BY id");
        assertThat(values(rows)).containsExactly(List.of(1L, 1.0), List.of(2L, 3.0));
    }
}
