package dev.strata.spark.pushdown.bench

import java.lang.management.{ManagementFactory, MemoryType}
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import dev.strata.shredding.ShreddingOptions
import dev.strata.shredding.layout.{ArrowSchemaFooter, ShreddingFooter}
import dev.strata.spark.{StrataCatalog, StrataExtensions}
import dev.strata.testing.TempDirs

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.spark.sql.SparkSession

/** The map-key pushdown benchmark of issues 13 and 26, a main class (not a test), run in a fresh
  * JVM each time: `SELECT count(*), avg(m['k']) FROM t WHERE m['k'] > x` for a key present in every
  * row ("hot") and a rare key (<= 2 % of rows), selective (x = 99, ~1 % of the values) and broad (x
  * \= 50), over
  *
  *   - (a) a Strata table created as a user would: `TBLPROPERTIES ('fields.m.map.storage-layout' =
  *     'shared-shredding')` and nothing else (default row groups, file sizes, placement policy,
  *     compression), filled by one `INSERT INTO ... SELECT`;
  *   - (p) the same table without the option (Paimon's default MAP layout), for bytes on disk;
  *   - (b) Spark's parquet table with a plain MAP column (`CREATE TABLE ... USING parquet AS
  *     SELECT`);
  *   - (c) a flattened parquet table with the hot and the rare key as their own columns (the
  *     physical limit);
  *   - (v) Spark's parquet table with the map as a shredded VARIANT (`to_variant_object(m)`,
  *     written with `spark.sql.variant.writeShredding.enabled` and
  *     `spark.sql.variant.inferShreddingSchema`), queried with `variant_get(v, '$.k', 'double')`:
  *     what a Spark 4.1 user picks instead.
  *
  * Data shapes (`strata.bench.datasets`, default `independent,correlated,longtail`), made by Spark
  * SQL from `range(rows)`; every value is a function of (seed, row id, key), so a seed fixes the
  * data; values are DOUBLEs in [0, 100) with `decimals` decimals (the value cardinality):
  *
  *   - `independent`: `hot` plus `width - 1` blocks of `block` keys (`k_<n>`); each row draws one
  *     key from each block (a block contributes with probability `density`; inside a block key j is
  *     drawn as `floor(block * u^(1 + skew))`), so keys co-occur at random. Defaults: width 40,
  *     block 50 (~2 000 keys), density 1, skew 0, 4 decimals; rare key `k_57` (1 row in 50).
  *   - `correlated`: `types` device types (default 60, drawn as `floor(types * u^(1 + skew))`),
  *     each with its own `width - 1` keys `d<t>_<i>` (each present with probability `density`) plus
  *     `hot`. Defaults: width 40, density 1, skew 0, 2 decimals; rare key `d0_1` (type 0: 1 row in
  *     60).
  *   - `longtail` (observability): six keys in every row (`cpu` = hot; `mem` NULL in 5 % of rows,
  *     `disk` NaN in 3 %, `err` NULL in 50 %, `net`, `load`), then `width - 6` draws from a tail of
  *     `universe` keys `t_<n>` drawn as `floor(universe * u^(1 + skew))` (duplicates dropped), plus
  *     `rare` in 1 row in 200. Defaults: width 50, universe 3 000, skew 1, 3 decimals.
  *   - `high` / `low`: the issue-13 data sets (rows cycling over families of consecutive keys).
  *
  * Options (system properties, `strata.bench.` prefix): `rows` (default 300 000; the issue's size
  * is 2 000 000), `runs` (best of, after one warm-up), `seed` (default 26), `dir` (default a temp
  * dir, deleted at the end), `datasets`; per shape, overriding its defaults: `width`, `block`,
  * `types`, `universe`, `density`, `skew`, `decimals`. `row-group` / `policy`: a tuned table (a+)
  * with `file.block-size` and / or the placement policy as an extra column. `writeRounds` (default
  * 3): (a) and (b) written again that many times in alternating order, their median write speed
  * printed beside the first writes' (which depend on what the JVM ran before). `variant=false`
  * skips (v). `universes=2000,20000,200000`: instead, the key-universe mode (footer share per
  * universe).
  *
  * Printed per shape: write time of each table (and write speed of (a) vs (b)), bytes on disk of
  * each layout (and (a) vs (b) and (p)), the hot and rare key's row share, K per file; per query:
  * best time of each table, a/c, b/a, v/a, bytes read (the JVM's `rchar` from /proc/self/io around
  * the run: every byte pulled from files, page cache or not) and the heap peak: the sum over the
  * JVM's heap pools of `MemoryPoolMXBean.getPeakUsage` (peaks reset before the run) minus the heap
  * in use before it. The session is `local[2]`, so this is the peak of the two tasks running at
  * once plus the driver, and, since the pools' peaks include garbage not yet collected, an upper
  * bound of their live heap; it is not Spark's `peakExecutionMemory`. Timings on a loaded machine
  * are only comparable side by side within one run.
  */
