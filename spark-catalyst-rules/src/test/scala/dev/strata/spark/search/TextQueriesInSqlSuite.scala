package dev.strata.spark.search

import java.nio.file.Files

import dev.strata.spark.LocalStrataSession
import dev.strata.testing.TempDirs
import org.apache.spark.sql.{Row, SparkSession}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** Full-text queries as users write them in SQL: field-qualified Lucene queries in
  * `full_text_search` and `text_match`, `text_match` in UPDATE, DELETE and MERGE conditions, and
  * the errors of oversized queries and out-of-range `k`.
  *
  * DML oracle: each statement also runs on a copy of the table without a full-text index, with the
  * text condition written as an RLIKE over the same words; both tables must hold the same rows
  * after every statement.
  */
class TextQueriesInSqlSuite extends AnyFunSuite with BeforeAndAfterAll {

  private lazy val root = Files.createTempDirectory("strata-text-sql-")
  private var spark: SparkSession = _

  /** Bodies whose words make `"printer jammed"` and RLIKE `printer\W+jammed` agree. */
  private val bodies = Seq(
    "the printer jammed again",
    "Printer JAMMED on page two",
    "printer is jammed",
    "jammed printer in room 4",
    "paper jam in the printer",
    "printer jammed, please help",
    "monitor flickers",
    "keyboard missing keys"
  )

  private def ddl(name: String, indexed: Boolean): String =
    s"CREATE TABLE $name (id BIGINT NOT NULL, dt STRING NOT NULL, status STRING, body STRING) " +
      "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key'='id,dt', 'bucket'='2', " +
      "'deletion-vectors.enabled'='true'" +
      (if (indexed) ", 'strata-full-text.index.columns'='body')" else ")")

  private def rows(from: Int, until: Int, salt: Int): String =
    (from until until)
      .map { i =>
        val body = bodies((i * 7 + salt) % bodies.size)
        s"($i, 'd${i % 2}', 'open', '$body')"
      }
      .mkString(", ")

  override def beforeAll(): Unit = {
    spark = LocalStrataSession.start(root.resolve("wh"), 2)
    spark.sql("CREATE NAMESPACE lake.support")
    for ((t, indexed) <- Seq("tickets" -> true, "copy" -> false)) {
      spark.sql(ddl(s"lake.support.$t", indexed))
      spark.sql(s"INSERT INTO lake.support.$t VALUES ${rows(0, 40, 0)}")
      spark.sql(s"CALL lake.sys.compact(table => 'support.$t')")
      // upserts left in level 0: searched at query time, not from the archives
      spark.sql(s"INSERT INTO lake.support.$t VALUES ${rows(30, 50, 3)}")
    }
  }

  override def afterAll(): Unit = {
    LocalStrataSession.stop(spark)
    TempDirs.delete(root)
  }

  private def contents(table: String): Seq[Row] =
    spark
      .sql(s"SELECT id, dt, status, body FROM lake.support.$table ORDER BY id, dt")
      .collect()
      .toSeq

  private def sameAfter(indexedSql: String, copySql: String): Unit = {
    spark.sql(indexedSql)
    spark.sql(copySql)
    assert(contents("tickets") === contents("copy"))
  }

  private def ids(sql: String): Set[Long] = spark.sql(sql).collect().map(_.getLong(0)).toSet

  private def error(sql: String): String =
    intercept[Exception](spark.sql(sql).collect()).getMessage

  private val phrase = "\"printer jammed\""
  private val rlike = "lower(body) RLIKE '\\\\bprinter\\\\W+jammed\\\\b'"

  test("a qualifier naming the searched column is that column, in any case") {
    val plain =
      ids(s"SELECT id FROM full_text_search('lake.support.tickets', 'body', 'printer', 100)")
    assert(plain.nonEmpty)
    for (q <- Seq("body:printer", "BODY:printer", "body:(printer)", "body:print*")) {
      assert(
        ids(
          s"SELECT id FROM full_text_search('lake.support.tickets', 'body', '$q', 100)"
        ) === plain,
        q
      )
    }
    val matched = ids("SELECT id FROM lake.support.tickets WHERE text_match(body, 'body:printer')")
    assert(matched === ids("SELECT id FROM lake.support.tickets WHERE text_match(body, 'printer')"))
    assert(
      matched === ids(
        "SELECT id FROM lake.support.copy WHERE lower(body) RLIKE '\\\\bprinter\\\\b'"
      )
    )
  }

