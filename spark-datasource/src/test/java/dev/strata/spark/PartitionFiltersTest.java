package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.TestSeeds;
import dev.strata.testing.rows.RandomFilters;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Filters on partition columns alone are answered by Paimon's partition pruning, with no filter of
 * Spark's above the scan. They must keep SQL's three-valued logic (NULL partitions, NULL in an IN
 * list, {@code <=>} under NOT), so each is checked against Spark's parquet table of the same rows.
 */
class PartitionFiltersTest extends StrataSparkTestBase {

    private static final String ROWS =
            "SELECT id, CAST(id * 7 % 100 AS INT) AS v,"
                    + " CASE id % 5 WHEN 0 THEN 'a' WHEN 1 THEN 'b' WHEN 2 THEN 'ab' WHEN 3 THEN ''"
                    + " ELSE NULL END AS dt,"
                    + " CASE WHEN id % 4 = 3 THEN NULL ELSE CAST(id % 3 AS INT) END AS h"
                    + " FROM range(0, 600)";

    @BeforeAll
    void writeTables() {
        sql("CREATE NAMESPACE lake.pf");
        sql("CREATE TABLE pf_oracle USING parquet AS " + ROWS);
        sql(
                "CREATE TABLE lake.pf.app (id BIGINT, v INT, dt STRING, h INT)"
                        + " PARTITIONED BY (dt, h)");
        sql("INSERT INTO lake.pf.app " + ROWS + " WHERE id < 300");
        sql("INSERT INTO lake.pf.app " + ROWS + " WHERE id >= 300");
        // primary-key columns cannot be NULL: the oracle of this table has no NULL partitions
        sql(
                "CREATE TABLE pf_pk_oracle USING parquet AS SELECT id, v, coalesce(dt, 'n') AS dt,"
                        + " coalesce(h, 9) AS h FROM ("
                        + ROWS
                        + ") WHERE id % 7 <> 3");
        sql(
                "CREATE TABLE lake.pf.pk (id BIGINT NOT NULL, v INT, dt STRING NOT NULL,"
                        + " h INT NOT NULL) PARTITIONED BY (dt, h) TBLPROPERTIES ("
                        + " 'primary-key' = 'id,dt,h', 'bucket' = '2',"
                        + " 'deletion-vectors.enabled' = 'true')");
        sql(
                "INSERT INTO lake.pf.pk SELECT id, v, coalesce(dt, 'n'), coalesce(h, 9) FROM ("
                        + ROWS
                        + ")");
        sql("DELETE FROM lake.pf.pk WHERE id % 7 = 3");
    }

    @Test
    void aFilterOnPartitionsAloneLeavesNoFilterAboveTheScan() {
        for (String where : List.of("dt = 'a'", "dt IN ('a', 'b') AND h > 0", "NOT (h = 1)")) {
            String query = "SELECT id FROM lake.pf.app WHERE " + where;
            assertThat(hasFilter(query)).as(query).isFalse();
        }
        String mixed = "SELECT id FROM lake.pf.app WHERE dt = 'a' AND v > 3";
        assertThat(hasFilter(mixed)).as(mixed).isTrue();
    }

    @Test
    void aggregatesOfNullPartitionsAnswerOnTheDriverAsSparkDoes() {
        for (String query :
                List.of(
                        "SELECT max(dt), min(dt), max(h), min(h), count(*) FROM {t}",
                        "SELECT dt, h, count(*) FROM {t} GROUP BY dt, h ORDER BY dt, h",
                        "SELECT h, max(dt), min(dt) FROM {t} WHERE dt IS NOT NULL GROUP BY h"
                                + " ORDER BY h",
                        "SELECT DISTINCT h FROM {t} ORDER BY h")) {
            String onStrata = query.replace("{t}", "lake.pf.app");
            assertThat(sql(onStrata))
                    .as(onStrata)
                    .containsExactlyElementsOf(sql(query.replace("{t}", "pf_oracle")));
            assertThat(df(onStrata).queryExecution().executedPlan().toString())
                    .as(onStrata)
                    .doesNotContain("BatchScan");
        }
    }

