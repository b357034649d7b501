package dev.strata.spark.search

import java.nio.file.Files
import java.util.Random

import scala.jdk.CollectionConverters._

import dev.strata.spark.{LocalStrataSession, RandomShare}
import dev.strata.testing.TestSeeds
import dev.strata.testing.text.{QueryGenerator, TextCorpus}
import dev.strata.testing.TempDirs
import org.apache.spark.sql.{Row, SparkSession}
import org.apache.spark.sql.types.StructType
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** DELETE, UPDATE and MERGE INTO on primary-key tables with a full-text column and a MAP column
  * (stored as shared-shredding where the bucket mode allows): after every few statements and after
  * compaction, `full_text_search` returns exactly the live rows a brute-force Lucene index over an
  * independent oracle matches (the same changes applied to parquet files with plain Spark SQL), so
  * no deleted or replaced version is ever returned and new text is found, and map-key lookups with
  * pushed predicates return exactly the oracle's rows.
  */
class RowLevelSearchSuite extends AnyFunSuite with BeforeAndAfterAll {

  private lazy val root = Files.createTempDirectory("strata-rl-search-")
  private var spark: SparkSession = _
  private var oracleVersion = 0
  private val corpus = new TextCorpus(300)
  private val Keys = 400
  private val Schema =
    StructType.fromDDL("id BIGINT, dt STRING, body STRING, attrs MAP<STRING, INT>, n INT")

  override def beforeAll(): Unit = {
    spark = LocalStrataSession.start(root.resolve("wh"), 4)
    spark.sql("CREATE NAMESPACE lake.rs")
  }

  override def afterAll(): Unit = {
    LocalStrataSession.stop(spark)
    TempDirs.delete(root)
  }

  private def sql(s: String) = spark.sql(s)

  private def view(name: String) = s"oracle_$name"

  /** Replaces the oracle of `name` by `select` (over the current oracle), written as parquet files.
    */
  private def oracle(name: String, select: String): Unit = {
    oracleVersion += 1
    val path = root.resolve("oracle").resolve(s"$name-$oracleVersion").toString
    sql(select).write.parquet(path)
    spark.read.parquet(path).createOrReplaceTempView(view(name))
  }

  private def document(random: Random, marker: String): String =
    if (random.nextInt(20) == 0) null else corpus.document(random, 3, 15) + " " + marker

  private def attrs(random: Random): Map[String, Int] =
    (0 until random.nextInt(6)).map(_ => s"k${random.nextInt(8)}" -> random.nextInt(100)).toMap

  private def rows(random: Random, ids: Seq[Long], partitioned: Boolean, marker: String): Seq[Row] =
    ids.map { id =>
      val dt =
        if (partitioned && random.nextInt(4) == 0) s"d${random.nextInt(2)}" else s"d${id % 2}"
      Row(id, dt, document(random, marker), attrs(random), random.nextInt(100))
    }

  /** Ids (as id/dt) each query matches in a brute-force Lucene index over the oracle's rows. */
  private def luceneOracle(name: String, queries: Seq[String]): Map[String, Set[String]] =
    BruteForceIndex.matches(
      sql(s"SELECT id, dt, body FROM ${view(name)} WHERE body IS NOT NULL")
        .collect()
        .map(r => (s"${r.getLong(0)}/${r.getString(1)}", r.getString(2))),
      queries
    )

  private def quote(s: String): String = "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"

