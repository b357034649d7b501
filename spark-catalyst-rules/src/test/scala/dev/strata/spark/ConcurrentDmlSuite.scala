package dev.strata.spark

import java.util.concurrent.{Callable, Executors, TimeUnit}

import scala.collection.mutable

import dev.strata.spark.pushdown.PushdownSuiteBase
import dev.strata.testing.{DefaultSparkOnly, TestSeeds}

/** Sessions doing INSERT / UPDATE / DELETE / MERGE on disjoint keys of one primary-key table with
  * deletion vectors and a full-text index, a third overwriting partitions of its own (static and
  * dynamic INSERT OVERWRITE), while another compacts and rebuilds its archives, all at the same
  * time (each statement a real Spark job of its own thread). The writers' key ranges and the
  * overwriter's partitions are disjoint, so whatever the interleaving, the table must equal the
  * rows computed from the statements that reported success, right after the race (reads of a
  * deletion-vector table skip uncompacted rows: a statement that returned must be visible) and
  * after one more compaction, and a search must equal a scan.
  *
  * Before Strata checked deletion vectors of bucketed tables itself, a compaction planned before a
  * DELETE and committed after it brought the deleted rows back, and a statement whose compaction
  * conflicted returned with its change invisible.
  */
@DefaultSparkOnly
class ConcurrentDmlSuite extends PushdownSuiteBase {
  import ConcurrentDmlSuite._

  /** Fixed seeds, each a different set of statements and pauses; `-Dstrata.test.seed=<n>` (or
    * `random`) runs that one seed instead.
    */
  private val seeds: Seq[Long] =
    if (TestSeeds.overridden()) Seq(TestSeeds.seed("ConcurrentDmlSuite")) else Seq(11L, 47L)

