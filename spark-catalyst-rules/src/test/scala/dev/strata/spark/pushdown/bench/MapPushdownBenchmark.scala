package dev.strata.spark.pushdown.bench

import java.lang.management.{ManagementFactory, MemoryType}
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import dev.strata.shredding.ShreddingOptions
import dev.strata.shredding.layout.{ArrowSchemaFooter, ShreddingFooter}
import dev.strata.spark.{StrataCatalog, StrataExtensions}

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.spark.sql.SparkSession

/** The map-key pushdown benchmark of issue 13, a main class (not a test), run in a fresh JVM each
  * time: `SELECT count(*), avg(m['k']) FROM t WHERE m['k'] > x` for a hot key (every row) and a
  * rare key (one row in 1 000), selective (x = 99, ~1 % of the values) and broad (x = 50), over
  *
  *   - (a) a Strata table created as a user would: `TBLPROPERTIES ('fields.m.map.storage-layout' =
  *     'shared-shredding')` and nothing else (default row groups, file sizes, placement policy,
  *     compression), filled by one `INSERT INTO ... SELECT`;
  *   - (p) the same table without the option (Paimon's default MAP layout), for bytes on disk;
  *   - (b) Spark's parquet table with a plain MAP column (`CREATE TABLE ... USING parquet AS
  *     SELECT`);
  *   - (c) a flattened parquet table with the hot and the rare key as their own columns (the
  *     physical limit).
  *
  * Two data sets, made by Spark SQL from `range(rows)` (rows cycle over families of consecutive
  * keys `key_<f*width+i>`, plus `hot` and `rare`): "high-cardinality values" (40 keys a row, DOUBLE
  * values with four decimals) and "low-cardinality values" (30 keys a row, two decimals). The key
  * universe is 2 000.
  *
  * Printed per query: best time of `strata.bench.runs` (default 3) after one warm-up, bytes read
  * (the JVM's `rchar` from /proc/self/io around the run: every byte pulled from files, page cache
  * or not) and the heap peak: the sum over the JVM's heap pools of `MemoryPoolMXBean.getPeakUsage`
  * (peaks reset before the run) minus the heap in use before it. The session is `local[2]`, so this
  * is the peak of the two tasks running at once plus the driver, and, since the pools' peaks
  * include garbage not yet collected, an upper bound of their live heap; it is not Spark's
  * `peakExecutionMemory` (which counts only Spark's managed memory). Also printed: write time of
  * each table and bytes on disk (data files only).
  *
  * Options (system properties):
  *   - `strata.bench.rows` (default 300 000; the issue's size is 2 000 000), `strata.bench.runs`,
  *     `strata.bench.dir` (default a temp dir, deleted at the end), `strata.bench.datasets`
  *     (`high,low`).
  *   - `strata.bench.row-group` / `strata.bench.policy`: when either is set, a tuned table (a+)
  *     with `file.block-size` and / or `column-placement-policy` set is written and queried too, as
  *     an extra column.
  *   - `strata.bench.universes=2000,20000,200000`: instead, the key-universe mode: for each
  *     universe the high-cardinality data set (rows default 200 000) into a default Strata table,
  *     printing its footer metadata as a share of the data files (Strata's entry, Paimon's
  *     `ARROW:schema` entry), K per file and the time of the hot-key query (first run, with the
  *     footers not yet cached, and best of the runs).
  */
object MapPushdownBenchmark {

  private val Universe = 2000

  private final case class DataSet(name: String, width: Int, value: String, universe: Int) {
    def families: Int = math.max(1, universe / width)

    def sql(rows: Int): String =
      s"""SELECT id, map_from_arrays(
         |  transform(sequence(0, ${width - 1}), i -> CASE WHEN i = 0 THEN 'hot' WHEN i = 1 AND id % 1000 = 7 THEN 'rare'
         |    ELSE concat('key_', cast((id % $families) * $width + i AS STRING)) END),
         |  transform(sequence(0, ${width - 1}), i -> CAST($value AS DOUBLE))) AS m FROM range($rows)""".stripMargin
  }

  private def high(universe: Int) = DataSet(
    "high-cardinality values (40 keys, 4 decimals)",
    40,
    "pmod(hash(id, i), 1000000) / 10000.0",
    universe
  )

  private val low = DataSet(
    "low-cardinality values (30 keys, 2 decimals)",
    30,
    "pmod(hash(id, i), 10000) / 100.0",
    Universe
  )

