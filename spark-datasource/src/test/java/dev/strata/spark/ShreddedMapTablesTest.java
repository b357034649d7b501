package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Shared-shredding MAP columns through Spark: the catalog validates the options and switches the table to
 * the shredding file format; data written, compacted, re-laid-out and renamed reads back exactly as
 * Spark's parquet table holding the same rows.
 */
class ShreddedMapTablesTest extends StrataSparkTestBase {

    private static final StructType SCHEMA =
            StructType.fromDDL("id BIGINT NOT NULL, host STRING, ext_map MAP<STRING, DOUBLE>, tags MAP<STRING, DOUBLE>");

    private long seed;
    private Dataset<Row> data;

    @BeforeAll
    void generate() {
        seed = TestSeeds.seed("ShreddedMapTablesTest");
        MapDataGenerator metrics = MapDataGenerator.builder(seed).keyUniverse(1000).keysPerRow(8, 30)
                .nullMapRate(0.05).emptyMapRate(0.05).nullValueRate(0.05).unicodeKeys(true).emptyStringKey(true)
                .build();
        MapDataGenerator tags = MapDataGenerator.builder(seed + 1).keyUniverse(50).keysPerRow(3, 6).build();
        List<Row> rows = new ArrayList<>();
        List<GeneratedMap> m = metrics.generate(3000);
        List<GeneratedMap> t = tags.generate(3000);
        for (int i = 0; i < m.size(); i++) {
            rows.add(RowFactory.create((long) i, "h" + (i % 7), toMap(m.get(i)), toMap(t.get(i))));
        }
        data = spark.createDataFrame(rows, SCHEMA);
        data.write().format("parquet").saveAsTable("maps_oracle");
        sql("CREATE NAMESPACE IF NOT EXISTS lake.obs");
    }

    private static Map<String, Object> toMap(GeneratedMap map) {
        return map.isNull() ? null : map.lastValueByKey();
    }

    private void writeInBatches(String table) throws Exception {
        for (int part = 0; part < 3; part++) {
            data.where("id % 3 = " + part).writeTo(table).append();
        }
    }

    private void assertSameAsOracle(String table) {
        assertThat(sql("SELECT id, host, ext_map, tags FROM %s ORDER BY id", table))
                .as("full rows of %s (%s)", table, TestSeeds.describe("ShreddedMapTablesTest", seed))
                .containsExactlyElementsOf(sql("SELECT * FROM maps_oracle ORDER BY id"));
        List<String> keys = sql("SELECT k FROM (SELECT explode(map_keys(ext_map)) AS k FROM maps_oracle) "
                + "GROUP BY k ORDER BY count(*) DESC, k LIMIT 3").stream().map(r -> r.getString(0)).toList();
        String lookups = "SELECT id, ext_map['" + keys.get(0) + "'], element_at(ext_map, '" + keys.get(1) + "'), "
                + "ext_map['" + keys.get(2) + "'], ext_map['no-such-key'], tags['k1'] FROM %s ORDER BY id";
        assertThat(sql(lookups, table)).as("key lookups on %s", table)
                .containsExactlyElementsOf(sql(lookups, "maps_oracle"));
    }

    @Test
    void appendTableWithTwoShreddedMapsMatchesTheOracleBeforeAndAfterCompaction() throws Exception {
        sql("CREATE TABLE lake.obs.metrics (id BIGINT NOT NULL, host STRING, ext_map MAP<STRING, DOUBLE>, "
                + "tags MAP<STRING, DOUBLE>) TBLPROPERTIES ("
                + "'fields.ext_map.map.storage-layout' = 'shared-shredding', "
                + "'fields.ext_map.map.shared-shredding.max-columns' = '4', "
                + "'fields.ext_map.map.shared-shredding.column-placement-policy' = 'lru', "
                + "'fields.tags.map.storage-layout' = 'shared-shredding', "
                + "'fields.tags.map.shared-shredding.column-placement-policy' = 'sequential')");
        assertThat(paimonTable("obs", "metrics").options()).containsEntry("file.format", "strata-shredded");
        writeInBatches("lake.obs.metrics");
        assertThat(dataFilesOnDisk("obs", "metrics")).isNotEmpty()
                .allSatisfy(f -> assertThat(f).endsWith(".strata-shredded"));
        assertSameAsOracle("lake.obs.metrics");
        sql("CALL lake.sys.compact(table => 'obs.metrics')");
        assertSameAsOracle("lake.obs.metrics");
    }

    @Test
    void primaryKeyTablesWithAndWithoutDeletionVectorsMatchTheOracle() throws Exception {
        for (String dv : List.of("true", "false")) {
            String table = "lake.obs.pk_" + dv;
            sql("CREATE TABLE %s (id BIGINT NOT NULL, host STRING, ext_map MAP<STRING, DOUBLE>, tags MAP<STRING, DOUBLE>) "
                    + "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '3', 'deletion-vectors.enabled' = '%s', "
                    + "'fields.ext_map.map.storage-layout' = 'shared-shredding', "
                    + "'fields.ext_map.map.shared-shredding.max-columns' = '6', "
                    + "'fields.ext_map.map.shared-shredding.column-placement-policy' = 'plain')", table, dv);
            // Every row twice: the second version must win after the merge.
            data.selectExpr("id", "'stale' AS host", "map('old', 1.0D) AS ext_map", "tags").writeTo(table).append();
            writeInBatches(table);
            assertSameAsOracle(table);
            sql("CALL lake.sys.compact(table => '%s')", table.substring("lake.".length()));
            assertSameAsOracle(table);
        }
    }