object MapPushdownBenchmark {

  private var writePathsWarm = false

  private val Universe = 2000

  /** One data shape: `select` makes `(id BIGINT, m MAP<STRING, DOUBLE>)`; `hot` is in every row. */
  private final case class Shape(
      name: String,
      tag: String,
      select: Int => String,
      hot: String,
      rare: String
  )

  private def prop(name: String): Option[String] = Option(System.getProperty(s"strata.bench.$name"))
  private def intProp(name: String, default: Int): Int =
    prop(name).map(_.trim.toInt).getOrElse(default)
  private def doubleProp(name: String, default: Double): Double =
    prop(name).map(_.trim.toDouble).getOrElse(default)

  private def seed: Int = intProp("seed", 26)

  /** A uniform draw in [0, 1) from (seed, row id, parts). */
  private def u(parts: String*): String =
    s"(pmod(hash($seed, id, ${parts.mkString(", ")}), 1000003) / 1000003.0D)"

  /** A value in [0, 100) with `decimals` decimals for key expression `k` of row `id`. */
  private def value(k: String, decimals: Int): String = {
    val scale = math.pow(10, decimals).toLong
    s"CAST(pmod(hash($seed, id, $k, 'v'), ${100L * scale}) / ${scale}D AS DOUBLE)"
  }

  /** Rows of keys (an `ARRAY<STRING>` expression `keys`) with per-key values, as `m`. */
  private def mapOf(keys: String, decimals: Int, rows: Int, special: String = ""): String =
    s"""SELECT id, map_from_entries(transform(array_distinct($keys), k -> struct(k,
       |  ${if (special.isEmpty) value("k", decimals)
      else s"CASE $special ELSE ${value("k", decimals)} END"})))
       |  AS m FROM range($rows)""".stripMargin

  private def independent: Shape = {
    val width = intProp("width", 40)
    val block = intProp("block", 50)
    val density = doubleProp("density", 1.0)
    val skew = doubleProp("skew", 0.0)
    val decimals = intProp("decimals", 4)
    val blocks = width - 1
    val keys =
      s"""concat(array('hot'), filter(transform(sequence(0, ${blocks - 1}), b ->
         |  CASE WHEN ${u("b", "'d'")} < $density THEN
         |    concat('k_', cast(b * $block + cast(floor($block * pow(${u(
          "b",
          "'j'"
        )}, ${1 + skew})) AS INT) AS STRING))
         |  END), x -> x IS NOT NULL))""".stripMargin
    Shape(
      s"independent sparse keys ($blocks blocks of $block keys + hot, density $density, skew $skew, $decimals decimals)",
      "ind",
      rows => mapOf(keys, decimals, rows),
      "hot",
      s"k_${block + 7}"
    )
  }

  private def correlated: Shape = {
    val width = intProp("width", 40)
    val types = intProp("types", 60)
    val density = doubleProp("density", 1.0)
    val skew = doubleProp("skew", 0.0)
    val decimals = intProp("decimals", 2)
    val keys =
      s"""concat(array('hot'), filter(transform(sequence(1, ${width - 1}), i ->
         |  CASE WHEN i = 1 OR ${u("i", "'d'")} < $density THEN
         |    concat('d', cast(cast(floor($types * pow(${u(
          "'t'"
        )}, ${1 + skew})) AS INT) AS STRING), '_', cast(i AS STRING))
         |  END), x -> x IS NOT NULL))""".stripMargin
    Shape(
      s"correlated key sets ($types device types x ${width - 1} own keys + hot, density $density, skew $skew, $decimals decimals)",
      "cor",
      rows => mapOf(keys, decimals, rows),
      "hot",
      "d0_1"
    )
  }

