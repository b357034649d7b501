package dev.strata.spark.pushdown

import dev.strata.testing.DefaultSparkOnly
import org.apache.spark.sql.Row
import org.apache.spark.sql.types.StructType

/** The columnar reader drops rows in which the pushed map predicate is not true, before Spark sees
  * them. Its comparisons must be Spark's exactly, or a row Spark would keep goes missing: doubles
  * with NaN, -0.0 / 0.0 and infinities, INT and BIGINT extremes, strings compared by unsigned UTF-8
  * bytes (non-ASCII, empty, prefixes), NULL values, absent keys, NULL and empty maps, keys in the
  * overflow (K = 3). Every query is compared with Spark's parquet table holding the same rows, and
  * the scan must return fewer rows than the table holds for the selective ones (so the rows were
  * really dropped in the reader).
  */
@DefaultSparkOnly
class ColumnarRowFilterSuite extends PushdownSuiteBase {

  private val seed = java.lang.Long.getLong("strata.test.seed", 4711L).longValue()
  private val Rows = 3000

  private val doubles =
    Seq(Double.NaN, -0.0, 0.0, 1.5, -1.5, Double.PositiveInfinity, Double.NegativeInfinity, 1e300)
  private val ints = Seq(Int.MinValue, -1, 0, 1, 7, Int.MaxValue)
  private val longs = Seq(Long.MinValue, -1L, 0L, 1L, 7L, Long.MaxValue)
  private val strings =
    Seq("", "a", "ab", "abc", "b", "é", "éa", "z", "\u00ff", "\uffff", "😀", "A")

  override def beforeAll(): Unit = {
    super.beforeAll()
    val r = new java.util.Random(seed)
    def pick[T](s: Seq[T]): T = s(r.nextInt(s.size))
    def map[T](values: => T, keys: Int): Map[String, Any] = {
      if (r.nextInt(25) == 0) return null
      (0 until r.nextInt(keys + 1)).map { _ =>
        val k = "k" + r.nextInt(keys)
        k -> (if (r.nextInt(15) == 0) null else values)
      }.toMap
    }
    val rows = (0 until Rows).map { i =>
      Row(
        i.toLong,
        if (i % 11 == 0) null else "t" + (i % 4),
        map(pick(doubles), 6),
        map(pick(ints), 5),
        map(pick(longs), 5),
        map(pick(strings), 6)
      )
    }
    val schema = StructType.fromDDL(
      "id BIGINT, tag STRING, d MAP<STRING, DOUBLE>, i MAP<STRING, INT>, l MAP<STRING, BIGINT>, s MAP<STRING, STRING>"
    )
    val data = spark.createDataFrame(spark.sparkContext.parallelize(rows, 3), schema)
    data.write.format("parquet").saveAsTable("rowfilter_oracle")
    sql("CREATE NAMESPACE IF NOT EXISTS lake.rf")
    val layout = Seq("d", "i", "l", "s")
      .map { c =>
        s"'fields.$c.map.storage-layout' = 'shared-shredding', 'fields.$c.map.shared-shredding.max-columns' = '3'"
      }
      .mkString(", ")
    sql(
      s"CREATE TABLE lake.rf.t (id BIGINT, tag STRING, d MAP<STRING, DOUBLE>, i MAP<STRING, INT>, " +
        s"l MAP<STRING, BIGINT>, s MAP<STRING, STRING>) TBLPROPERTIES ($layout, 'file.block-size' = '16 kb')"
    )
    data.writeTo("lake.rf.t").append()
  }

  private val predicates = Seq(
    "d['k1'] > 0.0",
    "d['k1'] >= 0.0",
    "d['k1'] = 0.0",
    "d['k1'] = -0.0",
    "d['k1'] <> 0.0",
    "d['k1'] < 0.0",
    "d['k2'] = CAST('NaN' AS DOUBLE)",
    "d['k2'] > 1e299",
    "d['k2'] < CAST('NaN' AS DOUBLE)",
    "d['k3'] <=> CAST('-Infinity' AS DOUBLE)",
    "d['k3'] IN (1.5, -0.0, CAST('NaN' AS DOUBLE))",
    "d['k4'] BETWEEN -1.5 AND 1.5",
    "d['k5'] IS NOT NULL",
    "d['k0'] > 1",
    "i['k1'] > 0",
    "i['k1'] <= -1",
    "i['k2'] = 2147483647",
    "i['k3'] IN (7, -2147483648)",
    "i['k4'] <> 0",
    "l['k1'] > 1",
    "l['k2'] = 9223372036854775807",
    "l['k3'] < -9223372036854775807",
    "l['k4'] BETWEEN 0 AND 7",
    "s['k1'] > 'a'",
    "s['k1'] >= 'é'",
    "s['k2'] < 'b'",
    "s['k2'] = ''",
    "s['k3'] LIKE 'a%'",
    "s['k3'] LIKE 'é%'",
    "startswith(s['k4'], 'ab')",
    "s['k4'] IN ('😀', 'z', '\u00ff')",
    "s['k5'] > '\u00ff'",
    "s['k0'] <> 'A'",
    "d['k1'] > 0.0 AND i['k1'] > 0",
    "d['k1'] > 0.0 OR s['k1'] > 'b'",
    "(d['k2'] = 1.5 OR l['k1'] = 7) AND s['k2'] IS NOT NULL",
    "d['k1'] > 0.0 AND tag = 't1'",
    "element_at(d, 'k3') < 0.0"
  )

  test(
    "rows the reader drops are rows Spark's filter drops, for every comparison shape and edge value"
  ) {
    var narrowed = 0
    for (p <- predicates) {
      def q(table: String) =
        s"SELECT id, tag, d['k1'], i['k1'], l['k2'], s['k3'] FROM $table WHERE $p"
      val got = sql(q("lake.rf.t"))
      assert(
        scans(got).exists(_.contains("PushedMapPredicates")),
        s"nothing pushed for [$p]: ${scans(got)}"
      )
      val expected = rowsOf(sql(q("rowfilter_oracle")))
      val actual = rowsOf(got)
      if (actual != expected) {
        fail(
          s"[$p] differs from the oracle (seed $seed): missing ${expected.diff(actual).take(5)}, " +
            s"extra ${actual.diff(expected).take(5)}"
        )
      }
      val returned = scanNodes(got).map(_.metrics("numOutputRows").value).sum
      assert(
        returned >= expected.size,
        s"[$p]: the scan returned $returned rows for ${expected.size} answers"
      )
      if (returned < Rows) narrowed += 1
    }
    assert(
      narrowed >= predicates.size - 2,
      s"only $narrowed of ${predicates.size} scans returned fewer rows than the table"
    )
  }
}
