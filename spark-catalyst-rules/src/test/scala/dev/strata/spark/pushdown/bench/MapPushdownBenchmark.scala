package dev.strata.spark.pushdown.bench

import java.nio.file.{Files, Paths}

import scala.jdk.CollectionConverters._

import dev.strata.spark.{StrataCatalog, StrataExtensions}
import dev.strata.testing.maps.MapDataGenerator

import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec
import org.apache.spark.sql.types.StructType

/**
 * Issue 4's benchmark, a main class (not a test): `SELECT count(*), avg(m['k']) ... WHERE m['k'] > x`
 * for a hot and a rare key, with a selective and a broad x, over (a) a Strata table with a
 * shared-shredding map and the pushdown extensions, (b) Spark's parquet table with a plain MAP column,
 * (c) a hand-flattened parquet table with each queried key as its own column (the physical limit).
 * Prints times, ratios and bytes read (the JVM's `rchar` from /proc/self/io around each query: every
 * byte the three readers pull from files, page cache or not). (a) reads verify every Parquet page's CRC
 * (Strata's default); the same query over (a') an identical table created with
 * `'parquet.page.verify-checksum.enabled' = 'false'` measures what the verification costs (a/a').
 *
 * Defaults are reduced (200 000 rows); the issue's size is `-Dstrata.bench.rows=2000000`. Other knobs:
 * `strata.bench.row-group` (default "8 mb"), `strata.bench.runs` (timed runs per query, best is kept,
 * default 3), `strata.bench.dir` (default a temp dir, deleted at the end), `strata.bench.policy` (the
 * shredded table's column-placement-policy, default `stable`; `lru` is Paimon's default),
 * `strata.bench.strata-only` (time only (a), e.g. under a profiler). With `strata.bench.dir` set, a second
 * run with the same rows, row group size and policy reuses the tables written by the first.
 */
object MapPushdownBenchmark {

  private val Keys = 2000
  private val Families = 50
  private val KeysPerRow = 40

  def main(args: Array[String]): Unit = {
    val rows = Integer.getInteger("strata.bench.rows", 200000).intValue()
    val rowGroup = System.getProperty("strata.bench.row-group", "8 mb")
    val runs = Integer.getInteger("strata.bench.runs", 3).intValue()
    val dir = Option(System.getProperty("strata.bench.dir")).map(Paths.get(_)).getOrElse(Files.createTempDirectory("strata-bench-"))
    val parts = math.max(1, rows / 100000)
    val rowGroupBytes = parseBytes(rowGroup)

    val spark = SparkSession.builder()
      .master("local[2]")
      .appName("MapPushdownBenchmark")
      .config("spark.ui.enabled", "false")
      .config("spark.driver.host", "127.0.0.1")
      .config("spark.driver.bindAddress", "127.0.0.1")
      .config("spark.sql.shuffle.partitions", "2")
      .config("spark.sql.adaptive.enabled", "false")
      .config("spark.sql.warehouse.dir", dir.resolve("spark").toUri.toString)
      .config("spark.sql.extensions", classOf[StrataExtensions].getName)
      .config("spark.sql.catalog.lake", classOf[StrataCatalog].getName)
      .config("spark.sql.catalog.lake.warehouse", dir.resolve("lake").toUri.toString)
      .config("spark.sql.parquet.compression.codec", "zstd")
      .config("parquet.block.size", rowGroupBytes.toString)
      .getOrCreate()
    spark.sparkContext.hadoopConfiguration.setLong("parquet.block.size", rowGroupBytes)
    try run(spark, dir, rows, parts, rowGroup, runs)
    finally {
      spark.stop()
      if (System.getProperty("strata.bench.dir") == null) deleteRecursively(dir.toFile)
    }
  }