    private boolean hasFilter(String query) {
        return df(query)
                .queryExecution()
                .optimizedPlan()
                .find(p -> p instanceof Filter)
                .isDefined();
    }

    @Test
    void partitionFiltersAnswerAsSparkDoesWithNullsAndNegations() {
        List<String> filters =
                new ArrayList<>(
                        List.of(
                                "dt IN ('a', NULL)",
                                "NOT (dt IN ('a', NULL))",
                                "dt NOT IN ('a', 'b')",
                                "dt <=> NULL",
                                "NOT (dt <=> 'a')",
                                "NOT (h <=> 1) AND dt = 'b'",
                                "dt IS NULL OR h IS NULL",
                                "NOT (dt = 'a' OR h = 2)",
                                "dt LIKE 'a%'",
                                "NOT (dt LIKE 'a%')",
                                "dt = '' AND h IN (0, NULL)",
                                "NOT (h IN (0, NULL))",
                                "dt > 'a' AND NOT (h < 1)"));
        String seedName = RandomShare.seedName("PartitionFiltersTest");
        long seed = TestSeeds.seed(seedName);
        RandomFilters randomFilters =
                new RandomFilters(new Random(seed), PartitionFiltersTest::partitionLeaf);
        for (int i = 0; i < RandomShare.of(16); i++) {
            filters.add(randomFilters.next(2));
        }
        // One statement per table and question: each filter is its own scan (pushed down alone),
        // without a statement's planning for each.
        List<String> rows = new ArrayList<>();
        List<String> counts = new ArrayList<>();
        for (int f = 0; f < filters.size(); f++) {
            rows.add("SELECT " + f + " AS f, id, v, dt, h FROM {t} WHERE " + filters.get(f));
            counts.add("(SELECT count(*) FROM {t} WHERE " + filters.get(f) + ") AS c" + f);
        }
        String rowsQuery = String.join(" UNION ALL ", rows) + " ORDER BY f, id";
        String countsQuery = "SELECT " + String.join(", ", counts);
        for (String[] table :
                new String[][] {{"lake.pf.app", "pf_oracle"}, {"lake.pf.pk", "pf_pk_oracle"}}) {
            List<Row> actual = sql(rowsQuery.replace("{t}", table[0]));
            List<Row> expected = sql(rowsQuery.replace("{t}", table[1]));
            Row actualCounts = sql(countsQuery.replace("{t}", table[0])).get(0);
            Row expectedCounts = sql(countsQuery.replace("{t}", table[1])).get(0);
            for (int f = 0; f < filters.size(); f++) {
                String what =
                        filters.get(f)
                                + " on "
                                + table[0]
                                + " ("
                                + TestSeeds.describe(seedName, seed)
                                + ")";
                assertThat(ofFilter(actual, f)).as(what).isEqualTo(ofFilter(expected, f));
                assertThat(actualCounts.getLong(f))
                        .as("count of " + what)
                        .isEqualTo(expectedCounts.getLong(f));
            }
        }
    }

    private static List<Row> ofFilter(List<Row> rows, int f) {
        return rows.stream().filter(r -> r.getInt(0) == f).collect(Collectors.toList());
    }

    /** A comparison on one partition column, NULL literals included. */
    private static String partitionLeaf(Random random) {
        String[] ops = {"=", "<>", "<", ">=", "<=>"};
        String op = ops[random.nextInt(ops.length)];
        String[] words = {"'a'", "'b'", "'ab'", "''", "'n'", "NULL"};
        String word = words[random.nextInt(words.length)];
        switch (random.nextInt(6)) {
            case 0:
                return "dt " + op + " " + word;
            case 1:
                return "h " + op + " " + (random.nextInt(5) == 0 ? "NULL" : random.nextInt(4));
            case 2:
                return "dt IN (" + word + ", " + words[random.nextInt(words.length)] + ")";
            case 3:
                return "h IN ("
                        + random.nextInt(3)
                        + ", "
                        + (random.nextBoolean() ? "NULL" : "9")
                        + ")";
            case 4:
                return (random.nextBoolean() ? "dt" : "h")
                        + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            default:
                return "dt LIKE '" + (random.nextBoolean() ? "a" : "") + "%'";
        }
    }
}
