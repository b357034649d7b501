package dev.strata.spark.pushdown

import scala.jdk.CollectionConverters._

import dev.strata.testing.TestSeeds
import dev.strata.testing.maps.MapDataGenerator

import org.apache.spark.sql.Row
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation
import org.apache.spark.sql.types.StructType

/** Which shapes are pushed (EXPLAIN shows them) and which are not, with every answer equal to
  * Spark's own parquet table holding the same rows.
  */
class MapPushdownPlanSuite extends PushdownSuiteBase {

  private val T = "lake.obs.metrics"
  private val O = "metrics_oracle"

  override def beforeAll(): Unit = {
    super.beforeAll()
    val seed = TestSeeds.seed("MapPushdownPlanSuite")
    val gen = MapDataGenerator
      .builder(seed)
      .keyUniverse(30)
      .keysPerRow(6, 12)
      .nullMapRate(0.05)
      .emptyMapRate(0.05)
      .nullValueRate(0.05)
      .build()
    val labels = MapDataGenerator
      .builder(seed + 1)
      .keyUniverse(8)
      .keysPerRow(3, 5)
      .valueKind(MapDataGenerator.ValueKind.STRING)
      .build()
    val keys = gen.keyUniverse().asScala
    val rows = gen.generate(1200).asScala.zip(labels.generate(1200).asScala).zipWithIndex.map {
      case ((m, l), i) =>
        // 'usage' and 'cpu' are ordinary keys with known values on top of the generated ones.
        val ext =
          if (m.isNull) null
          else {
            val j = new java.util.LinkedHashMap[String, Object](m.lastValueByKey())
            if (i % 3 != 0) j.put("usage", java.lang.Double.valueOf((i % 100).toDouble))
            if (i % 4 == 0) j.put("cpu", java.lang.Double.valueOf((i % 7).toDouble))
            j
          }
        Row(i.toLong, s"h${i % 5}", s"d${i % 2}", ext, toMap(l), ext)
    }
    val schema = StructType.fromDDL(
      "id BIGINT, host STRING, day STRING, ext_map MAP<STRING, DOUBLE>, " +
        "labels MAP<STRING, STRING>, plain_map MAP<STRING, DOUBLE>"
    )
    val df = spark.createDataFrame(rows.asJava, schema)
    df.write.format("parquet").saveAsTable(O)
    sql("CREATE NAMESPACE IF NOT EXISTS lake.obs")
    sql(s"""CREATE TABLE $T (id BIGINT, host STRING, day STRING, ext_map MAP<STRING, DOUBLE>,
           | labels MAP<STRING, STRING>, plain_map MAP<STRING, DOUBLE>) PARTITIONED BY (day) TBLPROPERTIES (
           | 'fields.ext_map.map.storage-layout' = 'shared-shredding',
           | 'fields.ext_map.map.shared-shredding.max-columns' = '4',
           | 'fields.labels.map.storage-layout' = 'shared-shredding',
           | 'fields.labels.map.shared-shredding.max-columns' = '2')""".stripMargin)
    df.where("id % 2 = 0").writeTo(T).append()
    df.where("id % 2 = 1").writeTo(T).append()
    assert(keys.nonEmpty)
  }

  /** Runs the query on the Strata table and on the oracle; returns the Strata scans' descriptions.
    */
  private def check(query: String, table: String = T, oracle: String = O): Seq[String] = {
    val df = sql(query.replace("$t", table))
    val expected = rowsOf(sql(query.replace("$t", oracle)))
    val actual = rowsOf(df)
    assert(actual == expected, s"answer differs from the oracle for: $query")
    scans(df)
  }

  private def assertPushed(
      query: String,
      predicates: String,
      keys: String,
      table: String = T,
      oracle: String = O
  ): Unit = {
    val s = check(query, table, oracle)
    assert(s.nonEmpty, s"no Strata scan in: $query")
    assert(
      s.forall(_.contains(s"PushedMapPredicates: $predicates")),
      s"expected the map predicate $predicates to be pushed, scans were: ${s.mkString("\n")}"
    )
    if (keys == null)
      assert(s.forall(!_.contains("SelectedKeys")), s"expected whole maps, scans were: $s")
    else
      assert(
        s.forall(_.contains(s"SelectedKeys: $keys")),
        s"expected SelectedKeys: $keys, scans were: $s"
      )
  }

