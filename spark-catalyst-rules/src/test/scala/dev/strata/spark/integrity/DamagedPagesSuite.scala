package dev.strata.spark.integrity

import java.io.ByteArrayInputStream
import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import dev.strata.shredding.parquet.PaimonFiles
import dev.strata.spark.pushdown.PushdownSuiteBase
import dev.strata.testing.DefaultSparkOnly

import org.apache.paimon.fs.local.LocalFileIO
import org.apache.parquet.format.Util
import org.apache.parquet.hadoop.ParquetFileReader

/** One flipped byte inside a data page of a table's data file: every query that reads the page
  * fails with an error naming the file, the column and the row group, and none returns an answer.
  * Covers shredded append tables (Strata's row reader and its columnar reader, with and without a
  * pushed map predicate), plain Parquet append tables and primary-key tables (Paimon's readers).
  * Every page of the files Strata writes carries its CRC.
  */
@DefaultSparkOnly
class DamagedPagesSuite extends PushdownSuiteBase {

  private val Rows = 20000L
  private val IdSum = Rows * (Rows - 1) / 2

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql("CREATE NAMESPACE IF NOT EXISTS lake.dmg")
  }

  private def tableDir(table: String): Path =
    root.resolve("warehouse").resolve("dmg.db").resolve(table)

  /** The data files of a table (each written by one task, so one file per insert). */
  private def dataFiles(table: String): Seq[Path] = {
    val walk = Files.walk(tableDir(table))
    try
      walk
        .iterator()
        .asScala
        .filter(p => Files.isRegularFile(p) && p.getFileName.toString.startsWith("data-"))
        .toList
    finally walk.close()
  }

  private def pageHeaders(file: Path): Seq[(String, org.apache.parquet.format.PageHeader)] = {
    val bytes = Files.readAllBytes(file)
    val reader = ParquetFileReader.open(
      PaimonFiles
        .inputFile(LocalFileIO.create(), new org.apache.paimon.fs.Path(file.toUri), bytes.length),
      PaimonFiles.readOptions()
    )
    try {
      for {
        block <- reader.getFooter.getBlocks.asScala.toSeq
        chunk <- block.getColumns.asScala.toSeq
        header <- {
          val in =
            new ByteArrayInputStream(bytes, chunk.getStartingPos.toInt, chunk.getTotalSize.toInt)
          var values = 0L
          val out = Seq.newBuilder[org.apache.parquet.format.PageHeader]
          while (values < chunk.getValueCount) {
            val h = Util.readPageHeader(in)
            if (h.isSetData_page_header) values += h.getData_page_header.getNum_values
            if (h.isSetData_page_header_v2) values += h.getData_page_header_v2.getNum_values
            in.skip(h.getCompressed_page_size)
            out += h
          }
          out.result()
        }
      } yield chunk.getPath.toDotString -> header
    } finally reader.close()
  }

  /** Flips one byte in the middle of the first data page of `column` (row group 0), inside the page
    * data.
    */
  private def flipInDataPage(file: Path, column: String): Unit = {
    val bytes = Files.readAllBytes(file)
    val reader = ParquetFileReader.open(
      PaimonFiles
        .inputFile(LocalFileIO.create(), new org.apache.paimon.fs.Path(file.toUri), bytes.length),
      PaimonFiles.readOptions()
    )
    val chunk =
      try
        reader.getFooter.getBlocks
          .get(0)
          .getColumns
          .asScala
          .find(_.getPath.toDotString == column)
          .get
      finally reader.close()
    val offset = chunk.getFirstDataPageOffset.toInt
    val in = new ByteArrayInputStream(bytes, offset, bytes.length - offset)
    val header = Util.readPageHeader(in)
    assert(
      header.isSetData_page_header || header.isSetData_page_header_v2,
      s"a data page at $offset of $file"
    )
    val dataStart = bytes.length - in.available()
    bytes(dataStart + header.getCompressed_page_size / 2) =
      (bytes(dataStart + header.getCompressed_page_size / 2) ^ 0x04).toByte
    Files.write(file, bytes)
  }

  private def messages(t: Throwable): Seq[String] =
    Iterator
      .iterate(t)(_.getCause)
      .takeWhile(_ != null)
      .take(20)
      .map(e => String.valueOf(e.getMessage))
      .toSeq

  /** Runs the query and expects it to fail naming the file, column and row group of the damaged
    * page.
    */
  private def assertDamageReported(query: String, file: Path, column: String): Unit = {
    val thrown = intercept[Throwable](sql(query).collect())
    val all = messages(thrown)
    val expected = s"page checksum mismatch in column $column, row group 0"
    assert(
      all.exists(m =>
        m.contains(file.getFileName.toString) && m.contains(expected) &&
          m.contains("The file is damaged")
      ),
      s"$query: expected an error naming $file and '$expected', got:\n" +
        all.mkString("\n---\n")
    )
  }

  private def withColumnar[T](on: Boolean)(body: => T): T = {
    spark.conf.set("spark.sql.strata.columnarReads.enabled", on.toString)
    try body
    finally spark.conf.unset("spark.sql.strata.columnarReads.enabled")
  }

  test("a damaged page of a shredded file fails every query that reads it, columnar or not") {
    sql(
      "CREATE TABLE lake.dmg.shr (id BIGINT, m MAP<STRING, BIGINT>) TBLPROPERTIES (" +
        "'fields.m.map.storage-layout' = 'shared-shredding', " +
        "'fields.m.strata-shredded.column-placement-policy' = 'stable')"
    )
    sql(s"INSERT INTO lake.dmg.shr SELECT id, map('a', id, 'b', id * 2) FROM range(0, $Rows, 1, 1)")
    val Seq(file) = dataFiles("shr")
    val headers = pageHeaders(file)
    assert(
      headers.exists(_._2.isSetData_page_header) && headers.forall(_._2.isSetCrc),
      s"every page of $file has a CRC"
    )
    val queries = Seq(
      "SELECT sum(id) FROM lake.dmg.shr",
      "SELECT sum(id), sum(m['a']) FROM lake.dmg.shr",
      "SELECT sum(id) FROM lake.dmg.shr WHERE m['a'] >= 0",
      "SELECT sum(id), sum(m['b']) FROM lake.dmg.shr WHERE m['b'] >= 2"
    )
    for (columnar <- Seq(true, false)) withColumnar(columnar) {
      assert(sql(queries.head).head().getLong(0) == IdSum)
      assert(sql(queries(2)).head().getLong(0) == IdSum)
    }
    flipInDataPage(file, "id")
    for (columnar <- Seq(true, false); q <- queries) withColumnar(columnar) {
      assertDamageReported(q, file, "id")
    }
  }

  test("a damaged page of a plain Parquet file fails the scan through Paimon's reader") {
    sql("CREATE TABLE lake.dmg.plain (id BIGINT, v BIGINT)")
    sql(s"INSERT INTO lake.dmg.plain SELECT id, id * 3 FROM range(0, $Rows, 1, 1)")
    val Seq(file) = dataFiles("plain")
    assert(pageHeaders(file).forall(_._2.isSetCrc), s"every page of $file has a CRC")
    assert(sql("SELECT sum(id) FROM lake.dmg.plain").head().getLong(0) == IdSum)
    flipInDataPage(file, "id")
    assertDamageReported("SELECT sum(id) FROM lake.dmg.plain", file, "id")
    assertDamageReported("SELECT sum(id) FROM lake.dmg.plain WHERE v >= 0", file, "id")
    // a LIMIT read on the driver, as far as the damaged page
    assertDamageReported("SELECT * FROM lake.dmg.plain LIMIT 10000", file, "id")
  }

  test("a damaged page of a primary-key table's file fails the merged read and compaction") {
    sql(
      "CREATE TABLE lake.dmg.pk (id BIGINT, v BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')"
    )
    sql(s"INSERT INTO lake.dmg.pk SELECT id, id * 3 FROM range(0, $Rows, 1, 1)")
    val Seq(file) = dataFiles("pk")
    assert(pageHeaders(file).forall(_._2.isSetCrc), s"every page of $file has a CRC")
    assert(sql("SELECT sum(v) FROM lake.dmg.pk").head().getLong(0) == 3 * IdSum)
    flipInDataPage(file, "v")
    assertDamageReported("SELECT sum(v) FROM lake.dmg.pk", file, "v")
    assertDamageReported("SELECT * FROM lake.dmg.pk WHERE id = 5", file, "v")
    assertDamageReported("SELECT * FROM lake.dmg.pk LIMIT 10000", file, "v")
    // A compaction merging the damaged file with a newer one reads the page in Paimon's merge
    // reader, which reports only a decoding error: the diagnosis must find the page and name it.
    sql("INSERT INTO lake.dmg.pk VALUES (5L, 0L)")
    assertDamageReported("CALL lake.sys.compact(table => 'dmg.pk')", file, "v")
  }

  /** The deletion-vector files of a table's latest snapshot. */
  private def deletionVectorFiles(table: String): Seq[Path] = {
    val t = org.apache.paimon.table.FileStoreTableFactory
      .create(LocalFileIO.create(), new org.apache.paimon.fs.Path(tableDir(table).toUri))
    val handler = t.store().newIndexFileHandler()
    handler
      .scan(
        t.snapshotManager().latestSnapshot(),
        org.apache.paimon.deletionvectors.DeletionVectorsIndexFile.DELETION_VECTORS_INDEX
      )
      .asScala
      .map(e => Path.of(handler.filePath(e).toUri.getPath))
      .toSeq
  }

  test("a damaged deletion vector fails scans, searches, text_match, compaction and writes") {
    sql(
      "CREATE TABLE lake.dmg.dv (id BIGINT, body STRING) TBLPROPERTIES ('primary-key' = 'id', " +
        "'bucket' = '1', 'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')"
    )
    sql("INSERT INTO lake.dmg.dv SELECT id, concat('doc ', id) FROM range(0, 5000, 1, 1)")
    sql("DELETE FROM lake.dmg.dv WHERE id % 2 = 0")
    // Nothing reads the new deletion vectors before the flip: a file verified once is trusted.
    val Seq(file) = deletionVectorFiles("dv")
    val bytes = Files.readAllBytes(file)
    bytes(bytes.length / 2) = (bytes(bytes.length / 2) ^ 0x04).toByte
    Files.write(file, bytes)
    // A bare count(*) is answered from the manifests' row counts and reads no deletion vector.
    val queries = Seq(
      "SELECT count(*) FROM lake.dmg.dv WHERE body IS NOT NULL",
      "SELECT id FROM lake.dmg.dv WHERE id < 100",
      "SELECT id FROM full_text_search('lake.dmg.dv', 'body', 'doc', 10)",
      "SELECT count(*) FROM lake.dmg.dv WHERE text_match(body, 'doc')",
      "SELECT id FROM lake.dmg.dv WHERE text_match(body, 'doc') AND id < 100",
      "CALL lake.sys.compact(table => 'dmg.dv')",
      "INSERT INTO lake.dmg.dv VALUES (7, 'doc again')"
    )
    for (q <- queries) {
      val thrown = scala.util.Try(sql(q).collect()) match {
        case scala.util.Failure(t)    => t
        case scala.util.Success(rows) => fail(s"$q answered ${rows.mkString(", ")} from $file")
      }
      val all = messages(thrown)
      assert(
        all.exists(m =>
          m.contains("Cannot read ") &&
            m.contains(file.getFileName.toString + ": deletion vectors: ") &&
            m.contains("checksum mismatch") &&
            m.contains("The file is damaged")
        ),
        s"$q: expected an error naming $file and its checksum, got:\n" + all.mkString("\n---\n")
      )
    }
  }
}
