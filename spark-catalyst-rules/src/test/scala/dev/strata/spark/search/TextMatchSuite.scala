package dev.strata.spark.search

import java.nio.file.Files
import java.util.Random

import scala.jdk.CollectionConverters._

import dev.strata.spark.LocalStrataSession
import dev.strata.spark.StrataCatalog
import dev.strata.testing.TestSeeds
import dev.strata.testing.text.{QueryGenerator, TextCorpus}
import dev.strata.testing.TempDirs
import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec
import org.apache.spark.sql.types.StructType
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** `text_match(column, query)` in WHERE, end to end: a partitioned primary-key table with a
  * full-text indexed column and a shared-shredding MAP column, written and compacted through
  * Strata, queried with random full-text queries combined with partition and map-key predicates.
  * The oracle is independent of Strata: the live rows are what the test wrote (newest version per
  * key), matched by a brute-force Lucene index over them, and the other predicates are evaluated in
  * Scala.
  */
class TextMatchSuite extends AnyFunSuite with BeforeAndAfterAll {

  private lazy val root = Files.createTempDirectory("strata-text-match-")
  private var spark: SparkSession = _
  private val seed = TestSeeds.seed("TextMatchSuite")
  private val corpus = new TextCorpus(300)
  private val schema =
    StructType.fromDDL("id BIGINT, dt STRING, title STRING, body STRING, attrs MAP<STRING, INT>")

  /** A written row: (id, dt) is the primary key. */
  private case class Doc(id: Long, dt: String, body: String, attrs: Map[String, Int])

  /** The newest written version of each key of lake.kb.docs. */
  private var live: Map[(Long, String), Doc] = Map.empty

  override def beforeAll(): Unit = {
    spark = LocalStrataSession.start(
      root.resolve("wh"),
      4,
      Map("spark.sql.adaptive.enabled" -> "false") // plain physical plans carry the scan metrics
    )
    spark.sql("CREATE NAMESPACE lake.kb")
    spark.sql(
      "CREATE TABLE lake.kb.docs (id BIGINT, dt STRING, title STRING, body STRING, attrs MAP<STRING, INT>) " +
        "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='3', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body', 'fields.attrs.map.storage-layout'='shared-shredding')"
    )
    val random = new Random(seed)
    val first = docs(random, 0 until 900)
    val second = docs(random, 600 until 1400) // replaces 600..899 with new versions
    write("lake.kb.docs", first)
    write("lake.kb.docs", second)
    live = (first ++ second).map(d => (d.id, d.dt) -> d).toMap
  }

  override def afterAll(): Unit = {
    LocalStrataSession.stop(spark)
    TempDirs.delete(root)
  }

  private def docs(random: Random, ids: Range): Seq[Doc] = ids.map { i =>
    val body = if (random.nextInt(25) == 0) null else corpus.document(random, 4, 25)
    val attrs = (0 until 5)
      .flatMap(k => if (random.nextInt(3) == 0) None else Some(s"k$k" -> random.nextInt(10)))
      .toMap
    Doc(i.toLong, s"d${i % 3}", body, attrs)
  }

  private def write(table: String, rows: Seq[Doc]): Unit = {
    val data = rows.map(d => Row(d.id, d.dt, s"title ${d.id}", d.body, d.attrs.asJava))
    spark.createDataFrame(data.asJava, schema).writeTo(table).append()
  }

  private def quote(s: String): String = "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"

  /** The keys of `rows` whose body matches each query, by a brute-force Lucene index over exactly
    * these rows.
    */
  private def oracle(
      rows: Iterable[Doc],
      queries: Seq[String]
  ): Map[String, Set[(Long, String)]] =
    BruteForceIndex.matches(rows.map(d => ((d.id, d.dt), d.body)), queries)

  /** Partition predicates: SQL and the same test in Scala. */
  private val partitionPredicates: Seq[(String, Doc => Boolean)] = Seq(
    ("", _ => true),
    (" AND dt = 'd1'", _.dt == "d1"),
    (" AND dt >= 'd1'", _.dt >= "d1"),
    (" AND dt IN ('d0', 'd2')", d => d.dt == "d0" || d.dt == "d2")
  )

