package dev.strata.spark.search

import java.nio.file.Files
import java.util.Random

import scala.jdk.CollectionConverters._

import dev.strata.spark.LocalStrataSession
import dev.strata.testing.TestSeeds
import dev.strata.testing.text.{QueryGenerator, TextCorpus}
import dev.strata.testing.TempDirs
import org.apache.lucene.analysis.standard.StandardAnalyzer
import org.apache.lucene.document.{Document, Field, StoredField, TextField}
import org.apache.lucene.index.{DirectoryReader, IndexWriter, IndexWriterConfig}
import org.apache.lucene.queryparser.classic.QueryParser
import org.apache.lucene.search.IndexSearcher
import org.apache.lucene.store.ByteBuffersDirectory
import org.apache.spark.sql.{Row, SparkSession}
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** `full_text_search` end to end: a partitioned primary-key table written and compacted through
  * Strata, searched with SQL, compared with a brute-force Lucene index over the same live rows.
  */
class FullTextSearchSuite extends AnyFunSuite with BeforeAndAfterAll {

  private lazy val root = Files.createTempDirectory("strata-fts-")
  private var spark: SparkSession = _
  private val seed = TestSeeds.seed("FullTextSearchSuite")

  override def beforeAll(): Unit = {
    spark = LocalStrataSession.start(root.resolve("wh"), 4)
    val random = new Random(seed)
    val corpus = new TextCorpus(300)
    spark.sql("CREATE NAMESPACE lake.kb")
    spark.sql(
      "CREATE TABLE lake.kb.docs (id BIGINT, dt STRING, title STRING, body STRING) PARTITIONED BY (dt) " +
        "TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='3', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body')"
    )
    val rows = (0 until 1500).map { i =>
      val body = if (random.nextInt(25) == 0) null else corpus.document(random, 4, 25)
      Row(i.toLong, s"d${i % 2}", s"title $i", body)
    }
    val schema = "id BIGINT, dt STRING, title STRING, body STRING"
    val df =
      spark.createDataFrame(rows.asJava, org.apache.spark.sql.types.StructType.fromDDL(schema))
    df.where("id < 1000").writeTo("lake.kb.docs").append()
    df.where("id >= 800").writeTo("lake.kb.docs").append()
    spark.sql("CALL lake.sys.compact(table => 'kb.docs')")
  }

  override def afterAll(): Unit = {
    LocalStrataSession.stop(spark)
    TempDirs.delete(root)
  }

  private def quote(s: String): String = "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"

  private def searchIds(query: String, k: Int, where: Option[String] = None): Seq[Long] = {
    val extra = where.map(w => ", " + quote(w)).getOrElse("")
    spark
      .sql(s"SELECT id FROM full_text_search('lake.kb.docs', 'body', ${quote(query)}, $k$extra)")
      .collect()
      .map(_.getLong(0))
      .toSeq
  }

  /** The ids matching a query in a single in-memory index over the table's live rows. */
  private def oracle(queries: Seq[String]): Map[String, Set[Long]] = BruteForceIndex.matches(
    spark
      .sql("SELECT id, body FROM lake.kb.docs WHERE body IS NOT NULL")
      .collect()
      .map(r => (r.getLong(0), r.getString(1))),
    queries
  )

  private val DriverMaxBuckets = "spark.sql.strata.search.driverMaxBuckets"

  private def withDriverMaxBuckets[T](value: String)(body: => T): T = {
    spark.conf.set(DriverMaxBuckets, value)
    try body
    finally spark.conf.unset(DriverMaxBuckets)
  }

  // Six (partition, bucket)s: the default answers on the driver, 0 forces one executor task per bucket.
  Seq(("driver", "16", "LocalTableScan"), ("executor tasks", "0", "BatchScan")).foreach {
    case (where, max, node) =>
      test(
        s"random queries searched on the $where return exactly the oracle's matches when k covers them"
      ) {
        withDriverMaxBuckets(max) {
          val plan = spark
            .sql("SELECT id FROM full_text_search('lake.kb.docs', 'body', 'lake', 5)")
            .queryExecution
            .executedPlan
            .toString
          assert(plan.contains(node), plan)
          val generator = new QueryGenerator(new TextCorpus(300))
          val random = new Random(seed + 1)
          val queries = (0 until 60).map(_ => generator.next(random)).distinct
          val expected = oracle(queries)
          queries.foreach { q =>
            val ids = searchIds(q, 100000)
            assert(ids.size == ids.toSet.size, s"duplicate ids for $q")
            assert(
              ids.toSet == expected(q),
              s"query '$q' on the $where (${TestSeeds.describe("FullTextSearchSuite", seed)})"
            )
          }
          assert(
            queries.count(q => expected(q).nonEmpty) > queries.size / 2,
            "most queries should match something"
          )
        }
      }
  }

