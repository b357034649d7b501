package dev.strata.spark.pushdown

import scala.jdk.CollectionConverters._

import dev.strata.testing.TestSeeds
import dev.strata.testing.maps.MapDataGenerator

import org.apache.spark.sql.{DataFrame, Row}
import org.apache.spark.sql.types.StructType

/** Primary-key tables never answer differently because of pushdown (the level-0 trap), and the scan
  * reports what it skipped as DSv2 custom metrics.
  */
class MapPushdownSafetyAndMetricsSuite extends PushdownSuiteBase {

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.conf.set(
      "spark.sql.adaptive.enabled",
      "false"
    ) // plain physical plans carry the scan metrics
    sql("CREATE NAMESPACE IF NOT EXISTS lake.s")
  }

  private def metric(df: DataFrame, name: String): Long = {
    val nodes = scanNodes(df)
    assert(nodes.size == 1, s"expected one scan: ${df.queryExecution.executedPlan}")
    nodes.head.metrics(name).value
  }

  private def ids(df: DataFrame): Seq[Long] = df.collect().map(_.getLong(0)).toSeq.sorted

  private def createPk(name: String, dv: Boolean): Unit =
    sql(
      s"""CREATE TABLE lake.s.$name (id BIGINT NOT NULL, ext_map MAP<STRING, DOUBLE>) TBLPROPERTIES (
           | 'primary-key' = 'id', 'bucket' = '1', 'deletion-vectors.enabled' = '$dv',
           | 'fields.ext_map.map.storage-layout' = 'shared-shredding',
           | 'fields.ext_map.map.shared-shredding.max-columns' = '2')""".stripMargin
    )

  test(
    "an older compacted version never reappears when the newer level-0 version fails the predicate"
  ) {
    createPk("trap", dv = false)
    sql(
      "INSERT INTO lake.s.trap VALUES (1, map('usage', 50.0D, 'cpu', 1.0D)), (2, map('usage', 60.0D))"
    )
    sql("CALL lake.sys.compact(table => 's.trap')")
    sql("INSERT INTO lake.s.trap VALUES (1, map('usage', 10.0D, 'cpu', 2.0D))")

    val df = sql("SELECT id, ext_map['usage'] FROM lake.s.trap WHERE ext_map['usage'] > 30")
    assert(df.collect().map(r => (r.getLong(0), r.getDouble(1))).toSeq == Seq((2L, 60.0)))
    assert(
      scans(df).exists(_.contains("PushedMapPredicates: [ext_map['usage'] > 30.0]")),
      scans(df).mkString
    )
    assert(metric(df, "splitsPlanned") == 1)
    assert(
      metric(df, "splitsPruningByMapPredicate") == 0,
      "a split with overlapping runs must not prune by value"
    )
    assert(
      ids(
        sql("SELECT id FROM lake.s.trap WHERE ext_map['usage'] > 30 AND ext_map['cpu'] = 1")
      ).isEmpty
    )

    // After a full compaction every row is final: the split may prune, and the answer is unchanged.
    sql("CALL lake.sys.compact(table => 's.trap')")
    val compacted = sql("SELECT id FROM lake.s.trap WHERE ext_map['usage'] > 30")
    assert(ids(compacted) == Seq(2L))
    assert(metric(compacted, "splitsPruningByMapPredicate") == 1)
  }

  test("deletion-vector tables prune by value and answer like an unpushed query") {
    createPk("dv", dv = true)
    sql(
      "INSERT INTO lake.s.dv VALUES (1, map('usage', 50.0D)), (2, map('usage', 60.0D)), (3, map('cpu', 5.0D))"
    )
    sql("CALL lake.sys.compact(table => 's.dv')")
    sql("INSERT INTO lake.s.dv VALUES (1, map('usage', 10.0D)), (3, map('usage', 70.0D))")
    val pushed = sql("SELECT id FROM lake.s.dv WHERE ext_map['usage'] > 30")
    // coalesce(...) is not pushed: the same question answered without any pruning.
    val reference = sql("SELECT id FROM lake.s.dv WHERE coalesce(ext_map['usage'], 0) > 30")
    assert(scans(reference).forall(!_.contains("PushedMapPredicates")))
    assert(ids(pushed) == ids(reference))
    sql("CALL lake.sys.compact(table => 's.dv')")
    val after = sql("SELECT id FROM lake.s.dv WHERE ext_map['usage'] > 30")
    assert(ids(after) == Seq(2L, 3L))
    assert(metric(after, "splitsPruningByMapPredicate") == metric(after, "splitsPlanned"))
  }

  test(
    "a selective predicate on sorted data skips row groups; selected keys read fewer sub-columns"
  ) {
    val seed = TestSeeds.seed("MapPushdownSafetyAndMetricsSuite")
    val gen = MapDataGenerator.builder(seed).keyUniverse(200).keysPerRow(10, 20).build()
    val n = 20000
    val rows = gen.generate(n).asScala.zipWithIndex.map { case (m, i) =>
      val j = new java.util.LinkedHashMap[String, Object]()
      if (!m.isNull) j.putAll(m.lastValueByKey())
      j.put("usage", java.lang.Double.valueOf(i * 1000.0 / n)) // sorted by usage
      Row(i.toLong, j)
    }
    val df = spark.createDataFrame(
      rows.asJava,
      StructType.fromDDL("id BIGINT, ext_map MAP<STRING, DOUBLE>")
    )
    df.write.format("parquet").saveAsTable("sorted_oracle")
    sql("""CREATE TABLE lake.s.sorted (id BIGINT, ext_map MAP<STRING, DOUBLE>) TBLPROPERTIES (
          | 'fields.ext_map.map.storage-layout' = 'shared-shredding',
          | 'fields.ext_map.map.shared-shredding.max-columns' = '8',
          | 'file.block-size' = '64 kb')""".stripMargin)
    df.coalesce(1).sortWithinPartitions("id").writeTo("lake.s.sorted").append()

    val selective =
      sql("SELECT count(*), sum(ext_map['usage']) FROM lake.s.sorted WHERE ext_map['usage'] > 990")
    val answer = selective.collect().toSeq
    assert(
      answer == sql(
        "SELECT count(*), sum(ext_map['usage']) FROM sorted_oracle WHERE ext_map['usage'] > 990"
      )
        .collect()
        .toSeq
    )
    val total = metric(selective, "shreddedRowGroupsTotal")
    val skipped = metric(selective, "shreddedRowGroupsSkipped")
    assert(total >= 4, s"expected several row groups, got $total")
    assert(
      skipped >= total / 2 && skipped < total,
      s"expected most row groups skipped: $skipped of $total"
    )
    assert(metric(selective, "shreddedFilesRead") >= 1)

    val absent = sql("SELECT count(*) FROM lake.s.sorted WHERE ext_map['no-such-key'] > 1")
    assert(absent.collect().head.getLong(0) == 0L)
    assert(
      metric(absent, "shreddedFilesSkipped") >= 1 && metric(absent, "shreddedRowGroupsTotal") == 0
    )

    val oneKey = sql("SELECT max(ext_map['usage']) FROM lake.s.sorted")
    oneKey.collect()
    val whole = sql("SELECT max(size(ext_map)) FROM lake.s.sorted")
    whole.collect()
    val keyColumns = metric(oneKey, "shreddedSubColumnsRead")
    val allColumns = metric(whole, "shreddedSubColumnsRead")
    assert(
      keyColumns > 0 && keyColumns < allColumns,
      s"selected keys read $keyColumns sub-columns, whole map $allColumns"
    )
  }

  test("row groups of several pages decode by column like the oracle") {
    val seed = TestSeeds.seed("MapPushdownSafetyAndMetricsSuite.pages")
    // One row group of 50 000 rows: the writer cuts pages every 20 000 rows, so columns span pages.
    val gen = MapDataGenerator
      .builder(seed)
      .keyUniverse(12)
      .keysPerRow(3, 6)
      .nullMapRate(0.05)
      .emptyMapRate(0.05)
      .nullValueRate(0.1)
      .duplicateKeyRate(0.0)
      .build()
    val rows =
      gen.generate(50000).asScala.zipWithIndex.map { case (m, i) => Row(i.toLong, toMap(m)) }
    val df =
      spark.createDataFrame(rows.asJava, StructType.fromDDL("id BIGINT, m MAP<STRING, DOUBLE>"))
    df.write.format("parquet").saveAsTable("pages_oracle")
    sql(
      """CREATE TABLE lake.s.pages (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES (
          | 'fields.m.map.storage-layout' = 'shared-shredding', 'fields.m.map.shared-shredding.max-columns' = '3')""".stripMargin
    )
    df.coalesce(1).writeTo("lake.s.pages").append()
    val keys = gen.keyUniverse().asScala.take(4)
    val q = "SELECT id, " + keys
      .map(k => s"m['$k']")
      .mkString(", ") + ", m IS NULL FROM $t WHERE m['" + keys.head +
      "'] > 3 OR id % 10 = 0"
    val strata = sql(q.replace("$t", "lake.s.pages"))
    assert(strata.queryExecution.sparkPlan.collect {
      case b: org.apache.spark.sql.execution.datasources.v2.BatchScanExec => b.supportsColumnar
    } == Seq(true))
    assert(
      rowsOf(strata) == rowsOf(sql(q.replace("$t", "pages_oracle"))),
      TestSeeds.describe("pages", seed)
    )
  }
}
