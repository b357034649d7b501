package dev.strata.spark.search

import java.nio.file.Files
import java.util.Random

import scala.jdk.CollectionConverters._

import dev.strata.spark.LocalStrataSession
import dev.strata.testing.TestSeeds
import dev.strata.testing.text.TextCorpus
import dev.strata.testing.TempDirs
import org.apache.spark.sql.{Row, SparkSession}
import org.apache.spark.sql.execution.LocalTableScanExec
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec
import org.apache.spark.sql.types.StructType
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** `SELECT count(*) ... WHERE text_match(body, 'exact query')` answered on the driver, through
  * every kind of change a deletion-vector table sees: archived rows only, row-level deletes,
  * upserts that replace archived versions, upserts left in level 0 by `write-only`, and a full
  * compaction; two partitions of four buckets. Archives whose rows are all live are counted by
  * Lucene without row positions, the others position by position; both must give the count of a
  * brute-force Lucene index over exactly the rows a read returns, which the test tracks itself (the
  * newest version of each written key, without deleted keys; level-0 rows only once compacted).
  */
class TextMatchCountSuite extends AnyFunSuite with BeforeAndAfterAll {

  private lazy val root = Files.createTempDirectory("strata-text-match-count-")
  private var spark: SparkSession = _
  private val seed = TestSeeds.seed("TextMatchCountSuite")
  private val corpus = new TextCorpus(200)
  private val schema = StructType.fromDDL("id BIGINT, dt STRING, body STRING")
  private val table = "lake.kc.docs"

  /** What a read of the table returns: (id, dt) -> body (null bodies included). */
  private var readable: Map[(Long, String), String] = Map.empty

  override def beforeAll(): Unit = {
    spark = LocalStrataSession.start(
      root.resolve("wh"),
      4,
      Map("spark.sql.adaptive.enabled" -> "false")
    )
    spark.sql("CREATE NAMESPACE lake.kc")
    spark.sql(
      s"CREATE TABLE $table (id BIGINT, dt STRING, body STRING) PARTITIONED BY (dt) " +
        "TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='4', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body')"
    )
  }

  override def afterAll(): Unit = {
    LocalStrataSession.stop(spark)
    TempDirs.delete(root)
  }

  private def docs(random: Random, ids: Seq[Long]): Map[(Long, String), String] = ids.map { i =>
    val body = if (random.nextInt(30) == 0) null else corpus.document(random, 3, 20)
    (i, s"d${i % 2}") -> body
  }.toMap

  private def write(rows: Map[(Long, String), String]): Unit = {
    val data = rows.toSeq.map { case ((id, dt), body) => Row(id, dt, body) }
    spark.createDataFrame(data.asJava, schema).writeTo(table).append()
  }

  private def quote(s: String): String = "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"

  /** How many of `rows` match each query, by a brute-force Lucene index over exactly these rows.
    */
  private def oracle(rows: Map[(Long, String), String], queries: Seq[String]): Map[String, Long] =
    BruteForceIndex.matches(rows, queries).map { case (q, keys) => q -> keys.size.toLong }

  /** Exact queries: single terms (common to rare), conjunctions, negations and phrases. */
  private def queries(salt: Int): Seq[String] = {
    val random = new Random(seed + salt)
    val vocabulary = corpus.vocabulary().asScala.toSeq
    val w = corpus.word(random)
    val v = corpus.word(random)
    Seq(
      vocabulary.head,
      vocabulary(1),
      w,
      corpus.rareWord(random),
      s"$w AND $v",
      s"${vocabulary.head} AND NOT $v",
      s"$w OR $v",
      "\"" + w + " " + v + "\"~2"
    ).distinct
  }

