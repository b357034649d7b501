package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Shared-shredding MAP columns through Spark: the catalog validates the options, the table keeps
 * {@code file.format = parquet} and its {@code .parquet} data files carry the shredded layout with
 * Paimon's footer entry; data written, compacted, re-laid-out and renamed reads back exactly as
 * Spark's parquet table holding the same rows.
 */
class ShreddedMapTablesTest extends StrataSparkTestBase {

    private static final StructType SCHEMA =
            StructType.fromDDL(
                    "id BIGINT NOT NULL, host STRING, ext_map MAP<STRING, DOUBLE>, tags MAP<STRING, DOUBLE>");

    private long seed;
    private Dataset<Row> data;

    @BeforeAll
    void generate() {
        seed = TestSeeds.seed("ShreddedMapTablesTest");
        MapDataGenerator metrics =
                MapDataGenerator.builder(seed)
                        .keyUniverse(1000)
                        .keysPerRow(8, 30)
                        .nullMapRate(0.05)
                        .emptyMapRate(0.05)
                        .nullValueRate(0.05)
                        .unicodeKeys(true)
                        .emptyStringKey(true)
                        .build();
        MapDataGenerator tags =
                MapDataGenerator.builder(seed + 1).keyUniverse(50).keysPerRow(3, 6).build();
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

    /**
     * The current snapshot's data files counted by layout: {@code shredded} when a column is stored
     * shredded and the footer holds Paimon's ARROW:schema entry marking it shared-shredding, else
     * {@code plain}.
     */
    private Map<String, Integer> fileLayouts(String db, String name) throws Exception {
        org.apache.paimon.table.FileStoreTable table = paimonTable(db, name);
        Map<String, Integer> out = new java.util.TreeMap<>();
        for (org.apache.paimon.table.source.Split s :
                table.newReadBuilder().newScan().plan().splits()) {
            org.apache.paimon.table.source.DataSplit d =
                    (org.apache.paimon.table.source.DataSplit) s;
            for (org.apache.paimon.io.DataFileMeta f : d.dataFiles()) {
                org.apache.paimon.fs.Path p =
                        new org.apache.paimon.fs.Path(
                                table.location(), "bucket-" + d.bucket() + "/" + f.fileName());
                try (org.apache.parquet.hadoop.ParquetFileReader r =
                        org.apache.parquet.hadoop.ParquetFileReader.open(
                                dev.strata.shredding.parquet.PaimonFiles.inputFile(
                                        table.fileIO(), p, f.fileSize()),
                                dev.strata.shredding.parquet.PaimonFiles.readOptions())) {
                    boolean shredded = false;
                    for (org.apache.parquet.schema.Type t :
                            r.getFooter().getFileMetaData().getSchema().getFields()) {
                        shredded |= dev.strata.shredding.parquet.ParquetSchemas.looksShredded(t);
                    }
                    Map<String, Map<String, String>> paimonKeys =
                            dev.strata.shredding.layout.ArrowSchemaFooter.decode(
                                    r.getFooter()
                                            .getFileMetaData()
                                            .getKeyValueMetaData()
                                            .get(
                                                    dev.strata.shredding.layout.ArrowSchemaFooter
                                                            .KEY));
                    assertThat(
                                    paimonKeys.values().stream()
                                            .anyMatch(
                                                    dev.strata.shredding.layout.PaimonShreddingKeys
                                                            ::isShredded))
                            .as("Paimon's footer entry of %s", f.fileName())
                            .isEqualTo(shredded);
                    out.merge(shredded ? "shredded" : "plain", 1, Integer::sum);
                }
            }
        }
        return out;
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
                .as(
                        "full rows of %s (%s)",
                        table, TestSeeds.describe("ShreddedMapTablesTest", seed))
                .containsExactlyElementsOf(sql("SELECT * FROM maps_oracle ORDER BY id"));
        List<String> keys =
                sql(
                                "SELECT k FROM (SELECT explode(map_keys(ext_map)) AS k FROM maps_oracle) "
                                        + "GROUP BY k ORDER BY count(*) DESC, k LIMIT 3")
                        .stream()
                        .map(r -> r.getString(0))
                        .toList();
        String lookups =
                "SELECT id, ext_map['"
                        + keys.get(0)
                        + "'], element_at(ext_map, '"
                        + keys.get(1)
                        + "'), "
                        + "ext_map['"
                        + keys.get(2)
                        + "'], ext_map['no-such-key'], tags['k1'] FROM %s ORDER BY id";
        assertThat(sql(lookups, table))
                .as("key lookups on %s", table)
                .containsExactlyElementsOf(sql(lookups, "maps_oracle"));
    }

    @Test
    void appendTableWithTwoShreddedMapsMatchesTheOracleBeforeAndAfterCompaction() throws Exception {
        sql(
                "CREATE TABLE lake.obs.metrics (id BIGINT NOT NULL, host STRING, ext_map MAP<STRING, DOUBLE>, "
                        + "tags MAP<STRING, DOUBLE>) TBLPROPERTIES ("
                        + "'fields.ext_map.map.storage-layout' = 'shared-shredding', "
                        + "'fields.ext_map.map.shared-shredding.max-columns' = '4', "
                        + "'fields.ext_map.map.shared-shredding.column-placement-policy' = 'lru', "
                        + "'fields.tags.map.storage-layout' = 'shared-shredding', "
                        + "'fields.tags.map.shared-shredding.column-placement-policy' = 'sequential')");
        assertThat(paimonTable("obs", "metrics").options())
                .doesNotContainEntry("file.format", "strata-shredded");
        writeInBatches("lake.obs.metrics");
        assertThat(dataFilesOnDisk("obs", "metrics"))
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f).endsWith(".parquet"));
        assertThat(fileLayouts("obs", "metrics")).containsOnlyKeys("shredded");
        assertSameAsOracle("lake.obs.metrics");
        sql("CALL lake.sys.compact(table => 'obs.metrics')");
        assertSameAsOracle("lake.obs.metrics");
    }

    @Test
    void primaryKeyTablesWithAndWithoutDeletionVectorsMatchTheOracle() throws Exception {
        for (String dv : List.of("true", "false")) {
            String table = "lake.obs.pk_" + dv;
            sql(
                    "CREATE TABLE %s (id BIGINT NOT NULL, host STRING, ext_map MAP<STRING, DOUBLE>, tags MAP<STRING, DOUBLE>) "
                            + "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '3', 'deletion-vectors.enabled' = '%s', "
                            + "'fields.ext_map.map.storage-layout' = 'shared-shredding', "
                            + "'fields.ext_map.map.shared-shredding.max-columns' = '6', "
                            + "'fields.ext_map.map.shared-shredding.column-placement-policy' = 'plain')",
                    table, dv);
            // Every row twice: the second version must win after the merge.
            data.selectExpr("id", "'stale' AS host", "map('old', 1.0D) AS ext_map", "tags")
                    .writeTo(table)
                    .append();
            writeInBatches(table);
            assertSameAsOracle(table);
            sql("CALL lake.sys.compact(table => '%s')", table.substring("lake.".length()));
            assertSameAsOracle(table);
        }
    }

    @Test
    void switchingTheLayoutBothWaysKeepsOldFilesReadable() throws Exception {
        sql(
                "CREATE TABLE lake.obs.switch (id BIGINT NOT NULL, host STRING, ext_map MAP<STRING, DOUBLE>, "
                        + "tags MAP<STRING, DOUBLE>)");
        data.where("id % 3 = 0").writeTo("lake.obs.switch").append();
        sql(
                "ALTER TABLE lake.obs.switch SET TBLPROPERTIES ('fields.ext_map.map.storage-layout' = 'shared-shredding', "
                        + "'fields.ext_map.map.shared-shredding.max-columns' = '3')");
        assertThat(paimonTable("obs", "switch").options())
                .doesNotContainEntry("file.format", "strata-shredded");
        data.where("id % 3 = 1").writeTo("lake.obs.switch").append();
        sql(
                "ALTER TABLE lake.obs.switch UNSET TBLPROPERTIES ('fields.ext_map.map.storage-layout')");
        assertThat(paimonTable("obs", "switch").options().getOrDefault("file.format", "parquet"))
                .isEqualTo("parquet");
        data.where("id % 3 = 2").writeTo("lake.obs.switch").append();
        assertThat(dataFilesOnDisk("obs", "switch"))
                .allSatisfy(f -> assertThat(f).endsWith(".parquet"));
        assertThat(fileLayouts("obs", "switch")).containsOnlyKeys("plain", "shredded");
        assertSameAsOracle("lake.obs.switch");
        sql(
                "ALTER TABLE lake.obs.switch SET TBLPROPERTIES ('fields.ext_map.map.storage-layout' = 'shared-shredding')");
        sql("CALL lake.sys.compact(table => 'obs.switch')");
        assertSameAsOracle("lake.obs.switch");
    }

    @Test
    void aTableStillNamingTheFormerPrivateFormatIsRefusedAtLoadNamingTableAndOption()
            throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.legacy");
        sql(
                "CREATE TABLE lake.legacy.t (id BIGINT NOT NULL, ext_map MAP<STRING, DOUBLE>)"
                        + " TBLPROPERTIES ('fields.ext_map.map.storage-layout' = 'shared-shredding')");
        sql("INSERT INTO lake.legacy.t VALUES (1L, map('a', 1.0D))");
        // Paimon refuses to store a format it does not provide, so the schema file is written as
        // early Strata versions left it.
        org.apache.paimon.table.FileStoreTable table = paimonTable("legacy", "t");
        java.nio.file.Path schemaFile =
                java.nio.file.Path.of(
                        new java.net.URI(
                                table.location() + "/schema/schema-" + table.schema().id()));
        com.fasterxml.jackson.databind.ObjectMapper json =
                new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode schema =
                (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(schemaFile.toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) schema.get("options"))
                .put("file.format", "strata-shredded");
        java.nio.file.Files.writeString(schemaFile, json.writeValueAsString(schema));

        // A new session's catalog loads the table afresh.
        org.apache.spark.sql.SparkSession fresh = newSession();
        for (String statement :
                List.of(
                        "SELECT * FROM lake.legacy.t",
                        "INSERT INTO lake.legacy.t VALUES (2L, map('b', 2.0D))",
                        "CALL lake.sys.compact(table => 'legacy.t')")) {
            assertThatThrownBy(() -> fresh.sql(statement).collectAsList())
                    .as(statement)
                    .hasMessageContaining(
                            "Cannot load table lake.legacy.t: option 'file.format'"
                                    + " is 'strata-shredded', a file format no Paimon format on the class"
                                    + " path provides")
                    .hasMessageContaining("set 'file.format' = 'parquet' there");
        }
    }

    @Test
    void renamingAShreddedColumnKeepsItsLayoutAndItsData() throws Exception {
        sql(
                "CREATE TABLE lake.obs.renamed (id BIGINT NOT NULL, host STRING, ext_map MAP<STRING, DOUBLE>, "
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
                .doesNotContainKeys(
                        "fields.metrics.map.storage-layout",
                        "fields.metrics.map.shared-shredding.max-columns");
        assertThat(paimonTable("obs", "renamed").options().getOrDefault("file.format", "parquet"))
                .isEqualTo("parquet");
        assertThat(sql("SELECT id, host, tags FROM lake.obs.renamed ORDER BY id"))
                .containsExactlyElementsOf(
                        sql("SELECT id, host, tags FROM maps_oracle ORDER BY id"));
    }

    @Test
    void invalidLayoutOptionsAreRefusedNamingTableColumnAndOption() {
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.obs.bad1 (id BIGINT, m MAP<INT, DOUBLE>) TBLPROPERTIES ("
                                                + "'fields.m.map.storage-layout' = 'shared-shredding')"))
                .hasMessageContaining("lake.obs.bad1")
                .hasMessageContaining("'m'");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.obs.bad2 (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES ("
                                                + "'fields.m.map.storage-layout' = 'shared-shredding', "
                                                + "'fields.m.map.shared-shredding.max-columns' = '0')"))
                .hasMessageContaining("max-columns");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.obs.bad3 (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES ("
                                                + "'fields.m.map.storage-layout' = 'shared-shredding', "
                                                + "'fields.m.map.shared-shredding.column-placement-policy' = 'random')"))
                .hasMessageContaining("random");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.obs.bad4 (id BIGINT) TBLPROPERTIES ("
                                                + "'fields.nope.map.storage-layout' = 'shared-shredding')"))
                .hasMessageContaining("nope");
        assertThat(sql("SHOW TABLES IN lake.obs").stream().map(r -> r.getString(1)))
                .noneMatch(t -> t.startsWith("bad"));
    }
}