  private def assertNotPushed(query: String, table: String = T, oracle: String = O): Unit = {
    val s = check(query, table, oracle)
    assert(
      s.nonEmpty && s.forall(!_.contains("PushedMapPredicates")),
      s"expected no map predicate, scans were: $s"
    )
  }

  test("comparisons with an implicitly cast literal are pushed and only the key is read") {
    assertPushed(
      "SELECT id, ext_map['usage'] FROM $t WHERE ext_map['usage'] > 30",
      "[ext_map['usage'] > 30.0]",
      "[ext_map=[usage]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE ext_map['usage'] = 42",
      "[ext_map['usage'] = 42.0]",
      "[ext_map=[usage]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE ext_map['usage'] <> 42",
      "[ext_map['usage'] <> 42.0]",
      "[ext_map=[usage]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE ext_map['usage'] < 5.5",
      "[ext_map['usage'] < 5.5]",
      "[ext_map=[usage]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE 10 >= ext_map['usage']",
      "[ext_map['usage'] <= 10.0]",
      "[ext_map=[usage]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE ext_map['usage'] >= 98",
      "[ext_map['usage'] >= 98.0]",
      "[ext_map=[usage]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE ext_map['usage'] <=> 7",
      "[ext_map['usage'] = 7.0]",
      "[ext_map=[usage]]"
    )
  }

  test("element_at, IN, BETWEEN, IS NOT NULL, LIKE prefix and NOT are pushed") {
    assertPushed(
      "SELECT id FROM $t WHERE element_at(ext_map, 'usage') > 90",
      "[ext_map['usage'] > 90.0]",
      "[ext_map=[usage]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE ext_map['usage'] IN (1, 2, 3)",
      "[ext_map['usage'] IN (1.0, 2.0, 3.0)]",
      "[ext_map=[usage]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE ext_map['usage'] BETWEEN 10 AND 20",
      "[ext_map['usage'] >= 10.0, ext_map['usage'] <= 20.0]",
      "[ext_map=[usage]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE ext_map['cpu'] IS NOT NULL",
      "[ext_map['cpu'] IS NOT NULL]",
      "[ext_map=[cpu]]"
    )
    assertPushed(
      "SELECT id, labels['metric_1'] FROM $t WHERE labels['metric_1'] LIKE 'v1%'",
      "[startswith(labels['metric_1'], 'v1')]",
      "[labels=[metric_1]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE NOT (ext_map['usage'] > 50)",
      "[ext_map['usage'] <= 50.0]",
      "[ext_map=[usage]]"
    )
  }

  test("AND, OR, several keys and ordinary or partition columns combine") {
    assertPushed(
      "SELECT id FROM $t WHERE ext_map['usage'] > 90 OR ext_map['cpu'] = 3",
      "[ext_map['usage'] > 90.0 OR ext_map['cpu'] = 3.0]",
      "[ext_map=[usage, cpu]]"
    )
    assertPushed(
      "SELECT id FROM $t WHERE (ext_map['usage'] > 90 AND ext_map['cpu'] < 2) OR ext_map['usage'] < 1",
      "[(ext_map['usage'] > 90.0 AND ext_map['cpu'] < 2.0) OR ext_map['usage'] < 1.0]",
      "[ext_map=[usage, cpu]]"
    )
    val s =
      check("SELECT id, host FROM $t WHERE ext_map['usage'] > 50 AND host = 'h1' AND day = 'd0'")
    assert(
      s.exists(d =>
        d.contains("PushedMapPredicates: [ext_map['usage'] > 50.0]") && d.contains("host")
          && d.contains("day")
      ),
      s"expected map, host and partition predicates to be pushed: $s"
    )
    // An OR with an ordinary column cannot be expressed over map values only; the map side of an AND can.
    assertNotPushed("SELECT id FROM $t WHERE ext_map['usage'] > 50 OR host = 'h1'")
    assertPushed(
      "SELECT id FROM $t WHERE ext_map['usage'] > 50 AND (ext_map['cpu'] IS NULL OR host = 'h1')",
      "[ext_map['usage'] > 50.0]",
      "[ext_map=[usage, cpu]]"
    )
  }