  test("a qualifier naming another field is refused naming the field, the column and the table") {
    for (
      q <- Seq(
        "id:1",
        "_key:1",
        "dt:d1",
        "printer AND status:open",
        "{\"match\":{\"column\":\"id\",\"query\":\"1\"}}"
      )
    ) {
      val field = if (q.startsWith("{")) "id" else q.split(':')(0).split(' ').last
      val quoted = q.replace("'", "\\'")
      for (
        sql <- Seq(
          s"SELECT id FROM full_text_search('lake.support.tickets', 'body', '$quoted', 10)",
          s"SELECT id FROM lake.support.tickets WHERE text_match(body, '$quoted')"
        )
      ) {
        val message = error(sql)
        assert(message.contains(s"field '$field'"), message)
        assert(message.contains("column body"), message)
        assert(message.contains("support.tickets"), message)
      }
    }
  }

  test("UPDATE with text_match in its condition changes the rows an RLIKE selects") {
    sameAfter(
      s"UPDATE lake.support.tickets SET status = 'printer' WHERE dt = 'd0' AND text_match(body, '$phrase')",
      s"UPDATE lake.support.copy SET status = 'printer' WHERE dt = 'd0' AND $rlike"
    )
    assert(spark.sql("SELECT * FROM lake.support.tickets WHERE status = 'printer'").count() > 0)
  }

  test("DELETE with text_match in its condition deletes the rows an RLIKE selects") {
    sameAfter(
      "DELETE FROM lake.support.tickets WHERE dt = 'd1' AND text_match(body, 'paper AND jam')",
      "DELETE FROM lake.support.copy WHERE dt = 'd1' AND lower(body) RLIKE '\\\\bpaper\\\\b.*\\\\bjam\\\\b'"
    )
    sameAfter(
      "DELETE FROM lake.support.tickets WHERE text_match(body, 'monitor OR keyboard') AND id % 3 = 0",
      "DELETE FROM lake.support.copy WHERE lower(body) RLIKE '\\\\b(monitor|keyboard)\\\\b' AND id % 3 = 0"
    )
  }

  test("MERGE with text_match in its clause conditions") {
    spark.sql(
      "CREATE OR REPLACE TEMP VIEW changes AS SELECT id, concat('d', id % 2) AS dt, 'merged' AS status, " +
        "'printer jammed twice' AS body FROM range(0, 60, 2)"
    )
    sameAfter(
      "MERGE INTO lake.support.tickets t USING changes s ON t.id = s.id AND t.dt = s.dt " +
        "WHEN MATCHED AND text_match(t.body, 'paper') THEN DELETE " +
        s"WHEN MATCHED AND text_match(t.body, '$phrase') THEN UPDATE SET status = s.status " +
        "WHEN NOT MATCHED THEN INSERT *",
      "MERGE INTO lake.support.copy t USING changes s ON t.id = s.id AND t.dt = s.dt " +
        "WHEN MATCHED AND lower(t.body) RLIKE '\\\\bpaper\\\\b' THEN DELETE " +
        "WHEN MATCHED AND lower(t.body) RLIKE '\\\\bprinter\\\\W+jammed\\\\b' THEN UPDATE SET status = s.status " +
        "WHEN NOT MATCHED THEN INSERT *"
    )
    assert(spark.sql("SELECT * FROM lake.support.tickets WHERE status = 'merged'").count() > 0)
  }

  test("a query too large for Lucene gets a short error saying the limit") {
    val huge = "x" * (1 << 20)
    for (
      sql <- Seq(
        s"SELECT id FROM full_text_search('lake.support.tickets', 'body', '$huge', 10)",
        s"SELECT id FROM lake.support.tickets WHERE text_match(body, '$huge')"
      )
    ) {
      val message = error(sql)
      assert(message.length < 2000, message.take(3000))
      assert(message.contains("1024"), message)
      assert(message.contains("characters in all"), message)
    }
  }

  test("k out of range says the allowed range and the value found") {
    val message =
      error(
        "SELECT id FROM full_text_search('lake.support.tickets', 'body', 'printer', 9223372036854775807)"
      )
    assert(message.contains("1 to 2147483647"), message)
    assert(message.contains("9223372036854775807"), message)
  }

  test("CALL arguments: constant expressions reach the procedure, others are refused by name") {
    // named arguments computed at analysis, with defaults left out
    val expired = spark.sql(
      "CALL lake.sys.expire_snapshots(table => 'support.copy', " +
        "older_than => date_format(current_timestamp() - INTERVAL 1 DAY, 'yyyy-MM-dd HH:mm:ss'))"
    )
    assert(expired.collect().length === 1)
    val message = error(
      "CALL lake.sys.expire_snapshots(table => 'support.copy', older_than => cast(rand() AS STRING))"
    )
    assert(message.contains("Cannot call lake.sys.expire_snapshots"), message)
    assert(message.contains("argument older_than must be a constant"), message)
  }

