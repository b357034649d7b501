package dev.strata.spark

import java.nio.file.Path

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.SparkSession

/** A suite's own session (SQL settings, catalogs, views) over the test JVM's one Spark context
  * ([[SharedSpark]]): `local[2]` on the loopback address, no UI, the Strata extensions, and a
  * Strata catalog `lake` over `warehouse`.
  */
object LocalStrataSession {

  private val context = Map("spark.sql.extensions" -> classOf[StrataExtensions].getName)

  def start(
      warehouse: Path,
      shufflePartitions: Int,
      extra: Map[String, String] = Map.empty
  ): SparkSession = {
    val conf = Map(
      "spark.sql.shuffle.partitions" -> shufflePartitions.toString,
      "spark.sql.catalog.lake" -> classOf[StrataCatalog].getName,
      "spark.sql.catalog.lake.warehouse" -> warehouse.toUri.toString
    ) ++ extra
    SharedSpark.newSession(context.asJava, conf.asJava)
  }

  /** Drops what the suite left in the context's shared parts; the context keeps running. */
  def stop(spark: SparkSession): Unit = SharedSpark.release(spark)
}
