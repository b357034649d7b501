package dev.strata.spark.pushdown

import scala.jdk.CollectionConverters._

import dev.strata.testing.{Fixtures, NewestSparkOnly, TestSeeds}

import org.apache.spark.sql.{DataFrame, Encoders}

/** Tables written by Apache Paimon 2.0.0 (fixtures: shared-shredding maps in `.parquet` files whose
  * footers hold only Paimon's layout keys) read through Strata's catalog: full maps, selected keys
  * and pushed map predicates answer exactly as Spark does over the rows Paimon 2.0.0 itself read
  * back (loaded from the fixture's JSON lines into an oracle view), before and after a Strata
  * compaction.
  */
@NewestSparkOnly
class Paimon2TablesSuite extends PushdownSuiteBase {

  private val tables = Map(
    "example_none" -> "id INT, m MAP<STRING, DOUBLE>",
    "example_lz4" -> "id INT, m MAP<STRING, DOUBLE>",
    "example_zstd" -> "id INT, m MAP<STRING, DOUBLE>",
    "append_multi" -> "id BIGINT, tags MAP<STRING, STRING>, counts MAP<STRING, BIGINT>, note STRING",
    "pk_dv" -> "id INT, name STRING, m MAP<STRING, DOUBLE>",
    "strata_disjoint" -> "id INT, m MAP<STRING, DOUBLE>"
  )

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    for ((table, ddl) <- tables) {
      Fixtures.copyPaimon2Table(table, root.resolve("warehouse"))
      val lines =
        spark.createDataset(Fixtures.paimon2ExpectedRows(table).asScala.toSeq)(Encoders.STRING)
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
    pushed(
      same(table, "SELECT id, m['cpu'], m['gpu'], element_at(m, 'net'), m['swap'] FROM $t"),
      "SelectedKeys"
    )
    pushed(same(table, "SELECT id, m['cpu'] FROM $t WHERE m['cpu'] > 3"), "PushedMapPredicates")
    pushed(
      same(table, "SELECT id FROM $t WHERE m['gpu'] > 8 OR m['disk'] < 4"),
      "PushedMapPredicates"
    )
    same(table, "SELECT id, m FROM $t WHERE m['net'] BETWEEN 7 AND 8 AND m['mem'] IS NOT NULL")
    same(table, "SELECT id FROM $t WHERE m['swap'] = 1")
    same(table, "SELECT count(*), sum(m['cpu']), max(size(m)) FROM $t")
  }

  for (codec <- Seq("none", "lz4", "zstd")) {
    test(s"worked example written by Paimon 2.0.0 with dictionary codec $codec") {
      exampleQueries(s"example_$codec")
    }
  }