  private def longTail: Shape = {
    val width = intProp("width", 50)
    val universe = intProp("universe", 3000)
    val skew = doubleProp("skew", 1.0)
    val decimals = intProp("decimals", 3)
    val keys =
      s"""concat(array('cpu', 'mem', 'disk', 'net', 'load', 'err'),
         |  transform(sequence(0, ${width - 7}), i ->
         |    concat('t_', cast(cast(floor($universe * pow(${u(
          "i",
          "'t'"
        )}, ${1 + skew})) AS INT) AS STRING))),
         |  CASE WHEN ${u(
          "'r'"
        )} < 0.005 THEN array('rare') ELSE CAST(array() AS ARRAY<STRING>) END)""".stripMargin
    val special =
      s"""WHEN k = 'mem' AND ${u("'mem'")} < 0.05 THEN CAST(NULL AS DOUBLE)
         |  WHEN k = 'disk' AND ${u("'disk'")} < 0.03 THEN CAST('NaN' AS DOUBLE)
         |  WHEN k = 'err' AND ${u("'err'")} < 0.5 THEN CAST(NULL AS DOUBLE)""".stripMargin
    Shape(
      s"observability long tail (6 keys in every row with NULLs and NaN, ${width - 6} draws from $universe keys, skew $skew, $decimals decimals)",
      "tail",
      rows => mapOf(keys, decimals, rows, special),
      "cpu",
      "rare"
    )
  }

  private final case class DataSet(name: String, width: Int, value: String, universe: Int) {
    def families: Int = math.max(1, universe / width)

    def sql(rows: Int): String =
      s"""SELECT id, map_from_arrays(
         |  transform(sequence(0, ${width - 1}), i -> CASE WHEN i = 0 THEN 'hot' WHEN i = 1 AND id % 1000 = 7 THEN 'rare'
         |    ELSE concat('key_', cast((id % $families) * $width + i AS STRING)) END),
         |  transform(sequence(0, ${width - 1}), i -> CAST($value AS DOUBLE))) AS m FROM range($rows)""".stripMargin

    def shape: Shape =
      Shape(
        s"$name, universe ${width * families} keys + hot, rare",
        if (width == 40) "high" else "low",
        sql,
        "hot",
        "rare"
      )
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
      .config("spark.sql.variant.writeShredding.enabled", "true")
      .config("spark.sql.variant.inferShreddingSchema", "true")
      .getOrCreate()
    try {
      spark.sql("CREATE NAMESPACE IF NOT EXISTS lake.bench")
      println(
        f"[bench] rows=$rows%,d runs=$runs seed=$seed local[2] max heap ${Runtime.getRuntime.maxMemory / 1048576}%d MB " +
          f"load average ${ManagementFactory.getOperatingSystemMXBean.getSystemLoadAverage}%.1f " +
          "(timings on a loaded machine compare only side by side within this run)"
      )
      universes match {
        case Some(us) => universeMode(spark, dir, rows, runs, us)
        case None =>
          val shapes =
            System
              .getProperty("strata.bench.datasets", "independent,correlated,longtail")
              .split(",")
              .map(_.trim)
              .map {
                case "independent" => independent
                case "correlated"  => correlated
                case "longtail"    => longTail
                case "high"        => high(Universe).shape
                case "low"         => low.shape
                case other =>
                  throw new IllegalArgumentException(
                    s"Cannot run data set '$other' of strata.bench.datasets: expected independent, correlated, " +
                      "longtail, high or low. Use e.g. independent,correlated,longtail."
                  )
              }
          for (shape <- shapes) defaultMode(spark, dir, rows, runs, shape)
      }
    } finally {
      spark.stop()
      if (System.getProperty("strata.bench.dir") == null) TempDirs.delete(dir)
    }
  }

  private def defaultMode(
      spark: SparkSession,
      dir: Path,
      rows: Int,
      runs: Int,
      shape: Shape
  ): Unit = {
    val tag = shape.tag
    val rowGroup = prop("row-group")
    val policy = prop("policy")
    val tuned = rowGroup.isDefined || policy.isDefined
    val withVariant = prop("variant").forall(_.toBoolean)
    // Generated once into parquet, so every write reads the same rows and no write pays for the
    // (interpreted) generator.
    val srcTable = s"spark_catalog.default.${tag}_src"
    spark.sql(s"DROP TABLE IF EXISTS $srcTable")
    val generate =
      time(spark.sql(s"CREATE TABLE $srcTable USING parquet AS ${shape.select(rows)}").collect())
    spark.table(srcTable).createOrReplaceTempView("src")
    val share = spark
      .sql(
        s"SELECT avg(size(m)), avg(CASE WHEN array_contains(map_keys(m), '${shape.hot}') THEN 1 ELSE 0 END), " +
          s"avg(CASE WHEN array_contains(map_keys(m), '${shape.rare}') THEN 1 ELSE 0 END), " +
          "(SELECT count(DISTINCT k) FROM src LATERAL VIEW explode(map_keys(m)) e AS k) FROM src"
      )
      .collect()
      .head
    println(
      f"\n[bench] data set: ${shape.name}; ${share.getDouble(0)}%.1f keys a row, ${share.getLong(3)}%,d distinct keys; " +
        f"'${shape.hot}' in ${100 * share
            .getDouble(1)}%.1f %% of rows, '${shape.rare}' in ${100 * share.getDouble(2)}%.2f %%; " +
        f"generated in $generate%.1f s (every write below reads these rows from parquet)"
    )