  /** Map-key predicates on the shared-shredding column. */
  private val mapPredicates: Seq[(String, Doc => Boolean)] = Seq(
    ("", _ => true),
    (" AND attrs['k1'] > 4", _.attrs.get("k1").exists(_ > 4)),
    (" AND attrs['k3'] = 2", _.attrs.get("k3").contains(2)),
    (" AND attrs['k0'] IS NOT NULL", _.attrs.contains("k0"))
  )

  private def keys(df: DataFrame): Set[(Long, String)] =
    df.collect().map(r => (r.getLong(0), r.getString(1))).toSet

  private def scanDescriptions(df: DataFrame): Seq[String] =
    df.queryExecution.executedPlan.collect { case b: BatchScanExec => b.scan.description() }

  /** Random queries with random partition and map predicates on `table` equal the oracle over
    * `rows`.
    */
  private def checkRandomQueries(
      table: String,
      rows: Iterable[Doc],
      salt: Int,
      queries: Int = 40
  ): Unit = {
    val random = new Random(seed + salt)
    val generator = new QueryGenerator(corpus)
    val qs = Iterator.continually(generator.next(random)).distinct.take(queries).toSeq
    val expected = oracle(rows, qs)
    var nonEmpty = 0
    qs.foreach { q =>
      val (partSql, partOk) = partitionPredicates(random.nextInt(partitionPredicates.size))
      val (mapSql, mapOk) = mapPredicates(random.nextInt(mapPredicates.size))
      val df =
        spark.sql(s"SELECT id, dt FROM $table WHERE text_match(body, ${quote(q)})$partSql$mapSql")
      val want = rows
        .filter(d => expected(q).contains((d.id, d.dt)) && partOk(d) && mapOk(d))
        .map(d => (d.id, d.dt))
        .toSet
      val what =
        s"query '$q'$partSql$mapSql on $table (${TestSeeds.describe("TextMatchSuite", seed)})"
      assert(keys(df) == want, what)
      nonEmpty += (if (want.nonEmpty) 1 else 0)
    }
    assert(
      qs.size >= 30 && nonEmpty > qs.size / 3,
      s"most of ${qs.size} queries should match something: $nonEmpty"
    )
  }

  test("the written rows are what the table reads (the oracle's live rows)") {
    assert(keys(spark.sql("SELECT id, dt FROM lake.kb.docs")) == live.keySet)
  }

  test(
    "after INSERTs: random text_match queries with partition and map-key predicates equal a brute-force Lucene match"
  ) {
    checkRandomQueries("lake.kb.docs", live.values, 1)
  }

  test("EXPLAIN shows PushedTextMatch next to the partition and map-key pushdowns") {
    val df = spark.sql(
      "SELECT dt, count(*) FROM lake.kb.docs WHERE text_match(body, 'disk AND failure') " +
        "AND dt >= 'd1' AND attrs['k1'] > 4 GROUP BY dt"
    )
    val explain = df.queryExecution.explainString(org.apache.spark.sql.execution.ExtendedMode)
    assert(explain.contains("PushedTextMatch: [body: disk AND failure]"), explain)
    assert(explain.contains("PushedMapPredicates: [attrs['k1'] > 4]"), explain)
    assert(
      explain.contains(
        "[PushedPredicates: [dt >= 'd1'], PushedMapPredicates: [attrs['k1'] > 4], " +
          "SelectedKeys: [attrs=[k1]], PushedTextMatch: [body: disk AND failure]]"
      ),
      explain
    )
    // The scan answers an exact query alone: no text_match is left above it.
    assert(!df.queryExecution.executedPlan.toString.contains("text_match(body"), explain)
    df.collect()
  }

  /** The text_match calls Spark still evaluates in a Filter of the optimized plan. */
  private def filtered(df: DataFrame): Seq[String] = df.queryExecution.optimizedPlan.collect {
    case f: org.apache.spark.sql.catalyst.plans.logical.Filter =>
      f.condition.collect { case t: TextMatch => t.binding.get.query }
  }.flatten

