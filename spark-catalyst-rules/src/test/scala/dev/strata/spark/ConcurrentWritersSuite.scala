package dev.strata.spark

import java.util.concurrent.{Callable, Executors, TimeUnit}

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import dev.strata.spark.pushdown.PushdownSuiteBase
import dev.strata.testing.{NewestSparkOnly, TestSeeds}
import org.apache.paimon.catalog.{CatalogContext, CatalogFactory, Identifier}
import org.apache.paimon.options.Options
import org.apache.paimon.table.FileStoreTable

/** Writers racing on one primary-key table with deletion vectors and a full-text index, in one
  * Spark application (concurrent jobs of one session share nothing but the table): statements may
  * fail, but a statement that reported success never loses its rows, and no snapshot ever
  * references a missing file.
  */
@NewestSparkOnly
class ConcurrentWritersSuite extends PushdownSuiteBase {

  private val seed = TestSeeds.seed("ConcurrentWritersSuite")

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("CREATE NAMESPACE lake.c")
  }

  private def createTable(name: String, options: String = ""): Unit =
    spark.sql(
      s"CREATE TABLE lake.c.$name (id BIGINT NOT NULL, body STRING) TBLPROPERTIES ('primary-key'='id', " +
        s"'bucket'='2', 'deletion-vectors.enabled'='true', 'strata-full-text.index.columns'='body'$options)"
    )

  /** Rows [from, from + n): the body names the id, and every seventh row says "zebra". */
  private def insert(name: String, from: Long, n: Int): String =
    s"INSERT INTO lake.c.$name SELECT id, concat('row ', CAST(id AS STRING), " +
      s"CASE WHEN id % 7 = 0 THEN ' zebra' ELSE '' END) FROM range($from, ${from + n})"

  private def paimonTable(name: String): FileStoreTable = {
    val options = new Options()
    options.set("warehouse", root.resolve("warehouse").toUri.toString)
    val catalog = CatalogFactory.createCatalog(CatalogContext.create(options))
    try catalog.getTable(Identifier.create("c", name)).asInstanceOf[FileStoreTable]
    finally catalog.close()
  }

  /** Every data and index file that any snapshot of the table references. */
  private def missingFiles(name: String): Seq[String] = {
    val table = paimonTable(name)
    val snapshots = table.snapshotManager()
    val missing = mutable.ArrayBuffer[String]()
    for (
      id <- snapshots.earliestSnapshotId().longValue() to snapshots.latestSnapshotId().longValue()
    ) {
      val snapshot = snapshots.snapshot(id)
      table.store().newScan().withSnapshot(snapshot).plan().files().asScala.foreach { e =>
        val path = table
          .store()
          .pathFactory()
          .createDataFilePathFactory(e.partition(), e.bucket())
          .toPath(e.file())
        if (!table.fileIO().exists(path)) missing += s"snapshot $id: $path"
      }
      if (snapshot.indexManifest() != null) {
        val handler = table.store().newIndexFileHandler()
        handler.readManifest(snapshot.indexManifest()).asScala.foreach { e =>
          if (!handler.existsIndexFile(e))
            missing += s"snapshot $id: index ${e.indexFile().fileName()}"
        }
      }
    }
    missing.toSeq
  }

  /** Runs the statements of each writer in its own thread, in order; returns per writer the
    * statements that reported success and the failures' messages.
    */
  private def race(writers: Seq[Seq[(String, Set[Long])]]): (Set[Long], Seq[String]) = {
    val pool = Executors.newFixedThreadPool(writers.size)
    try {
      val futures = writers.map { statements =>
        pool.submit(new Callable[(Set[Long], Seq[String])] {
          override def call(): (Set[Long], Seq[String]) = {
            var ids = Set.empty[Long]
            val failures = mutable.ArrayBuffer[String]()
            statements.foreach { case (sql, rows) =>
              try {
                spark.sql(sql).collect()
                ids ++= rows
              } catch {
                case e: Exception => failures += s"$sql: ${e.getMessage}"
              }
            }
            (ids, failures.toSeq)
          }
        })
      }
      val results = futures.map(_.get(10, TimeUnit.MINUTES))
      (results.flatMap(_._1).toSet, results.flatMap(_._2))
    } finally pool.shutdownNow()
  }

  private def checkAfterRace(
      name: String,
      base: Set[Long],
      succeeded: Set[Long],
      failures: Seq[String]
  ): Unit = {
    val context =
      s"${TestSeeds.describe("ConcurrentWritersSuite", seed)}; failed statements: ${failures.mkString("\n")}"
    assert(missingFiles(name).isEmpty, s"files referenced by snapshots are missing ($context)")
    spark.sql(s"CALL lake.sys.compact(table => 'c.$name')").collect()
    val ids = spark.sql(s"SELECT id FROM lake.c.$name").collect().map(_.getLong(0)).toSet
    assert((base ++ succeeded).subsetOf(ids), s"rows of successful statements were lost ($context)")
    assert(
      missingFiles(name).isEmpty,
      s"files referenced by snapshots are missing after compaction ($context)"
    )

    // The table keeps working: a further INSERT, a compaction and a search that equals the rows' own text.
    spark.sql(insert(name, 1000000L, 30)).collect()
    spark.sql(s"CALL lake.sys.compact(table => 'c.$name')").collect()
    val all = spark.sql(s"SELECT id, body FROM lake.c.$name").collect()
    val expected = all.filter(_.getString(1).contains("zebra")).map(_.getLong(0)).toSet
    val found = spark
      .sql(s"SELECT id FROM full_text_search('lake.c.$name', 'body', 'zebra', 100000)")
      .collect()
      .map(_.getLong(0))
      .toSet
    assert(found == expected, context)
    assert(all.map(_.getLong(0)).toSet == ids ++ (1000000L until 1000030L).toSet)
  }

  test("two writers inserting into one primary-key table never lose committed rows or files") {
    createTable("two_writers")
    spark.sql(insert("two_writers", 0, 200)).collect()
    val random = new java.util.Random(seed)
    val writers = (0 until 2).map { w =>
      (0 until 10).map { round =>
        val from = 10000L * (w + 1) + 100L * round
        val n = 20 + random.nextInt(40)
        (insert("two_writers", from, n), (from until from + n).toSet)
      }
    }
    val (succeeded, failures) = race(writers)
    checkAfterRace("two_writers", (0L until 200L).toSet, succeeded, failures)
  }

  test("inserts racing changes of the map's K, its name and placement never lose rows or values") {
    spark.sql(
      "CREATE TABLE lake.c.evolving (id BIGINT NOT NULL, body STRING, m MAP<STRING, INT>) " +
        "TBLPROPERTIES ('primary-key'='id', 'bucket'='2', 'deletion-vectors.enabled'='true', " +
        "'fields.m.map.storage-layout'='shared-shredding')"
    )
    // Each row maps 'k' to its id and one of 30 keys to its round; written positionally, so the
    // statements stay valid whatever the map column is called.
    def rows(round: Int, from: Long, n: Int): String =
      s"INSERT INTO lake.c.evolving SELECT id, concat('row ', CAST(id AS STRING)), " +
        s"map('k', CAST(id AS INT), concat('x', CAST(id % 30 AS STRING)), $round) " +
        s"FROM range($from, ${from + n})"
    spark.sql(rows(0, 0, 200)).collect()
    val random = new java.util.Random(seed + 2)
    val inserts = (1 to 12).map { round =>
      val from = 1000L * round
      val n = 20 + random.nextInt(60)
      (rows(round, from, n), (from until from + n).toSet)
    }
    val changes = Seq(
      "ALTER TABLE lake.c.evolving SET TBLPROPERTIES ('fields.m.map.shared-shredding.max-columns' = '4')",
      "CALL lake.sys.compact(table => 'c.evolving')",
      "ALTER TABLE lake.c.evolving RENAME COLUMN m TO attrs",
      "CALL lake.sys.compact(table => 'c.evolving', full => true)",
      "ALTER TABLE lake.c.evolving SET TBLPROPERTIES " +
        "('fields.attrs.map.shared-shredding.column-placement-policy' = 'lru')",
      "CALL lake.sys.compact(table => 'c.evolving', full => true)"
    ).map(sql => (sql, Set.empty[Long]))
    val (succeeded, failures) = race(Seq(inserts, changes))
    val context =
      s"${TestSeeds.describe("ConcurrentWritersSuite", seed)}; failed statements: ${failures.mkString("\n")}"
    assert(
      missingFiles("evolving").isEmpty,
      s"files referenced by snapshots are missing ($context)"
    )
    spark.sql("CALL lake.sys.compact(table => 'c.evolving')").collect()
    val columns = spark.table("lake.c.evolving").columns.toSeq
    assert(columns == Seq("id", "body", "attrs"), context)
    val ids = spark.sql("SELECT id FROM lake.c.evolving").collect().map(_.getLong(0)).toSet
    assert(((0L until 200L).toSet ++ succeeded).subsetOf(ids), s"rows were lost ($context)")
    // Every row's values, through the pushed lookups and through the whole map (an independent
    // path: explode reads every entry).
    val pushed = spark
      .sql(
        "SELECT count(*) FROM lake.c.evolving WHERE attrs['k'] = id AND " +
          "attrs[concat('x', CAST(id % 30 AS STRING))] = CASE WHEN id < 1000 THEN 0 ELSE id DIV 1000 END"
      )
      .collect()(0)
      .getLong(0)
    assert(pushed == ids.size, s"map values read through lookups ($context)")
    val whole = spark
      .sql(
        "SELECT count(*) FROM (SELECT id, explode(attrs) FROM lake.c.evolving) WHERE " +
          "(key = 'k' AND value = id) OR " +
          "(key = concat('x', CAST(id % 30 AS STRING)) AND value = CASE WHEN id < 1000 THEN 0 ELSE id DIV 1000 END)"
      )
      .collect()(0)
      .getLong(0)
    assert(whole == 2L * ids.size, s"map values read whole ($context)")
  }

  /** Rounds of inserts of new rows in one thread, the compactions in another. */
  private def insertsRacingCompactions(
      name: String,
      random: java.util.Random,
      rounds: Int,
      compactions: Seq[String]
  ): Unit = {
    spark.sql(insert(name, 0, 200)).collect()
    val inserts = (0 until rounds).map { round =>
      val from = 10000L + 100L * round
      val n = 20 + random.nextInt(40)
      (insert(name, from, n), (from until from + n).toSet)
    }
    val (succeeded, failures) = race(Seq(inserts, compactions.map(_ -> Set.empty[Long])))
    checkAfterRace(name, (0L until 200L).toSet, succeeded, failures)
  }

  test("inserts racing compactions never lose committed rows or files") {
    createTable("insert_compact")
    insertsRacingCompactions(
      "insert_compact",
      new java.util.Random(seed + 1),
      10,
      Seq.fill(6)("CALL lake.sys.compact(table => 'c.insert_compact')")
    )
  }

  test("inserts racing compactions of a write-only table never lose committed rows or files") {
    // Writers of a write-only table never compact; CALL compact does, as Paimon's compact action.
    createTable("write_only", ", 'write-only' = 'true'")
    insertsRacingCompactions(
      "write_only",
      new java.util.Random(seed + 2),
      8,
      (0 until 4).map { i =>
        s"CALL lake.sys.compact(table => 'c.write_only'${if (i % 2 == 1) ", full => true" else ""})"
      }
    )
  }
}