    @Test
    void switchingTheLayoutBothWaysKeepsOldFilesReadable() throws Exception {
        sql("CREATE TABLE lake.obs.switch (id BIGINT NOT NULL, host STRING, ext_map MAP<STRING, DOUBLE>, "
                + "tags MAP<STRING, DOUBLE>)");
        data.where("id % 3 = 0").writeTo("lake.obs.switch").append();
        sql("ALTER TABLE lake.obs.switch SET TBLPROPERTIES ('fields.ext_map.map.storage-layout' = 'shared-shredding', "
                + "'fields.ext_map.map.shared-shredding.max-columns' = '3')");
        assertThat(paimonTable("obs", "switch").options()).containsEntry("file.format", "strata-shredded");
        data.where("id % 3 = 1").writeTo("lake.obs.switch").append();
        sql("ALTER TABLE lake.obs.switch UNSET TBLPROPERTIES ('fields.ext_map.map.storage-layout')");
        assertThat(paimonTable("obs", "switch").options()).containsEntry("file.format", "parquet");
        data.where("id % 3 = 2").writeTo("lake.obs.switch").append();
        List<String> files = dataFilesOnDisk("obs", "switch");
        assertThat(files).anyMatch(f -> f.endsWith(".parquet")).anyMatch(f -> f.endsWith(".strata-shredded"));
        assertSameAsOracle("lake.obs.switch");
        sql("ALTER TABLE lake.obs.switch SET TBLPROPERTIES ('fields.ext_map.map.storage-layout' = 'shared-shredding')");
        sql("CALL lake.sys.compact(table => 'obs.switch')");
        assertSameAsOracle("lake.obs.switch");
    }

    @Test
    void renamingAShreddedColumnKeepsItsLayoutAndItsData() throws Exception {
        sql("CREATE TABLE lake.obs.renamed (id BIGINT NOT NULL, host STRING, ext_map MAP<STRING, DOUBLE>, "
                + "tags MAP<STRING, DOUBLE>) TBLPROPERTIES ('fields.ext_map.map.storage-layout' = 'shared-shredding', "
                + "'fields.ext_map.map.shared-shredding.max-columns' = '4')");
        writeInBatches("lake.obs.renamed");
        sql("ALTER TABLE lake.obs.renamed RENAME COLUMN ext_map TO metrics");
        assertThat(paimonTable("obs", "renamed").options())
                .containsEntry("fields.metrics.map.storage-layout", "shared-shredding")
                .doesNotContainKey("fields.ext_map.map.storage-layout");
        sql("ALTER TABLE lake.obs.renamed ADD COLUMNS (note STRING)");
        assertThat(sql("SELECT id, host, metrics, tags FROM lake.obs.renamed ORDER BY id"))
                .containsExactlyElementsOf(sql("SELECT * FROM maps_oracle ORDER BY id"));
        sql("ALTER TABLE lake.obs.renamed DROP COLUMN metrics");
        assertThat(paimonTable("obs", "renamed").options())
                .doesNotContainKeys("fields.metrics.map.storage-layout", "fields.metrics.map.shared-shredding.max-columns")
                .containsEntry("file.format", "parquet");
        assertThat(sql("SELECT id, host, tags FROM lake.obs.renamed ORDER BY id"))
                .containsExactlyElementsOf(sql("SELECT id, host, tags FROM maps_oracle ORDER BY id"));
    }

    @Test
    void invalidLayoutOptionsAreRefusedNamingTableColumnAndOption() {
        assertThatThrownBy(() -> sql("CREATE TABLE lake.obs.bad1 (id BIGINT, m MAP<INT, DOUBLE>) TBLPROPERTIES ("
                + "'fields.m.map.storage-layout' = 'shared-shredding')"))
                .hasMessageContaining("lake.obs.bad1").hasMessageContaining("'m'");
        assertThatThrownBy(() -> sql("CREATE TABLE lake.obs.bad2 (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES ("
                + "'fields.m.map.storage-layout' = 'shared-shredding', "
                + "'fields.m.map.shared-shredding.max-columns' = '0')"))
                .hasMessageContaining("max-columns");
        assertThatThrownBy(() -> sql("CREATE TABLE lake.obs.bad3 (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES ("
                + "'fields.m.map.storage-layout' = 'shared-shredding', "
                + "'fields.m.map.shared-shredding.column-placement-policy' = 'random')"))
                .hasMessageContaining("random");
        assertThatThrownBy(() -> sql("CREATE TABLE lake.obs.bad4 (id BIGINT) TBLPROPERTIES ("
                + "'fields.nope.map.storage-layout' = 'shared-shredding')"))
                .hasMessageContaining("nope");
        assertThat(sql("SHOW TABLES IN lake.obs").stream().map(r -> r.getString(1))).noneMatch(t -> t.startsWith("bad"));
    }
}