  test(
    "exact queries leave no text_match in the Filter; fuzzy, prefix and wildcard ones keep it, and both equal the oracle"
  ) {
    val random = new Random(seed + 10)
    val w = corpus.word(random)
    val v = corpus.word(random)
    val exact = Seq(
      w,
      s"$w AND $v",
      s"$w OR NOT $v",
      "\"" + w + " " + v + "\"~3",
      s"""{"match":{"query":"$w $v","operator":"And"}}""",
      s"""{"match_phrase":{"query":"$w $v","slop":2}}""",
      s"""{"boolean":{"must":[{"match":{"query":"$w"}}],"must_not":[{"match":{"query":"$v"}}]}}"""
    )
    val fuzzy = Seq(
      s"$w~1",
      w.take(3) + "*",
      s"$w OR ${v.take(2)}*",
      s"""{"match":{"query":"$w","fuzziness":1}}"""
    )
    val classic = (exact ++ fuzzy).filterNot(_.startsWith("{"))
    val expected = oracle(live.values, classic)
    (exact ++ fuzzy).foreach { q =>
      val df = spark.sql(
        s"SELECT id, dt FROM lake.kb.docs WHERE text_match(body, ${quote(q)}) AND dt <> 'd2'"
      )
      assert(scanDescriptions(df).exists(_.contains("PushedTextMatch")), q)
      assert(
        filtered(df) == (if (exact.contains(q)) Seq() else Seq(q)),
        s"$q: ${df.queryExecution.optimizedPlan}"
      )
      val want = expected.get(q).map(_.filter(_._2 != "d2"))
      want.foreach(keys => assert(this.keys(df) == keys, q))
    }
    // Mixed: the exact conjunct goes, the fuzzy one stays, and the answer is their intersection.
    val mixed = spark.sql(
      s"SELECT id, dt FROM lake.kb.docs WHERE text_match(body, ${quote(w)}) AND " +
        s"text_match(body, ${quote(v + "~1")})"
    )
    assert(filtered(mixed) == Seq(v + "~1"))
    assert(keys(mixed) == expected(w).intersect(oracle(live.values, Seq(v + "~1"))(v + "~1")))
  }

  test("count(*), columns of mostly matching files and LIMIT on an exact scan equal the oracle") {
    val counts = oracle(live.values, corpus.vocabulary().asScala.toSeq)
    val common = counts.maxBy(_._2.size)._1
    val random = new Random(seed + 11)
    Seq(
      common,
      corpus.word(random),
      corpus.rareWord(random),
      s"$common AND NOT ${corpus.word(random)}"
    ).foreach { q =>
      val expected = oracle(live.values, Seq(q))(q)
      val count =
        spark.sql(s"SELECT count(*) FROM lake.kb.docs WHERE text_match(body, ${quote(q)})")
      assert(filtered(count).isEmpty, q)
      assert(count.collect().head.getLong(0) == expected.size, q)
      // Every row is answered by the archives: the driver has the count, no scan runs.
      assert(
        count.queryExecution.executedPlan.collect { case b: BatchScanExec => b }.isEmpty,
        count.queryExecution.executedPlan.toString
      )
      assert(
        count.queryExecution.executedPlan.collect {
          case l: org.apache.spark.sql.execution.LocalTableScanExec => l
        }.size == 1,
        q
      )
      val titles = spark
        .sql(s"SELECT id, dt, title FROM lake.kb.docs WHERE text_match(body, ${quote(q)})")
        .collect()
      assert(titles.map(r => (r.getLong(0), r.getString(1))).toSet == expected, q)
      assert(titles.forall(r => r.getString(2) == s"title ${r.getLong(0)}"), q)
      val limited =
        spark.sql(s"SELECT id, dt FROM lake.kb.docs WHERE text_match(body, ${quote(q)}) LIMIT 5")
      val got = keys(limited)
      assert(got.size == math.min(5, expected.size) && got.subsetOf(expected), q)
    }
  }

