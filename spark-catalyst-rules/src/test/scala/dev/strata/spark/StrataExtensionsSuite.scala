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

  test("a NULL written into a NOT NULL column names the table and the column, and writes nothing") {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS lake.nn")
    spark.sql(
      "CREATE TABLE lake.nn.t (id BIGINT, s STRUCT<f: INT NOT NULL>, v INT NOT NULL, w INT) " +
        "TBLPROPERTIES ('primary-key'='id', 'bucket'='1')"
    )
    spark.sql("INSERT INTO lake.nn.t VALUES (1, named_struct('f', 1), 1, 1)")
    spark.sql(
      "CREATE TEMPORARY VIEW nn_src AS SELECT * FROM VALUES " +
        "(CAST(NULL AS BIGINT), named_struct('f', 1), 2, 2), (2, named_struct('f', 2), 2, 2) " +
        "AS src(id, s, v, w)"
    )
    def failure(statement: String): String = {
      val e = intercept[Exception](spark.sql(statement).collect())
      Iterator
        .iterate[Throwable](e)(_.getCause)
        .takeWhile(_ != null)
        .map(_.getMessage)
        .mkString("\n")
    }
    val key =
      "Cannot write NULL into primary-key column id of lake.nn.t: Paimon keys every row by " +
        "its primary key, so its columns are NOT NULL. Leave those rows out (WHERE id IS NOT NULL)"
    assert(failure("INSERT INTO lake.nn.t SELECT * FROM nn_src").contains(key))
    assert(failure("INSERT INTO lake.nn.t VALUES (NULL, named_struct('f', 1), 1, 1)").contains(key))
    assert(
      failure(
        "MERGE INTO lake.nn.t t USING nn_src s ON t.id = s.id WHEN NOT MATCHED THEN INSERT *"
      ).contains(key)
    )
    assert(
      failure("INSERT INTO lake.nn.t VALUES (3, named_struct('f', 1), CAST(NULL AS INT), 1)")
        .contains("Cannot write NULL into column v of lake.nn.t: it is declared NOT NULL.")
    )
    assert(
      failure("UPDATE lake.nn.t SET v = CAST(NULL AS INT) WHERE id = 1")
        .contains("Cannot write NULL into column v of lake.nn.t: it is declared NOT NULL.")
    )
    assert(
      failure("INSERT INTO lake.nn.t VALUES (3, named_struct('f', CAST(NULL AS INT)), 1, 1)")
        .contains("Cannot write NULL into field s.f of lake.nn.t: it is declared NOT NULL.")
    )
    val rows = spark.sql("SELECT id, s.f, v, w FROM lake.nn.t").collect().map(_.toString)
    assert(rows.toSeq == Seq("[1,1,1,1]"))
  }
}
