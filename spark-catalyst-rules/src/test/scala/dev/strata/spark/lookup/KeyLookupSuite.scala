package dev.strata.spark.lookup

import java.nio.file.Files

import dev.strata.spark.LocalStrataSession
import dev.strata.testing.TempDirs

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.execution.{LocalTableScanExec, SparkPlan}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** Filters that fix the leading key column are answered on the driver by key, as a full read of the
  * table answers them (the oracle: a Spark parquet copy of the table written from a scan without
  * such a filter), with deleted and updated rows, rows of the same key in several partitions, time
  * travel, and tables whose files need merging (merged by Paimon's read on the driver).
  */
class KeyLookupSuite extends AnyFunSuite with BeforeAndAfterAll {

  private val root = Files.createTempDirectory("strata-key-lookup")
  private var spark: SparkSession = _

  override def beforeAll(): Unit = {
    spark = LocalStrataSession.start(root.resolve("wh"), 4)
    spark.sql("CREATE NAMESPACE lake.kl")
    spark.sql(
      "CREATE TABLE lake.kl.t (id BIGINT NOT NULL, dt STRING NOT NULL, name STRING, v INT) " +
        "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='4', " +
        "'deletion-vectors.enabled'='true')"
    )
    spark.sql(
      "INSERT INTO lake.kl.t SELECT id, concat('d', id % 3), concat('n', id), CAST(id % 97 AS INT) " +
        "FROM range(0, 3000)"
    )
    // the same ids in a second partition for two ids in three
    spark.sql(
      "INSERT INTO lake.kl.t SELECT id, concat('d', (id + 1) % 3), 'twin', 0 FROM range(0, 3000) " +
        "WHERE id % 3 <> 0"
    )
    spark.sql("DELETE FROM lake.kl.t WHERE id % 10 = 7 AND name = 'twin'")
    spark.sql("UPDATE lake.kl.t SET v = -1 WHERE id % 11 = 5")
    spark.sql("CALL lake.sys.compact(table => 'kl.t')")
    spark.sql("CREATE TABLE oracle USING parquet AS SELECT * FROM lake.kl.t")
    // one file of 5 000 rows: Paimon's reader returns it in batches of 1 024
    spark.sql(
      "CREATE TABLE lake.kl.one (id BIGINT NOT NULL, name STRING, v INT) TBLPROPERTIES " +
        "('primary-key'='id', 'bucket'='1', 'deletion-vectors.enabled'='true')"
    )
    spark.sql(
      "INSERT INTO lake.kl.one SELECT id, concat('n', id), CAST(id % 89 AS INT) FROM range(0, 5000)"
    )
    spark.sql("DELETE FROM lake.kl.one WHERE id % 1000 = 999")
    spark.sql("CALL lake.sys.compact(table => 'kl.one')")
    spark.sql("CREATE TABLE oracle_one USING parquet AS SELECT * FROM lake.kl.one")
  }

  override def afterAll(): Unit = {
    LocalStrataSession.stop(spark)
    TempDirs.delete(root)
  }

  private def rows(sql: String): Seq[String] =
    spark.sql(sql).collect().map(_.toString).sorted.toSeq

  private def plan(sql: String): String = spark.sql(sql).queryExecution.executedPlan.toString

  /** `q` with `{t}` read from `table` answers as it does from `oracle`, in order when it sorts;
    * returns the plan it ran with.
    */
  private def answersAsOracle(q: String, table: String, oracle: String): SparkPlan = {
    val sql = q.replace("{t}", table)
    val df = spark.sql(sql)
    val got = df.collect().toSeq
    val expected = spark.sql(q.replace("{t}", oracle)).collect().toSeq
    if (sql.contains("ORDER BY")) {
      assert(got.nonEmpty && got == expected, sql)
    } else {
      assert(got.map(_.toString).sorted == expected.map(_.toString).sorted, sql)
    }
    df.queryExecution.executedPlan
  }

  test("a filter on the leading key column reads the rows on the driver, as a full read answers") {
    Seq(
      "SELECT * FROM {t} WHERE id = 1234",
      "SELECT * FROM {t} WHERE id = 17",
      "SELECT * FROM {t} WHERE id IN (5, 16, 17, 27, 2999, 5000)",
      "SELECT id, dt FROM {t} WHERE id IN (1, 2, 3) AND dt = 'd1'",
      "SELECT name FROM {t} WHERE id IN (4, 8, 15, 16, 23, 42) AND v > 10",
      "SELECT dt, count(*) FROM {t} WHERE id IN (10, 11, 12, 13) GROUP BY dt",
      "SELECT * FROM {t} WHERE id = 987654321",
      "SELECT name, v FROM {t} WHERE id IN (5, 16, 17, 27, 2999) ORDER BY v DESC, name",
      "SELECT id, dt FROM {t} WHERE id IN (5, 16, 17, 27, 2999) ORDER BY dt, id LIMIT 3"
    ).foreach { q =>
      val executed = answersAsOracle(q, "lake.kl.t", "oracle")
      val p = executed.toString
      assert(p.contains("LocalTableScan") && !p.contains("BatchScan"), s"$q\n$p")
      // filtered, projected and sorted on the driver: collecting a local relation starts no job
      if (!q.contains("GROUP BY")) {
        assert(executed.isInstanceOf[LocalTableScanExec], s"$q\n$executed")
      }
    }
    assert(rows("SELECT dt FROM lake.kl.t WHERE id = 1234").size == 2, "an id in two partitions")
  }

  test("rows past the first batch a file's reader returns are the rows of the keys asked for") {
    Seq(
      "SELECT * FROM {t} WHERE id = 4321",
      "SELECT name, v FROM {t} WHERE id IN (3, 1500, 2048, 4998, 4999)",
      "SELECT * FROM {t} WHERE id IN (1023, 1024, 1025, 3071, 4097)"
    ).foreach { q =>
      assert(rows(q.replace("{t}", "oracle_one")).nonEmpty, q)
      assert(answersAsOracle(q, "lake.kl.one", "oracle_one").toString.contains("LocalTableScan"), q)
    }
  }

  test("an expression that fails on a looked-up row raises Spark's error, as a full read does") {
    val sql = "SELECT id FROM {t} WHERE id IN (1, 2) AND CAST(name AS INT) > 0"
    Seq("lake.kl.t", "oracle").foreach { t =>
      val e = intercept[Exception](spark.sql(sql.replace("{t}", t)).collect())
      assert(e.getMessage.contains("CAST_INVALID_INPUT"), s"$t: ${e.getMessage}")
    }
    assert(
      rows("SELECT id FROM lake.kl.t WHERE id IN (1, 2) AND try_cast(name AS INT) > 0").isEmpty
    )
  }

  test("filters the lookup does not serve are read by Spark with the same answer") {
    Seq(
      // not the leading key column
      "SELECT * FROM {t} WHERE name = 'n77'",
      // a range, not values
      "SELECT * FROM {t} WHERE id < 3",
      // an expression of the column
      "SELECT * FROM {t} WHERE id + 1 = 78"
    ).foreach { q =>
      assert(answersAsOracle(q, "lake.kl.t", "oracle").toString.contains("BatchScan"), q)
    }
  }

  test("time travel reads the version asked for") {
    val before = spark.sql("SELECT max(snapshot_id) FROM lake.kl.`t$snapshots`").head().getLong(0)
    val was = rows("SELECT * FROM lake.kl.t WHERE id = 1234")
    spark.sql("DELETE FROM lake.kl.t WHERE id = 1234")
    assert(rows("SELECT * FROM lake.kl.t WHERE id = 1234").isEmpty)
    val sql = s"SELECT * FROM lake.kl.t VERSION AS OF $before WHERE id = 1234"
    assert(plan(sql).contains("LocalTableScan"), sql)
    assert(rows(sql) == was && was.nonEmpty)
  }

  test("files written before ADD, RENAME and ALTER COLUMN are read on the driver by field id") {
    spark.sql(
      "CREATE TABLE lake.kl.evolved (id BIGINT NOT NULL, name STRING, v INT) TBLPROPERTIES " +
        "('primary-key'='id', 'bucket'='2', 'deletion-vectors.enabled'='true')"
    )
    spark.sql(
      "INSERT INTO lake.kl.evolved SELECT id, concat('n', id), CAST(id % 13 AS INT) " +
        "FROM range(0, 2000)"
    )
    spark.sql("ALTER TABLE lake.kl.evolved ADD COLUMN extra STRING")
    spark.sql("ALTER TABLE lake.kl.evolved RENAME COLUMN name TO label")
    spark.sql("INSERT INTO lake.kl.evolved VALUES (7, 'seven', 70, 'x'), (5000, 'new', 1, 'y')")
    spark.sql("UPDATE lake.kl.evolved SET extra = 'z' WHERE id = 1500")
    val schemas = spark
      .sql("SELECT DISTINCT schema_id FROM lake.kl.`evolved$files`")
      .collect()
      .map(_.getLong(0))
      .toSet
    assert(schemas.size > 1, s"files of one schema only: $schemas")
    spark.sql("CREATE TABLE oracle_evolved USING parquet AS SELECT * FROM lake.kl.evolved")
    Seq(
      "SELECT * FROM {t} WHERE id IN (7, 8, 1500, 1999, 5000, 6000)",
      "SELECT label, extra FROM {t} WHERE id = 8",
      "SELECT extra FROM {t} WHERE id IN (3, 4)",
      "SELECT id, label FROM {t} WHERE id IN (10, 11, 12) AND v > 10 ORDER BY label"
    ).foreach { q =>
      val p = answersAsOracle(q, "lake.kl.evolved", "oracle_evolved").toString
      assert(p.contains("LocalTableScan") && !p.contains("BatchScan"), s"$q\n$p")
    }
    // a changed type is cast as Paimon's reader casts it
    spark.sql("ALTER TABLE lake.kl.evolved ALTER COLUMN v TYPE BIGINT")
    val p = answersAsOracle(
      "SELECT id, v FROM {t} WHERE id IN (7, 8, 1500) AND v >= 0 ORDER BY v",
      "lake.kl.evolved",
      "oracle_evolved"
    ).toString
    assert(p.contains("LocalTableScan") && !p.contains("BatchScan"), p)
    assert(spark.table("lake.kl.evolved").schema("v").dataType.simpleString == "bigint")
  }

  test(
    "files that need merging, and ORC files, are read on the driver by Paimon's read, as a full read answers"
  ) {
    spark.sql(
      "CREATE TABLE lake.kl.merged (id BIGINT NOT NULL, dt STRING NOT NULL, v INT, s STRING) " +
        "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='2')"
    )
    spark.sql(
      "INSERT INTO lake.kl.merged SELECT id, concat('d', id % 2), 1, 'a' FROM range(0, 3000)"
    )
    spark.sql(
      "INSERT INTO lake.kl.merged SELECT id, concat('d', id % 2), 2, 'b' FROM range(0, 3000) " +
        "WHERE id % 4 = 0"
    )
    spark.sql("DELETE FROM lake.kl.merged WHERE id % 7 = 3")
    spark.sql("UPDATE lake.kl.merged SET s = 'u' WHERE id % 5 = 1")
    // partial updates: the merge engine, not the newest row, decides what a key holds
    spark.sql(
      "CREATE TABLE lake.kl.partial (id BIGINT NOT NULL, a INT, b STRING) TBLPROPERTIES " +
        "('primary-key'='id', 'bucket'='2', 'merge-engine'='partial-update')"
    )
    spark.sql("INSERT INTO lake.kl.partial SELECT id, CAST(id AS INT), NULL FROM range(0, 500)")
    spark.sql(
      "INSERT INTO lake.kl.partial SELECT id, NULL, concat('b', id) FROM range(0, 500) " +
        "WHERE id % 3 = 0"
    )
    // ORC files: not readable by position here, read as a task reads them
    spark.sql(
      "CREATE TABLE lake.kl.orc (id BIGINT NOT NULL, v INT, s STRING) TBLPROPERTIES " +
        "('primary-key'='id', 'bucket'='2', 'file.format'='orc', 'deletion-vectors.enabled'='true')"
    )
    spark.sql(
      "INSERT INTO lake.kl.orc SELECT id, CAST(id AS INT), concat('s', id) FROM range(0, 900)"
    )
    spark.sql("DELETE FROM lake.kl.orc WHERE id % 9 = 4")
    Seq("merged", "partial", "orc").foreach { t =>
      // nothing compacted: a count must read (no split's merged row count is known)
      if (t != "orc") assert(plan(s"SELECT count(*) FROM lake.kl.$t").contains("BatchScan"), t)
      spark.sql(s"CREATE TABLE oracle_$t USING parquet AS SELECT * FROM lake.kl.$t")
    }
    Seq(
      "SELECT * FROM {t} WHERE id = 4" -> "merged",
      "SELECT * FROM {t} WHERE id IN (3, 4, 10, 17, 31, 2999, 5000)" -> "merged",
      "SELECT v, s FROM {t} WHERE id IN (1, 2, 3, 4, 5, 6) AND dt = 'd0' ORDER BY v, s" -> "merged",
      "SELECT * FROM {t} WHERE id IN (0, 1, 2, 3, 299, 300, 499, 500)" -> "partial",
      "SELECT * FROM {t} WHERE id IN (3, 4, 13, 898, 899, 900)" -> "orc",
      "SELECT s FROM {t} WHERE id = 22" -> "orc"
    ).foreach { case (q, t) =>
      val executed = answersAsOracle(q, s"lake.kl.$t", s"oracle_$t")
      assert(executed.isInstanceOf[LocalTableScanExec], s"$q\n$executed")
    }
    assert(rows("SELECT v, s FROM lake.kl.merged WHERE id IN (3, 4, 11)") == Seq("[1,u]", "[2,b]"))
    assert(
      rows("SELECT * FROM lake.kl.partial WHERE id IN (3, 4)") == Seq("[3,3,b3]", "[4,4,null]")
    )
  }

  test(
    "a LIMIT over a table's filtered scan returns live rows read on the driver, as many as asked"
  ) {
    spark.sql(
      "CREATE TABLE lake.kl.limited (id BIGINT NOT NULL, v INT) TBLPROPERTIES " +
        "('primary-key'='id', 'bucket'='2')"
    )
    spark.sql("INSERT INTO lake.kl.limited SELECT id, 1 FROM range(0, 400)")
    spark.sql("INSERT INTO lake.kl.limited SELECT id, 2 FROM range(0, 400) WHERE id % 2 = 0")
    spark.sql("DELETE FROM lake.kl.limited WHERE id < 300")
    spark.sql("CREATE TABLE oracle_limited USING parquet AS SELECT * FROM lake.kl.limited")
    Seq(
      ("SELECT * FROM {t} LIMIT 7", "lake.kl.t", "oracle", 7),
      ("SELECT id, name FROM {t} WHERE dt = 'd1' LIMIT 5", "lake.kl.t", "oracle", 5),
      ("SELECT upper(name) AS u, id FROM {t} LIMIT 3", "lake.kl.one", "oracle_one", 3),
      // deleted and upserted keys in unmerged files: only live rows, merged
      ("SELECT * FROM {t} LIMIT 150", "lake.kl.limited", "oracle_limited", 100),
      // filters Spark applies: the first rows that pass them, as many as pass when fewer
      ("SELECT * FROM {t} WHERE v > 10 LIMIT 5", "lake.kl.t", "oracle", 5),
      (
        "SELECT id FROM {t} WHERE v = 2 AND id % 4 = 0 LIMIT 20",
        "lake.kl.limited",
        "oracle_limited",
        20
      ),
      ("SELECT * FROM {t} WHERE v = 2 LIMIT 80", "lake.kl.limited", "oracle_limited", 50),
      ("SELECT id * 2 AS d FROM {t} WHERE name LIKE 'n4%' LIMIT 9", "lake.kl.one", "oracle_one", 9)
    ).foreach { case (q, table, oracle, expected) =>
      val df = spark.sql(q.replace("{t}", table))
      val got = df.collect().map(_.toString).toSeq
      val all = spark.sql(q.replace("{t}", oracle).replaceAll(" LIMIT [0-9]+", "")).collect()
      assert(got.size == expected && got.distinct.size == got.size, s"$q: $got")
      assert(got.toSet.subsetOf(all.map(_.toString).toSet), s"$q: $got")
      assert(df.queryExecution.executedPlan.isInstanceOf[LocalTableScanExec], q)
    }
    // a filter that passes too few of the rows the driver reads first, or more rows than it
    // reads: Spark's limit
    spark.sql(
      "CREATE TABLE lake.kl.many (id BIGINT NOT NULL, v INT) TBLPROPERTIES " +
        "('primary-key'='id', 'bucket'='1', 'deletion-vectors.enabled'='true')"
    )
    spark.sql(
      "INSERT INTO lake.kl.many SELECT id, CASE WHEN id = 29000 THEN 7 ELSE 0 END FROM range(0, 30000)"
    )
    // rows of ~10 KB: some hundreds are read on the driver, not thousands
    spark.sql(
      "CREATE TABLE lake.kl.wide (id BIGINT NOT NULL, s STRING) TBLPROPERTIES " +
        "('primary-key'='id', 'bucket'='1', 'deletion-vectors.enabled'='true')"
    )
    spark.sql(
      "INSERT INTO lake.kl.wide SELECT id, concat_ws('', transform(sequence(1, 600), " +
        "i -> md5(concat(CAST(id AS STRING), '-', CAST(i AS STRING))))) FROM range(0, 2000)"
    )
    assert(!plan("SELECT id FROM lake.kl.wide LIMIT 100").contains("BatchScan"))
    Seq(
      "SELECT id FROM lake.kl.wide LIMIT 1900" -> 1900,
      "SELECT * FROM lake.kl.many WHERE v * 2 = 14 LIMIT 1" -> 1,
      // (the time travel test deleted id 1234 after the oracle was written)
      "SELECT * FROM lake.kl.t LIMIT 20000" -> spark
        .table("oracle")
        .where("id <> 1234")
        .count()
        .toInt
    ).foreach { case (q, n) =>
      assert(spark.sql(q).collect().length == n, q)
      assert(plan(q).contains("BatchScan"), q)
    }
    // a filter that fails on a row is Spark's to report, as without the driver's read
    val error = intercept[Exception] {
      spark.sql("SELECT * FROM lake.kl.limited WHERE 10 / (v - 1) > 0 LIMIT 3").collect()
    }
    assert(error.getMessage.contains("DIVIDE_BY_ZERO"), error.toString)
    assert(!error.isInstanceOf[java.io.UncheckedIOException], error.toString)
  }
}