  private val rowsPerWriter = 400

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("CREATE NAMESPACE lake.dml")
  }

  /** A writer's statements over its own ids [lo, lo + rowsPerWriter) and new ids from fresh. */
  private def writerOps(random: java.util.Random, w: Int, lo: Long, fresh: Long): Seq[Op] =
    (0 until 6).map { i =>
      val hi = lo + rowsPerWriter
      random.nextInt(4) match {
        case 0 => Insert(fresh + 100L * i, 20 + random.nextInt(30))
        case 1 => Update(lo, hi, 3 + random.nextInt(5), random.nextInt(3), s"upd${w}x$i")
        case 2 => Delete(lo, hi, 7 + random.nextInt(7), random.nextInt(5))
        case _ => Merge(lo + random.nextInt(rowsPerWriter - 40), 40, s"mrg${w}x$i")
      }
    }

  /** The overwriter's statements: each replaces partitions only it writes, with ids of its own. */
  private def overwriterOps(random: java.util.Random): Seq[Op] =
    (0 until 5).map { i =>
      val from = 500000L + 1000L * i
      if (random.nextBoolean()) Overwrite(Seq(from -> (20 + random.nextInt(30))), Seq(owned(0)))
      else
        Overwrite(
          Seq(from -> (10 + random.nextInt(20)), (from + 500) -> (10 + random.nextInt(20))),
          owned.take(1 + random.nextInt(2))
        )
    }

  private def rows(t: String): Map[Long, (String, Int, String)] =
    spark
      .sql(s"SELECT id, dt, v, body FROM $t")
      .collect()
      .map(r => r.getLong(0) -> (r.getString(1), r.getInt(2), r.getString(3)))
      .toMap

  private def diff(
      expected: Map[Long, (String, Int, String)],
      actual: Map[Long, (String, Int, String)]
  ) = {
    val missing = expected.keySet -- actual.keySet
    val extra = actual.keySet -- expected.keySet
    val changed = expected.keySet.intersect(actual.keySet).filter(id => expected(id) != actual(id))
    s"${missing.size} missing (e.g. ${missing.take(5).mkString(", ")}), ${extra.size} resurrected or extra " +
      s"(e.g. ${extra.take(5).mkString(", ")}), ${changed.size} with other content (e.g. " +
      changed
        .take(3)
        .map(id => s"$id: expected ${expected(id)}, found ${actual(id)}")
        .mkString("; ") + ")"
  }

  seeds.foreach { seed =>
    test(
      s"DML of two sessions and partition overwrites racing compactions and archive rebuilds loses nothing (seed $seed)"
    ) {
      val name = s"race_$seed"
      val t = s"lake.dml.$name"
      spark.sql(
        s"CREATE TABLE $t (id BIGINT NOT NULL, dt STRING NOT NULL, v INT, body STRING) PARTITIONED BY (dt) " +
          "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2', 'deletion-vectors.enabled' = 'true', " +
          "'strata-full-text.index.columns' = 'body')"
      )
      val model: Model = mutable.Map()
      val base = Insert(0, 2 * rowsPerWriter)
      spark.sql(base.sql(t)).collect()
      base.apply(model)
      spark.sql(s"CALL lake.sys.compact(table => 'dml.$name')").collect()

      val random = new java.util.Random(seed)
      val writers =
        (0 until 2).map(w => writerOps(random, w, w * rowsPerWriter.toLong, 100000L * (w + 1)))
      val maintenance = (0 until 5).map { i =>
        if (random.nextInt(3) == 0)
          s"CALL lake.sys.rebuild_pk_fulltext(table => 'dml.$name', force => true)"
        else s"CALL lake.sys.compact(table => 'dml.$name')"
      }
      val pauses = (0 until 3).map(_ => (0 until 8).map(_ => random.nextInt(400).toLong))
      // Seeded apart from the others so that the seeds' earlier statements stay as they were.
      val overwrites = overwriterOps(new java.util.Random(seed * 31 + 7))
      val writersAndOverwriter = writers :+ overwrites
      val overwritePauses = (0 until 8).map(_ => random.nextInt(400).toLong)

      val pool = Executors.newFixedThreadPool(4)
      val succeeded = (0 until 3).map(_ => mutable.ArrayBuffer[Op]())
      val failures = java.util.Collections.synchronizedList(new java.util.ArrayList[String]())
      // Dynamic mode: an INSERT OVERWRITE without a partition spec replaces the partitions its rows
      // reach; only the overwriter's statements overwrite.
      val overwriteMode = spark.conf.get("spark.sql.sources.partitionOverwriteMode")
      spark.conf.set("spark.sql.sources.partitionOverwriteMode", "dynamic")
      try {
        val jobs = (0 until 3).map { w =>
          pool.submit(new Callable[Unit] {
            override def call(): Unit =
              writersAndOverwriter(w).zipWithIndex.foreach { case (op, i) =>
                Thread.sleep(if (w < 2) pauses(w)(i) else overwritePauses(i))
                try {
                  spark.sql(op.sql(t)).collect()
                  succeeded(w) += op
                } catch {
                  case e: Exception => failures.add(s"${op.sql(t)}: ${e.getMessage}")
                }
              }
          })
        } :+ pool.submit(new Callable[Unit] {
          override def call(): Unit = maintenance.zipWithIndex.foreach { case (call, i) =>
            Thread.sleep(pauses(2)(i))
            try spark.sql(call).collect()
            catch { case e: Exception => failures.add(s"$call: ${e.getMessage}") }
          }
        })
        jobs.foreach(_.get(10, TimeUnit.MINUTES))
      } finally {
        pool.shutdownNow()
        spark.conf.set("spark.sql.sources.partitionOverwriteMode", overwriteMode)
      }

      // Key ranges and overwritten partitions are disjoint: applying each session's successful
      // statements in its own order gives the expected table whatever the interleaving.
      succeeded.foreach(_.foreach(_.apply(model)))
      System.err.println(
        s"[strata] ConcurrentDmlSuite seed $seed: statements that succeeded per session " +
          succeeded.map(_.size).mkString(", ") + s"; failed: ${failures.size}"
      )
      assert(succeeded(2).nonEmpty, s"no overwrite succeeded, so none was tested (seed $seed)")
      val expected = model.toMap
      val context =
        s"seed $seed (-Dstrata.test.seed=$seed); failed statements: ${failures.toArray.mkString("\n")}"
      val afterRace = rows(t)
      val equalAfterRace = afterRace == expected
      assert(equalAfterRace, s"right after the race: ${diff(expected, afterRace)}; $context")
      assert(
        failures.toArray.forall { f =>
          f.toString.contains("No snapshot was created") || f.toString.contains(
            "Nothing was committed"
          )
        },
        s"a statement failed after changing the table; $context"
      )

      spark.sql(s"CALL lake.sys.compact(table => 'dml.$name')").collect()
      val afterCompaction = rows(t)
      assert(
        afterCompaction == expected,
        s"after one more compaction: ${diff(expected, afterCompaction)}; $context"
      )

      for (term <- Seq("zebra", "horse", "upd0x1", "mrg1x3", "over")) {
        val scan = expected.filter(_._2._3.split(' ').contains(term)).keySet
        val count = spark
          .sql(s"SELECT count(*) FROM $t WHERE text_match(body, '$term')")
          .collect()(0)
          .getLong(0)
        assert(
          count == scan.size,
          s"text_match(body, '$term') counted $count, a scan finds ${scan.size}; $context"
        )
        val found = spark
          .sql(s"SELECT id FROM full_text_search('$t', 'body', '$term', 100000)")
          .collect()
          .map(_.getLong(0))
          .toSet
        val searchEqualsScan = found == scan
        assert(searchEqualsScan, s"full_text_search('$term') differs from a scan; $context")
      }
    }
  }
}