  test("a driver-side search is planned as one local relation, also inside a join") {
    val top = spark.sql(
      "SELECT id, _score FROM full_text_search('lake.kb.docs', 'body', 'lake OR paimon', 5)"
    )
    val plan = top.queryExecution.executedPlan
    assert(
      plan.isInstanceOf[org.apache.spark.sql.execution.LocalTableScanExec],
      top.queryExecution.optimizedPlan.treeString(verbose = true)
    )
    val ranked = top.collect()
    withDriverMaxBuckets("0") {
      val distributed = spark
        .sql("SELECT id, _score FROM full_text_search('lake.kb.docs', 'body', 'lake OR paimon', 5)")
        .collect()
      assert(ranked.toSeq == distributed.toSeq)
    }
    val joined = spark
      .sql(
        "SELECT d.title FROM full_text_search('lake.kb.docs', 'body', 'lake OR paimon', 5) s " +
          "JOIN lake.kb.docs d ON s.id = d.id AND s.dt = d.dt"
      )
      .collect()
      .map(_.getString(0))
      .toSet
    assert(joined == ranked.map(r => s"title ${r.getLong(0)}").toSet)
  }

  test("hits tying the k-th score are cut by primary key before their rows are read") {
    spark.sql(
      "CREATE TABLE lake.kb.ties (id BIGINT, dt STRING, body STRING) PARTITIONED BY (dt) " +
        "TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='3', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body')"
    )
    // Identical documents in 2 partitions x 3 buckets, each id in both: every score ties, so each
    // bucket's top k ties the k-th, and the search's Sort(_score DESC, id, dt) keeps the smallest
    // keys; k = 9 cuts between (4, 'd0') and (4, 'd1'), so the key's second column decides too.
    spark.sql(
      "INSERT INTO lake.kb.ties SELECT id, dt, 'the same words here' " +
        "FROM range(0, 150) CROSS JOIN (SELECT explode(array('d0', 'd1')) AS dt)"
    )
    val expected = spark
      .sql("SELECT id, dt, body FROM lake.kb.ties ORDER BY id, dt LIMIT 9")
      .collect()
      .toSeq
    def byKey(rows: Seq[Row]): Seq[Row] = rows.sortBy(r => (r.getLong(0), r.getString(1)))
    val search = spark.sql(
      "SELECT id, dt, body FROM full_text_search('lake.kb.ties', 'body', 'words', 9)"
    )
    val scan = search.queryExecution.optimizedPlan.collectFirst {
      case s: DataSourceV2ScanRelation if s.scan.isInstanceOf[LocalFullTextScan] =>
        s.scan.asInstanceOf[LocalFullTextScan]
    }
    assert(scan.isDefined, search.queryExecution.optimizedPlan.treeString)
    assert(byKey(search.collect().toSeq) == expected)
    assert(scan.get.hitsRead() == 9, "rows read for a top 9")
    val joined = spark
      .sql(
        "SELECT t.id, t.dt, t.body FROM full_text_search('lake.kb.ties', 'body', 'words', 9) h " +
          "JOIN lake.kb.ties t ON t.id = h.id AND t.dt = h.dt"
      )
      .collect()
      .toSeq
    assert(byKey(joined) == expected)
    withDriverMaxBuckets("0") {
      val distributed = spark
        .sql("SELECT id, dt, body FROM full_text_search('lake.kb.ties', 'body', 'words', 9)")
        .collect()
        .toSeq
      assert(byKey(distributed) == expected, "the same rows from executor tasks")
    }
  }

  test(
    "ties at the k-th score are cut by primary key in rows indexed at query time and across levels"
  ) {
    spark.sql(
      "CREATE TABLE lake.kb.freshties (id BIGINT NOT NULL, body STRING) TBLPROPERTIES (" +
        "'primary-key'='id', 'bucket'='1', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body')"
    )
    def ids(k: Int): Seq[Long] = spark
      .sql(s"SELECT id FROM full_text_search('lake.kb.freshties', 'body', 'disk', $k)")
      .collect()
      .map(_.getLong(0))
      .toSeq
      .sorted
    // Archived rows of large keys, then level-0 files written in descending key order: Lucene's
    // own tie-break (document order) would keep the first files' larger keys.
    spark.sql("INSERT INTO lake.kb.freshties SELECT id, 'disk' FROM range(20, 30)")
    spark.sql("CALL lake.sys.compact(table => 'kb.freshties')")
    spark.sql("ALTER TABLE lake.kb.freshties SET TBLPROPERTIES ('write-only' = 'true')")
    Seq(Seq(9L, 8L), Seq(7L, 6L, 5L), Seq(4L, 3L)).foreach { batch =>
      spark.sql(
        "INSERT INTO lake.kb.freshties VALUES " + batch.map(id => s"($id, 'disk')").mkString(", ")
      )
    }
    assert(ids(2) == Seq(3L, 4L))
    assert(ids(4) == Seq(3L, 4L, 5L, 6L))
    // Compacted into the archives of one or more levels: the same cut.
    spark.sql("ALTER TABLE lake.kb.freshties SET TBLPROPERTIES ('write-only' = 'false')")
    spark.sql("CALL lake.sys.compact(table => 'kb.freshties', full => false)")
    assert(ids(2) == Seq(3L, 4L))
    assert(ids(9) == Seq(3L, 4L, 5L, 6L, 7L, 8L, 9L, 20L, 21L))
  }