  private def assertSearchesAndLookups(
      name: String,
      shredded: Boolean,
      random: Random,
      markers: Seq[String],
      step: String
  ): Unit = {
    val table = s"lake.rs.$name"
    val generator = new QueryGenerator(corpus)
    val queries = ((0 until 12).map(_ => generator.next(random)) ++ markers).distinct
    val expected = luceneOracle(name, queries)
    queries.foreach { q =>
      val found = sql(s"SELECT id, dt FROM full_text_search('$table', 'body', ${quote(q)}, 100000)")
        .collect()
        .map(r => s"${r.getLong(0)}/${r.getString(1)}")
        .toSeq
      assert(found.size == found.toSet.size, s"$step: duplicate hits for '$q'")
      assert(found.toSet == expected(q), s"$step: full_text_search '$q'")
    }
    val key = s"k${random.nextInt(8)}"
    val bound = random.nextInt(100)
    val lookup =
      s"SELECT id, dt, attrs['$key'] FROM %s WHERE attrs['$key'] > $bound ORDER BY id, dt"
    if (shredded) {
      val plan = sql(lookup.format(table)).queryExecution.executedPlan.toString
      assert(plan.contains("PushedMapPredicates"), plan)
    }
    assert(
      sql(lookup.format(table)).collect().toSeq == sql(lookup.format(view(name))).collect().toSeq,
      s"$step: map-key lookup $lookup"
    )
    assert(
      sql(s"SELECT id, dt, body, n FROM $table ORDER BY id, dt").collect().toSeq ==
        sql(s"SELECT id, dt, body, n FROM ${view(name)} ORDER BY id, dt").collect().toSeq,
      s"$step: rows"
    )
  }

  private def condition(random: Random): String = random.nextInt(4) match {
    case 0 =>
      val m = 3 + random.nextInt(6)
      s"id % $m = ${random.nextInt(m)}"
    case 1 => s"n < ${random.nextInt(30)}"
    case 2 =>
      val from = random.nextInt(Keys)
      s"id BETWEEN $from AND ${from + random.nextInt(40)}"
    case _ => s"attrs['k${random.nextInt(8)}'] > ${random.nextInt(100)}"
  }

