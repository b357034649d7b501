package dev.strata.spark.pushdown

import scala.jdk.CollectionConverters._
import scala.util.Random

import dev.strata.spark.RandomShare
import dev.strata.testing.TestSeeds
import dev.strata.testing.maps.{GeneratedMap, MapDataGenerator}

import org.apache.spark.sql.{DataFrame, Row}
import org.apache.spark.sql.types.StructType

/** Seeded random predicate trees over random map data (three shared-shredding maps: DOUBLE with
  * NaN, BIGINT, STRING values; K small enough to overflow; several row groups per file) answer
  * exactly like Spark's parquet table holding the same rows, on an append table, a primary-key
  * table whose newest versions sit in level-0 files over compacted older versions, and a
  * primary-key table with deletion vectors. Trees mix pushable leaves with shapes that are not
  * pushed.
  */
class MapPushdownRandomSuite extends PushdownSuiteBase {

  private val Name = "MapPushdownRandomSuite"
  private val SeedName = RandomShare.seedName(Name)
  private val Rows = 1200
  private val PerQuery = 25
  private var seed: Long = _
  private var random: Random = _
  private var doubles: MapDataGenerator = _
  private var longs: MapDataGenerator = _
  private var strings: MapDataGenerator = _

  /** Observed values per (column, key), to draw literals that hit. */
  private var observed: Map[(String, String), IndexedSeq[Any]] = _

  private val Schema = StructType.fromDDL(
    "id BIGINT NOT NULL, grp INT, ext_map MAP<STRING, DOUBLE>, " +
      "counts MAP<STRING, BIGINT>, labels MAP<STRING, STRING>"
  )

  private val Layout =
    """'fields.ext_map.map.storage-layout' = 'shared-shredding',
      |'fields.ext_map.map.shared-shredding.max-columns' = '3',
      |'fields.ext_map.map.shared-shredding.column-placement-policy' = 'lru',
      |'fields.counts.map.storage-layout' = 'shared-shredding',
      |'fields.counts.map.shared-shredding.max-columns' = '4',
      |'fields.counts.map.shared-shredding.column-placement-policy' = 'plain',
      |'fields.labels.map.storage-layout' = 'shared-shredding',
      |'fields.labels.map.shared-shredding.max-columns' = '2',
      |'fields.labels.map.shared-shredding.column-placement-policy' = 'sequential',
      |'file.block-size' = '24 kb'""".stripMargin