  test("unsupported shapes are not pushed and still answer correctly") {
    assertNotPushed("SELECT id FROM $t WHERE ext_map['usage'] IS NULL")
    assertNotPushed("SELECT id FROM $t WHERE coalesce(ext_map['usage'], 0) > 1")
    assertNotPushed("SELECT id FROM $t WHERE ext_map['usage'] <=> NULL")
    assertNotPushed("SELECT id FROM $t WHERE ext_map[host] > 1")
    assertNotPushed("SELECT id FROM $t WHERE ext_map['usage'] > ext_map['cpu']")
    assertNotPushed("SELECT id FROM $t WHERE CAST(ext_map['usage'] AS STRING) = '5.0'")
    assertNotPushed(
      "SELECT id FROM $t WHERE CASE WHEN ext_map['usage'] > 5 THEN true ELSE false END"
    )
    spark.udf.register(
      "plus_one",
      (d: java.lang.Double) => if (d == null) null else java.lang.Double.valueOf(d + 1)
    )
    assertNotPushed("SELECT id FROM $t WHERE plus_one(ext_map['usage']) > 50")
    assertNotPushed("SELECT id FROM $t WHERE size(ext_map) > 8")
    // Not pushed: a map without the shared-shredding layout.
    assertNotPushed("SELECT id FROM $t WHERE plain_map['usage'] > 30")
  }

  test("selected keys hold under Filter, Aggregate, Join, Sort and subqueries") {
    assertPushed(
      "SELECT host, avg(ext_map['usage']), max(element_at(ext_map, 'cpu')) FROM $t " +
        "WHERE ext_map['usage'] > 10 GROUP BY host",
      "[ext_map['usage'] > 10.0]",
      "[ext_map=[usage, cpu]]"
    )
    val sorted = check(
      "SELECT id, ext_map['cpu'] FROM $t ORDER BY ext_map['usage'] DESC NULLS LAST, id LIMIT 20"
    )
    assert(sorted.forall(_.contains("SelectedKeys: [ext_map=[usage, cpu]]")), sorted.mkString("\n"))
    val joined = check(
      "SELECT a.id, b.ext_map['cpu'] FROM $t a JOIN $t b ON a.id = b.id + 1 " +
        "WHERE a.ext_map['usage'] > 80"
    )
    assert(
      joined.size == 2 && joined.exists(_.contains("SelectedKeys: [ext_map=[usage]]"))
        && joined.exists(_.contains("SelectedKeys: [ext_map=[cpu]]"))
        && joined.exists(_.contains("PushedMapPredicates: [ext_map['usage'] > 80.0]")),
      joined.mkString("\n")
    )
    val sub =
      check("SELECT id FROM $t WHERE ext_map['usage'] > (SELECT avg(ext_map['cpu']) * 20 FROM $t)")
    assert(
      sub.size == 2 && sub.exists(_.contains("SelectedKeys: [ext_map=[usage]]"))
        && sub.exists(_.contains("SelectedKeys: [ext_map=[cpu]]")),
      sub.mkString("\n")
    )
    val in = check(
      "SELECT id FROM $t WHERE id IN (SELECT id FROM $t WHERE ext_map['cpu'] = 3) AND ext_map['usage'] > 1"
    )
    assert(in.size == 2 && in.forall(_.contains("SelectedKeys")), in.mkString("\n"))
  }

  test("a query that uses the whole map reads the whole map; a missing key reads nothing extra") {
    assertPushed(
      "SELECT id, ext_map FROM $t WHERE ext_map['usage'] > 95",
      "[ext_map['usage'] > 95.0]",
      null
    )
    assertPushed(
      "SELECT id, size(ext_map) FROM $t WHERE ext_map['usage'] > 95",
      "[ext_map['usage'] > 95.0]",
      null
    )
    assertPushed(
      "SELECT id, k FROM $t LATERAL VIEW explode(map_keys(ext_map)) x AS k WHERE ext_map['usage'] > 95",
      "[ext_map['usage'] > 95.0]",
      null
    )
    assertPushed(
      "SELECT id, ext_map['no-such-key'] FROM $t WHERE ext_map['no-such-key'] > 1",
      "[ext_map['no-such-key'] > 1.0]",
      "[ext_map=[no-such-key]]"
    )
    val union =
      check("SELECT ext_map FROM $t WHERE id < 10 UNION ALL SELECT ext_map FROM $t WHERE id > 1190")
    assert(union.forall(!_.contains("SelectedKeys")), union.mkString("\n"))
    val noKeys = check("SELECT id, ext_map['usage'] FROM $t WHERE ext_map IS NOT NULL")
    assert(noKeys.forall(_.contains("SelectedKeys: [ext_map=[usage]]")), noKeys.mkString("\n"))
  }