object ConcurrentDmlSuite {

  /** id -> (dt, v, body) */
  type Model = mutable.Map[Long, (String, Int, String)]

  def dt(id: Long): String = if (id % 2 == 0) "2026-11-01" else "2026-11-02"

  /** The partitions only the overwriter writes. */
  val owned: Seq[String] = Seq("2026-12-01", "2026-12-02")

  def body(id: Long): String =
    s"row $id " + (if (id % 5 == 0) "zebra" else "horse")

  sealed trait Op {
    def sql(t: String): String
    def apply(model: Model): Unit
  }

  final case class Insert(from: Long, n: Int) extends Op {
    def sql(t: String): String =
      s"INSERT INTO $t SELECT id, CASE WHEN id % 2 = 0 THEN '2026-11-01' ELSE '2026-11-02' END, 0, " +
        s"concat('row ', CAST(id AS STRING), CASE WHEN id % 5 = 0 THEN ' zebra' ELSE ' horse' END) " +
        s"FROM range($from, ${from + n})"
    def apply(model: Model): Unit =
      (from until from + n).foreach(id => model(id) = (dt(id), 0, body(id)))
  }

  final case class Update(lo: Long, hi: Long, m: Int, r: Int, tag: String) extends Op {
    def sql(t: String): String =
      s"UPDATE $t SET v = v + 10, body = concat(body, ' $tag') " +
        s"WHERE id >= $lo AND id < $hi AND id % $m = $r"
    def apply(model: Model): Unit =
      model.keys.toSeq.filter(id => id >= lo && id < hi && id % m == r).foreach { id =>
        val (d, v, b) = model(id)
        model(id) = (d, v + 10, s"$b $tag")
      }
  }

  final case class Delete(lo: Long, hi: Long, m: Int, r: Int) extends Op {
    def sql(t: String): String = s"DELETE FROM $t WHERE id >= $lo AND id < $hi AND id % $m = $r"
    def apply(model: Model): Unit =
      model.keys.toSeq.filter(id => id >= lo && id < hi && id % m == r).foreach(model.remove)
  }

  /** Replaces the partitions `into` with the rows of `ranges`, the i-th range going to partition
    * `into(i % into.size)`: one partition with a static spec, else dynamic (no spec).
    */
  final case class Overwrite(ranges: Seq[(Long, Int)], into: Seq[String]) extends Op {
    private def rows: Seq[(Long, String)] =
      ranges.zipWithIndex.flatMap { case ((from, n), i) =>
        (from until from + n).map(id => id -> into(i % into.size))
      }
    def sql(t: String): String = {
      val select = ranges.zipWithIndex
        .map { case ((from, n), i) =>
          s"SELECT id, '${into(i % into.size)}' AS dt, 1 AS v, concat('over ', CAST(id AS STRING), " +
            s"CASE WHEN id % 5 = 0 THEN ' zebra' ELSE ' horse' END) AS body FROM range($from, ${from + n})"
        }
        .mkString(" UNION ALL ")
      if (into.size == 1 && ranges.size == 1)
        s"INSERT OVERWRITE $t PARTITION (dt = '${into.head}') SELECT id, v, body FROM ($select)"
      else s"INSERT OVERWRITE $t $select"
    }
    def apply(model: Model): Unit = {
      model.filterInPlace { case (_, (d, _, _)) => !into.contains(d) }
      rows.foreach { case (id, d) =>
        model(id) = (d, 1, s"over $id " + (if (id % 5 == 0) "zebra" else "horse"))
      }
    }
  }

  /** Updates the matched ids of [from, from + n) and inserts the others. */
  final case class Merge(from: Long, n: Int, tag: String) extends Op {
    def sql(t: String): String =
      s"MERGE INTO $t AS t USING (SELECT id, CASE WHEN id % 2 = 0 THEN '2026-11-01' ELSE '2026-11-02' END AS dt " +
        s"FROM range($from, ${from + n})) AS s ON t.id = s.id AND t.dt = s.dt " +
        s"WHEN MATCHED THEN UPDATE SET v = t.v + 1, body = concat(t.body, ' $tag') " +
        s"WHEN NOT MATCHED THEN INSERT (id, dt, v, body) VALUES (s.id, s.dt, 5, concat('merged ', " +
        s"CAST(s.id AS STRING), ' $tag'))"
    def apply(model: Model): Unit =
      (from until from + n).foreach { id =>
        model.get(id) match {
          case Some((d, v, b)) => model(id) = (d, v + 1, s"$b $tag")
          case None            => model(id) = (dt(id), 5, s"merged $id $tag")
        }
      }
  }

}
