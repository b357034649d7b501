package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.TestSeeds;
import dev.strata.testing.rows.RandomFilters;
import dev.strata.testing.rows.TypedRowGenerator;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Random rows of every type written through Strata (append and primary-key tables, partitioned)
 * read back exactly as Spark's own parquet table holding the same rows answers: full scans,
 * projections and random filters (which Strata pushes into Paimon for pruning).
 */
class ReadWriteOracleTest extends StrataSparkTestBase {

    private long seed;

    @BeforeAll
    void writeData() throws Exception {
        seed = TestSeeds.seed("ReadWriteOracleTest");
        List<Object[]> rows = new TypedRowGenerator(new Random(seed), 0).rows(1500);
        Dataset<Row> data = TypedRows.dataFrame(spark, rows);
        data.write().format("parquet").saveAsTable("oracle");

        sql("CREATE NAMESPACE lake.db");
        sql("CREATE TABLE lake.db.append_t (%s) PARTITIONED BY (p)", TypedRowGenerator.COLUMNS_DDL);
        sql(
                "CREATE TABLE lake.db.pk_t (%s) PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '3')",
                TypedRowGenerator.COLUMNS_DDL);
        sql(
                "CREATE TABLE lake.db.pk_dv_t (%s) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
                        + "'deletion-vectors.enabled' = 'true')",
                TypedRowGenerator.COLUMNS_DDL);
        // Three commits each, so every table has several files per bucket.
        for (int part = 0; part < 3; part++) {
            Dataset<Row> slice = data.where("id % 3 = " + part);
            slice.writeTo("lake.db.append_t").append();
            slice.writeTo("lake.db.pk_t").append();
            slice.writeTo("lake.db.pk_dv_t").append();
        }
    }

    @Test
    void fullScansEqualTheOracle() {
        List<Row> expected = sql("SELECT * FROM oracle ORDER BY id");
        for (String table : List.of("append_t", "pk_t", "pk_dv_t")) {
            assertThat(
                            sql(
                                    "SELECT %s FROM lake.db.%s ORDER BY id",
                                    String.join(", ", TypedRowGenerator.COLUMNS), table))
                    .as("full scan of %s (seed %d)", table, seed)
                    .containsExactlyElementsOf(expected);
        }
    }

    @Test
    void projectionsAndAggregatesEqualTheOracle() {
        List<String> queries =
                List.of(
                        "SELECT id, s FROM %s ORDER BY id",
                        "SELECT st.b, m['alpha'], get(arr, 0), id FROM %s ORDER BY id",
                        "SELECT count(*) FROM %s",
                        "SELECT p, count(*), sum(k), min(dt), max(ts) FROM %s GROUP BY p ORDER BY p",
                        "SELECT dec, ntz, bin FROM %s WHERE id < 40 ORDER BY id");
        for (String query : queries) {
            List<Row> expected = sql(query, "oracle");
            for (String table : List.of("lake.db.append_t", "lake.db.pk_t", "lake.db.pk_dv_t")) {
                assertThat(sql(query, table))
                        .as("%s on %s (seed %d)", query, table, seed)
                        .containsExactlyElementsOf(expected);
            }
        }
    }

    @Test
    void randomFiltersEqualTheOracle() {
        String seedName = RandomShare.seedName("ReadWriteOracleTest.filters");
        long filterSeed = TestSeeds.seed(seedName);
        RandomFilters filters = new RandomFilters(new Random(filterSeed));
        for (int i = 0; i < RandomShare.of(30); i++) {
            String filter = filters.next(2);
            String query = "SELECT id, k, s, d, p FROM %s WHERE " + filter + " ORDER BY id";
            List<Row> expected = spark.sql(query.replace("%s", "oracle")).collectAsList();
            for (String table : List.of("lake.db.append_t", "lake.db.pk_t", "lake.db.pk_dv_t")) {
                assertThat(spark.sql(query.replace("%s", table)).collectAsList())
                        .as(
                                "filter %s on %s (rows: seed %d; %s)",
                                filter, table, seed, TestSeeds.describe(seedName, filterSeed))
                        .containsExactlyElementsOf(expected);
            }
        }
    }

    @Test
    void signedZerosAndNaNFilterAsSparkDoes() {
        // One file of -0.0s, one of 0.0s, one with NaN: Spark takes -0.0 = 0.0 and NaN as the
        // greatest value; Paimon's file statistics order -0.0 below 0.0.
        sql("CREATE TABLE zeros_oracle (id BIGINT, d DOUBLE, f FLOAT) USING parquet");
        sql("CREATE TABLE lake.db.zeros (id BIGINT, d DOUBLE, f FLOAT)");
        for (String values :
                List.of(
                        "(1, CAST('-0.0' AS DOUBLE), CAST('-0.0' AS FLOAT)), "
                                + "(2, CAST('-0.0' AS DOUBLE), CAST('-0.0' AS FLOAT))",
                        "(3, 0.0, 0.0)",
                        "(4, CAST('NaN' AS DOUBLE), CAST('NaN' AS FLOAT)), (5, 1.0, 1.0)")) {
            sql("INSERT INTO zeros_oracle VALUES " + values);
            sql("INSERT INTO lake.db.zeros VALUES " + values);
        }
        for (String filter :
                List.of(
                        "d = 0.0",
                        "d = CAST('-0.0' AS DOUBLE)",
                        "d >= 0.0",
                        "d <= 0.0",
                        "d > CAST('-0.0' AS DOUBLE)",
                        "d < 0.0",
                        "d <> 0.0",
                        "d <=> 0.0",
                        "d IN (0.0, 7.0)",
                        "f = 0.0",
                        "f >= CAST(0.0 AS FLOAT)",
                        "d > 0.5",
                        "d = CAST('NaN' AS DOUBLE)",
                        "NOT (d < 0.0)")) {
            String query = "SELECT id FROM %s WHERE " + filter + " ORDER BY id";
            assertThat(sql(query, "lake.db.zeros"))
                    .as(filter)
                    .containsExactlyElementsOf(sql(query, "zeros_oracle"));
        }
    }

    @Test
    void pushedPredicatesAppearInExplain() {
        String plan =
                df("SELECT id FROM lake.db.append_t WHERE k > 5 AND p = 'p1'")
                        .queryExecution()
                        .explainString(org.apache.spark.sql.execution.ExtendedMode$.MODULE$);
        assertThat(plan).as("plan was: %s", plan).contains("PushedPredicates").contains("k > 5");
    }

    @Test
    void limitIsAppliedExactly() {
        assertThat(sql("SELECT * FROM lake.db.append_t LIMIT 7")).hasSize(7);
        assertThat(sql("SELECT * FROM lake.db.pk_t LIMIT 13")).hasSize(13);
    }
}
