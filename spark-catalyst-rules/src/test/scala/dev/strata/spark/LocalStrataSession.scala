package dev.strata.spark

import java.nio.file.Path

import org.apache.spark.sql.SparkSession

/** The local Spark session every suite of this module shares per class: `local[2]` on the loopback
  * address, no UI, the Strata extensions and a Strata catalog `lake` over `warehouse`.
  */
object LocalStrataSession {

  def start(
      warehouse: Path,
      shufflePartitions: Int,
      extra: Map[String, String] = Map.empty
  ): SparkSession = {
    val builder = SparkSession
      .builder()
      .master("local[2]")
      .config("spark.ui.enabled", "false")
      .config("spark.driver.host", "127.0.0.1")
      .config("spark.driver.bindAddress", "127.0.0.1")
      .config("spark.sql.shuffle.partitions", shufflePartitions.toString)
      .config("spark.sql.extensions", classOf[StrataExtensions].getName)
      .config("spark.sql.catalog.lake", classOf[StrataCatalog].getName)
      .config("spark.sql.catalog.lake.warehouse", warehouse.toUri.toString)
    extra.foldLeft(builder) { case (b, (k, v)) => b.config(k, v) }.getOrCreate()
  }

  /** Stops the session and forgets it, so that the next suite's builder makes a fresh one. */
  def stop(spark: SparkSession): Unit = {
    if (spark != null) spark.stop()
    SparkSession.clearActiveSession()
    SparkSession.clearDefaultSession()
  }
}