  def main(args: Array[String]): Unit = {
    val universes =
      Option(System.getProperty("strata.bench.universes")).map(_.split(",").map(_.trim.toInt).toSeq)
    val rows = Integer
      .getInteger("strata.bench.rows", if (universes.isDefined) 200000 else 300000)
      .intValue()
    val runs = Integer.getInteger("strata.bench.runs", 3).intValue()
    val dir = Option(System.getProperty("strata.bench.dir"))
      .map(Paths.get(_))
      .getOrElse(Files.createTempDirectory("strata-bench-"))
    val spark = SparkSession
      .builder()
      .master("local[2]")
      .appName("MapPushdownBenchmark")
      .config("spark.ui.enabled", "false")
      .config("spark.driver.host", "127.0.0.1")
      .config("spark.driver.bindAddress", "127.0.0.1")
      .config("spark.sql.warehouse.dir", dir.resolve("spark").toUri.toString)
      .config("spark.sql.extensions", classOf[StrataExtensions].getName)
      .config("spark.sql.catalog.lake", classOf[StrataCatalog].getName)
      .config("spark.sql.catalog.lake.warehouse", dir.resolve("lake").toUri.toString)
      .getOrCreate()
    try {
      spark.sql("CREATE NAMESPACE IF NOT EXISTS lake.bench")
      println(
        f"[bench] rows=$rows%,d runs=$runs local[2] max heap ${Runtime.getRuntime.maxMemory / 1048576}%d MB " +
          f"load average ${ManagementFactory.getOperatingSystemMXBean.getSystemLoadAverage}%.1f"
      )
      universes match {
        case Some(us) => universeMode(spark, dir, rows, runs, us)
        case None =>
          val sets =
            System.getProperty("strata.bench.datasets", "high,low").split(",").map(_.trim).map {
              case "high" => high(Universe)
              case "low"  => low
              case other =>
                throw new IllegalArgumentException(
                  s"Cannot run data set '$other' of strata.bench.datasets: expected high or low. Use e.g. high,low."
                )
            }
          for (ds <- sets) defaultMode(spark, dir, rows, runs, ds)
      }
    } finally {
      spark.stop()
      if (System.getProperty("strata.bench.dir") == null) deleteRecursively(dir.toFile)
    }
  }