  test("a bad driverMaxBuckets setting is refused with the setting's name") {
    withDriverMaxBuckets("-1") {
      val e = intercept[Exception](searchIds("lake", 5))
      assert(e.getMessage.contains(DriverMaxBuckets) && e.getMessage.contains("'-1'"), e.getMessage)
    }
  }

  test("results are ordered by score and cut at k, with the table's columns and _score") {
    val result =
      spark.sql("SELECT * FROM full_text_search('lake.kb.docs', 'body', 'lake OR paimon', 7)")
    assert(result.schema.fieldNames.toSeq == Seq("id", "dt", "title", "body", "_score"))
    val rows = result.collect()
    assert(rows.length == 7)
    val scores = rows.map(_.getDouble(4))
    assert(scores.sameElements(scores.sortBy(-_)), scores.mkString(","))
    assert(
      rows.forall(r =>
        r.getString(3).toLowerCase.contains("lake") || r.getString(3).toLowerCase.contains("paimon")
      )
    )
  }

  test("the where argument prunes partitions") {
    val ids = searchIds("lake OR storage OR format", 100000, Some("dt = 'd1'"))
    assert(ids.nonEmpty)
    assert(ids.forall(_ % 2 == 1))
  }

  test(
    "every allowed where construct searches exactly the partitions a query with that filter reads"
  ) {
    val query = "lake OR storage OR format"
    Seq(
      "dt IN ('d1') AND dt BETWEEN 'd0' AND 'd9'",
      "dt LIKE 'd%' AND NOT dt = concat('d', '1')",
      "dt > lower('D0') AND dt IS NOT NULL",
      "CAST(dt AS STRING) = concat('d', CAST(1 + 0 AS STRING))"
    ).foreach { where =>
      val inPartitions =
        spark.sql(s"SELECT id FROM lake.kb.docs WHERE $where").collect().map(_.getLong(0)).toSet
      val expected = searchIds(query, 100000).filter(inPartitions).toSet
      assert(expected.nonEmpty, where)
      assert(searchIds(query, 100000, Some(where)).toSet == expected, where)
    }
  }

  test("the where argument is a partition predicate, never SQL that reads files or calls Java") {
    val secret = "strata-search-secret-0815"
    val file = Files.createDirectories(root.resolve("outside")).resolve("secret.txt")
    Files.writeString(file, secret + "\n")
    val probe = "strata.search.where.probe"
    System.clearProperty(probe)
    def error(where: String): String =
      intercept[Exception](searchIds("lake", 10, Some(where))).getMessage
    def refused(where: String, why: String): Unit = {
      val message = error(where)
      assert(message.startsWith(s"Cannot use where => '$where' for lake.kb.docs: "), message)
      assert(message.contains(why), message)
      assert(!message.contains(secret), message)
    }
    refused(
      s"CAST((SELECT first(value) FROM text.`$file`) AS INT) = 1",
      "subqueries are not allowed in a partition filter"
    )
    refused(
      s"dt = 'd1' OR reflect('java.lang.System', 'setProperty', '$probe', 'ran') = 'x'",
      "function reflect is not allowed in a partition filter: it calls Java methods"
    )
    refused("java_method('java.lang.System', 'exit', 3) = 0", "function java_method is not allowed")
    assert(System.getProperty(probe) == null, "a reflective call ran")
    refused(
      "1=1; DROP TABLE lake.kb.docs",
      "it is not a single SQL expression ([PARSE_SYNTAX_ERROR]"
    )
    refused("id = 1", "column id is not one of the partition columns [dt]")
    assert(spark.sql("SHOW TABLES IN lake.kb").collect().exists(_.getString(1) == "docs"))
  }

  test("replaced rows are never returned; an INSERT's rows are searchable right away") {
    val old = spark.sql("SELECT body FROM lake.kb.docs WHERE id = 3").collect().head.getString(0)
    spark.sql("INSERT INTO lake.kb.docs VALUES (3, 'd1', 'new', 'zyxwvu unique replacement')")
    val now = spark.sql("SELECT body FROM lake.kb.docs WHERE id = 3").collect().head.getString(0)
    assert(now == "zyxwvu unique replacement")
    def oldVersionFound(): Boolean = old != null &&
      searchIds("\"" + old.replaceAll("[^A-Za-z0-9 ]", " ").trim + "\"", 100000).contains(3L)
    assert(
      searchIds("zyxwvu", 10) == Seq(3L),
      "the INSERT's own compaction indexed the new version"
    )
    assert(!oldVersionFound(), "the replaced version is not returned")
    spark.sql("CALL lake.sys.compact(table => 'kb.docs')")
    assert(searchIds("zyxwvu", 10) == Seq(3L))
    assert(!oldVersionFound(), "the replaced version is not returned after compaction")
  }

