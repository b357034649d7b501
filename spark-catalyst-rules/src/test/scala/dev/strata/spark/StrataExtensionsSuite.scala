package dev.strata.spark

import java.nio.file.Files

import dev.strata.testing.TempDirs
import org.apache.spark.sql.SparkSession
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** The spark-shell configuration of the README: catalog plus extensions, on a real local session.
  */
class StrataExtensionsSuite extends AnyFunSuite with BeforeAndAfterAll {

  private lazy val root = Files.createTempDirectory("strata-ext-")
  private var spark: SparkSession = _

  override def beforeAll(): Unit = {
    spark = LocalStrataSession.start(root.resolve("wh"), 2)
  }

  override def afterAll(): Unit = {
    LocalStrataSession.stop(spark)
    TempDirs.delete(root)
  }

  test("a session configured as in the README creates, writes, compacts and reads a Strata table") {
    spark.sql("CREATE NAMESPACE lake.db")
    spark.sql(
      "CREATE TABLE lake.db.t (id BIGINT, v STRING) TBLPROPERTIES ('primary-key'='id', 'bucket'='2')"
    )
    spark.sql("INSERT INTO lake.db.t VALUES (1, 'a'), (2, 'b')")
    spark.sql("INSERT INTO lake.db.t VALUES (2, 'c')")
    val compacted = spark.sql("CALL lake.sys.compact(table => 'db.t')").collect()
    assert(compacted.map(_.getLong(4)).sum == 2L)
    val rows = spark
      .sql("SELECT id, v FROM lake.db.t ORDER BY id")
      .collect()
      .map(r => (r.getLong(0), r.getString(1)))
    assert(rows.toSeq == Seq((1L, "a"), (2L, "c")))
  }
}
