package dev.strata.spark.search

import java.nio.file.Files

import dev.strata.spark.LocalStrataSession
import dev.strata.testing.Fixtures
import dev.strata.testing.TempDirs
import org.apache.spark.sql.SparkSession
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** A Strata full-text table that Apache Paimon 2.0.0 then wrote, deleted from and fully compacted
  * (fixture `fixtures/paimon-2.0/docs`, README beside it): Strata reads exactly the rows the
  * operations leave, its searches equal a scan of those rows although Paimon's compaction left
  * Strata's archives stale, and Strata writes and compacts the table further.
  */
class Paimon2WrittenFullTextSuite extends AnyFunSuite with BeforeAndAfterAll {

  private lazy val root = Files.createTempDirectory("strata-paimon2-fts-")
  private var spark: SparkSession = _

  private case class Doc(id: Long, dt: String, body: String, v: Int)

  private def dt(id: Long): String = if (id % 2 == 0) "2026-11-01" else "2026-11-02"

  /** The rows the fixture's operations leave, computed from the operations (README), not read. */
  private val expected: Seq[Doc] = {
    // Strata: INSERT of ids 1..40.
    val strata = (1L to 40L).map { id =>
      id -> Doc(
        id,
        dt(id),
        s"doc $id" + (if (id % 3 == 0) " disk failure" else " network ok"),
        id.toInt
      )
    }.toMap
    // Paimon 2.0, one commit: upserts of 1..6, inserts of 41..46, deletes of 10..14.
    val upserts = (1L to 6L).map(id =>
      id -> Doc(id, dt(id), s"doc $id rewritten by paimon disk", id.toInt + 100)
    )
    val inserts = (41L to 46L).map { id =>
      id -> Doc(id, dt(id), s"doc $id paimon new" + (if (id % 2 == 0) " disk" else ""), id.toInt)
    }
    (strata ++ upserts ++ inserts -- (10L to 14L)).values.toSeq.sortBy(_.id)
  }

  override def beforeAll(): Unit = {
    val warehouse = root.resolve("wh")
    Fixtures.copy("paimon-2.0", "docs", warehouse.resolve("c.db"))
    spark = LocalStrataSession.start(warehouse, 2)
  }

  override def afterAll(): Unit = {
    LocalStrataSession.stop(spark)
    TempDirs.delete(root)
  }

  private def rows(): Seq[Doc] =
    spark
      .sql("SELECT id, dt, body, v FROM lake.c.docs ORDER BY id")
      .collect()
      .toSeq
      .map(r => Doc(r.getLong(0), r.getString(1), r.getString(2), r.getInt(3)))

  /** Ids of live rows whose body has every word (the standard analyzer splits on spaces here). */
  private def idsWithWords(docs: Seq[Doc], words: String*): Set[Long] =
    docs.filter(d => words.forall(w => d.body.split(' ').contains(w))).map(_.id).toSet

  private def searchIds(query: String): Set[Long] =
    spark
      .sql(s"SELECT id FROM full_text_search('lake.c.docs', 'body', '$query', 1000)")
      .collect()
      .map(_.getLong(0))
      .toSet

  private def matchIds(query: String): Set[Long] =
    spark
      .sql(s"SELECT id FROM lake.c.docs WHERE text_match(body, '$query')")
      .collect()
      .map(_.getLong(0))
      .toSet

  private def likeIds(word: String): Set[Long] =
    spark
      .sql(s"SELECT id FROM lake.c.docs WHERE concat(' ', body, ' ') LIKE '% $word %'")
      .collect()
      .map(_.getLong(0))
      .toSet

  /** Every search equals the scan of the live rows, and the expectation computed from the rows. */
  private def searchesAreExact(docs: Seq[Doc]): Unit = {
    for (word <- Seq("disk", "paimon", "failure", "network", "rewritten", "strata", "doc")) {
      val want = idsWithWords(docs, word)
      assert(likeIds(word) == want, s"LIKE scan of '$word'")
      assert(searchIds(word) == want, s"full_text_search '$word'")
      assert(matchIds(word) == want, s"text_match '$word'")
      val count =
        spark
          .sql(s"SELECT count(*) FROM lake.c.docs WHERE text_match(body, '$word')")
          .head()
          .getLong(0)
      assert(count == want.size, s"text_match count '$word'")
    }
    val phrase = idsWithWords(docs, "disk", "failure")
    assert(searchIds("\"disk failure\"") == phrase)
    assert(matchIds("paimon AND disk") == idsWithWords(docs, "paimon", "disk"))
  }

  test("rows written, deleted and compacted by Paimon 2.0 read exactly as the operations say") {
    assert(rows() == expected)
    assert(expected.size == 41)
  }

  test("searches over archives Paimon 2.0's compaction left stale equal a scan of the live rows") {
    val notCovered = spark
      .sql("SELECT sum(rows_not_covered) FROM lake.c.`docs$fulltext`")
      .head()
      .getLong(0)
    assert(
      notCovered > 0,
      "Paimon 2.0's compaction should have left rows no current archive covers"
    )
    searchesAreExact(expected)
  }

  test(
    "Strata writes, deletes and compacts the table further, and its archives are current again"
  ) {
    spark.sql("INSERT INTO lake.c.docs VALUES (47, '2026-11-02', 'doc 47 strata disk', 47)")
    spark.sql("DELETE FROM lake.c.docs WHERE id = 1")
    spark.sql("CALL lake.sys.compact(table => 'c.docs')")
    val after =
      (expected.filter(_.id != 1) :+ Doc(47, "2026-11-02", "doc 47 strata disk", 47)).sortBy(_.id)
    assert(rows() == after)
    val states = spark
      .sql("SELECT DISTINCT state FROM lake.c.`docs$fulltext` WHERE level > 0")
      .collect()
      .map(_.getString(0))
      .toSet
    assert(states == Set("current"), s"states after Strata's compaction: $states")
    val notCovered = spark
      .sql("SELECT coalesce(sum(rows_not_covered), 0) FROM lake.c.`docs$fulltext`")
      .head()
      .getLong(0)
    assert(notCovered == 0)
    searchesAreExact(after)
  }
}