  test(
    "a repeated search reads each new snapshot: new partitions, new files, upserts, compaction"
  ) {
    // The driver remembers each snapshot's buckets and files; every commit below makes a new
    // snapshot, and each search must see exactly its rows (with the bodies of the newest files).
    spark.sql(
      "CREATE TABLE lake.kb.snapshots (id BIGINT, dt STRING, body STRING) PARTITIONED BY (dt) " +
        "TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='2', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body')"
    )
    def found(): Map[Long, String] = {
      val sql = "SELECT id, body FROM full_text_search('lake.kb.snapshots', 'body', 'needle', 10)"
      val runs = (0 until 2).map(_ =>
        spark.sql(sql).collect().map(r => r.getLong(0) -> r.getString(1)).toMap
      )
      assert(runs(0) == runs(1), "a repeated search answers the same snapshot alike")
      runs(0)
    }
    spark.sql("INSERT INTO lake.kb.snapshots VALUES (1, 'a', 'alpha needle'), (2, 'a', 'beta')")
    assert(found() == Map(1L -> "alpha needle"))
    spark.sql("INSERT INTO lake.kb.snapshots VALUES (3, 'b', 'needle gamma')")
    assert(
      found() == Map(1L -> "alpha needle", 3L -> "needle gamma"),
      "a new partition is searched"
    )
    spark.sql(
      "INSERT INTO lake.kb.snapshots VALUES (1, 'a', 'alpha replaced'), (4, 'a', 'needle delta needle')"
    )
    val upserted = Map(3L -> "needle gamma", 4L -> "needle delta needle")
    assert(found() == upserted, "an upsert replaces the found version")
    spark.sql("CALL lake.sys.compact(table => 'kb.snapshots')")
    assert(found() == upserted, "rows are read from the files compaction wrote")
    spark.sql("DELETE FROM lake.kb.snapshots WHERE id = 3")
    assert(found() == Map(4L -> "needle delta needle"), "a deleted row is not returned")
  }

  test(
    "rows of a plain INSERT are searchable right away: the writer's own compaction carries their archives"
  ) {
    spark.sql(
      "CREATE TABLE lake.kb.fresh (id BIGINT NOT NULL, body STRING) TBLPROPERTIES ('primary-key'='id', " +
        "'bucket'='2', 'deletion-vectors.enabled'='true', 'strata-full-text.index.columns'='body')"
    )
    spark.sql(
      "INSERT INTO lake.kb.fresh VALUES (1, 'disk failure'), (2, 'network ok'), (3, 'disk full')"
    )
    val found = Seq("16", "0").map { max =>
      withDriverMaxBuckets(max) {
        spark
          .sql("SELECT id FROM full_text_search('lake.kb.fresh', 'body', 'disk', 10)")
          .collect()
          .map(_.getLong(0))
          .toSet
      }
    }
    assert(found == Seq(Set(1L, 3L), Set(1L, 3L)))
    val options = new org.apache.paimon.options.Options()
    options.set("warehouse", root.resolve("wh").toUri.toString)
    val catalog = org.apache.paimon.catalog.CatalogFactory
      .createCatalog(org.apache.paimon.catalog.CatalogContext.create(options))
    val table =
      try
        catalog
          .getTable(org.apache.paimon.catalog.Identifier.create("kb", "fresh"))
          .asInstanceOf[org.apache.paimon.table.FileStoreTable]
      finally catalog.close()
    val latest = table.snapshotManager().latestSnapshot()
    assert(latest.id() == 2 && latest.commitKind() == org.apache.paimon.Snapshot.CommitKind.COMPACT)
    val archives =
      table.store().newIndexFileHandler().scan(latest, dev.strata.index.PkFullTextIndex.INDEX_TYPE)
    assert(!archives.isEmpty, "the COMPACT snapshot of the INSERT carries archives")
  }

  private def scored(table: String, query: String, k: Int): Seq[(Long, Double)] =
    spark
      .sql(
        s"SELECT id, _score FROM full_text_search('lake.kb.$table', 'body', ${quote(query)}, $k)"
      )
      .collect()
      .map(r => r.getLong(0) -> r.getDouble(1))
      .toSeq

  test(
    "rows still in level 0 are searched (indexed at query time); newer level-0 versions hide archived ones"
  ) {
    spark.sql(
      "CREATE TABLE lake.kb.level0 (id BIGINT NOT NULL, body STRING) TBLPROPERTIES ('primary-key'='id', " +
        "'bucket'='2', 'deletion-vectors.enabled'='true', 'strata-full-text.index.columns'='body')"
    )
    spark.sql(
      "INSERT INTO lake.kb.level0 VALUES (1, 'disk failure'), (2, 'network ok'), (3, 'disk full')"
    )
    // From now on the writer does not compact: new rows stay in level 0, where no archive covers them.
    spark.sql("ALTER TABLE lake.kb.level0 SET TBLPROPERTIES ('write-only' = 'true')")
    spark.sql(
      "INSERT INTO lake.kb.level0 VALUES (4, 'disk slow'), (3, 'network full'), (5, 'tape')"
    )
    Seq("16", "0").foreach { max =>
      withDriverMaxBuckets(max) {
        assert(
          scored("level0", "disk", 10).map(_._1).toSet == Set(1L, 4L),
          s"driverMaxBuckets=$max"
        )
        assert(
          scored("level0", "network", 10).map(_._1).toSet == Set(2L, 3L),
          s"driverMaxBuckets=$max"
        )
        assert(
          scored("level0", "full", 10).map(_._1) == Seq(3L),
          "one version of key 3, the newest"
        )
      }
    }
    spark.conf.set("spark.sql.strata.search.fresh", "false")
    try {
      // Archive-only mode answers as of the archives: row 4 is not found, row 3 still in its archived version.
      assert(
        scored("level0", "disk", 10).map(_._1).toSet == Set(1L, 3L),
        "archive-only mode leaves level 0 out"
      )
      assert(scored("level0", "network", 10).map(_._1).toSet == Set(2L))
    } finally spark.conf.unset("spark.sql.strata.search.fresh")
    val plan = withDriverMaxBuckets("0") {
      spark
        .sql("SELECT id FROM full_text_search('lake.kb.level0', 'body', 'disk', 10)")
        .queryExecution
        .executedPlan
        .toString
    }
    assert(plan.contains("fresh rows: indexed at query time"), plan)
  }

