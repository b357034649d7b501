package dev.strata.spark.pushdown

import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import dev.strata.spark.LocalStrataSession
import dev.strata.testing.TempDirs
import dev.strata.testing.maps.GeneratedMap

import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.apache.spark.sql.execution.datasources.v2.{BatchScanExec, DataSourceV2ScanRelation}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** A local Spark session per suite (over the JVM's one context, [[LocalStrataSession]]) with the
  * Strata extensions, a Strata catalog `lake` over a fresh warehouse, and Spark's session catalog
  * for parquet oracle tables.
  */
abstract class PushdownSuiteBase extends AnyFunSuite with BeforeAndAfterAll {

  protected var spark: SparkSession = _
  protected var root: Path = _

  override def beforeAll(): Unit = {
    super.beforeAll()
    root = Files.createTempDirectory("strata-pushdown-")
    spark = LocalStrataSession.start(
      root.resolve("warehouse"),
      2,
      Map("spark.sql.session.timeZone" -> "UTC")
    )
  }

  override def afterAll(): Unit = {
    try {
      LocalStrataSession.stop(spark)
      TempDirs.delete(root)
    } finally super.afterAll()
  }

  protected def sql(query: String): DataFrame = spark.sql(query)

  /** Rows as sorted strings, for order-insensitive exact comparisons (doubles print exactly). */
  protected def rowsOf(df: DataFrame): Seq[String] = df.collect().toSeq.map(rowText).sorted

  protected def rowText(r: Row): String = r.toSeq
    .map {
      case m: scala.collection.Map[_, _] =>
        m.toSeq.map { case (k, v) => s"$k->$v" }.sorted.mkString("{", ",", "}")
      case v => String.valueOf(v)
    }
    .mkString("|")

  /** Descriptions of every Strata scan of a query, subqueries included. */
  protected def scans(df: DataFrame): Seq[String] =
    df.queryExecution.optimizedPlan.collectWithSubqueries { case s: DataSourceV2ScanRelation =>
      s.scan.description()
    }

  /** The executed scan nodes (run the query first, with adaptive execution off). */
  protected def scanNodes(df: DataFrame): Seq[BatchScanExec] =
    df.queryExecution.executedPlan.collect { case b: BatchScanExec => b }

  protected def toMap(m: GeneratedMap): java.util.Map[String, Object] =
    if (m.isNull) null else m.lastValueByKey()

  protected def mapColumn(m: GeneratedMap): Map[String, Any] =
    if (m.isNull) null else m.lastValueByKey().asScala.toMap
}
