package dev.strata.spark.search

import java.nio.file.Files
import java.util.UUID
import java.util.concurrent.{ConcurrentHashMap, CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicInteger

import dev.strata.spark.LocalStrataSession
import dev.strata.testing.TempDirs
import org.apache.spark.scheduler.{SparkListener, SparkListenerJobStart}
import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec
import org.apache.spark.sql.execution.exchange.Exchange
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** The forms users write around a driver-side `full_text_search` (SELECT lists, ORDER BY any
  * column, WHERE on the result, a CTE, a join back to the table by key, an IN subquery): each
  * answers as an oracle that finds the same rows with `LIKE` over the table, and the search part
  * plans no exchange and starts no Spark job (counted by a listener).
  *
  * The oracle's ranking is the function's: every body has 12 words, `c` of them the word `needle`
  * (c in 1..5 for matching rows), so BM25 scores rise strictly with `c` and the function's order
  * (score descending, then primary key) is `c DESC, id, dt`; 20 rows share each `c`, so top-k cuts
  * fall inside ties.
  */
class SearchFormsSuite extends AnyFunSuite with BeforeAndAfterAll {

  private lazy val root = Files.createTempDirectory("strata-forms-")
  private var spark: SparkSession = _

  private val Tag = "strata.test.searchForms"
  private val jobs = new ConcurrentHashMap[String, AtomicInteger]()
  private val markers = new ConcurrentHashMap[String, CountDownLatch]()
  private val listener = new SparkListener {
    override def onJobStart(start: SparkListenerJobStart): Unit = {
      val tag = start.properties.getProperty(Tag)
      if (tag != null) {
        Option(markers.get(tag)).foreach(_.countDown())
        jobs.computeIfAbsent(tag, _ => new AtomicInteger()).incrementAndGet()
      }
    }
  }

  private val Tables = Seq(
    "single" -> "TBLPROPERTIES ('primary-key'='id', 'bucket'='1', ",
    "parted" -> "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='4', "
  )

  override def beforeAll(): Unit = {
    spark = LocalStrataSession.start(root.resolve("wh"), 4)
    spark.sparkContext.addSparkListener(listener)
    spark.sql("CREATE NAMESPACE lake.forms")
    Tables.foreach { case (name, layout) =>
      spark.sql(
        s"CREATE TABLE lake.forms.$name (id BIGINT NOT NULL, dt STRING NOT NULL, title STRING, c INT, " +
          s"body STRING) $layout'deletion-vectors.enabled'='true', 'strata-full-text.index.columns'='body')"
      )
      spark.sql(s"INSERT INTO lake.forms.$name ${documents("id % 6 = 0", "1 + (id DIV 6) % 5")}")
      // upserts (rows 0, 30, ... lose the word) and deletes leave deletion vectors behind
      spark.sql(s"INSERT INTO lake.forms.$name ${documents("false", "0")} WHERE id % 30 = 0")
      spark.sql(s"DELETE FROM lake.forms.$name WHERE id % 42 = 6")
      spark.sql(s"CALL lake.sys.compact(table => 'forms.$name')")
    }
  }

  /** Rows 0 to 599: `c` times `needle` where `matching`, filled up to 12 words. */
  private def documents(matching: String, c: String): String =
    s"SELECT id, dt, title, c, trim(concat(repeat('needle ', c), repeat(concat('w', id % 7, ' '), 12 - c))) " +
      s"FROM (SELECT id, concat('d', id % 2) AS dt, " +
      "CASE WHEN id % 4 = 0 THEN NULL ELSE concat('t', lpad(CAST(id * 37 % 101 AS STRING), 3, '0')) END AS title, " +
      s"CAST(CASE WHEN $matching THEN $c ELSE 0 END AS INT) AS c FROM range(0, 600))"

  override def afterAll(): Unit = {
    if (spark != null) spark.sparkContext.removeSparkListener(listener)
    LocalStrataSession.stop(spark)
    TempDirs.delete(root)
  }

  /** The rows of `df` and how many Spark jobs collecting it started. A marker job run after it is
    * seen by the listener after every job the collect started (the bus keeps their order).
    */
  private def collectCountingJobs(df: DataFrame): (Seq[Row], Int) = {
    val tag = UUID.randomUUID().toString
    val context = spark.sparkContext
    context.setLocalProperty(Tag, tag)
    val rows =
      try df.collect().toSeq
      finally context.setLocalProperty(Tag, null)
    val marker = tag + "-marker"
    val seen = new CountDownLatch(1)
    markers.put(marker, seen)
    context.setLocalProperty(Tag, marker)
    try context.parallelize(Seq(1), 1).count()
    finally context.setLocalProperty(Tag, null)
    assert(seen.await(60, TimeUnit.SECONDS), "the listener saw the marker job")
    (rows, Option(jobs.get(tag)).map(_.get).getOrElse(0))
  }

  private def exchanges(plan: SparkPlan): Seq[SparkPlan] = {
    val top = plan match {
      case a: AdaptiveSparkPlanExec => a.executedPlan
      case p                        => p
    }
    top.collect { case e: Exchange => e }
  }

  private def search(table: String, k: Int) =
    s"full_text_search('lake.forms.$table', 'body', 'needle', $k)"

  /** The oracle of the search's rows: every matching row by LIKE, ranked as the function ranks. */
  private def hits(table: String, k: Int) =
    s"(SELECT * FROM lake.forms.$table WHERE body LIKE '%needle%' ORDER BY c DESC, id, dt LIMIT $k)"

  /** A form: the statement over the search, the same over the oracle, whether row order counts, and
    * the index of a `_score` column (with `c` right before it) to check and drop.
    */
  private case class Form(sql: String, oracle: String, ordered: Boolean, score: Option[Int] = None)

  private def check(form: Form, jobsAllowed: Int = 0): Unit = {
    val df = spark.sql(form.sql)
    val plan = df.queryExecution.executedPlan
    val (rows, started) = collectCountingJobs(df)
    assert(
      exchanges(plan).isEmpty,
      s"${form.sql}: exchanges in\n${plan.treeString}\n${df.queryExecution.optimizedPlan}"
    )
    assert(started <= jobsAllowed, s"${form.sql}: $started Spark jobs\n${plan.treeString}")
    val expected = spark.sql(form.oracle).collect().toSeq
    val actual = form.score match {
      case Some(i) =>
        // one score per c, rising with c: the ranking the oracle assumed
        val c = df.schema.fieldNames.indexOf("c")
        val byC = rows.groupBy(_.getInt(c)).map { case (c, rs) =>
          val scores = rs.map(_.getDouble(i))
          assert(scores.max - scores.min <= 1e-6 * scores.max, s"${form.sql}: scores of c=$c")
          c -> scores.head
        }
        val ascending = byC.toSeq.sortBy(_._1).map(_._2)
        assert(ascending == ascending.sorted.distinct, s"${form.sql}: scores by c $byC")
        rows.map(r => Row.fromSeq(r.toSeq.patch(i, Nil, 1)))
      case None => rows
    }
    assert(expected.nonEmpty, form.oracle)
    if (form.ordered) assert(actual == expected, form.sql)
    else assert(actual.map(_.toString).sorted == expected.map(_.toString).sorted, form.sql)
  }

  Tables.map(_._1).foreach { t =>
    val s10 = search(t, 10)
    val s30 = search(t, 30)
    val h10 = hits(t, 10)
    val h30 = hits(t, 30)
    val ranked10 = s"FROM lake.forms.$t WHERE body LIKE '%needle%' ORDER BY c DESC, id, dt LIMIT 10"

    test(s"$t: SELECT lists and ORDER BY any column answer as the oracle without a Spark job") {
      Seq(
        Form(s"SELECT id FROM $s10", s"SELECT id $ranked10", ordered = true),
        Form(s"SELECT id, c, _score FROM $s10", s"SELECT id, c $ranked10", true, Some(2)),
        Form(s"SELECT * FROM $s10", s"SELECT * $ranked10", true, Some(5)),
        Form(s"SELECT id FROM $s10 ORDER BY id", s"SELECT id FROM $h10 ORDER BY id", true),
        Form(
          s"SELECT id FROM $s10 ORDER BY id DESC",
          s"SELECT id FROM $h10 ORDER BY id DESC",
          true
        ),
        Form(
          s"SELECT id, c, _score FROM $s30 ORDER BY _score DESC, id",
          s"SELECT id, c FROM $h30 ORDER BY c DESC, id",
          true,
          Some(2)
        ),
        Form(
          s"SELECT id, title FROM $s30 ORDER BY title DESC NULLS FIRST, id LIMIT 7",
          s"SELECT id, title FROM $h30 ORDER BY title DESC NULLS FIRST, id LIMIT 7",
          true
        ),
        Form(
          s"SELECT title, id FROM $s30 ORDER BY title, id DESC LIMIT 12",
          s"SELECT title, id FROM $h30 ORDER BY title, id DESC LIMIT 12",
          true
        ),
        Form(
          s"SELECT id, upper(title) AS u FROM $s30 ORDER BY u NULLS LAST, id LIMIT 5 OFFSET 3",
          s"SELECT id, upper(title) AS u FROM $h30 ORDER BY u NULLS LAST, id LIMIT 5 OFFSET 3",
          true
        )
      ).foreach(check(_))
    }

    test(s"$t: a WHERE on the result, with and without ORDER BY and LIMIT, runs no Spark job") {
      Seq(
        Form(
          s"SELECT id, dt FROM $s30 WHERE id % 4 = 0 OR title > 't050'",
          s"SELECT id, dt FROM $h30 WHERE id % 4 = 0 OR title > 't050'",
          ordered = false
        ),
        Form(
          s"SELECT id, title FROM $s30 WHERE title IS NOT NULL ORDER BY title, id LIMIT 4",
          s"SELECT id, title FROM $h30 WHERE title IS NOT NULL ORDER BY title, id LIMIT 4",
          ordered = true
        ),
        Form(
          s"SELECT id, c, _score FROM $s30 WHERE c < 5 ORDER BY _score DESC, id",
          s"SELECT id, c FROM $h30 WHERE c < 5 ORDER BY c DESC, id",
          true,
          Some(2)
        )
      ).foreach(check(_))
    }

    test(s"$t: a text_match count answered from the archives runs no Spark job") {
      Seq(
        Form(
          s"SELECT count(*) FROM lake.forms.$t WHERE text_match(body, 'needle')",
          s"SELECT count(*) FROM lake.forms.$t WHERE body LIKE '%needle%'",
          ordered = true
        ),
        Form(
          s"SELECT count(*) AS n, 'needle' AS term FROM lake.forms.$t WHERE text_match(body, 'needle')",
          s"SELECT count(*) AS n, 'needle' AS term FROM lake.forms.$t WHERE body LIKE '%needle%'",
          ordered = true
        )
      ).foreach(check(_))
    }

    if (t == "parted") test(s"$t: counts over some partitions and by partition run no Spark job") {
      Seq(
        Form(
          s"SELECT count(*) FROM lake.forms.$t WHERE dt = 'd1'",
          s"SELECT count(*) FROM lake.forms.$t WHERE dt = 'd1' AND id >= 0",
          ordered = true
        ),
        Form(
          s"SELECT max(dt) AS latest, count(*) FROM lake.forms.$t",
          s"SELECT max(dt) AS latest, count(*) FROM lake.forms.$t WHERE id >= 0",
          ordered = true
        ),
        Form(
          s"SELECT DISTINCT dt FROM lake.forms.$t ORDER BY dt DESC",
          s"SELECT DISTINCT dt FROM lake.forms.$t WHERE id >= 0 ORDER BY dt DESC",
          ordered = true
        ),
        Form(
          s"SELECT dt, count(*) AS n FROM lake.forms.$t GROUP BY dt ORDER BY n DESC, dt",
          s"SELECT dt, count(*) AS n FROM lake.forms.$t WHERE id >= 0 GROUP BY dt ORDER BY n DESC, dt",
          ordered = true
        ),
        Form(
          s"SELECT count(*) FROM lake.forms.$t WHERE text_match(body, 'needle') AND dt = 'd0'",
          s"SELECT count(*) FROM lake.forms.$t WHERE body LIKE '%needle%' AND dt = 'd0'",
          ordered = true
        )
      ).foreach(check(_))
    }

    test(s"$t: counting a search's rows, with and without a WHERE on them, runs no Spark job") {
      Seq(
        Form(s"SELECT count(*) FROM $s30", s"SELECT count(*) FROM $h30", ordered = true),
        Form(
          s"SELECT count(1) AS n, count(*) AS m FROM $s30 WHERE c < 5",
          s"SELECT count(1) AS n, count(*) AS m FROM $h30 WHERE c < 5",
          ordered = true
        )
      ).foreach(check(_))
    }

    test(s"$t: a search inside a CTE runs no Spark job") {
      Seq(
        Form(
          s"WITH h AS (SELECT id, _score FROM $s10) SELECT id FROM h WHERE _score > 0 ORDER BY id",
          s"WITH h AS (SELECT id FROM $h10) SELECT id FROM h ORDER BY id",
          ordered = true
        )
      ).foreach(check(_))
    }

    test(s"$t: joined back to its table by key, the search side runs no job and nothing shuffles") {
      // the scan of the table itself is one job, as a plain scan of it is
      val scanJobs = collectCountingJobs(spark.sql(s"SELECT * FROM lake.forms.$t"))._2
      Seq(
        Form(
          s"SELECT t.* FROM $s10 h JOIN lake.forms.$t t ON t.id = h.id",
          s"SELECT t.* FROM lake.forms.$t t WHERE t.id IN (SELECT id FROM $h10)",
          ordered = false
        ),
        Form(
          // (an ORDER BY over the join's result would sort the table scan's rows: Spark's part)
          s"SELECT t.id, t.c, h._score FROM lake.forms.$t t JOIN $s10 h ON t.id = h.id AND t.dt = h.dt",
          s"SELECT id, c $ranked10",
          ordered = false,
          score = Some(2)
        ),
        Form(
          s"SELECT t.id, h.title FROM $s30 h JOIN lake.forms.$t t ON t.id = h.id AND t.title <=> h.title",
          s"SELECT t.id, h.title FROM $h30 h JOIN lake.forms.$t t ON t.id = h.id AND t.title <=> h.title",
          ordered = false
        ),
        Form(
          s"SELECT id, title FROM lake.forms.$t WHERE id IN (SELECT id FROM $s10)",
          s"SELECT id, title FROM lake.forms.$t WHERE id IN (SELECT id FROM $h10)",
          ordered = false
        )
      ).foreach(check(_, jobsAllowed = scanJobs))
    }
  }

  Tables.foreach { case (t, _) =>
    test(
      s"$t: joined back to its table by the whole primary key, the hits answer it without a Spark job"
    ) {
      val s10 = search(t, 10)
      val h10 = hits(t, 10)
      val ranked10 =
        s"FROM lake.forms.$t WHERE body LIKE '%needle%' ORDER BY c DESC, id, dt LIMIT 10"
      // every primary-key column equated: `id` on the single-bucket table, `id` and `dt` on the other
      val on = if (t == "single") "t.id = h.id" else "t.id = h.id AND t.dt = h.dt"
      val keys = if (t == "single") "id" else "(id, dt)"
      val keyList = if (t == "single") "id" else "id, dt"
      Seq(
        Form(
          s"SELECT t.* FROM $s10 h JOIN lake.forms.$t t ON $on",
          s"SELECT t.* FROM lake.forms.$t t WHERE t.id IN (SELECT id FROM $h10)",
          ordered = false
        ),
        Form(
          s"SELECT t.id, t.c, h._score FROM lake.forms.$t t JOIN $s10 h ON $on ORDER BY h._score DESC, t.id",
          s"SELECT id, c $ranked10",
          ordered = true,
          score = Some(2)
        ),
        Form(
          s"SELECT t.id, t.title FROM $s10 h JOIN lake.forms.$t t ON $on WHERE t.title IS NOT NULL",
          s"SELECT id, title FROM $h10 WHERE title IS NOT NULL",
          ordered = false
        ),
        Form(
          // Paimon's partition pruning answers `dt` on the partitioned table: no filter above
          s"SELECT t.id, t.dt FROM $s10 h JOIN lake.forms.$t t ON $on WHERE t.dt = 'd0'",
          s"SELECT id, dt FROM $h10 WHERE dt = 'd0'",
          ordered = false
        ),
        Form(
          s"SELECT id, title FROM lake.forms.$t WHERE $keys IN (SELECT $keyList FROM $s10) ORDER BY id",
          s"SELECT id, title FROM $h10 ORDER BY id",
          ordered = true
        )
      ).foreach(check(_))
      // Every hit is in d0 (only ids divisible by 6 match): the other partition has none of them.
      // Without constraint propagation nothing filters the search side, so the table side's
      // partition filter, pushed to Paimon alone, must hold for the hits' rows too.
      Seq("true", "false").foreach { propagation =>
        spark.conf.set("spark.sql.constraintPropagation.enabled", propagation)
        try {
          val (none, started) = collectCountingJobs(
            spark.sql(s"SELECT t.id FROM $s10 h JOIN lake.forms.$t t ON $on WHERE t.dt = 'd1'")
          )
          assert(none.isEmpty && started == 0, s"$none, $started jobs (propagation $propagation)")
        } finally spark.conf.unset("spark.sql.constraintPropagation.enabled")
      }
    }
  }

  test(
    "a join back over rows no archive covers yet reads the table, and answers as the table does"
  ) {
    // write-only: inserts leave level-0 files, which a fresh search indexes at query time but a
    // SELECT of a table with deletion vectors does not show until they are compacted
    val t = "lake.forms.fresh"
    spark.sql(
      s"CREATE TABLE $t (id BIGINT NOT NULL, dt STRING NOT NULL, title STRING, c INT, body STRING) " +
        "TBLPROPERTIES ('primary-key'='id', 'bucket'='1', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body')"
    )
    try {
      spark.sql(s"INSERT INTO $t ${documents("id % 6 = 0", "1 + (id DIV 6) % 5")}")
      spark.sql(s"CALL lake.sys.compact(table => 'forms.fresh')")
      spark.sql(s"ALTER TABLE $t SET TBLPROPERTIES ('write-only' = 'true')")
      // newer versions of rows 0, 60, ...: new titles, the most `needle`s, so they rank first
      spark.sql(
        s"INSERT INTO $t SELECT id, dt, 'renamed', 6, " +
          s"trim(concat(repeat('needle ', 6), repeat('w ', 6))) FROM $t WHERE id % 60 = 0"
      )
      val search = s"full_text_search('$t', 'body', 'needle', 10)"
      val hitIds = spark.sql(s"SELECT id FROM $search").collect().map(_.getLong(0)).toSeq
      assert(hitIds.nonEmpty)
      val expected =
        spark.sql(s"SELECT id, title FROM $t WHERE id IN (${hitIds.mkString(", ")})").collect()
      assert(!expected.exists(_.getString(1) == "renamed"), "the table does not show level 0 yet")
      val actual =
        spark.sql(s"SELECT t.id, t.title FROM $search h JOIN $t t ON t.id = h.id").collect()
      assert(actual.map(_.toString).sorted.toSeq == expected.map(_.toString).sorted.toSeq)
    } finally spark.sql(s"DROP TABLE IF EXISTS $t")
  }

  test("expressions Spark must evaluate stay Spark's: ANSI errors, nondeterminism, subqueries") {
    val s = search("parted", 10)
    val e = intercept[Exception](spark.sql(s"SELECT id, 1 / (c - c) FROM $s ORDER BY id").collect())
    assert(e.getMessage.contains("DIVIDE_BY_ZERO"), e.getMessage)
    val random = spark.sql(s"SELECT id, rand(7) AS r FROM $s ORDER BY id").collect()
    assert(random.length == 10 && random.map(_.getDouble(1)).distinct.length == 10)
    val sub = spark
      .sql(s"SELECT id FROM $s WHERE c = (SELECT max(c) FROM lake.forms.parted) ORDER BY id")
      .collect()
      .map(_.getLong(0))
      .toSeq
    val expected = spark
      .sql(s"SELECT id FROM ${hits("parted", 10)} WHERE c = 5 ORDER BY id")
      .collect()
      .map(_.getLong(0))
      .toSeq
    assert(sub == expected)
  }

  test("a join whose keys repeat among the hits stays Spark's join and answers as the oracle") {
    val t = "lake.forms.parted"
    Seq(
      // many hits share (dt, c): a table row matches several hits
      s"SELECT t.id, h.id FROM ${search("parted", 10)} h JOIN $t t ON t.dt = h.dt AND t.c = h.c" ->
        s"SELECT t.id, h.id FROM ${hits("parted", 10)} h JOIN $t t ON t.dt = h.dt AND t.c = h.c"
    ).foreach { case (sql, oracle) =>
      val plan = spark.sql(sql).queryExecution.executedPlan.toString
      assert(plan.contains("BroadcastHashJoin"), plan)
      val actual = spark.sql(sql).collect().map(_.toString).sorted.toSeq
      assert(
        actual.nonEmpty && actual == spark.sql(oracle).collect().map(_.toString).sorted.toSeq,
        sql
      )
    }
  }

  test("a join back on the leading key column reads the matching rows on the driver") {
    // `id` alone on a table keyed by (id, dt): any partition's row with a hit's id belongs to the
    // answer, so it cannot come from the hits. Data files are sorted by `id`, so the rows are
    // looked up by position in the buckets that can hold the ids, without a Spark job. Here every
    // id but one in five is in both partitions, and deleted and updated rows must not come back.
    val t = "lake.forms.twins"
    spark.sql(
      s"CREATE TABLE $t (id BIGINT NOT NULL, dt STRING NOT NULL, title STRING, c INT, body STRING) " +
        "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='4', " +
        "'deletion-vectors.enabled'='true', 'strata-full-text.index.columns'='body')"
    )
    spark.sql(s"INSERT INTO $t ${documents("id % 6 = 0", "1 + (id DIV 6) % 5")}")
    spark.sql(
      s"INSERT INTO $t SELECT id, CASE WHEN dt = 'd0' THEN 'd1' ELSE 'd0' END, concat('twin', id), 0, " +
        s"'no match here' FROM $t WHERE id % 5 <> 0"
    )
    spark.sql(s"DELETE FROM $t WHERE id % 12 = 6 AND title LIKE 'twin%'")
    spark.sql(s"UPDATE $t SET title = 'updated' WHERE id % 18 = 0 AND dt = 'd1'")
    spark.sql(s"CALL lake.sys.compact(table => 'forms.twins')")
    def s(k: Int) = s"full_text_search('$t', 'body', 'needle', $k)"
    def h(k: Int) =
      s"(SELECT * FROM $t WHERE body LIKE '%needle%' ORDER BY c DESC, id, dt LIMIT $k)"
    Seq(1, 3, 10).foreach { k =>
      Seq(
        s"SELECT id, dt, title FROM $t WHERE id IN (SELECT id FROM ${s(k)})" ->
          s"SELECT id, dt, title FROM $t WHERE id IN (SELECT id FROM ${h(k)})",
        // key and partition columns only: no second read of the files
        s"SELECT dt, id FROM $t WHERE id IN (SELECT id FROM ${s(k)})" ->
          s"SELECT dt, id FROM $t WHERE id IN (SELECT id FROM ${h(k)})",
        s"SELECT t.id, t.dt, t.c, h.title FROM ${s(k)} h JOIN $t t ON t.id = h.id" ->
          s"SELECT t.id, t.dt, t.c, h.title FROM ${h(k)} h JOIN $t t ON t.id = h.id"
      ).foreach { case (sql, oracle) =>
        val df = spark.sql(sql)
        val plan = df.queryExecution.executedPlan.toString
        assert(!plan.contains("BatchScan"), s"$sql\n$plan")
        val (rows, jobs) = collectCountingJobs(df)
        assert(jobs == 0, s"$sql started $jobs jobs")
        val expected = spark.sql(oracle).collect().map(_.toString).sorted.toSeq
        assert(expected.nonEmpty && rows.map(_.toString).sorted == expected, sql)
      }
    }
    // an aggregate over the looked-up rows is Spark's (a job), on the same rows
    def grouped(from: String) =
      spark
        .sql(s"SELECT dt, count(*) FROM $t WHERE id IN (SELECT id FROM $from) GROUP BY dt")
        .collect()
        .map(_.toString)
        .sorted
        .toSeq
    assert(grouped(s(10)) == grouped(h(10)))
    assert(
      spark
        .sql(s"SELECT count(*) FROM $t WHERE id IN (SELECT id FROM ${h(10)}) AND dt = 'd1'")
        .head()
        .getLong(0) > 0,
      "the hits' ids are in both partitions"
    )
  }

  test("a join back on a column that does not lead the sort order reads only what can hold it") {
    // `c` is not a key: the scan is narrowed to the hits' values of `c` and read by Spark
    Seq(1, 3).foreach { k =>
      val (s, h) = (search("parted", k), hits("parted", k))
      val sql = s"SELECT id, dt, c FROM lake.forms.parted WHERE c IN (SELECT c FROM $s)"
      val oracle = s"SELECT id, dt, c FROM lake.forms.parted WHERE c IN (SELECT c FROM $h)"
      val df = spark.sql(sql)
      assert(df.queryExecution.executedPlan.toString.contains("NarrowedTo: c IN"), sql)
      val expected = spark.sql(oracle).collect().map(_.toString).sorted.toSeq
      assert(df.collect().map(_.toString).sorted.toSeq == expected, sql)
    }
  }

  test("searches run as executor tasks still answer every form") {
    spark.conf.set("spark.sql.strata.search.driverMaxBuckets", "0")
    try {
      val s = search("parted", 10)
      val h = hits("parted", 10)
      Seq(
        s"SELECT id FROM $s ORDER BY id" -> s"SELECT id FROM $h ORDER BY id",
        s"SELECT t.id FROM $s h JOIN lake.forms.parted t ON t.id = h.id ORDER BY t.id" ->
          s"SELECT id FROM $h ORDER BY id",
        s"SELECT id FROM $s WHERE title IS NOT NULL ORDER BY id" ->
          s"SELECT id FROM $h WHERE title IS NOT NULL ORDER BY id"
      ).foreach { case (sql, oracle) =>
        assert(spark.sql(sql).queryExecution.executedPlan.toString.contains("BatchScan"), sql)
        assert(spark.sql(sql).collect().toSeq == spark.sql(oracle).collect().toSeq, sql)
      }
    } finally spark.conf.unset("spark.sql.strata.search.driverMaxBuckets")
  }
}