  test("the scan reads only the matching rows and skips files without matches (metrics)") {
    val word = corpus.rareWord(new Random(seed + 2))
    val expected = oracle(live.values, Seq(word))(word)
    val df =
      spark.sql(s"SELECT id, dt, title FROM lake.kb.docs WHERE text_match(body, ${quote(word)})")
    assert(keys(df) == expected)
    val scan = df.queryExecution.executedPlan.collect { case b: BatchScanExec => b }.head
    val total = live.size
    assert(
      scan.metrics("numOutputRows").value == expected.size,
      s"the scan returned only the matching rows of $total"
    )
    assert(scan.metrics("textMatchRows").value == expected.size)
    assert(scan.metrics("textMatchFilesSkipped").value > 0, "files without a match are not read")
    assert(scan.metrics("textMatchFilesReadWhole").value == 0)
  }

  test(
    "with the pushdown rule excluded Spark's own evaluation gives the same answers, and nothing is pushed"
  ) {
    spark.conf.set("spark.sql.optimizer.excludedRules", PushTextMatchIntoStrataScans.ruleName)
    try {
      val df = spark.sql("SELECT id, dt FROM lake.kb.docs WHERE text_match(body, 'lake')")
      assert(!scanDescriptions(df).exists(_.contains("PushedTextMatch")), scanDescriptions(df))
      checkRandomQueries("lake.kb.docs", live.values, 3, queries = 30)
    } finally spark.conf.unset("spark.sql.optimizer.excludedRules")
  }

  test("joins: each side's text_match is pushed into its own scan and the join equals the oracle") {
    val random = new Random(seed + 4)
    val generator = new QueryGenerator(corpus)
    (0 until 6).foreach { _ =>
      val q1 = generator.next(random)
      val q2 = generator.next(random)
      val expected = oracle(live.values, Seq(q1, q2))
      val df = spark.sql(
        s"SELECT a.id, a.dt FROM lake.kb.docs a JOIN lake.kb.docs b ON a.id = b.id AND a.dt = b.dt " +
          s"WHERE text_match(a.body, ${quote(q1)}) AND text_match(b.body, ${quote(q2)}) AND a.dt <> 'd2'"
      )
      val scans = scanDescriptions(df)
      assert(
        scans.count(_.contains(s"PushedTextMatch: [body: $q1]")) == 1 &&
          scans.count(_.contains(s"PushedTextMatch: [body: $q2]")) == (if (q1 == q2) 2 else 1),
        scans
      )
      assert(keys(df) == expected(q1).intersect(expected(q2)).filter(_._2 != "d2"), s"$q1 / $q2")
    }
    // A join with rows that do not come from the table, and two matches on the same scan.
    val q = "lake OR storage"
    val expected = oracle(live.values, Seq("lake", "storage"))
    val both = spark.sql(
      "SELECT d.id, d.dt FROM lake.kb.docs d JOIN (SELECT id FROM range(0, 2000, 2)) r ON d.id = r.id " +
        "WHERE text_match(d.body, 'lake') AND text_match(d.body, 'storage')"
    )
    assert(
      scanDescriptions(both).exists(_.contains("PushedTextMatch: [body: lake, body: storage]")),
      scanDescriptions(both)
    )
    assert(keys(both) == expected("lake").intersect(expected("storage")).filter(_._1 % 2 == 0), q)
  }

  test("after compaction: random queries still equal the oracle") {
    spark.sql("CALL lake.sys.compact(table => 'kb.docs')")
    checkRandomQueries("lake.kb.docs", live.values, 5)
  }