  test("one BM25 across buckets: scores equal one Lucene index over the same rows") {
    spark.sql(
      "CREATE TABLE lake.kb.scores (id BIGINT NOT NULL, body STRING) TBLPROPERTIES ('primary-key'='id', " +
        "'bucket'='4', 'deletion-vectors.enabled'='true', 'strata-full-text.index.columns'='body')"
    )
    val random = new Random(seed + 7)
    val corpus = new TextCorpus(200)
    // Buckets of very different sizes and vocabularies: per-bucket statistics would score alike rows differently.
    val rows = (0 until 600).map(i =>
      Row(
        i.toLong,
        if (i % 50 == 0) "twin document about lakes" else corpus.document(random, 3, 20)
      )
    )
    val df = spark.createDataFrame(
      rows.asJava,
      org.apache.spark.sql.types.StructType.fromDDL("id BIGINT, body STRING")
    )
    df.where("id < 400").writeTo("lake.kb.scores").append()
    spark.sql("ALTER TABLE lake.kb.scores SET TBLPROPERTIES ('write-only' = 'true')")
    df.where("id >= 400").writeTo("lake.kb.scores").append()
    val dir = new ByteBuffersDirectory()
    val writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))
    rows.foreach { r =>
      val doc = new Document()
      doc.add(new StoredField("id", r.getLong(0)))
      doc.add(new TextField("body", r.getString(1), Field.Store.NO))
      writer.addDocument(doc)
    }
    writer.close()
    val reader = DirectoryReader.open(dir)
    try {
      val searcher = new IndexSearcher(reader)
      val twins = scored("scores", "twin lakes", 100)
      assert(
        twins.size == 12 && twins.map(_._2).distinct.size == 1,
        s"identical documents in different buckets: $twins"
      )
      val generator = new QueryGenerator(corpus)
      val queries = ("twin lakes" +: (0 until 60).map(_ => generator.next(random))).distinct
      var compared = 0
      queries.foreach { q =>
        val top =
          searcher.search(new QueryParser("body", new StandardAnalyzer()).parse(q), 11).scoreDocs
        val expected = top
          .take(10)
          .map(sd =>
            searcher
              .storedFields()
              .document(sd.doc)
              .getField("id")
              .numericValue()
              .longValue() -> sd.score.toDouble
          )
        val actual = scored("scores", q, 10)
        val what = s"query '$q' (${TestSeeds.describe("FullTextSearchSuite", seed)})"
        assert(actual.size == expected.length, s"$what: $actual vs ${expected.toSeq}")
        actual.zip(expected).zipWithIndex.foreach { case (((id, score), (eid, escore)), i) =>
          assert(
            math.abs(score - escore) <= 1e-5 * math.max(1.0, escore),
            s"$what rank $i: $actual vs ${expected.toSeq}"
          )
          val tied = top.zipWithIndex.exists { case (sd, j) =>
            j != i && math.abs(sd.score - escore) <= 1e-4
          }
          if (!tied) assert(id == eid, s"$what rank $i: $actual vs ${expected.toSeq}")
        }
        compared += (if (expected.nonEmpty) 1 else 0)
      }
      assert(compared > 30, "most queries match something")
    } finally reader.close()
  }

  test("Paimon's JSON query DSL runs unchanged and answers as the same query in classic syntax") {
    val words = new TextCorpus(300).vocabulary().asScala
    val random = new Random(seed + 11)
    (0 until 8).foreach { _ =>
      val a = words(random.nextInt(60))
      val b = words(random.nextInt(60))
      Seq(
        s"""{"match":{"column":"body","terms":"$a $b"}}""" -> s"$a $b",
        s"""{"match":{"query":"$a $b","operator":"And"}}""" -> s"+$a +$b",
        s"""{"match_phrase":{"query":"$a $b","slop":1}}""" -> s""""$a $b"~1""",
        s"""{"boolean":{"must":[{"match":{"query":"$a"}}],"must_not":[{"match":{"query":"$b"}}]}}""" -> s"+$a -$b"
      ).foreach { case (json, classic) =>
        val fromJson = spark
          .sql(
            s"SELECT id, _score FROM full_text_search('lake.kb.docs', 'body', ${quote(json)}, 20)"
          )
          .collect()
          .map(r => r.getLong(0) -> r.getDouble(1))
          .toSeq
        val fromClassic = spark
          .sql(
            s"SELECT id, _score FROM full_text_search('lake.kb.docs', 'body', ${quote(classic)}, 20)"
          )
          .collect()
          .map(r => r.getLong(0) -> r.getDouble(1))
          .toSeq
        assert(fromJson.map(_._2) == fromClassic.map(_._2), s"$json vs $classic")
        assert(
          fromJson.map(_._1).toSet == fromClassic.map(_._1).toSet || fromJson.size == 20,
          s"$json vs $classic"
        )
      }
    }
    val e = intercept[Exception](
      spark
        .sql(
          "SELECT id FROM full_text_search('lake.kb.docs', 'body', '{\"match\":{\"query\":\"x\",\"operator\":\"Xor\"}}', 5)"
        )
        .collect()
    )
    assert(e.getMessage.contains("'match.operator' must be"), e.getMessage)
  }

  test(
    "a postpone-bucket table is searchable before and after compaction moved its parked rows into buckets"
  ) {
    spark.sql(
      "CREATE TABLE lake.kb.inbox (id BIGINT, dt STRING, body STRING) PARTITIONED BY (dt) " +
        "TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='-2', 'postpone.default-bucket-num'='3', " +
        "'deletion-vectors.enabled'='true', 'strata-full-text.index.columns'='body')"
    )
    spark.sql(
      "INSERT INTO lake.kb.inbox VALUES (1, 'a', 'disk write failure'), (2, 'a', 'disk ok'), " +
        "(3, 'b', 'fan noise'), (4, 'b', 'disk full')"
    )
    def inbox(query: String): Seq[Long] = Seq("16", "0")
      .map { max =>
        withDriverMaxBuckets(max) {
          spark
            .sql(s"SELECT id FROM full_text_search('lake.kb.inbox', 'body', ${quote(query)}, 10)")
            .collect()
            .map(_.getLong(0))
            .toSeq
        }
      }
      .distinct
      .ensuring(_.size == 1, "driver and executor searches agree")
      .head
    assert(inbox("disk").toSet == Set(1L, 2L, 4L), "parked rows are indexed at query time")
    spark.conf.set("spark.sql.strata.search.fresh", "false")
    try assert(inbox("disk").isEmpty, "archive-only search does not see parked rows")
    finally spark.conf.unset("spark.sql.strata.search.fresh")
    spark.sql("CALL lake.sys.compact(table => 'kb.inbox')")
    assert(inbox("disk").toSet == Set(1L, 2L, 4L))
    assert(inbox("disk AND \"write failure\"") == Seq(1L))
    spark.sql("INSERT INTO lake.kb.inbox VALUES (2, 'a', 'replaced text')")
    assert(inbox("disk").toSet == Set(1L, 4L), "the parked version of id 2 hides its archived one")
    assert(inbox("replaced") == Seq(2L))
    spark.sql("CALL lake.sys.compact(table => 'kb.inbox')")
    assert(inbox("disk").toSet == Set(1L, 4L), "the replaced version of id 2 is gone")
  }

  test("bad arguments get one clear error each") {
    def error(sql: String): String = intercept[Exception](spark.sql(sql).collect()).getMessage
    assert(
      error("SELECT * FROM full_text_search('lake.kb.nope', 'body', 'x', 1)").contains(
        "lake.kb.nope"
      )
    )
    assert(
      error("SELECT * FROM full_text_search('lake.kb.docs', 'title', 'x', 1)").contains(
        "covers column 'body'"
      )
    )
    assert(
      error("SELECT * FROM full_text_search('lake.kb.docs', 'body', 'x', 0)").contains("positive")
    )
    assert(
      error("SELECT * FROM full_text_search('lake.kb.docs', 'body')").contains(
        "expected (table, column, query, k"
      )
    )
    spark.sql(
      "CREATE TABLE lake.kb.plain (id BIGINT, body STRING) TBLPROPERTIES ('primary-key'='id', 'bucket'='1')"
    )
    assert(
      error("SELECT * FROM full_text_search('lake.kb.plain', 'body', 'x', 1)").contains(
        "no full-text index"
      )
    )
    val twice = error(
      "SELECT * FROM full_text_search('lake.kb.docs', 'body', query => 'x', k => 1, query => 'y')"
    )
    assert(twice.contains("Cannot call full_text_search: argument query is given twice"), twice)
    val unknown =
      error(
        "SELECT * FROM full_text_search(table => 'lake.kb.docs', col => 'body', query => 'x', k => 1)"
      )
    assert(unknown.contains("it has no argument named col"), unknown)
    val missing =
      error("SELECT * FROM full_text_search(table => 'lake.kb.docs', column => 'body', k => 1)")
    assert(missing.contains("argument query is missing"), missing)
    val both = error("SELECT * FROM full_text_search('lake.kb.docs', 'body', 'x', 1, table => 'y')")
    assert(both.contains("argument table is given by position and by name"), both)
  }

  test("named arguments, in any order and after positional ones, search as positional ones do") {
    def rows(sql: String): Seq[Row] = spark.sql(sql).collect().toSeq
    val positional = rows("SELECT * FROM full_text_search('lake.kb.docs', 'body', 'lake', 5)")
    assert(positional.nonEmpty)
    assert(
      rows(
        "SELECT * FROM full_text_search(k => 5, query => 'lake', column => 'body', table => 'lake.kb.docs')"
      ) == positional
    )
    assert(
      rows("SELECT * FROM full_text_search('lake.kb.docs', 'body', k => 5, query => 'lake')") ==
        positional
    )
  }

  test("a bare table name searches the current database, as FROM t does after USE") {
    def rows(sql: String): Seq[Row] = spark.sql(sql).collect().toSeq
    val qualified = rows("SELECT * FROM full_text_search('lake.kb.docs', 'body', 'lake', 5)")
    assert(qualified.nonEmpty)
    val before = spark.catalog.currentCatalog()
    val database = spark.catalog.currentDatabase
    spark.sql("USE lake.kb")
    try {
      assert(rows("SELECT * FROM full_text_search('docs', 'body', 'lake', 5)") == qualified)
      assert(
        rows(
          "SELECT * FROM full_text_search(table => 'docs', column => 'body', query => 'lake', k => 5)"
        ) == qualified
      )
      val missing = intercept[Exception](
        spark.sql("SELECT * FROM full_text_search('nope', 'body', 'x', 1)").collect()
      ).getMessage
      assert(missing.contains("Cannot search lake.kb.nope: the table does not exist."), missing)
    } finally {
      spark.sql(s"USE `$before`.`$database`")
    }
  }

  test("table names that are not one path segment are refused before any file is read") {
    def error(sql: String): String = intercept[Exception](spark.sql(sql).collect()).getMessage
    val dotDot = error("SELECT * FROM full_text_search('lake.kb.`..`', 'body', 'x', 1)")
    assert(
      dotDot.contains("Cannot search lake.kb.`..`: the name '..' is a relative path step."),
      dotDot
    )
    assert(dotDot.contains("Table names must not be empty, '.' or '..'"), dotDot)
    val slash = error("SELECT * FROM full_text_search('lake.`../kb`.docs', 'body', 'x', 1)")
    assert(
      slash.contains("Cannot search lake.`../kb`.docs: the name '../kb' contains '/' (U+002F)."),
      slash
    )
    val branch = error("SELECT * FROM full_text_search('lake.kb.`docs$branch_..`', 'body', 'x', 1)")
    assert(branch.contains("Branch names must not be empty"), branch)
  }
  test(
    "primary-key and partition columns of the top-k come from the archives: no data file is read"
  ) {
    spark.sql(
      "CREATE TABLE lake.kb.keyed (id BIGINT, dt STRING, body STRING) PARTITIONED BY (dt) " +
        "TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='2', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body')"
    )
    spark.sql(
      "INSERT INTO lake.kb.keyed SELECT id, concat('d', cast(id % 2 AS STRING)), " +
        "concat('doc ', CASE WHEN id % 5 = 0 THEN 'needle ' ELSE '' END, cast(id AS STRING)) FROM range(0, 400)"
    )
    spark.sql("DELETE FROM lake.kb.keyed WHERE id = 10")
    spark.sql("CALL lake.sys.compact(table => 'kb.keyed')")
    val search = "FROM full_text_search('lake.kb.keyed', 'body', 'needle', 1000)"
    val expected = spark.sql(s"SELECT dt, id, _score $search").collect().toSeq
    assert(expected.map(_.getLong(1)).toSet == (0L until 400L by 5).filter(_ != 10).toSet)
    // Destroy every data file's bytes (same length): what still answers cannot have read them.
    val files = spark
      .sql("SELECT file_path FROM lake.kb.`keyed$files`")
      .collect()
      .map(r => java.nio.file.Paths.get(new java.net.URI(r.getString(0)).getPath))
    assert(files.nonEmpty)
    files.foreach { f =>
      java.nio.file.Files.write(f, new Array[Byte](java.nio.file.Files.size(f).toInt))
    }
    Seq("16", "0").foreach { max =>
      withDriverMaxBuckets(max) {
        assert(spark.sql(s"SELECT dt, id, _score $search").collect().toSeq == expected, max)
        assert(spark.sql(s"SELECT count(*) $search").collect().head.getLong(0) == expected.size)
        val e = intercept[Exception](spark.sql(s"SELECT id, body $search").collect())
        assert(e.getMessage.contains("Cannot search lake.kb.keyed"), e.getMessage)
      }
    }
  }

  private def ids(sql: String): Seq[Int] = spark.sql(sql).collect().map(_.getInt(0)).toSeq.sorted

  test("moving the index to another column searches that column, also after a search in this JVM") {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS lake.rw")
    def search(t: String, c: String, q: String) =
      ids(s"SELECT id FROM full_text_search('lake.rw.$t', '$c', '$q', 10)")
    def matching(t: String, c: String, q: String) =
      ids(s"SELECT id FROM lake.rw.$t WHERE text_match($c, '$q')")
    spark.sql(
      "CREATE TABLE lake.rw.docs (id INT NOT NULL, body STRING, other STRING) TBLPROPERTIES (" +
        "'primary-key'='id', 'bucket'='1', 'deletion-vectors.enabled'='true')"
    )
    spark.sql(
      "INSERT INTO lake.rw.docs VALUES (1, 'disk failure', 'printer jam'), (2, 'network down', 'disk full')"
    )
    spark.sql(
      "ALTER TABLE lake.rw.docs SET TBLPROPERTIES ('strata-full-text.index.columns'='body')"
    )
    assert(search("docs", "body", "disk") == Seq(1))
    assert(matching("docs", "body", "disk") == Seq(1))
    spark.sql(
      "ALTER TABLE lake.rw.docs SET TBLPROPERTIES ('strata-full-text.index.columns'='other')"
    )
    assert(search("docs", "other", "disk") == Seq(2))
    assert(search("docs", "other", "printer") == Seq(1))
    assert(matching("docs", "other", "disk") == Seq(2))
    // The column dropped and added again is another field: its rows hold no text.
    spark.sql(
      "CREATE TABLE lake.rw.readded (id INT NOT NULL, body STRING, other STRING) TBLPROPERTIES (" +
        "'primary-key'='id', 'bucket'='1', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body')"
    )
    spark.sql(
      "INSERT INTO lake.rw.readded VALUES (1, 'disk failure', 'printer jam'), (2, 'network down', 'disk full')"
    )
    assert(search("readded", "body", "disk") == Seq(1))
    spark.sql("ALTER TABLE lake.rw.readded UNSET TBLPROPERTIES ('strata-full-text.index.columns')")
    spark.sql("ALTER TABLE lake.rw.readded DROP COLUMN body")
    spark.sql("ALTER TABLE lake.rw.readded ADD COLUMN body STRING")
    spark.sql(
      "ALTER TABLE lake.rw.readded SET TBLPROPERTIES ('strata-full-text.index.columns'='body')"
    )
    assert(search("readded", "body", "disk") == Seq())
    spark.sql(
      "ALTER TABLE lake.rw.readded SET TBLPROPERTIES ('strata-full-text.index.columns'='other')"
    )
    assert(search("readded", "other", "disk") == Seq(2))
    // Rows of level 0 (write-only) and parked rows (postpone buckets) are indexed at query time too.
    Seq("'write-only'='true', 'bucket'='1'", "'bucket'='-2'").zipWithIndex.foreach {
      case (layout, i) =>
        spark.sql(
          s"CREATE TABLE lake.rw.fresh$i (id INT NOT NULL, body STRING, other STRING) TBLPROPERTIES (" +
            s"'primary-key'='id', $layout, 'deletion-vectors.enabled'='true', " +
            "'strata-full-text.index.columns'='body')"
        )
        spark.sql(
          s"INSERT INTO lake.rw.fresh$i VALUES (1, 'disk failure', 'printer jam'), (2, 'network down', 'disk full')"
        )
        assert(search(s"fresh$i", "body", "disk") == Seq(1), layout)
        spark.sql(
          s"ALTER TABLE lake.rw.fresh$i SET TBLPROPERTIES ('strata-full-text.index.columns'='other')"
        )
        assert(search(s"fresh$i", "other", "disk") == Seq(2), layout)
        assert(search(s"fresh$i", "other", "printer") == Seq(1), layout)
    }
  }

  test("archives built with another analyzer are stale: their rows are searched with the table's") {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS lake.ra")
    def search(t: String, q: String) =
      ids(s"SELECT id FROM full_text_search('lake.ra.$t', 'body', '$q', 10)")
    def matching(t: String, q: String) =
      ids(s"SELECT id FROM lake.ra.$t WHERE text_match(body, '$q')")
    def states(t: String) =
      spark
        .sql(s"SELECT state FROM lake.ra.`$t$$fulltext` WHERE level > 0")
        .collect()
        .map(_.getString(0))
        .toSeq
    Seq(
      "docs" -> "'fields.body.strata-full-text.index.options'='{\"analyzer\":\"english\"}'",
      "tabled" -> "'strata-full-text.analyzer'='english'"
    ).foreach { case (t, english) =>
      spark.sql(
        s"CREATE TABLE lake.ra.$t (id INT NOT NULL, body STRING) TBLPROPERTIES (" +
          "'primary-key'='id', 'bucket'='1', 'deletion-vectors.enabled'='true', " +
          "'strata-full-text.index.columns'='body')"
      )
      spark.sql(s"INSERT INTO lake.ra.$t VALUES (1, 'disk failure'), (2, 'network cables')")
      assert(states(t) == Seq("current"), t)
      assert(search(t, "failures") == Seq(), t)
      spark.sql(s"ALTER TABLE lake.ra.$t SET TBLPROPERTIES ($english)")
      assert(states(t) == Seq("stale"), t)
      assert(search(t, "failures") == Seq(1), t)
      assert(matching(t, "cable") == Seq(2), t)
      spark.conf.set("spark.sql.strata.search.fresh", "false")
      try {
        // Archive-only searches leave the rows of stale archives out, as of level 0.
        assert(search(t, "failures") == Seq(), t)
        spark.sql(s"CALL lake.sys.rebuild_pk_fulltext(table => 'ra.$t')")
        assert(states(t) == Seq("current"), t)
        assert(search(t, "failures") == Seq(1), t)
        assert(matching(t, "cable") == Seq(2), t)
      } finally spark.conf.unset("spark.sql.strata.search.fresh")
    }
  }
}