    val shred = s"lake.bench.${tag}_shred"
    val paimon = s"lake.bench.${tag}_paimon"
    val tunedTable = s"lake.bench.${tag}_tuned"
    val map = s"spark_catalog.default.${tag}_map"
    val flat = s"spark_catalog.default.${tag}_flat"
    val variant = s"spark_catalog.default.${tag}_variant"
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
    // The first table a fresh JVM writes also pays for compiling its write path (~4-5 s at 2M
    // rows), which made whichever table came first look slower: every write path is warmed once.
    if (!writePathsWarm) {
      val warmRows = math.min(rows, 100000L)
      for ((table, ddl) <- writes) {
        val warm = table + "_warm"
        spark.sql(s"DROP TABLE IF EXISTS $warm")
        spark.sql(ddl.replace(table, warm))
        spark.sql(s"INSERT INTO $warm SELECT * FROM src LIMIT $warmRows").collect()
        spark.sql(s"DROP TABLE $warm")
      }
      spark.sql(s"DROP TABLE IF EXISTS ${map}_warm")
      spark
        .sql(s"CREATE TABLE ${map}_warm USING parquet AS SELECT * FROM src LIMIT $warmRows")
        .collect()
      spark.sql(s"DROP TABLE ${map}_warm")
      writePathsWarm = true
    }
    val seconds = scala.collection.mutable.LinkedHashMap[String, Double]()
    for ((table, ddl) <- writes) {
      spark.sql(s"DROP TABLE IF EXISTS $table")
      spark.sql(ddl)
      seconds(table) = time(spark.sql(s"INSERT INTO $table SELECT * FROM src").collect())
    }
    for (
      (table, select) <- Seq(
        map -> "SELECT * FROM src",
        flat -> s"SELECT id, m['${shape.hot}'] AS hot, m['${shape.rare}'] AS rare FROM src"
      ) ++ (if (withVariant) Seq(variant -> "SELECT id, to_variant_object(m) AS v FROM src")
            else Nil)
    ) {
      spark.sql(s"DROP TABLE IF EXISTS $table")
      seconds(table) = time(spark.sql(s"CREATE TABLE $table USING parquet AS $select").collect())
    }
    // One timed write of each table depends on what the JVM did before it; the speed ratio is
    // also taken as the median of rounds writing (a) and (b) again, in alternating order.
    val writeRounds = intProp("writeRounds", 3)
    val again = scala.collection.mutable.Map[String, Seq[Double]]().withDefaultValue(Nil)
    for (round <- 0 until writeRounds) {
      val order = if (round % 2 == 0) Seq(map, shred) else Seq(shred, map)
      for (table <- order) {
        val scratch = table + "_again"
        spark.sql(s"DROP TABLE IF EXISTS $scratch")
        val t =
          if (table == map)
            time(spark.sql(s"CREATE TABLE $scratch USING parquet AS SELECT * FROM src").collect())
          else {
            spark.sql(writes.head._2.replace(shred, scratch))
            time(spark.sql(s"INSERT INTO $scratch SELECT * FROM src").collect())
          }
        spark.sql(s"DROP TABLE $scratch")
        again(table) = again(table) :+ t
      }
    }
    def median(xs: Seq[Double]): Double = xs.sorted.apply(xs.size / 2)
    val lake = dir.resolve("lake").resolve("bench.db")
    val onDisk = Map(
      shred -> dataBytes(lake.resolve(s"${tag}_shred"), "data-"),
      paimon -> dataBytes(lake.resolve(s"${tag}_paimon"), "data-"),
      tunedTable -> dataBytes(lake.resolve(s"${tag}_tuned"), "data-"),
      map -> dataBytes(dir.resolve("spark").resolve(s"${tag}_map"), "part-"),
      flat -> dataBytes(dir.resolve("spark").resolve(s"${tag}_flat"), "part-"),
      variant -> dataBytes(dir.resolve("spark").resolve(s"${tag}_variant"), "part-")
    )
    val files = dataFiles(lake.resolve(s"${tag}_shred"), "data-")
    val ks = files
      .map(f => ShreddingFooter.decode(footer(f)._1, "m", f.toString).numColumns())
      .mkString(",")
    println(
      f"[bench] write: (a) strata ${seconds(shred)}%.1f s, (p) paimon default layout ${seconds(paimon)}%.1f s, " +
        f"(b) parquet map ${seconds(map)}%.1f s, (c) flattened ${seconds(flat)}%.1f s" +
        (if (withVariant) f", (v) shredded variant ${seconds(variant)}%.1f s" else "") +
        f"; write speed a vs b ${seconds(map) / seconds(shred)}%.2fx" +
        (if (writeRounds > 0)
           f"; then $writeRounds alternating rounds: (a) ${again(shred).map(t => f"$t%.1f").mkString("/")} s, " +
             f"(b) ${again(map).map(t => f"$t%.1f").mkString("/")} s, write speed a vs b (medians) " +
             f"${median(again(map)) / median(again(shred))}%.2fx"
         else "") +
        (if (tuned) f", (a+) tuned ${seconds(tunedTable)}%.1f s" else "")
    )
    println(
      s"[bench] bytes on disk: (a) strata ${mb(onDisk(shred))} in ${files.size} files (K = $ks), " +
        s"(p) paimon default layout ${mb(onDisk(paimon))}, (b) parquet map ${mb(onDisk(map))}, (c) flattened ${mb(onDisk(flat))}" +
        (if (withVariant) s", (v) shredded variant ${mb(onDisk(variant))}" else "") +
        f"; a/p ${onDisk(shred).toDouble / onDisk(paimon)}%.2fx, a/b ${onDisk(shred).toDouble / onDisk(map)}%.2fx, " +
        f"a/min(b, p) ${onDisk(shred).toDouble / math.min(onDisk(map), onDisk(paimon))}%.2fx" +
        (if (tuned)
           f", (a+) tuned ${mb(onDisk(tunedTable))} (${onDisk(tunedTable).toDouble / onDisk(paimon)}%.2fx of p)"
         else "")
    )