  override def beforeAll(): Unit = {
    super.beforeAll()
    seed = TestSeeds.seed(SeedName)
    random = new Random(seed)
    doubles = MapDataGenerator
      .builder(seed)
      .keyUniverse(40)
      .keysPerRow(8, 16)
      .families(4, 50)
      .nullMapRate(0.03)
      .emptyMapRate(0.03)
      .nullValueRate(0.05)
      .nanRate(0.02)
      .unicodeKeys(true)
      .emptyStringKey(true)
      .build()
    longs = MapDataGenerator
      .builder(seed + 1)
      .keyUniverse(20)
      .keysPerRow(5, 9)
      .families(3, 80)
      .valueKind(MapDataGenerator.ValueKind.LONG)
      .nullValueRate(0.05)
      .build()
    strings = MapDataGenerator
      .builder(seed + 2)
      .keyUniverse(12)
      .keysPerRow(4, 6)
      .valueKind(MapDataGenerator.ValueKind.STRING)
      .nullMapRate(0.05)
      .build()

    val final_ = rows(0)
    val stale = rows(1)
    observed = final_
      .flatMap { r =>
        Seq("ext_map" -> 2, "counts" -> 3, "labels" -> 4).flatMap { case (c, i) =>
          Option(r.get(i).asInstanceOf[java.util.Map[String, Any]])
            .map(_.asScala.toSeq)
            .getOrElse(Nil)
            .collect {
              case (k, v) if v != null => (c, k) -> v
            }
        }
      }
      .groupBy(_._1)
      .map { case (k, v) => k -> v.map(_._2).toIndexedSeq }

    val df = spark.createDataFrame(final_.asJava, Schema)
    df.write.format("parquet").saveAsTable("random_oracle")
    sql("CREATE NAMESPACE IF NOT EXISTS lake.r")
    sql(
      s"CREATE TABLE lake.r.append (id BIGINT NOT NULL, grp INT, ext_map MAP<STRING, DOUBLE>, " +
        s"counts MAP<STRING, BIGINT>, labels MAP<STRING, STRING>) TBLPROPERTIES ($Layout)"
    )
    for (p <- 0 until 3) df.where(s"id % 3 = $p").writeTo("lake.r.append").append()

    // Newest versions in level-0 files over compacted older versions: the merge must see every file.
    sql(
      s"CREATE TABLE lake.r.pk (id BIGINT NOT NULL, grp INT, ext_map MAP<STRING, DOUBLE>, " +
        s"counts MAP<STRING, BIGINT>, labels MAP<STRING, STRING>) TBLPROPERTIES ('primary-key' = 'id', " +
        s"'bucket' = '2', $Layout)"
    )
    val staleDf = spark.createDataFrame(stale.asJava, Schema)
    staleDf.writeTo("lake.r.pk").append()
    sql("CALL lake.sys.compact(table => 'r.pk')")
    df.where("id % 2 = 0").writeTo("lake.r.pk").append()
    df.where("id % 2 = 1").writeTo("lake.r.pk").append()

    sql(
      s"CREATE TABLE lake.r.pk_dv (id BIGINT NOT NULL, grp INT, ext_map MAP<STRING, DOUBLE>, " +
        s"counts MAP<STRING, BIGINT>, labels MAP<STRING, STRING>) TBLPROPERTIES ('primary-key' = 'id', " +
        s"'bucket' = '2', 'deletion-vectors.enabled' = 'true', $Layout)"
    )
    staleDf.writeTo("lake.r.pk_dv").append()
    df.writeTo("lake.r.pk_dv").append()
  }

  /** The rows; version 1 is an older version of every row with other maps. */
  private def rows(version: Int): Seq[Row] = {
    val d = doubles.generate(Rows).asScala
    val l = longs.generate(Rows).asScala
    val s = strings.generate(Rows).asScala
    (0 until Rows).map(i =>
      Row(i.toLong, i % 5 + version * 10, toMap(d(i)), toMap(l(i)), toMap(s(i)))
    )
  }

  private def universe(column: String): Seq[String] = (column match {
    case "ext_map" => doubles
    case "counts"  => longs
    case _         => strings
  }).keyUniverse().asScala.toSeq

  private def quote(s: String): String = "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"

  private def literal(column: String, key: String): String = {
    val seen = observed.getOrElse((column, key), IndexedSeq.empty)
    val idx = math.max(0, universe(column).indexOf(key))
    column match {
      case "ext_map" =>
        if (random.nextInt(30) == 0) "CAST('NaN' AS DOUBLE)"
        else if (seen.nonEmpty && random.nextInt(3) == 0) {
          val d = seen(random.nextInt(seen.size)).asInstanceOf[Double]
          if (d.isNaN) "CAST('NaN' AS DOUBLE)" else s"${d}D"
        } else f"${MapDataGenerator.valueBase(idx) + random.nextDouble() * 14 - 2}%.1f"
      case "counts" =>
        if (seen.nonEmpty && random.nextInt(3) == 0) s"${seen(random.nextInt(seen.size))}"
        else s"${(MapDataGenerator.valueBase(idx) + random.nextInt(14) - 2).toLong}"
      case _ =>
        if (seen.nonEmpty && random.nextInt(2) == 0)
          quote(String.valueOf(seen(random.nextInt(seen.size))))
        else quote(s"v${idx}_${random.nextInt(100)}")
    }
  }