  /** The columns of every Strata scan of a query (after it ran against the oracle). */
  private def scanColumns(query: String): Seq[Seq[String]] = {
    val df = sql(query.replace("$t", T))
    val expected = rowsOf(sql(query.replace("$t", O)))
    assert(rowsOf(df) == expected, s"answer differs from the oracle for: $query")
    df.queryExecution.optimizedPlan.collectWithSubqueries { case s: DataSourceV2ScanRelation =>
      s.output.map(_.name)
    }
  }

  test("looked-up keys reach Spark as columns of their own, not as maps") {
    assert(
      scanColumns(
        "SELECT count(*), avg(ext_map['usage']) FROM $t WHERE ext_map['usage'] > 30"
      ) == Seq(Seq("ext_map['usage']"))
    )
    assert(
      scanColumns(
        "SELECT host, avg(ext_map['usage']), max(element_at(ext_map, 'cpu')) FROM $t " +
          "WHERE ext_map['usage'] > 10 GROUP BY host"
      ).map(_.sorted) == Seq(Seq("ext_map['cpu']", "ext_map['usage']", "host"))
    )
    assert(
      scanColumns(
        "SELECT id, labels['metric_1'] FROM $t WHERE labels['metric_1'] LIKE 'v1%' ORDER BY id"
      ).map(_.sorted) == Seq(Seq("id", "labels['metric_1']"))
    )
    val joined = scanColumns(
      "SELECT a.id, b.ext_map['cpu'] FROM $t a JOIN $t b ON a.id = b.id + 1 " +
        "WHERE a.ext_map['usage'] > 80"
    )
    assert(
      joined.map(_.sorted).toSet == Set(Seq("ext_map['usage']", "id"), Seq("ext_map['cpu']", "id"))
    )
    assert(
      scanColumns(
        "SELECT ext_map['usage'] AS u, count(*) FROM $t GROUP BY ext_map['usage']"
      ) == Seq(Seq("ext_map['usage']"))
    )
    assert(
      scanColumns(
        "SELECT id, sum(ext_map['usage']) OVER (PARTITION BY host ORDER BY id) FROM $t " +
          "WHERE ext_map['cpu'] IS NOT NULL"
      ).map(_.sorted) == Seq(Seq("ext_map['cpu']", "ext_map['usage']", "host", "id"))
    )
    // a key that needs escaping, and NULL for a key no row has
    assert(
      scanColumns("SELECT id, ext_map['it\\'s'] FROM $t WHERE id < 30")
        .map(_.sorted) == Seq(Seq("ext_map['it\\'s']", "id"))
    )
  }

  test("key columns come from files of an older schema version too (rows packed into batches)") {
    // Files written before a change of table options are not read by the columnar shredded
    // reader (it takes files of the current schema only) but as Paimon rows packed into batches,
    // which project the key columns from the maps they read.
    val altered = "lake.obs.altered"
    sql(s"""CREATE TABLE $altered (id BIGINT, host STRING, day STRING, ext_map MAP<STRING, DOUBLE>,
           | labels MAP<STRING, STRING>, plain_map MAP<STRING, DOUBLE>) TBLPROPERTIES (
           | 'fields.ext_map.map.storage-layout' = 'shared-shredding',
           | 'fields.ext_map.map.shared-shredding.max-columns' = '4',
           | 'fields.labels.map.storage-layout' = 'shared-shredding',
           | 'fields.labels.map.shared-shredding.max-columns' = '2')""".stripMargin)
    try {
      sql(s"INSERT INTO $altered SELECT * FROM $O WHERE id % 2 = 0")
      sql(s"ALTER TABLE $altered SET TBLPROPERTIES ('snapshot.num-retained.min' = '5')")
      sql(s"INSERT INTO $altered SELECT * FROM $O WHERE id % 2 = 1")
      Seq(
        "SELECT count(*), avg(ext_map['usage']) FROM $t WHERE ext_map['usage'] > 30" ->
          Seq("ext_map['usage']"),
        "SELECT host, sum(ext_map['cpu']), count(ext_map['usage']) FROM $t " +
          "WHERE ext_map['usage'] > 10 OR ext_map['cpu'] < 3 GROUP BY host" ->
          Seq("ext_map['cpu']", "ext_map['usage']", "host"),
        "SELECT id, labels['metric_1'] FROM $t WHERE labels['metric_1'] LIKE 'v1%'" ->
          Seq("id", "labels['metric_1']")
      ).foreach { case (query, columns) =>
        val df = sql(query.replace("$t", altered))
        assert(rowsOf(df) == rowsOf(sql(query.replace("$t", O))), query)
        val scanned = df.queryExecution.optimizedPlan.collect { case r: DataSourceV2ScanRelation =>
          r.output.map(_.name).sorted
        }
        assert(scanned == Seq(columns), query)
      }
    } finally sql(s"DROP TABLE IF EXISTS $altered")
  }