  /** Every query's count equals the oracle over the rows the test knows a read returns, and the
    * driver answered it (no scan ran) when `onDriver`.
    */
  private def checkCounts(stage: String, salt: Int, onDriver: Boolean = true): Unit = {
    val read = spark.sql(s"SELECT id, dt FROM $table").collect()
    assert(
      read.map(r => (r.getLong(0), r.getString(1))).toSet == readable.keySet,
      s"$stage: the table reads the rows the test tracks"
    )
    val qs = queries(salt)
    val expected = oracle(readable, qs)
    assert(expected.values.count(_ > 0) >= qs.size / 2, s"$stage: most queries match: $expected")
    qs.foreach { q =>
      val df = spark.sql(s"SELECT count(*) FROM $table WHERE text_match(body, ${quote(q)})")
      val what = s"$stage, query '$q' (${TestSeeds.describe("TextMatchCountSuite", seed)})"
      assert(df.collect().head.getLong(0) == expected(q), what)
      val plan = df.queryExecution.executedPlan
      if (onDriver) {
        assert(plan.collect { case b: BatchScanExec => b }.isEmpty, s"$what: $plan")
        assert(plan.collect { case l: LocalTableScanExec => l }.size == 1, s"$what: $plan")
      }
      // Two conjuncts on the same scan are counted as one intersection.
      if (q == qs.head) {
        val both = spark.sql(
          s"SELECT count(*) FROM $table WHERE text_match(body, ${quote(q)}) AND text_match(body, ${quote(qs(1))})"
        )
        assert(
          both.collect().head.getLong(0) == oracle(
            readable,
            Seq(s"($q) AND (${qs(1)})")
          ).values.head,
          what
        )
      }
    }
  }

  test("archived rows only: every count equals the oracle and is answered on the driver") {
    val random = new Random(seed)
    val first = docs(random, (0L until 1500L))
    write(first)
    readable = first
    spark.sql("CALL lake.sys.compact(table => 'kc.docs')").collect()
    checkCounts("after compaction", 1)
  }

  test(
    "after row-level deletes (deletion vectors in archived files) counts still equal the oracle"
  ) {
    spark.sql(s"DELETE FROM $table WHERE id % 7 = 0 OR id BETWEEN 200 AND 260")
    readable = readable.filter { case ((id, _), _) => !(id % 7 == 0 || (id >= 200 && id <= 260)) }
    checkCounts("after deletes", 2)
  }

  test(
    "after upserts that replace archived versions counts equal the oracle over the newest rows"
  ) {
    val random = new Random(seed + 3)
    val upserts = docs(random, (300L until 700L) ++ (1500L until 1700L))
    write(upserts)
    readable = readable ++ upserts
    checkCounts("after upserts", 3)
  }

  test(
    "upserts kept in level 0 are counted once a read returns them, as a plain SELECT sees them"
  ) {
    val random = new Random(seed + 4)
    val level0 = docs(random, (700L until 1000L) ++ (1700L until 1800L))
    spark.sql(s"ALTER TABLE $table SET TBLPROPERTIES ('write-only' = 'true')")
    write(level0)
    spark.sql(s"ALTER TABLE $table SET TBLPROPERTIES ('write-only' = 'false')")
    // A deletion-vector table's read returns the archived versions until a compaction.
    checkCounts("with upserts in level 0", 4)
    spark.sql("CALL lake.sys.compact(table => 'kc.docs')").collect()
    readable = readable ++ level0
    checkCounts("after compacting level 0", 5)
  }

  test(
    "a delete after the compaction, then a partition's rows all replaced, still equal the oracle"
  ) {
    spark.sql(s"DELETE FROM $table WHERE id % 11 = 1")
    readable = readable.filter { case ((id, _), _) => id % 11 != 1 }
    checkCounts("after a delete of compacted rows", 6)
    val random = new Random(seed + 7)
    val replaced = docs(random, readable.keys.filter(_._2 == "d1").map(_._1).toSeq)
    write(replaced)
    readable = readable ++ replaced
    checkCounts("after replacing partition d1", 7)
  }
}