  private def run(spark: SparkSession, dir: java.nio.file.Path, rows: Int, parts: Int, rowGroup: String, runs: Int): Unit = {
    val policy = System.getProperty("strata.bench.policy", "stable")
    val strataOnly = java.lang.Boolean.getBoolean("strata.bench.strata-only")
    val perPart = rows / parts
    val schema = StructType.fromDDL("id BIGINT, m MAP<STRING, DOUBLE>")
    val rdd = spark.sparkContext.parallelize(0 until parts, parts).flatMap { p =>
      val gen = MapDataGenerator.builder(4242L + p).keyUniverse(Keys).keysPerRow(KeysPerRow, KeysPerRow + 4)
        .families(Families, 1000).coreKeys(0.95).nullMapRate(0.01).nullValueRate(0.01).build()
      Iterator.tabulate(perPart) { i =>
        val m = gen.next()
        Row(p.toLong * perPart + i, if (m.isNull) null else m.lastValueByKey().asScala.toMap)
      }
    }
    val data = spark.createDataFrame(rdd, schema)

    // Pick a hot key (most rows) and a rare key (few rows) from a sample.
    val counts = data.limit(20000).selectExpr("explode(map_keys(m)) AS k").groupBy("k").count()
      .collect().map(r => r.getString(0) -> r.getLong(1)).sortBy(-_._2)
    val hot = counts.head._1
    val rare = counts.filter(_._2 >= 2).last._1
    def base(k: String): Double = MapDataGenerator.valueBase(Integer.parseInt(k.substring(k.lastIndexOf('_') + 1)))
    println(f"[bench] rows=$rows%,d row-group=$rowGroup hot=$hot rare=$rare policy=$policy")

    // With strata.bench.dir set, a second run over the same rows and policy reuses the tables.
    Files.createDirectories(dir)
    val ready = dir.resolve(s"ready-v2-$rows-$policy-$rowGroup".replace(' ', '_'))
    if (!Files.exists(ready)) {
      val t0 = System.nanoTime()
      spark.sql("CREATE NAMESPACE IF NOT EXISTS lake.bench")
      for ((table, verify) <- Seq("shredded" -> true, "shredded_unverified" -> false)) {
        spark.sql(s"DROP TABLE IF EXISTS lake.bench.$table")
        spark.sql(s"""CREATE TABLE lake.bench.$table (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES (
                     | 'fields.m.map.storage-layout' = 'shared-shredding', 'file.block-size' = '$rowGroup',
                     | 'fields.m.map.shared-shredding.column-placement-policy' = '$policy',
                     | 'parquet.page.verify-checksum.enabled' = '$verify',
                     | 'file.compression' = 'zstd', 'target-file-size' = '256 mb')""".stripMargin)
        data.writeTo(s"lake.bench.$table").append()
      }
      val t1 = System.nanoTime()
      data.write.mode("overwrite").option("parquet.block.size", parseBytes(rowGroup).toString)
        .parquet(dir.resolve("bench_map").toString)
      val t2 = System.nanoTime()
      data.selectExpr("id", s"m['$hot'] AS hot", s"m['$rare'] AS rare").write.mode("overwrite")
        .option("parquet.block.size", parseBytes(rowGroup).toString).parquet(dir.resolve("bench_flat").toString)
      println(f"[bench] write: strata (two tables) ${(t1 - t0) / 1e9}%.1f s, parquet map ${(t2 - t1) / 1e9}%.1f s")
      Files.createFile(ready)
    }
    spark.read.parquet(dir.resolve("bench_map").toString).createOrReplaceTempView("bench_map")
    spark.read.parquet(dir.resolve("bench_flat").toString).createOrReplaceTempView("bench_flat")

    val cases = Seq(
      ("hot key, selective", hot, "hot", base(hot) + 9.9),
      ("hot key, broad", hot, "hot", base(hot) + 0.5),
      ("rare key, selective", rare, "rare", base(rare) + 9.9),
      ("rare key, broad", rare, "rare", base(rare) + 0.5))
    crcCost(dir.resolve("lake").resolve("bench.db").resolve("shredded"), runs)
    if (strataOnly) {
      println("| query | (a) strata | (a') strata, pages unverified | a/a' | bytes a | (a) row groups skipped, planning | answer |")
      println("|---|---|---|---|---|---|---|")
    } else {
      println("| query | (a) strata | (a') strata, pages unverified | a/a' | (b) parquet map | (c) flattened | b/c | a/c | b/a | bytes a | bytes b | bytes c | (a) row groups skipped, planning |")
      println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    }
    for ((name, key, flat, x) <- cases) {
      val (a, u) = measurePair(spark, s"SELECT count(*), avg(m['$key']) FROM lake.bench.shredded WHERE m['$key'] > $x",
        s"SELECT count(*), avg(m['$key']) FROM lake.bench.shredded_unverified WHERE m['$key'] > $x", runs)
      require(a.answer == u.answer, s"Cannot report $name: answers differ (a ${a.answer}, a' ${u.answer})")
      val crc = f"${u.seconds}%.3f s | ${a.seconds / u.seconds}%.2fx"
      if (strataOnly) {
        println(f"| $name | ${a.seconds}%.3f s | $crc | ${mb(a.bytes)} | ${a.detail} | ${a.answer} |")
      } else {
        val b = measure(spark, s"SELECT count(*), avg(m['$key']) FROM bench_map WHERE m['$key'] > $x", runs)
        val c = measure(spark, s"SELECT count(*), avg($flat) FROM bench_flat WHERE $flat > $x", runs)
        require(a.answer == b.answer && b.answer == c.answer,
          s"Cannot report $name: answers differ (a ${a.answer}, b ${b.answer}, c ${c.answer})")
        println(f"| $name | ${a.seconds}%.3f s | $crc | ${b.seconds}%.3f s | ${c.seconds}%.3f s | ${b.seconds / c.seconds}%.1fx | " +
          f"${a.seconds / c.seconds}%.1fx | ${b.seconds / a.seconds}%.1fx | ${mb(a.bytes)} | ${mb(b.bytes)} | ${mb(c.bytes)} | ${a.detail} |")
      }
    }
  }