  test("a map needed whole or seen by a subquery stays a map, with the same answers") {
    // the map itself is tested for NULL: it is read, with the key beside it
    assert(
      scanColumns(
        "SELECT id, ext_map['usage'] FROM $t WHERE ext_map IS NULL OR ext_map['usage'] > 3"
      ).map(_.sorted) == Seq(Seq("ext_map", "ext_map['usage']", "id"))
    )
    // Spark's inferred IS NOT NULL of the map is implied by the key's predicate: dropped
    assert(
      scanColumns("SELECT id FROM $t WHERE ext_map IS NOT NULL AND ext_map['usage'] > 3")
        .map(_.sorted) == Seq(Seq("ext_map['usage']", "id"))
    )
    // a correlated subquery (Spark may turn it into a join): the same answers either way
    scanColumns(
      "SELECT id FROM $t a WHERE EXISTS (SELECT 1 FROM $t b WHERE b.id = a.id + 1 " +
        "AND b.ext_map['cpu'] < a.ext_map['usage'])"
    )
    // keys equal but for case would give columns Spark's schema pruning cannot tell apart
    assert(
      scanColumns("SELECT id, ext_map['cpu'], ext_map['CPU'] FROM $t WHERE ext_map['cpu'] > 1")
        .map(_.sorted) == Seq(Seq("ext_map", "id"))
    )
    assert(
      scanColumns(
        "SELECT ext_map['usage'] FROM $t WHERE id < 10 UNION ALL " +
          "SELECT ext_map['usage'] FROM $t WHERE id > 1190"
      ).forall(c => c.contains("ext_map['usage']") && !c.contains("ext_map"))
    )
  }

  test("EXPLAIN names the pushed map predicates and selected keys") {
    val plan = sql(s"EXPLAIN SELECT ext_map['usage'] FROM $T WHERE ext_map['usage'] > 30")
      .collect()(0)
      .getString(0)
    assert(plan.contains("PushedMapPredicates: [ext_map['usage'] > 30.0]"), plan)
    assert(plan.contains("SelectedKeys: [ext_map=[usage]]"), plan)
    assert(plan.contains("Filter"), s"Spark's filter must stay above the scan: $plan")
  }

  test("other catalogs, tables without shredded maps and writes are left alone") {
    val oracle = sql(s"SELECT id FROM $O WHERE ext_map['usage'] > 30")
    assert(oracle.queryExecution.optimizedPlan.collectWithSubqueries {
      case s: org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation => s
    }.isEmpty)
    sql("CREATE TABLE lake.obs.plain (id BIGINT, ext_map MAP<STRING, DOUBLE>)")
    sql(s"INSERT INTO lake.obs.plain SELECT id, ext_map FROM $O")
    val plain = sql("SELECT id, ext_map['usage'] FROM lake.obs.plain WHERE ext_map['usage'] > 30")
    assert(
      rowsOf(plain) == rowsOf(
        sql(s"SELECT id, ext_map['usage'] FROM $O WHERE ext_map['usage'] > 30")
      )
    )
    assert(
      plain.queryExecution.optimizedPlan
        .collectWithSubqueries {
          case s: org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation =>
            s.relation.table
        }
        .forall(_.isInstanceOf[dev.strata.spark.table.StrataTable]),
      "a table without shredded maps must be left alone"
    )
    assert(
      scans(plain).forall(d => !d.contains("PushedMapPredicates") && !d.contains("SelectedKeys"))
    )
    sql(
      s"CREATE TABLE lake.obs.copied (id BIGINT, ext_map MAP<STRING, DOUBLE>) TBLPROPERTIES (" +
        "'fields.ext_map.map.storage-layout' = 'shared-shredding')"
    )
    sql(s"INSERT INTO lake.obs.copied SELECT id, ext_map FROM $T WHERE ext_map['usage'] > 30")
    assert(
      rowsOf(sql("SELECT * FROM lake.obs.copied")) ==
        rowsOf(sql(s"SELECT id, ext_map FROM $O WHERE ext_map['usage'] > 30"))
    )
    sql(
      s"INSERT INTO lake.obs.copied SELECT id, map('usage', ext_map['usage']) FROM $T WHERE ext_map['usage'] < 2"
    )
    assert(
      rowsOf(sql("SELECT id, ext_map['usage'] FROM lake.obs.copied WHERE ext_map['usage'] < 2")) ==
        rowsOf(sql(s"SELECT id, ext_map['usage'] FROM $O WHERE ext_map['usage'] < 2"))
    )
  }