  test(
    "two shredded maps in two files, overflow, nulls and a non-ASCII key; compaction keeps the answers"
  ) {
    def queries(): Unit = {
      same("append_multi", "SELECT * FROM $t")
      pushed(
        same(
          "append_multi",
          "SELECT id, tags['température'], tags['zone'], counts['errs'], counts['nope'] FROM $t"
        ),
        "SelectedKeys"
      )
      pushed(
        same(
          "append_multi",
          "SELECT id, note FROM $t WHERE counts['errs'] > 1000 AND tags['team'] IS NOT NULL"
        ),
        "PushedMapPredicates"
      )
      same(
        "append_multi",
        "SELECT id FROM $t WHERE tags['température'] = 'te-5' OR counts['miss'] >= 26"
      )
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

  test(
    "a table Strata wrote at defaults (disjoint placement) and Paimon 2.0.0 read and appended to"
  ) {
    // Paimon 2.0 checked Strata's 60 rows against the generator before appending its own 20 (the
    // fixture README); the oracle is what it read back afterwards.
    def queries(): Unit = {
      same("strata_disjoint", "SELECT * FROM $t")
      pushed(
        same(
          "strata_disjoint",
          "SELECT id, m['hot'], m['a2'], m['b2'], m['c3'], m['rare'], m['paimon_only'], m['nope'] FROM $t"
        ),
        "SelectedKeys"
      )
      for (k <- Seq("hot", "a1", "a2", "b1", "b2", "c3", "c4", "rare", "paimon_only")) {
        pushed(
          same("strata_disjoint", s"SELECT id, m['$k'] FROM $$t WHERE m['$k'] > 3"),
          "PushedMapPredicates"
        )
        same("strata_disjoint", s"SELECT count(*) FROM $$t WHERE m['$k'] IS NULL")
      }
      same(
        "strata_disjoint",
        "SELECT id FROM $t WHERE m['a1'] >= 60 OR m['b2'] < 1 OR m['c3'] = 0.5"
      )
      same("strata_disjoint", "SELECT id, m FROM $t WHERE isnan(m['a2'])")
    }
    queries()
    sql("CALL lake.sys.compact(table => 'db.strata_disjoint')")
    queries()
  }

  /** Seeded random predicate trees over the fixture's keys (present, overflowing and absent) and
    * values.
    */
  private class Trees(random: java.util.Random, leaves: Seq[() => String]) {
    def tree(depth: Int): String =
      if (depth == 0 || random.nextDouble() < 0.3) leaves(random.nextInt(leaves.size))()
      else
        random.nextInt(4) match {
          case 0 | 1 => s"(${tree(depth - 1)} AND ${tree(depth - 1)})"
          case 2     => s"(${tree(depth - 1)} OR ${tree(depth - 1)})"
          case _     => s"NOT (${tree(depth - 1)})"
        }
  }

  private def numericLeaf(
      random: java.util.Random,
      column: String,
      keys: Seq[String],
      lit: () => String
  ): () => String =
    () => {
      val k = keys(random.nextInt(keys.size))
      val v = if (random.nextBoolean()) s"$column['$k']" else s"element_at($column, '$k')"
      random.nextInt(9) match {
        case 0 => s"$v = ${lit()}"
        case 1 => s"$v <> ${lit()}"
        case 2 => s"$v < ${lit()}"
        case 3 => s"$v <= ${lit()}"
        case 4 => s"$v > ${lit()}"
        case 5 => s"$v >= ${lit()}"
        case 6 => s"$v IN (${lit()}, ${lit()})"
        case 7 => s"$v BETWEEN ${lit()} AND ${lit()}"
        case _ => s"$v IS NOT NULL"
      }
    }

  test("random predicate trees answer like Spark over Paimon's rows") {
    val seed = TestSeeds.seed("Paimon2TablesSuite")
    val random = new java.util.Random(seed)
    val metricKeys = Seq("cpu", "mem", "disk", "net", "gpu", "swap")
    def dbl() = String.format(java.util.Locale.ROOT, "%.2f", Double.box(random.nextInt(120) * 0.25))
    val mTrees = new Trees(
      random,
      Seq(numericLeaf(random, "m", metricKeys, () => dbl()), () => s"id % 3 = ${random.nextInt(3)}")
    )
    val multiTrees = new Trees(
      random,
      Seq(
        numericLeaf(
          random,
          "counts",
          Seq("reqs", "errs", "hits", "miss", "nope"),
          () => s"${random.nextInt(3200) - 10}"
        ),
        () => {
          val k =
            Seq("env", "region", "team", "zone", "tier", "température", "nope")(random.nextInt(7))
          val v = s"${k.take(2)}-${random.nextInt(10)}"
          random.nextInt(3) match {
            case 0 => s"tags['$k'] = '$v'"
            case 1 => s"tags['$k'] LIKE '${k.take(2)}%'"
            case _ => s"tags['$k'] IS NOT NULL"
          }
        },
        () => s"note IS NULL"
      )
    )
    var pushedScans = 0
    for (
      (table, trees) <- Seq(
        "example_lz4" -> mTrees,
        "pk_dv" -> mTrees,
        "append_multi" -> multiTrees
      ); _ <- 0 until 40
    ) {
      val where = trees.tree(3)
      val df = same(table, s"SELECT * FROM $$t WHERE $where")
      if (scans(df).exists(_.contains("PushedMapPredicates"))) pushedScans += 1
    }
    assert(
      pushedScans > 20,
      s"only $pushedScans of 120 random queries pushed a map predicate (${TestSeeds.describe("Paimon2TablesSuite", seed)})"
    )
  }
}
