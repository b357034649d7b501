package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.plans.logical.Statistics;
import org.junit.jupiter.api.Test;

/**
 * Scans report rows and bytes from their planned splits, so Spark sizes joins with Strata tables as
 * it does with its own (a small table is broadcast instead of shuffling both sides).
 */
class ScanStatisticsTest extends StrataSparkTestBase {

    @Test
    void aSmallTableIsBroadcastInAJoinAndStatisticsCountTheRows() {
        spark.conf().set("spark.sql.adaptive.enabled", "false");
        sql("CREATE NAMESPACE IF NOT EXISTS lake.st");
        sql(
                "CREATE TABLE lake.st.dim (id BIGINT NOT NULL, name STRING)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
        sql("INSERT INTO lake.st.dim SELECT id, concat('n', CAST(id AS STRING)) FROM range(0, 50)");
        sql("CREATE TABLE lake.st.app (id BIGINT, v INT)");
        sql("INSERT INTO lake.st.app SELECT id, CAST(id AS INT) FROM range(0, 30)");
        sql("INSERT INTO lake.st.app SELECT id, CAST(id AS INT) FROM range(30, 70)");
        sql(
                "CREATE TABLE st_facts USING parquet AS SELECT id % 50 AS dim_id, id AS amount"
                        + " FROM range(0, 200000)");

        Statistics dim = df("SELECT * FROM lake.st.dim").queryExecution().optimizedPlan().stats();
        assertThat(dim.rowCount().get().longValue()).isEqualTo(50);
        assertThat(dim.sizeInBytes().longValue()).isBetween(50L, 10_000L);
        Statistics app = df("SELECT id FROM lake.st.app").queryExecution().optimizedPlan().stats();
        assertThat(app.rowCount().get().longValue()).isEqualTo(70);
        // An older snapshot and a partition filter count what the scan reads.
        assertThat(rows("SELECT id FROM lake.st.app VERSION AS OF 1")).isEqualTo(30);
        sql("CREATE TABLE lake.st.parted (id BIGINT, dt STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO lake.st.parted SELECT id, IF(id < 30, 'a', 'b') FROM range(0, 40)");
        assertThat(rows("SELECT id FROM lake.st.parted")).isEqualTo(40);
        assertThat(rows("SELECT id FROM lake.st.parted WHERE dt = 'b'")).isEqualTo(10);

        String join =
                "SELECT d.name, count(*) AS n, sum(f.amount) AS s FROM st_facts f"
                        + " JOIN lake.st.dim d ON f.dim_id = d.id GROUP BY d.name";
        String plan = df(join).queryExecution().executedPlan().toString();
        assertThat(plan).contains("BroadcastHashJoin").doesNotContain("SortMergeJoin");
        assertThat(sql("SELECT * FROM (%s) WHERE name = 'n7'", join))
                .containsExactly(
                        RowFactory.create("n7", 4000L, 4000L * 7 + 50L * (3999L * 4000L / 2)));
    }

    private long rows(String query) {
        // The scan's own statistics: Spark keeps its filters above the scan, and without CBO a
        // filter's statistics carry no row count.
        return df(query)
                .queryExecution()
                .optimizedPlan()
                .collectLeaves()
                .head()
                .stats()
                .rowCount()
                .get()
                .longValue();
    }
}