  test(
    "files no archive covers are indexed at query time; with fresh indexing off they are read whole"
  ) {
    spark.sql(
      "CREATE TABLE lake.kb.late (id BIGINT, dt STRING, title STRING, body STRING, attrs MAP<STRING, INT>) " +
        "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='2', 'deletion-vectors.enabled'='true', " +
        "'fields.attrs.map.storage-layout'='shared-shredding')"
    )
    val random = new Random(seed + 6)
    val first = docs(random, 0 until 500)
    val second = docs(random, 300 until 700)
    write("lake.kb.late", first)
    write("lake.kb.late", second)
    // Indexed from now on: the files written so far have no archive until the next compaction.
    spark.sql(
      "ALTER TABLE lake.kb.late SET TBLPROPERTIES ('strata-full-text.index.columns' = 'body')"
    )
    val rows = (first ++ second).map(d => (d.id, d.dt) -> d).toMap.values
    checkRandomQueries("lake.kb.late", rows, 7, queries = 30)
    val word = corpus.word(new Random(seed + 8))
    val expected = oracle(rows, Seq(word))(word)
    def run(): BatchScanExec = {
      val df = spark.sql(s"SELECT id, dt FROM lake.kb.late WHERE text_match(body, ${quote(word)})")
      assert(keys(df) == expected, word)
      df.queryExecution.executedPlan.collect { case b: BatchScanExec => b }.head
    }
    val fresh = run()
    assert(fresh.metrics("rowsIndexedAtQueryTime").value > 0)
    assert(fresh.metrics("textMatchRows").value == expected.size)
    spark.conf.set("spark.sql.strata.search.fresh", "false")
    try {
      val whole = run()
      assert(whole.metrics("textMatchFilesReadWhole").value > 0)
      assert(whole.metrics("textMatchRows").value == 0)
      // Files no index searched are matched by the scan row by row; a count(*) of them is Spark's, exact too.
      val count =
        spark.sql(s"SELECT count(*) FROM lake.kb.late WHERE text_match(body, ${quote(word)})")
      assert(count.collect().head.getLong(0) == expected.size)
      assert(count.queryExecution.executedPlan.collect { case b: BatchScanExec => b }.nonEmpty)
      checkRandomQueries("lake.kb.late", rows, 9, queries = 30)
    } finally spark.conf.unset("spark.sql.strata.search.fresh")
  }

  test("text_match binds inside CTEs and in aggregates of HAVING as it does in a FROM subquery") {
    val rlike = "body RLIKE '(?i)\\\\blake\\\\b'"
    def rows(q: String): Seq[String] = spark.sql(q).collect().map(_.toString).toSeq.sorted
    val expected = rows(s"SELECT id, dt FROM lake.kb.docs WHERE $rlike")
    assert(expected.nonEmpty)
    assert(
      rows(
        "WITH x AS (SELECT * FROM lake.kb.docs) SELECT id, dt FROM x WHERE text_match(body, 'lake')"
      ) == expected
    )
    // referenced twice: each reference gets its own columns
    assert(
      rows(
        "WITH x AS (SELECT id, dt, body AS b FROM lake.kb.docs) SELECT l.id, l.dt FROM x l " +
          "JOIN x r ON l.id = r.id AND l.dt = r.dt WHERE text_match(l.b, 'lake') AND text_match(r.b, 'lake')"
      ) == expected
    )
    val perPartition =
      rows(s"SELECT dt, count(*) FROM lake.kb.docs WHERE $rlike GROUP BY dt")
    assert(
      rows(
        "SELECT dt, count_if(text_match(body, 'lake')) FROM lake.kb.docs GROUP BY dt " +
          "HAVING count_if(text_match(body, 'lake')) > 0"
      ) == perPartition
    )
    assert(
      rows(
        "SELECT dt, sum(CASE WHEN text_match(body, 'lake') THEN 1 ELSE 0 END) FROM lake.kb.docs " +
          "GROUP BY dt HAVING sum(CASE WHEN text_match(body, 'lake') THEN 1 ELSE 0 END) > 0"
      ) == perPartition
    )
  }