  test("INT values and the DataFrame API are pushed; other value types are left to Spark") {
    import org.apache.spark.sql.functions.{col, element_at}
    val rows = (0 until 300).map { i =>
      val ints = new java.util.HashMap[String, Any]()
      ints.put("a", i % 50)
      if (i % 3 == 0) ints.put("b", i % 7)
      val floats = new java.util.HashMap[String, Any]()
      floats.put("a", i / 10f)
      Row(i.toLong, ints, floats)
    }
    val df = spark.createDataFrame(
      rows.asJava,
      StructType.fromDDL("id BIGINT, ints MAP<STRING, INT>, floats MAP<STRING, FLOAT>")
    )
    df.write.format("parquet").saveAsTable("typed_oracle")
    sql("""CREATE TABLE lake.obs.typed (id BIGINT, ints MAP<STRING, INT>, floats MAP<STRING, FLOAT>) TBLPROPERTIES (
          | 'fields.ints.map.storage-layout' = 'shared-shredding', 'fields.ints.map.shared-shredding.max-columns' = '1',
          | 'fields.floats.map.storage-layout' = 'shared-shredding')""".stripMargin)
    df.writeTo("lake.obs.typed").append()
    val (t, o) = ("lake.obs.typed", "typed_oracle")
    assertPushed(
      "SELECT id, ints['a'] FROM $t WHERE ints['a'] > 45",
      "[ints['a'] > 45]",
      "[ints=[a]]",
      t,
      o
    )
    assertPushed(
      "SELECT id FROM $t WHERE ints['b'] IN (1, 6) OR ints['a'] <= 1",
      "[ints['b'] IN (1, 6) OR ints['a'] <= 1]",
      "[ints=[b, a]]",
      t,
      o
    )
    assertNotPushed("SELECT id FROM $t WHERE floats['a'] > 2.5", t, o)
    val api =
      spark.table(t).filter(col("ints")("a") === 3 && element_at(col("ints"), "b") < 2).select("id")
    assert(
      rowsOf(api) == rowsOf(
        spark
          .table(o)
          .filter(col("ints")("a") === 3 && element_at(col("ints"), "b") < 2)
          .select("id")
      )
    )
    assert(
      scans(api).exists(_.contains("PushedMapPredicates: [ints['a'] = 3, ints['b'] < 2]")),
      scans(api).mkString
    )
  }

  test(
    "append scans whose maps are read by key decode column batches, answering like the row path"
  ) {
    import org.apache.spark.sql.execution.datasources.v2.BatchScanExec
    val q = s"SELECT id, host, day, ext_map['usage'], labels['metric_1'] FROM $T " +
      "WHERE ext_map['usage'] > 50 OR ext_map['cpu'] < 3"
    def columnar(df: org.apache.spark.sql.DataFrame): Seq[Boolean] =
      df.queryExecution.sparkPlan.collect { case b: BatchScanExec => b.supportsColumnar }
    val batches = sql(q)
    assert(columnar(batches) == Seq(true))
    val expected = rowsOf(sql(q.replace(T, O)))
    assert(rowsOf(batches) == expected)
    spark.conf.set("spark.sql.strata.columnarReads.enabled", "false")
    try {
      val rows = sql(q)
      assert(columnar(rows) == Seq(false))
      assert(rowsOf(rows) == expected)
    } finally spark.conf.unset("spark.sql.strata.columnarReads.enabled")
    // A whole-map use keeps the row path.
    assert(columnar(sql(s"SELECT id, ext_map FROM $T WHERE ext_map['usage'] > 50")) == Seq(false))
  }
}