  // Shared-shredding does not support postpone buckets, so the postpone table keeps a plain MAP.
  Seq(
    ("fixed", "'bucket' = '3', 'fields.attrs.map.storage-layout' = 'shared-shredding'", 25),
    ("postpone", "'bucket' = '-2', 'postpone.default-bucket-num' = '2'", 10)
  ).foreach { case (name, bucket, statements) =>
    test(s"$name buckets: searches and map lookups after DELETE/UPDATE/MERGE equal the oracle's") {
      val seedName = RandomShare.seedName(s"RowLevelSearchSuite.$name")
      val seed = TestSeeds.seed(seedName)
      val describe = TestSeeds.describe(seedName, seed)
      val random = new Random(seed)
      val table = s"lake.rs.$name"
      val postpone = bucket.contains("-2")
      sql(
        s"CREATE TABLE $table (id BIGINT, dt STRING, body STRING, attrs MAP<STRING, INT>, n INT) " +
          "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'id,dt', " + bucket + ", " +
          "'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')"
      )
      val initial = spark.createDataFrame(
        rows(random, (0L until Keys.toLong), partitioned = false, "origin").asJava,
        Schema
      )
      initial.createOrReplaceTempView("initial_rows")
      sql(s"INSERT INTO $table SELECT * FROM initial_rows")
      sql(s"CALL lake.sys.compact(table => 'rs.$name')")
      oracle(name, "SELECT * FROM initial_rows")
      assertSearchesAndLookups(name, !postpone, random, Seq("origin"), s"$describe initial")

      var markers = Seq("origin")
      (0 until RandomShare.of(statements)).foreach { i =>
        val marker = s"fresh$i"
        val step = s"$describe statement $i"
        random.nextInt(3) match {
          case 0 =>
            val cond = condition(random)
            sql(s"DELETE FROM $table WHERE $cond")
            oracle(name, s"SELECT * FROM ${view(name)} WHERE NOT coalesce($cond, false)")
          case 1 =>
            val cond = condition(random)
            val body = s"concat('updated $marker ', cast(n AS STRING))"
            val attrsValue = "map(concat('k', cast(n % 8 AS STRING)), n)"
            sql(s"UPDATE $table SET body = $body, attrs = $attrsValue, n = n + 1 WHERE $cond")
            val hit = s"coalesce($cond, false)"
            oracle(
              name,
              s"SELECT id, dt, CASE WHEN $hit THEN $body ELSE body END AS body, " +
                s"CASE WHEN $hit THEN $attrsValue ELSE attrs END AS attrs, CASE WHEN $hit THEN n + 1 ELSE n END AS n " +
                s"FROM ${view(name)}"
            )
          case _ =>
            val ids = random
              .ints(0, Keys + Keys / 4)
              .distinct()
              .limit(5 + random.nextInt(30))
              .toArray
              .map(_.toLong)
              .toSeq
            spark
              .createDataFrame(rows(random, ids, partitioned = true, marker).asJava, Schema)
              .createOrReplaceTempView("merge_source")
            val deleteBelow = random.nextInt(30)
            sql(
              s"MERGE INTO $table t USING merge_source s ON t.id = s.id AND t.dt = s.dt " +
                s"WHEN MATCHED AND s.n < $deleteBelow THEN DELETE WHEN MATCHED THEN UPDATE SET * " +
                "WHEN NOT MATCHED THEN INSERT *"
            )
            oracle(
              name,
              "SELECT coalesce(s_id, t_id) AS id, coalesce(s_dt, t_dt) AS dt, " +
                "CASE WHEN s_id IS NOT NULL THEN s_body ELSE t_body END AS body, " +
                "CASE WHEN s_id IS NOT NULL THEN s_attrs ELSE t_attrs END AS attrs, " +
                "CASE WHEN s_id IS NOT NULL THEN s_n ELSE t_n END AS n FROM (" +
                "SELECT t.id AS t_id, t.dt AS t_dt, t.body AS t_body, t.attrs AS t_attrs, t.n AS t_n, " +
                "s.id AS s_id, s.dt AS s_dt, s.body AS s_body, s.attrs AS s_attrs, s.n AS s_n " +
                s"FROM ${view(name)} t FULL OUTER JOIN merge_source s ON t.id = s.id AND t.dt = s.dt) " +
                s"WHERE NOT (t_id IS NOT NULL AND s_id IS NOT NULL AND s_n < $deleteBelow)"
            )
        }
        markers = (markers :+ marker).takeRight(4)
        if (postpone) sql(s"CALL lake.sys.compact(table => 'rs.$name')")
        if (postpone || i % 5 == 4) assertSearchesAndLookups(name, !postpone, random, markers, step)
      }
      assertSearchesAndLookups(name, !postpone, random, markers, s"$describe at the end")
      sql(s"CALL lake.sys.compact(table => 'rs.$name')")
      assertSearchesAndLookups(name, !postpone, random, markers, s"$describe after compaction")
    }
  }

  test(
    "text_match in a MERGE's ON condition matches as in its WHEN clauses (Spark 4.2 plans it as an outer reference)"
  ) {
    sql(
      "CREATE TABLE lake.rs.on_cond (id INT, dt STRING, body STRING) PARTITIONED BY (dt) TBLPROPERTIES (" +
        "'primary-key'='id,dt', 'bucket'='2', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body')"
    )
    sql(
      "INSERT INTO lake.rs.on_cond VALUES (1, 'd0', 'pear one'), (2, 'd0', 'apple two'), (3, 'd1', 'pear three')"
    )
    sql(
      "MERGE INTO lake.rs.on_cond t USING (SELECT 'd0' AS dt) s ON t.dt = s.dt AND text_match(t.body, 'pear') " +
        "WHEN MATCHED THEN UPDATE SET body = 'updated'"
    )
    val rows = sql("SELECT id, body FROM lake.rs.on_cond ORDER BY id")
      .collect()
      .map(r => (r.getInt(0), r.getString(1)))
    assert(rows.toSeq == Seq((1, "updated"), (2, "apple two"), (3, "pear three")))
  }
}