  test("rows still in level 0 are matched once a read returns them, as a plain SELECT sees them") {
    spark.sql(
      "CREATE TABLE lake.kb.level0 (id BIGINT NOT NULL, body STRING) TBLPROPERTIES ('primary-key'='id', " +
        "'bucket'='2', 'deletion-vectors.enabled'='true', 'strata-full-text.index.columns'='body')"
    )
    spark.sql(
      "INSERT INTO lake.kb.level0 VALUES (1, 'disk failure'), (2, 'network ok'), (3, 'disk full')"
    )
    spark.sql("ALTER TABLE lake.kb.level0 SET TBLPROPERTIES ('write-only' = 'true')")
    spark.sql("INSERT INTO lake.kb.level0 VALUES (4, 'disk slow'), (3, 'network full')")
    def ids(where: String): Set[Long] =
      spark.sql(s"SELECT id FROM lake.kb.level0 WHERE $where").collect().map(_.getLong(0)).toSet
    // A deletion-vector table's reads see level-0 rows only once compacted: text_match filters what they return.
    assert(ids("text_match(body, 'disk')") == ids("body RLIKE '(?i)\\\\bdisk\\\\b'"))
    assert(ids("text_match(body, 'disk')") == Set(1L, 3L))
    spark.sql("ALTER TABLE lake.kb.level0 SET TBLPROPERTIES ('write-only' = 'false')")
    spark.sql("CALL lake.sys.compact(table => 'kb.level0')")
    assert(ids("text_match(body, 'disk')") == Set(1L, 4L))
    assert(ids("text_match(body, 'network')") == Set(2L, 3L))
  }

  test("bad calls get one clear error each") {
    def error(sql: String): String = intercept[Exception](spark.sql(sql).collect()).getMessage
    val notIndexed = error("SELECT id FROM lake.kb.docs WHERE text_match(title, 'x')")
    assert(
      notIndexed.contains(
        "Cannot use text_match(title, 'x'): column title of lake.kb.docs is not full-text " +
          "indexed; set 'strata-full-text.index.columns'"
      ),
      notIndexed
    )
    assert(notIndexed.contains("or match the indexed column 'body'"), notIndexed)
    val perRow = error("SELECT id FROM lake.kb.docs WHERE text_match(body, title)")
    assert(perRow.contains("the query must be a constant string, found title"), perRow)
    val expression = error("SELECT id FROM lake.kb.docs WHERE text_match(lower(body), 'x')")
    assert(expression.contains("the first argument must be a column"), expression)
    val badQuery = error("SELECT id FROM lake.kb.docs WHERE text_match(body, 'AND (')")
    assert(
      badQuery.contains(
        "Cannot use text_match(body, 'AND (') on lake.kb.docs: Cannot parse full-text query"
      ),
      badQuery
    )
    val nullQuery =
      error("SELECT id FROM lake.kb.docs WHERE text_match(body, CAST(NULL AS STRING))")
    assert(nullQuery.contains("the query is NULL"), nullQuery)
    val arity = error("SELECT id FROM lake.kb.docs WHERE text_match(body)")
    assert(arity.contains("expected (column, query)"), arity)
    spark.sql(
      "CREATE TABLE lake.kb.plain (id BIGINT, body STRING) TBLPROPERTIES ('primary-key'='id', 'bucket'='1')"
    )
    val plain = error("SELECT id FROM lake.kb.plain WHERE text_match(body, 'x')")
    assert(plain.contains("column body of lake.kb.plain is not full-text indexed"), plain)
    // Without a primary key the option is refused: the error must not advise it.
    spark.sql("CREATE TABLE lake.kb.appended (id BIGINT, body STRING)")
    val appended = error("SELECT id FROM lake.kb.appended WHERE text_match(body, 'x')")
    assert(appended.contains("the index needs a primary-key table"), appended)
    assert(!appended.contains("ALTER TABLE"), appended)
    val foreign = error("SELECT * FROM VALUES ('disk') AS v(body) WHERE text_match(body, 'disk')")
    assert(foreign.contains("is not a column read from a table of a Strata catalog"), foreign)
    // A renamed column is still the table's column.
    val renamed = spark.sql(
      "SELECT i FROM (SELECT id AS i, body AS b FROM lake.kb.docs) WHERE text_match(b, 'lake')"
    )
    assert(renamed.collect().length == oracle(live.values, Seq("lake"))("lake").size)
    // A view's columns are the table's columns (Spark casts each to the type it already has).
    spark.sql("CREATE OR REPLACE TEMPORARY VIEW docs_view AS SELECT id, body FROM lake.kb.docs")
    try {
      val viewed = spark.sql("SELECT id FROM docs_view WHERE text_match(body, 'lake')")
      assert(viewed.collect().length == oracle(live.values, Seq("lake"))("lake").size)
      spark.sql(
        "CREATE OR REPLACE TEMPORARY VIEW docs_lower AS SELECT id, lower(body) AS body FROM lake.kb.docs"
      )
      val converted = error("SELECT id FROM docs_lower WHERE text_match(body, 'lake')")
      assert(converted.contains("is not a column read from a table of a Strata catalog"), converted)
    } finally {
      spark.sql("DROP VIEW IF EXISTS docs_view")
      spark.sql("DROP VIEW IF EXISTS docs_lower")
    }
  }