  private final case class Result(seconds: Double, bytes: Long, answer: String, detail: String)

  /**
   * The whole CRC work of the table: every page of every data file checked with `PageChecksums` (a query
   * verifies only the pages it reads, so this bounds its CRC cost), best of `runs`.
   */
  private def crcCost(table: java.nio.file.Path, runs: Int): Unit = {
    val walk = Files.walk(table)
    val files = try walk.iterator().asScala.filter(p => p.getFileName.toString.startsWith("data-")).toList finally walk.close()
    val io = org.apache.paimon.fs.local.LocalFileIO.create()
    val bytes = files.map(Files.size(_)).sum
    var best = Double.MaxValue
    for (_ <- 0 until runs) {
      val start = System.nanoTime()
      for (f <- files) {
        dev.strata.shredding.parquet.PageChecksums.verifyFile(
          dev.strata.shredding.parquet.PaimonFiles.inputFile(io, new org.apache.paimon.fs.Path(f.toUri), Files.size(f)), f.toString)
      }
      best = math.min(best, (System.nanoTime() - start) / 1e9)
    }
    println(f"[bench] page CRC check of every page of ${files.size} shredded files (${mb(bytes)}): ${best * 1000}%.1f ms " +
      f"(${bytes / 1048576.0 / best}%.0f MB/s, file reads included)")
  }

  /** Both queries, their timed runs alternating so that background load hits them alike; best of each. */
  private def measurePair(spark: SparkSession, first: String, second: String, runs: Int): (Result, Result) = {
    var a: Result = null
    var b: Result = null
    for (_ <- 0 until runs) {
      val ra = measure(spark, first, 1)
      val rb = measure(spark, second, 1)
      if (a == null || ra.seconds < a.seconds) a = ra
      if (b == null || rb.seconds < b.seconds) b = rb
    }
    (a, b)
  }

  private def measure(spark: SparkSession, query: String, runs: Int): Result = {
    spark.sql(query).collect() // warm-up
    var best = Double.MaxValue
    var bytes = 0L
    var answer = ""
    var detail = ""
    var planning = 0.0
    for (_ <- 0 until runs) {
      val df: DataFrame = spark.sql(query)
      val before = rchar()
      val start = System.nanoTime()
      df.queryExecution.executedPlan
      val planned = System.nanoTime()
      val rows = df.collect()
      val seconds = (System.nanoTime() - start) / 1e9
      val read = rchar() - before
      if (seconds < best) {
        best = seconds
        bytes = read
        planning = (planned - start) / 1e9
      }
      answer = rows.map(r => s"${r.get(0)}/${Option(r.get(1)).map(v => f"${v.asInstanceOf[Double]}%.6f").orNull}").mkString
      detail = df.queryExecution.executedPlan.collect { case s: BatchScanExec => s }.headOption.map { s =>
        s"${s.metrics.get("shreddedRowGroupsSkipped").map(_.value).getOrElse(0L)}/" +
          s"${s.metrics.get("shreddedRowGroupsTotal").map(_.value).getOrElse(0L)}"
      }.getOrElse("-")
    }
    Result(best, bytes, answer, f"$detail, planning $planning%.3f s")
  }

  /** Bytes this process has read through read(2) and friends. */
  private def rchar(): Long =
    Files.readAllLines(Paths.get("/proc/self/io")).asScala.find(_.startsWith("rchar:"))
      .map(_.substring(6).trim.toLong).getOrElse(0L)

  private def mb(bytes: Long): String = f"${bytes / 1048576.0}%.1f MB"

  private def parseBytes(s: String): Long = {
    val t = s.trim.toLowerCase
    val (num, unit) = t.span(c => c.isDigit || c == '.')
    val factor = unit.trim match {
      case "" | "b" => 1L
      case "kb" | "k" => 1024L
      case "mb" | "m" => 1024L * 1024
      case "gb" | "g" => 1024L * 1024 * 1024
      case other => throw new IllegalArgumentException(
        s"Cannot parse strata.bench.row-group '$s': unknown unit '$other'. Use b, kb, mb or gb.")
    }
    (num.toDouble * factor).toLong
  }

  private def deleteRecursively(f: java.io.File): Unit = {
    if (f.isDirectory) Option(f.listFiles()).foreach(_.foreach(deleteRecursively))
    f.delete()
  }
}