  private def leaf(): String = {
    val column = Seq("ext_map", "ext_map", "counts", "labels")(random.nextInt(4))
    val keys = universe(column)
    val key = if (random.nextInt(10) == 0) "missing_key" else keys(random.nextInt(keys.size))
    val v =
      if (random.nextBoolean()) s"$column[${quote(key)}]" else s"element_at($column, ${quote(key)})"
    def lit = literal(column, key)
    random.nextInt(17) match {
      case 0 | 1 => s"$v > $lit"
      case 2     => s"$v >= $lit"
      case 3 | 4 => s"$v < $lit"
      case 5     => s"$v <= $lit"
      case 6     => s"$v = $lit"
      case 7     => s"$v <> $lit"
      case 8     => s"$v <=> $lit"
      case 9     => s"$v IN ($lit, $lit, $lit)"
      case 10    => s"$v BETWEEN $lit AND $lit"
      case 11    => s"$v IS NOT NULL"
      case 12    => s"$v IS NULL"
      case 13 =>
        if (column == "labels") s"$v LIKE ${quote("v" + math.max(0, keys.indexOf(key)) + "%")}"
        else s"coalesce($v, 0) > $lit"
      case 14 => s"id % 7 = ${random.nextInt(7)}"
      case 15 => s"$lit < $v"
      case _  => s"grp = ${random.nextInt(5)}"
    }
  }

  private def tree(depth: Int): String =
    if (depth == 0 || random.nextDouble() < 0.3) leaf()
    else
      random.nextInt(5) match {
        case 0 | 1 => s"(${tree(depth - 1)} AND ${tree(depth - 1)})"
        case 2 | 3 => s"(${tree(depth - 1)} OR ${tree(depth - 1)})"
        case _     => s"NOT (${tree(depth - 1)})"
      }

  private def batchQuery(table: String, predicates: Seq[(String, String)]): String =
    predicates.zipWithIndex
      .map { case ((p, projected), q) =>
        s"SELECT $q AS q, id, $projected AS v FROM $table WHERE $p"
      }
      .mkString(" UNION ALL ")

  /** Runs `count` random trees against the table; returns how many scans had map predicates pushed.
    */
  private def runTrees(table: String, count: Int): Int = {
    var pushedScans = 0
    for (batch <- 0 until count / PerQuery) {
      val predicates = (0 until PerQuery).map { _ =>
        val column = Seq("ext_map", "counts", "labels")(random.nextInt(3))
        val keys = universe(column)
        (tree(3), s"CAST($column[${quote(keys(random.nextInt(keys.size)))}] AS STRING)")
      }
      val actualDf: DataFrame = sql(batchQuery(table, predicates))
      val actual = rowsOf(actualDf)
      val expected = rowsOf(sql(batchQuery("random_oracle", predicates)))
      if (actual != expected) {
        val bad = predicates.indices.filter { q =>
          actual.filter(_.startsWith(s"$q|")) != expected.filter(_.startsWith(s"$q|"))
        }
        fail(
          s"${TestSeeds.describe(SeedName, seed)}: $table differs from the oracle for " +
            bad.map(q => s"[${predicates(q)._1}]").mkString(", ")
        )
      }
      pushedScans += scans(actualDf).count(_.contains("PushedMapPredicates"))
    }
    pushedScans
  }

  private val Trees = RandomShare.of(150)

  test(s"$Trees random predicate trees on an append table answer like the oracle") {
    val pushed = runTrees("lake.r.append", Trees)
    assert(
      pushed >= Trees / 3,
      s"only $pushed of $Trees scans had map predicates pushed (${TestSeeds.describe(SeedName, seed)})"
    )
  }

  test(
    s"$Trees random predicate trees on a primary-key table with level-0 updates answer like the oracle"
  ) {
    val pushed = runTrees("lake.r.pk", Trees)
    assert(pushed >= Trees / 3, s"only $pushed of $Trees scans had map predicates pushed")
  }

  private val DvTrees = RandomShare.of(100)

  test(
    s"$DvTrees random predicate trees on a primary-key table with deletion vectors answer like the oracle"
  ) {
    val pushed = runTrees("lake.r.pk_dv", DvTrees)
    assert(pushed >= DvTrees * 3 / 10, s"only $pushed of $DvTrees scans had map predicates pushed")
  }
}