  test("a read at an older snapshot (WITH options) matches and looks keys up in that snapshot") {
    spark.sql(
      "CREATE TABLE lake.kb.older (id BIGINT NOT NULL, body STRING, m MAP<STRING, INT>) " +
        "TBLPROPERTIES ('primary-key'='id', 'bucket'='2', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body', 'fields.m.map.storage-layout'='shared-shredding')"
    )
    spark.sql(
      "INSERT INTO lake.kb.older VALUES (1, 'red apple', map('a', 1)), " +
        "(2, 'green apple', map('a', 2)), (3, 'blue sky', map('b', 3))"
    )
    val before = spark
      .sql("SELECT max(snapshot_id) FROM lake.kb.`older$snapshots`")
      .collect()
      .head
      .getLong(0)
    spark.sql("UPDATE lake.kb.older SET body = 'red sky', m = map('a', 9) WHERE id = 1")
    spark.sql("DELETE FROM lake.kb.older WHERE id = 2")
    spark.sql("INSERT INTO lake.kb.older VALUES (4, 'apple pie', map('a', 4))")

    val at = s"lake.kb.older WITH ('scan.snapshot-id' = '$before')"
    def ids(q: String): Seq[Long] = spark.sql(q).collect().map(_.getLong(0)).toSeq
    assert(ids(s"SELECT id FROM $at WHERE text_match(body, 'apple') ORDER BY id") == Seq(1L, 2L))
    assert(ids(s"SELECT count(*) FROM $at WHERE text_match(body, 'apple')") == Seq(2L))
    assert(
      spark.sql(s"SELECT id, m['a'] FROM $at WHERE m['a'] > 0 ORDER BY id").collect().toSeq ==
        Seq(Row(1L, 1), Row(2L, 2))
    )
    assert(
      spark
        .sql(s"SELECT id FROM $at WHERE text_match(body, 'apple') AND m['a'] = 2")
        .collect()
        .toSeq == Seq(Row(2L))
    )
    // The latest snapshot, for contrast.
    assert(
      ids("SELECT id FROM lake.kb.older WHERE text_match(body, 'apple') ORDER BY id") == Seq(4L)
    )
    assert(
      spark
        .sql("SELECT id, m['a'] FROM lake.kb.older WHERE m['a'] > 0 ORDER BY id")
        .collect()
        .toSeq == Seq(Row(1L, 9), Row(4L, 4))
    )
  }