  private def defaultMode(
      spark: SparkSession,
      dir: Path,
      rows: Int,
      runs: Int,
      ds: DataSet
  ): Unit = {
    val tag = if (ds.width == 40) "high" else "low"
    val rowGroup = Option(System.getProperty("strata.bench.row-group"))
    val policy = Option(System.getProperty("strata.bench.policy"))
    val tuned = rowGroup.isDefined || policy.isDefined
    spark.sql(ds.sql(rows)).createOrReplaceTempView("src")
    println(
      s"\n[bench] data set: ${ds.name}, ${ds.families} families, universe ${ds.width * ds.families} keys + hot, rare"
    )

    val shred = s"lake.bench.${tag}_shred"
    val paimon = s"lake.bench.${tag}_paimon"
    val tunedTable = s"lake.bench.${tag}_tuned"
    val map = s"spark_catalog.default.${tag}_map"
    val flat = s"spark_catalog.default.${tag}_flat"
    val writes = Seq(
      shred -> s"CREATE TABLE $shred (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES ('fields.m.map.storage-layout' = 'shared-shredding')",
      paimon -> s"CREATE TABLE $paimon (id BIGINT, m MAP<STRING, DOUBLE>)"
    ) ++
      (if (tuned)
         Seq(
           tunedTable -> (s"CREATE TABLE $tunedTable (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES (" +
             ("'fields.m.map.storage-layout' = 'shared-shredding'" +: (rowGroup
               .map(r => s"'file.block-size' = '$r'")
               .toSeq ++
               policy
                 .map(p => s"'${ShreddingOptions.policyKey("m", p)}' = '$p'")
                 .toSeq)).mkString(", ") + ")")
         )
       else Nil)
    val seconds = scala.collection.mutable.LinkedHashMap[String, Double]()
    for ((table, ddl) <- writes) {
      spark.sql(s"DROP TABLE IF EXISTS $table")
      spark.sql(ddl)
      seconds(table) = time(spark.sql(s"INSERT INTO $table SELECT * FROM src").collect())
    }
    for (
      (table, select) <- Seq(
        map -> "SELECT * FROM src",
        flat -> "SELECT id, m['hot'] AS hot, m['rare'] AS rare FROM src"
      )
    ) {
      spark.sql(s"DROP TABLE IF EXISTS $table")
      seconds(table) = time(spark.sql(s"CREATE TABLE $table USING parquet AS $select").collect())
    }
    val lake = dir.resolve("lake").resolve("bench.db")
    val onDisk = Map(
      shred -> dataBytes(lake.resolve(s"${tag}_shred"), "data-"),
      paimon -> dataBytes(lake.resolve(s"${tag}_paimon"), "data-"),
      tunedTable -> dataBytes(lake.resolve(s"${tag}_tuned"), "data-"),
      map -> dataBytes(dir.resolve("spark").resolve(s"${tag}_map"), "part-"),
      flat -> dataBytes(dir.resolve("spark").resolve(s"${tag}_flat"), "part-")
    )
    val files = dataFiles(lake.resolve(s"${tag}_shred"), "data-")
    val ks = files
      .map(f => ShreddingFooter.decode(footer(f)._1, "m", f.toString).numColumns())
      .mkString(",")
    println(
      f"[bench] write: (a) strata ${seconds(shred)}%.1f s, (p) paimon default layout ${seconds(paimon)}%.1f s, " +
        f"(b) parquet map ${seconds(map)}%.1f s, (c) flattened ${seconds(flat)}%.1f s; write speed a vs b " +
        f"${seconds(map) / seconds(shred)}%.2fx" + (if (tuned)
                                                      f", (a+) tuned ${seconds(tunedTable)}%.1f s"
                                                    else "")
    )
    println(
      s"[bench] bytes on disk: (a) strata ${mb(onDisk(shred))} in ${files.size} files (K = $ks), " +
        s"(p) paimon default layout ${mb(onDisk(paimon))}, (b) parquet map ${mb(onDisk(map))}, (c) flattened ${mb(onDisk(flat))}; " +
        f"a/p ${onDisk(shred).toDouble / onDisk(paimon)}%.2fx, a/b ${onDisk(shred).toDouble / onDisk(map)}%.2fx" +
        (if (tuned)
           f", (a+) tuned ${mb(onDisk(tunedTable))} (${onDisk(tunedTable).toDouble / onDisk(paimon)}%.2fx of p)"
         else "")
    )

    val cases = Seq(
      ("hot key, selective", "hot", 99),
      ("hot key, broad", "hot", 50),
      ("rare key, selective", "rare", 99),
      ("rare key, broad", "rare", 50)
    )
    println(
      "| query | (a) strata | (b) parquet map | (c) flattened | a/c | b/a | bytes read a / b / c | heap peak a / b / c |" +
        (if (tuned) " (a+) tuned | a+/c | bytes a+ |" else "")
    )
    println("|---|---|---|---|---|---|---|---|" + (if (tuned) "---|---|---|" else ""))
    for ((name, key, x) <- cases) {
      val a =
        measure(spark, s"SELECT count(*), avg(m['$key']) FROM $shred WHERE m['$key'] > $x", runs)
      val b =
        measure(spark, s"SELECT count(*), avg(m['$key']) FROM $map WHERE m['$key'] > $x", runs)
      val c = measure(spark, s"SELECT count(*), avg($key) FROM $flat WHERE $key > $x", runs)
      require(
        a.answer == b.answer && b.answer == c.answer,
        s"Cannot report $name: answers differ (a ${a.answer}, b ${b.answer}, c ${c.answer})"
      )
      val extra = if (tuned) {
        val t = measure(
          spark,
          s"SELECT count(*), avg(m['$key']) FROM $tunedTable WHERE m['$key'] > $x",
          runs
        )
        require(
          t.answer == a.answer,
          s"Cannot report $name: answers differ (a ${a.answer}, a+ ${t.answer})"
        )
        f" ${t.seconds}%.3f s | ${t.seconds / c.seconds}%.1fx | ${mb(t.bytes)} |"
      } else ""
      println(
        f"| $name | ${a.seconds}%.3f s | ${b.seconds}%.3f s | ${c.seconds}%.3f s | ${a.seconds / c.seconds}%.1fx | " +
          f"${b.seconds / a.seconds}%.1fx | ${mb(a.bytes)} / ${mb(b.bytes)} / ${mb(c.bytes)} | " +
          f"${mb(a.heap)} / ${mb(b.heap)} / ${mb(c.heap)} |$extra"
      )
    }
  }

