package dev.strata.spark.pushdown

import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import dev.strata.shredding.layout.{ShreddedColumnMeta, ShreddingFooter}
import dev.strata.shredding.parquet.GroupKeyPlan
import dev.strata.testing.DefaultSparkOnly

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.spark.sql.Row
import org.apache.spark.sql.types.StructType

/** The columnar read without `__field_mapping`: a row group whose footer records ownership segments
  * for every column of the looked-up keys is read from those columns (non-null inside the key's
  * segments = present) and the overflow; a row group where a column is fragmented (too many
  * segments) is read through the mapping. Both kinds are made to exist and both must give the
  * parquet oracle's answers, with NULL maps, empty maps, NULL values, keys that share columns,
  * overflow and absent keys.
  */
@DefaultSparkOnly
class MapReadShortcutSuite extends PushdownSuiteBase {

  private val seed = java.lang.Long.getLong("strata.test.seed", 20261129L).longValue()

  private def rows(): Seq[Row] = {
    val r = new java.util.Random(seed)
    (0 until 6000).map { i =>
      val p = r.nextDouble()
      if (p < 0.03) Row(i.toLong, null)
      else if (p < 0.05) Row(i.toLong, Map.empty[String, Any])
      else {
        val m = scala.collection.mutable.LinkedHashMap[String, Any]()
        // "hot" is in most rows only from row 1500 on, so early rows share its column with other keys.
        if (r.nextDouble() < (if (i >= 1500) 0.9 else 0.2)) {
          m("hot") = if (r.nextDouble() < 0.05) null else 100.0 + r.nextInt(100)
        }
        for (_ <- 0 until 1 + r.nextInt(4)) {
          m("k" + r.nextInt(12)) = if (r.nextDouble() < 0.05) null else r.nextInt(50).toDouble
        }
        Row(i.toLong, m.toMap)
      }
    }
  }

