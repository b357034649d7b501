package dev.strata.spark.pushdown

import dev.strata.testing.{DefaultSparkOnly, TestSeeds}

/** Tables with placement `disjoint` (issue 26) on the map benchmark's three data shapes answer key
  * lookups, pushed predicates and whole-map reads exactly like a plain parquet MAP table (the
  * oracle), for rows inside and after the writer's 10 000-row sample, NULL values, NaN, a NULL map
  * and keys missing from the sample included.
  */
@DefaultSparkOnly
class DisjointPlacementSuite extends PushdownSuiteBase {

  private val Name = "DisjointPlacementSuite"
  // Two writers (local[2]) of 15 000 rows each: rows after each writer's 10 000-row sample too.
  private val Rows = 30000

  /** Per shape: the key-array expression over `id` and `s` (seed), and keys to query. */
  private def shapes(seed: Long): Seq[(String, String, Seq[String])] = {
    def u(parts: String) = s"(pmod(hash($seed, id, $parts), 1000003) / 1000003.0D)"
    Seq(
      (
        "independent",
        s"""concat(array('hot'), transform(sequence(0, 38), b ->
           |  concat('k_', cast(b * 50 + cast(floor(50 * ${u("b, 'j'")}) AS INT) AS STRING))),
           |  CASE WHEN id % 15000 >= 11000 AND id % 7 = 0 THEN array('late') ELSE CAST(array() AS ARRAY<STRING>) END)""".stripMargin,
        Seq("hot", "k_57", "k_1949", "late", "absent")
      ),
      (
        "correlated",
        s"""concat(array('hot'), transform(sequence(1, 39), i ->
           |  concat('d', cast(cast(floor(60 * ${u(
            "'t'"
          )}) AS INT) AS STRING), '_', cast(i AS STRING))))""".stripMargin,
        Seq("hot", "d0_1", "d59_39")
      ),
      (
        "longtail",
        s"""array_distinct(concat(array('cpu', 'mem', 'disk', 'net', 'load', 'err'),
           |  transform(sequence(0, 43), i -> concat('t_', cast(cast(floor(3000 * pow(${u(
            "i, 't'"
          )}, 2)) AS INT) AS STRING)))))""".stripMargin,
        Seq("cpu", "mem", "disk", "t_0", "t_2999")
      )
    )
  }

  private def select(keys: String, seed: Long): String =
    s"""SELECT id, CASE WHEN id % 997 = 3 THEN NULL ELSE map_from_entries(transform($keys, k -> struct(k,
       |  CASE WHEN k = 'mem' AND id % 20 = 1 THEN CAST(NULL AS DOUBLE)
       |       WHEN k = 'disk' AND id % 33 = 2 THEN CAST('NaN' AS DOUBLE)
       |       WHEN pmod(hash($seed, id, k), 50) = 0 THEN CAST(NULL AS DOUBLE)
       |       ELSE CAST(pmod(hash($seed, id, k, 'v'), 10000) / 100.0D AS DOUBLE) END))) END AS m
       |  FROM range($Rows)""".stripMargin

  // One seed per run (fixed by default): the three shapes are what varies the placement.
  for (i <- 0 until 1) {
    test(s"default-placed tables answer like a plain MAP on every shape (seed ${i + 1})") {
      val seed = TestSeeds.seed(s"$Name-$i")
      val why = TestSeeds.describe(s"$Name-$i", seed)
      sql("CREATE NAMESPACE IF NOT EXISTS lake.d")
      for ((shape, keys, lookups) <- shapes(seed)) {
        val strata = s"lake.d.${shape}_$i"
        val oracle = s"oracle_${shape}_$i"
        sql(s"DROP TABLE IF EXISTS $oracle")
        sql(s"CREATE TABLE $oracle USING parquet AS ${select(keys, seed)}")
        sql(s"DROP TABLE IF EXISTS $strata")
        sql(
          s"CREATE TABLE $strata (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES " +
            "('fields.m.map.storage-layout' = 'shared-shredding', " +
            "'fields.m.strata-shredded.column-placement-policy' = 'disjoint')"
        )
        sql(s"INSERT INTO $strata SELECT * FROM $oracle")
        val queries = lookups.flatMap { k =>
          Seq(
            s"SELECT count(*), min(m['$k']), max(m['$k']) FROM {t} WHERE m['$k'] > 50",
            s"SELECT count(*), min(m['$k']), max(m['$k']) FROM {t} WHERE m['$k'] <= 1.5 OR m['$k'] IN (7.0, 99.99)",
            s"SELECT id, m['$k'] FROM {t} WHERE m['$k'] IS NOT NULL",
            s"SELECT count(*) FROM {t} WHERE m['$k'] IS NULL"
          )
        } ++ Seq(
          s"SELECT id, m['${lookups(0)}'], m['${lookups(1)}'] FROM {t} WHERE m['${lookups(1)}'] > 20 AND id % 3 = 0",
          "SELECT id, m FROM {t}"
        )
        for (q <- queries) {
          assert(
            rowsOf(sql(q.replace("{t}", strata))) == rowsOf(sql(q.replace("{t}", oracle))),
            s"$why: $shape differs from the oracle for ${q.replace("{t}", strata)}"
          )
        }
      }
    }
  }
}