  private def universeMode(
      spark: SparkSession,
      dir: Path,
      rows: Int,
      runs: Int,
      universes: Seq[Int]
  ): Unit = {
    println(
      "| universe | keys in files | files (K) | data bytes | Strata entry | ARROW:schema entry | footer metadata | " +
        "hot > 99, first run | best run | answer |"
    )
    println("|---|---|---|---|---|---|---|---|---|---|")
    var answer: String = null
    for (u <- universes) {
      val ds = high(u)
      spark.sql(ds.sql(rows)).createOrReplaceTempView("src")
      val table = s"lake.bench.universe_$u"
      spark.sql(s"DROP TABLE IF EXISTS $table")
      spark.sql(
        s"CREATE TABLE $table (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES ('fields.m.map.storage-layout' = 'shared-shredding')"
      )
      spark.sql(s"INSERT INTO $table SELECT * FROM src").collect()
      val files =
        dataFiles(dir.resolve("lake").resolve("bench.db").resolve(s"universe_$u"), "data-")
      var strata = 0L
      var arrow = 0L
      var all = 0L
      var keys = 0
      val ks = files.map { f =>
        val (kv, _) = footer(f)
        for ((k, v) <- kv.asScala) {
          val bytes = k
            .getBytes(StandardCharsets.UTF_8)
            .length + v.getBytes(StandardCharsets.UTF_8).length.toLong
          all += bytes
          if (k == ShreddingFooter.footerKey("m")) strata += bytes
          if (k == ArrowSchemaFooter.KEY) arrow += bytes
        }
        val meta = ShreddingFooter.decode(kv, "m", f.toString)
        keys = math.max(keys, meta.keys().size())
        meta.numColumns()
      }
      val total = files.map(Files.size(_)).sum
      val query = s"SELECT count(*), avg(m['hot']) FROM $table WHERE m['hot'] > 99"
      val first = time(spark.sql(query).collect())
      val best = measure(spark, query, runs)
      if (answer != null) {
        require(
          best.answer == answer,
          s"Cannot report universe $u: the answer ${best.answer} differs from $answer"
        )
      }
      answer = best.answer
      def pct(b: Long) = f"${100.0 * b / total}%.2f %%"
      println(
        f"| $u | $keys | ${files.size} (${ks
            .mkString(",")}) | ${mb(total)} | ${pct(strata)} | ${pct(arrow)} | ${pct(all)} | " +
          f"$first%.3f s | ${best.seconds}%.3f s | ${best.answer} |"
      )
    }
  }

  private final case class Result(seconds: Double, bytes: Long, heap: Long, answer: String)

  private def measure(spark: SparkSession, query: String, runs: Int): Result = {
    spark.sql(query).collect() // warm-up
    var best: Result = null
    val pools = ManagementFactory.getMemoryPoolMXBeans.asScala.filter(_.getType == MemoryType.HEAP)
    for (_ <- 0 until runs) {
      System.gc()
      val heapBefore = pools.map(_.getUsage.getUsed).sum
      pools.foreach(_.resetPeakUsage())
      val before = rchar()
      val start = System.nanoTime()
      val rows = spark.sql(query).collect()
      val seconds = (System.nanoTime() - start) / 1e9
      val read = rchar() - before
      val heap = math.max(0L, pools.map(_.getPeakUsage.getUsed).sum - heapBefore)
      val answer = rows
        .map(r =>
          s"${r.get(0)}/${Option(r.get(1)).map(v => f"${v.asInstanceOf[Double]}%.6f").orNull}"
        )
        .mkString
      if (best == null || seconds < best.seconds) best = Result(seconds, read, heap, answer)
    }
    best
  }

  private def time(f: => Unit): Double = {
    val start = System.nanoTime()
    f
    (System.nanoTime() - start) / 1e9
  }

  private def footer(f: Path): (java.util.Map[String, String], Long) = {
    val reader = ParquetFileReader.open(
      HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(f.toUri), new Configuration())
    )
    try (reader.getFooter.getFileMetaData.getKeyValueMetaData, reader.getRecordCount)
    finally reader.close()
  }

  private def dataFiles(root: Path, prefix: String): Seq[Path] = {
    if (!Files.exists(root)) return Nil
    val walk = Files.walk(root)
    try
      walk
        .iterator()
        .asScala
        .filter(p => p.getFileName.toString.startsWith(prefix) && Files.isRegularFile(p))
        .toList
        .sorted
    finally walk.close()
  }

  private def dataBytes(root: Path, prefix: String): Long =
    dataFiles(root, prefix).map(Files.size(_)).sum

  /** Bytes this process has read through read(2) and friends. */
  private def rchar(): Long =
    Files
      .readAllLines(Paths.get("/proc/self/io"))
      .asScala
      .find(_.startsWith("rchar:"))
      .map(_.substring(6).trim.toLong)
      .getOrElse(0L)

  private def mb(bytes: Long): String = f"${bytes / 1048576.0}%.1f MB"

  private def deleteRecursively(f: java.io.File): Unit = {
    if (f.isDirectory) Option(f.listFiles()).foreach(_.foreach(deleteRecursively))
    f.delete()
  }
}