    val cases = Seq(
      (s"hot key '${shape.hot}', selective", shape.hot, "hot", 99),
      (s"hot key '${shape.hot}', broad", shape.hot, "hot", 50),
      (s"rare key '${shape.rare}', selective", shape.rare, "rare", 99),
      (s"rare key '${shape.rare}', broad", shape.rare, "rare", 50)
    )
    println(
      "| query | (a) strata | (b) parquet map | (c) flattened | (v) variant | a/c | b/a | v/a | bytes read a / b / c / v | heap peak a / b / c / v |" +
        (if (tuned) " (a+) tuned | a+/c | bytes a+ |" else "")
    )
    println("|---|---|---|---|---|---|---|---|---|---|" + (if (tuned) "---|---|---|" else ""))
    for ((name, key, column, x) <- cases) {
      val a =
        measure(spark, s"SELECT count(*), avg(m['$key']) FROM $shred WHERE m['$key'] > $x", runs)
      val b =
        measure(spark, s"SELECT count(*), avg(m['$key']) FROM $map WHERE m['$key'] > $x", runs)
      val c = measure(spark, s"SELECT count(*), avg($column) FROM $flat WHERE $column > $x", runs)
      val v =
        if (withVariant)
          measure(
            spark,
            s"SELECT count(*), avg(variant_get(v, '$$.$key', 'double')) FROM $variant " +
              s"WHERE variant_get(v, '$$.$key', 'double') > $x",
            runs
          )
        else c
      require(
        a.answer == b.answer && b.answer == c.answer && c.answer == v.answer,
        s"Cannot report $name: answers differ (a ${a.answer}, b ${b.answer}, c ${c.answer}, v ${v.answer})"
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
      def vs(f: Result => String) = if (withVariant) f(v) else "-"
      println(
        f"| $name | ${a.seconds}%.3f s | ${b.seconds}%.3f s | ${c.seconds}%.3f s | ${vs(r => f"${r.seconds}%.3f s")} | " +
          f"${a.seconds / c.seconds}%.2fx | ${b.seconds / a.seconds}%.2fx | ${vs(r => f"${r.seconds / a.seconds}%.2fx")} | " +
          s"${mb(a.bytes)} / ${mb(b.bytes)} / ${mb(c.bytes)} / ${vs(r => mb(r.bytes))} | " +
          s"${mb(a.heap)} / ${mb(b.heap)} / ${mb(c.heap)} / ${vs(r => mb(r.heap))} |$extra"
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
}