  private def plans(table: Path, keys: Seq[String]): Seq[Boolean] =
    Files
      .walk(table)
      .iterator()
      .asScala
      .filter(p => p.getFileName.toString.startsWith("data-"))
      .toSeq
      .flatMap { f =>
        val reader = ParquetFileReader.open(
          HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(f.toUri), new Configuration())
        )
        try {
          val footer = reader.getFooter.getFileMetaData
          val meta: ShreddedColumnMeta =
            ShreddingFooter.decode(footer.getKeyValueMetaData, "m", f.toString)
          val physical = footer.getSchema.getType(footer.getSchema.getFieldIndex("m")).asGroupType()
          meta.zones().asScala.indices.map { g =>
            assert(meta.placement(g) != null, s"row group $g of $f records no placement")
            GroupKeyPlan
              .of(physical, meta, keys.asJava, g, reader.getRowGroups.get(g))
              .mappingNeeded()
          }
        } finally reader.close()
      }

  test("row groups read with and without __field_mapping both match the oracle") {
    val schema = StructType.fromDDL("id BIGINT, m MAP<STRING, DOUBLE>")
    val data = spark.createDataFrame(spark.sparkContext.parallelize(rows(), 1), schema)
    data.write.format("parquet").saveAsTable("shortcut_oracle")
    sql("CREATE NAMESPACE IF NOT EXISTS lake.sc")
    sql("""CREATE TABLE lake.sc.t (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES (
          | 'fields.m.map.storage-layout' = 'shared-shredding',
          | 'fields.m.map.shared-shredding.max-columns' = '4',
          | 'fields.m.strata-shredded.column-placement-policy' = 'stable',
          | 'file.block-size' = '8 kb')""".stripMargin)
    // First half: at most two ownership segments per column and row group, so most columns are fragmented and
    // __field_mapping is read; second half: the default bound, segments recorded, no mapping read.
    sql("ALTER TABLE lake.sc.t SET TBLPROPERTIES ('strata-shredded.max-segments' = '2')")
    data.where("id < 3000").coalesce(1).writeTo("lake.sc.t").append()
    sql("ALTER TABLE lake.sc.t UNSET TBLPROPERTIES ('strata-shredded.max-segments')")
    data.where("id >= 3000").coalesce(1).writeTo("lake.sc.t").append()

    val table = root.resolve("warehouse").resolve("sc.db").resolve("t")
    for (keys <- Seq(Seq("hot"), Seq("hot", "k3", "k11", "absent"))) {
      val p = plans(table, keys)
      assert(p.contains(true), s"no row group read through the mapping for $keys: $p")
      assert(p.contains(false), s"no row group read without the mapping for $keys: $p")
    }

    val queries = Seq(
      "SELECT id, m['hot'] FROM %s",
      "SELECT id, m['hot'], m['k3'], element_at(m, 'k11'), m['absent'] FROM %s",
      "SELECT count(*), avg(m['hot']), sum(m['k5']) FROM %s WHERE m['hot'] > 150",
      "SELECT id FROM %s WHERE m['hot'] IS NOT NULL AND m['k1'] < 20",
      "SELECT id, m['hot'], m['k7'] FROM %s WHERE m['hot'] >= 199 OR m['k0'] = 7"
    )
    for (q <- queries) {
      val got = sql(q.format("lake.sc.t"))
      assert(
        scans(got).exists(_.contains("SelectedKeys")),
        s"keys not pushed for $q: ${scans(got)}"
      )
      assert(
        rowsOf(got) == rowsOf(sql(q.format("shortcut_oracle"))),
        s"$q differs from the oracle (seed $seed)"
      )
    }
  }

  test(
    "row groups whose keys sit in few of many shared columns probe __field_mapping at those columns only"
  ) {
    val r = new java.util.Random(seed + 7)
    // Every row holds "hot" and the ten keys of family i % 7, "rare" in place of the second in few rows: the columns
    // change owner from row to row (fragmented: the mapping is read), but each key keeps to one or two of them.
    // NULL and empty maps, NULL values.
    val rows = (0 until 6000).map { i =>
      val p = r.nextDouble()
      if (p < 0.03) Row(i.toLong, null)
      else if (p < 0.05) Row(i.toLong, Map.empty[String, Any])
      else {
        val m = scala.collection.mutable.LinkedHashMap[String, Any]()
        m("hot") = if (r.nextDouble() < 0.05) null else r.nextInt(200).toDouble
        for (j <- 0 until 10) {
          val key = if (j == 1 && i % 97 == 0) "rare" else s"f${i % 7}_$j"
          m(key) = if (r.nextDouble() < 0.05) null else r.nextInt(50).toDouble
        }
        Row(i.toLong, m.toMap)
      }
    }
    val schema = StructType.fromDDL("id BIGINT, m MAP<STRING, DOUBLE>")
    val data = spark.createDataFrame(spark.sparkContext.parallelize(rows, 1), schema)
    data.write.format("parquet").saveAsTable("probe_oracle")
    sql("CREATE NAMESPACE IF NOT EXISTS lake.sc")
    sql("""CREATE TABLE lake.sc.probe (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES (
          | 'fields.m.map.storage-layout' = 'shared-shredding',
          | 'file.block-size' = '16 kb', 'strata-shredded.max-segments' = '2')""".stripMargin)
    data.coalesce(1).writeTo("lake.sc.probe").append()

    val table = root.resolve("warehouse").resolve("sc.db").resolve("probe")
    val probed = Files
      .walk(table)
      .iterator()
      .asScala
      .filter(p => p.getFileName.toString.startsWith("data-"))
      .toSeq
      .flatMap { f =>
        val reader = ParquetFileReader.open(
          HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(f.toUri), new Configuration())
        )
        try {
          val footer = reader.getFooter.getFileMetaData
          val meta = ShreddingFooter.decode(footer.getKeyValueMetaData, "m", f.toString)
          val physical = footer.getSchema.getType(footer.getSchema.getFieldIndex("m")).asGroupType()
          meta.zones().asScala.indices.map { g =>
            val plan = GroupKeyPlan
              .of(physical, meta, Seq("rare", "f3_4").asJava, g, reader.getRowGroups.get(g))
            (
              plan.mappingNeeded(),
              plan.columnsOf(0).length + plan.columnsOf(1).length,
              meta.numColumns()
            )
          }
        } finally reader.close()
      }
    assert(
      probed.count { case (mapping, columns, k) => mapping && columns * 4 <= k } >= 2,
      s"row groups that read the mapping at few columns (mapping read, columns, K): $probed"
    )

    val queries = Seq(
      "SELECT id, m['rare'] FROM %s",
      "SELECT id, m['rare'], m['f3_4'] FROM %s WHERE m['rare'] > 10 OR m['f3_4'] < 5",
      "SELECT count(*), avg(m['rare']), sum(m['f3_4']) FROM %s WHERE m['f3_4'] IS NOT NULL",
      "SELECT id, m['f3_4'], m['absent'] FROM %s WHERE m['f3_4'] IS NULL",
      "SELECT id, m['hot'], m['rare'] FROM %s WHERE m['rare'] IS NOT NULL"
    )
    for (q <- queries) {
      val got = sql(q.format("lake.sc.probe"))
      assert(
        scans(got).exists(_.contains("SelectedKeys")),
        s"keys not pushed for $q: ${scans(got)}"
      )
      assert(
        rowsOf(got) == rowsOf(sql(q.format("probe_oracle"))),
        s"$q differs from the oracle (seed $seed)"
      )
    }
  }
}