  test("the index follows a rename of its column: the same archives answer under the new name") {
    spark.sql(
      "CREATE TABLE lake.support.renamed (id BIGINT NOT NULL, body STRING) TBLPROPERTIES " +
        "('primary-key'='id', 'bucket'='2', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='body')"
    )
    spark.sql(
      "INSERT INTO lake.support.renamed VALUES (1, 'red apple'), (2, 'green apple'), (3, 'blue sky')"
    )
    def archives(): Seq[Row] = spark
      .sql("SELECT archive, state FROM lake.support.`renamed$fulltext` ORDER BY archive")
      .collect()
      .toSeq
    val before = archives()
    assert(before.nonEmpty && before.forall(_.getString(1) == "current"), before)

    spark.sql("ALTER TABLE lake.support.renamed RENAME COLUMN body TO text")
    val options = spark
      .sql("SHOW TBLPROPERTIES lake.support.renamed")
      .collect()
      .map(r => r.getString(0) -> r.getString(1))
      .toMap
    assert(options("strata-full-text.index.columns") == "text", options)
    assert(archives() == before)
    def ids(q: String): Seq[Long] = spark.sql(q).collect().map(_.getLong(0)).toSeq
    assert(
      ids("SELECT id FROM lake.support.renamed WHERE text_match(text, 'apple') ORDER BY id") ==
        Seq(1L, 2L)
    )
    assert(
      ids(
        "SELECT id FROM full_text_search('lake.support.renamed', 'text', 'apple', 5) ORDER BY id"
      ) == Seq(1L, 2L)
    )
    spark.sql("INSERT INTO lake.support.renamed VALUES (4, 'apple pie')")
    assert(
      ids("SELECT id FROM lake.support.renamed WHERE text_match(text, 'apple') ORDER BY id") ==
        Seq(1L, 2L, 4L)
    )

    // Dropping the indexed column, or changing its type, still says what to do first.
    val drop = intercept[Exception](spark.sql("ALTER TABLE lake.support.renamed DROP COLUMN text"))
    assert(
      drop.getMessage.contains(
        "Cannot drop column lake.support.renamed.text: it is the primary-key full-text index column"
      ),
      drop.getMessage
    )
  }

  test(
    "a CHAR(n) column's padding is not part of its text: the keyword analyzer finds its values"
  ) {
    spark.sql(
      "CREATE TABLE lake.support.codes (id BIGINT NOT NULL, code CHAR(12)) TBLPROPERTIES " +
        "('primary-key'='id', 'bucket'='1', 'deletion-vectors.enabled'='true', " +
        "'strata-full-text.index.columns'='code', " +
        "'fields.code.strata-full-text.index.options'='{\"analyzer\": \"keyword\"}')"
    )
    spark.sql(
      "INSERT INTO lake.support.codes VALUES (1, 'disk'), (2, 'disk failure'), (3, ' disk'), " +
        "(4, 'Disk'), (5, 'diskette'), (6, NULL)"
    )
    def ids(q: String): Seq[Long] = spark.sql(q).collect().map(_.getLong(0)).toSeq.sorted
    // Spark's `=` on a CHAR column ignores the padding; lower-cased, as the analyzer is.
    val oracle = ids("SELECT id FROM lake.support.codes WHERE code = 'disk' OR code = 'Disk'")
    assert(oracle == Seq(1L, 4L))
    def check(stage: String): Unit = {
      assert(
        ids("SELECT id FROM full_text_search('lake.support.codes', 'code', 'disk', 10)") == oracle,
        stage
      )
      assert(
        ids("SELECT id FROM lake.support.codes WHERE text_match(code, 'disk')") == oracle,
        stage
      )
      // Matched row by row (an OR with another condition is not answered from the index).
      assert(
        ids("SELECT id FROM lake.support.codes WHERE text_match(code, 'disk') OR id = 6") ==
          oracle :+ 6L,
        stage
      )
      assert(
        ids(
          "SELECT id FROM full_text_search('lake.support.codes', 'code', '\"disk failure\"', 10)"
        ) ==
          Seq(2L),
        stage
      )
    }
    check("rows indexed at query time")
    spark.sql("CALL lake.sys.compact(table => 'support.codes')")
    check("rows in archives")
  }
}
