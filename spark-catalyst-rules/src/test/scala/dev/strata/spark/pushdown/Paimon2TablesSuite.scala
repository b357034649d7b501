package dev.strata.spark.pushdown

import scala.jdk.CollectionConverters._

import dev.strata.testing.Fixtures

import org.apache.spark.sql.{DataFrame, Encoders}

/**
 * Tables written by Apache Paimon 2.0.0 (fixtures: shared-shredding maps in `.parquet` files whose footers hold
 * only Paimon's layout keys) read through Strata's catalog: full maps, selected keys and pushed map predicates
 * answer exactly as Spark does over the rows Paimon 2.0.0 itself read back (loaded from the fixture's JSON
 * lines into an oracle view), before and after a Strata compaction.
 */
class Paimon2TablesSuite extends PushdownSuiteBase {

  private val tables = Map(
    "example_none" -> "id INT, m MAP<STRING, DOUBLE>",
    "example_lz4" -> "id INT, m MAP<STRING, DOUBLE>",
    "example_zstd" -> "id INT, m MAP<STRING, DOUBLE>",
    "append_multi" -> "id BIGINT, tags MAP<STRING, STRING>, counts MAP<STRING, BIGINT>, note STRING",
    "pk_dv" -> "id INT, name STRING, m MAP<STRING, DOUBLE>")

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    for ((table, ddl) <- tables) {
      Fixtures.copyPaimon2Table(table, root.resolve("warehouse"))
      val lines = spark.createDataset(Fixtures.paimon2ExpectedRows(table).asScala.toSeq)(Encoders.STRING)
      spark.read.schema(ddl).json(lines).createOrReplaceTempView(s"oracle_$table")
    }
  }

  /** The same query over the Strata table and over its oracle view; returns the Strata side. */
  private def same(table: String, query: String): DataFrame = {
    val strata = sql(query.replace("$t", s"lake.db.$table"))
    val oracle = sql(query.replace("$t", s"oracle_$table"))
    assert(rowsOf(strata) == rowsOf(oracle), s"$query on $table")
    strata
  }

  private def pushed(df: DataFrame, what: String): Unit =
    assert(scans(df).exists(_.contains(what)), s"expected $what in ${scans(df).mkString}")

  private def exampleQueries(table: String): Unit = {
    assert(sql(s"SELECT * FROM lake.db.$table").count() == 6)
    same(table, "SELECT * FROM $t")
    pushed(same(table, "SELECT id, m['cpu'], m['gpu'], element_at(m, 'net'), m['swap'] FROM $t"), "SelectedKeys")
    pushed(same(table, "SELECT id, m['cpu'] FROM $t WHERE m['cpu'] > 3"), "PushedMapPredicates")
    pushed(same(table, "SELECT id FROM $t WHERE m['gpu'] > 8 OR m['disk'] < 4"), "PushedMapPredicates")
    same(table, "SELECT id, m FROM $t WHERE m['net'] BETWEEN 7 AND 8 AND m['mem'] IS NOT NULL")
    same(table, "SELECT id FROM $t WHERE m['swap'] = 1")
    same(table, "SELECT count(*), sum(m['cpu']), max(size(m)) FROM $t")
  }

  for (codec <- Seq("none", "lz4", "zstd")) {
    test(s"worked example written by Paimon 2.0.0 with dictionary codec $codec") {
      exampleQueries(s"example_$codec")
    }
  }

  test("two shredded maps in two files, overflow, nulls and a non-ASCII key; compaction keeps the answers") {
    def queries(): Unit = {
      same("append_multi", "SELECT * FROM $t")
      pushed(same("append_multi", "SELECT id, tags['température'], tags['zone'], counts['errs'], counts['nope'] FROM $t"),
        "SelectedKeys")
      pushed(same("append_multi", "SELECT id, note FROM $t WHERE counts['errs'] > 1000 AND tags['team'] IS NOT NULL"),
        "PushedMapPredicates")
      same("append_multi", "SELECT id FROM $t WHERE tags['température'] = 'te-5' OR counts['miss'] >= 26")
      same("append_multi", "SELECT id FROM $t WHERE tags['region'] LIKE 're-%' AND note IS NULL")
    }
    queries()
    sql("CALL lake.sys.compact(table => 'db.append_multi')")
    queries()
  }

  test("primary-key table with deletion vectors written by Paimon 2.0.0") {
    same("pk_dv", "SELECT * FROM $t")
    pushed(same("pk_dv", "SELECT id, name, m['cpu'], m['gpu'] FROM $t"), "SelectedKeys")
    pushed(same("pk_dv", "SELECT id, m['disk'] FROM $t WHERE m['disk'] > 5"), "PushedMapPredicates")
    same("pk_dv", "SELECT id FROM $t WHERE m['cpu'] < 10 OR m['net'] >= 9.5")
    sql("CALL lake.sys.compact(table => 'db.pk_dv')")
    same("pk_dv", "SELECT * FROM $t")
    same("pk_dv", "SELECT id, m['disk'] FROM $t WHERE m['disk'] > 5")
  }
}