  test("a tag whose snapshot expired is matched as a plain read of the tag sees it") {
    spark.sql(
      "CREATE TABLE lake.kb.tagged (id BIGINT NOT NULL, body STRING, m MAP<STRING, INT>) " +
        "TBLPROPERTIES ('primary-key'='id', 'bucket'='2', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body', 'fields.m.map.storage-layout'='shared-shredding')"
    )
    spark.sql(
      "INSERT INTO lake.kb.tagged VALUES (1, 'red apple', map('a', 1)), " +
        "(2, 'green apple', map('a', 2)), (3, 'blue sky', map('b', 3))"
    )
    spark.sql("CALL lake.sys.create_tag(table => 'kb.tagged', tag => 'fruit')")
    spark.sql("UPDATE lake.kb.tagged SET body = 'red sky' WHERE id = 1")
    spark.sql("DELETE FROM lake.kb.tagged WHERE id = 2")
    spark.sql("INSERT INTO lake.kb.tagged VALUES (4, 'apple pie', map('a', 4))")
    spark.sql("CALL lake.sys.expire_snapshots(table => 'kb.tagged', retain_max => 1)")
    val tagged = spark
      .sql("SELECT snapshot_id FROM lake.kb.`tagged$tags` WHERE tag_name = 'fruit'")
      .collect()
      .head
      .getLong(0)
    assert(
      spark
        .sql(s"SELECT * FROM lake.kb.`tagged$$snapshots` WHERE snapshot_id = $tagged")
        .count() == 0
    )

    def ids(q: String): Seq[Long] = spark.sql(q).collect().map(_.getLong(0)).toSeq
    for (
      at <- Seq(
        "lake.kb.tagged VERSION AS OF 'fruit'",
        "lake.kb.tagged WITH ('scan.tag-name' = 'fruit')"
      )
    ) {
      assert(ids(s"SELECT id FROM $at WHERE body LIKE '%apple%' ORDER BY id") == Seq(1L, 2L), at)
      assert(
        ids(s"SELECT id FROM $at WHERE text_match(body, 'apple') ORDER BY id") == Seq(1L, 2L),
        at
      )
      assert(ids(s"SELECT count(*) FROM $at WHERE text_match(body, 'apple')") == Seq(2L), at)
      assert(
        ids(s"SELECT id FROM $at WHERE text_match(body, 'apple') AND m['a'] = 2") == Seq(2L),
        at
      )
    }
    assert(
      ids("SELECT id FROM lake.kb.tagged WHERE text_match(body, 'apple') ORDER BY id") == Seq(4L)
    )
  }

  test("time travel to before another engine replaced the indexed column matches the column then") {
    spark.sql(
      "CREATE TABLE lake.kb.moved (id BIGINT NOT NULL, body STRING) TBLPROPERTIES (" +
        "'primary-key'='id', 'bucket'='2', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body', " +
        "'fields.body.strata-full-text.index.options'=" +
        "'{\"analyzer\": \"whitespace\", \"lowercase\": \"false\"}')"
    )
    spark.sql("INSERT INTO lake.kb.moved VALUES (1, 'red Apple'), (2, 'apple'), (3, 'sky')")
    spark.sql("CALL lake.sys.compact(table => 'kb.moved')")
    def ids(q: String): Seq[Long] = spark.sql(q).collect().map(_.getLong(0)).toSeq
    // Case kept: 'Apple' is another term than 'apple'.
    assert(ids("SELECT id FROM lake.kb.moved WHERE text_match(body, 'apple')") == Seq(2L))
    val then = spark
      .sql("SELECT max(snapshot_id) FROM lake.kb.`moved$snapshots`")
      .collect()
      .head
      .getLong(0)
    // What Paimon 2.0 does with its own API: drop the indexed column, add another.
    val catalog =
      spark.sessionState.catalogManager.catalog("lake").asInstanceOf[StrataCatalog]
    val ident = org.apache.spark.sql.connector.catalog.Identifier.of(Array("kb"), "moved")
    catalog
      .loadPaimonTable(ident)
      .schemaManager()
      .commitChanges(
        // Paimon refuses to drop a column that options of its own prefix still name.
        org.apache.paimon.schema.SchemaChange
          .removeOption("fields.body.strata-full-text.index.options"),
        org.apache.paimon.schema.SchemaChange.dropColumn("body"),
        org.apache.paimon.schema.SchemaChange
          .addColumn("text", org.apache.paimon.types.DataTypes.STRING())
      )
    catalog.invalidateTable(ident)
    spark.sql(
      "ALTER TABLE lake.kb.moved SET TBLPROPERTIES ('strata-full-text.index.columns' = 'text')"
    )
    spark.sql("INSERT INTO lake.kb.moved VALUES (4, 'apple')")

    // The column then, with its analyzer.
    assert(
      ids(s"SELECT id FROM lake.kb.moved VERSION AS OF $then WHERE text_match(body, 'apple')") ==
        Seq(2L)
    )
    assert(ids("SELECT id FROM lake.kb.moved WHERE text_match(text, 'apple')") == Seq(4L))
  }
}
