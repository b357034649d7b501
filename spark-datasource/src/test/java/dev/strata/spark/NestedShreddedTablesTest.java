package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ParquetSchemas;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Nested columns (ARRAY, STRUCT, their combinations, maps with nested values, NULL at every level,
 * empty arrays and maps) of tables with shared-shredding maps, one of them with ARRAY values, read
 * through Spark SQL (Strata's reader of shredded files) exactly as Spark's parquet reader reads the
 * same rows: an append table, and a primary-key table with deletion vectors after UPDATE and
 * DELETE.
 */
class NestedShreddedTablesTest extends StrataSparkTestBase {

    private static final String COLUMNS =
            "id BIGINT NOT NULL, a ARRAY<INT>, r STRUCT<x: INT, y: STRING>, "
                    + "ar ARRAY<STRUCT<x: BIGINT, y: STRING>>, ra STRUCT<n: INT, l: ARRAY<STRING>, mm: MAP<STRING, INT>>, "
                    + "mr MAP<STRING, STRUCT<p: INT, q: ARRAY<DOUBLE>>>, aa ARRAY<ARRAY<INT>>, m MAP<STRING, DOUBLE>, "
                    + "mv MAP<STRING, ARRAY<INT>>";
    private static final String SHREDDED =
            "'fields.m.map.storage-layout' = 'shared-shredding', "
                    + "'fields.m.map.shared-shredding.max-columns' = '2', 'fields.mv.map.storage-layout' = 'shared-shredding', "
                    + "'fields.mv.map.shared-shredding.max-columns' = '2'";

    /**
     * The columns as compared: whole shredded maps list their entries in column order, so they are
     * sorted.
     */
    private static final String SELECT =
            "SELECT id, a, r, ar, ra, mr, aa, array_sort(map_entries(m)), "
                    + "array_sort(map_entries(mv)) FROM %s ORDER BY id";

    @BeforeAll
    void data() {
        // NULL and empty at every level, sizes 0 to 4, from the row id (deterministic).
        sql(
                "CREATE OR REPLACE TEMP VIEW nested_rows AS SELECT id,"
                        + " CASE WHEN id % 7 = 0 THEN NULL WHEN id % 7 = 1 THEN array() ELSE"
                        + "   transform(sequence(1, int(id % 4) + 1), i -> IF((id + i) % 5 = 0, NULL, int(id * i % 1000))) END AS a,"
                        + " IF(id % 6 = 0, NULL, named_struct('x', IF(id % 4 = 0, NULL, int(id)), 'y',"
                        + "   IF(id % 5 = 1, NULL, concat('y', id % 13)))) AS r,"
                        + " CASE WHEN id % 9 = 0 THEN NULL WHEN id % 9 = 1 THEN array() ELSE transform(sequence(1, int(id % 3) + 1),"
                        + "   i -> IF((id + i) % 4 = 0, NULL, named_struct('x', IF(i = 2, NULL, id * i), 'y',"
                        + "   IF((id + i) % 3 = 0, NULL, concat('s', id % 17, '-', i))))) END AS ar,"
                        + " IF(id % 8 = 0, NULL, named_struct('n', int(id % 100), 'l', CASE WHEN id % 5 = 0 THEN NULL"
                        + "   WHEN id % 5 = 1 THEN array() ELSE array(concat('l', id), IF(id % 2 = 0, NULL, 'odd')) END,"
                        + "   'mm', CASE WHEN id % 3 = 0 THEN NULL WHEN id % 3 = 1 THEN map() ELSE"
                        + "   map(concat('k', id % 7), int(id), 'z', IF(id % 4 = 0, NULL, 1)) END)) AS ra,"
                        + " CASE WHEN id % 10 = 0 THEN NULL WHEN id % 10 = 1 THEN map() ELSE map(concat('p', id % 11),"
                        + "   IF(id % 3 = 0, NULL, named_struct('p', int(id), 'q', IF(id % 4 = 0, NULL, array(double(id) / 2, NULL)))),"
                        + "   'fixed', named_struct('p', NULL, 'q', array())) END AS mr,"
                        + " CASE WHEN id % 11 = 0 THEN NULL WHEN id % 11 = 1 THEN array() ELSE"
                        + "   array(IF(id % 2 = 0, NULL, array(int(id), NULL)), array(), array(int(id % 9))) END AS aa,"
                        + " IF(id % 12 = 0, NULL, map(concat('m', id % 5), double(id) / 2, concat('n', id % 3), IF(id % 2 = 0, NULL,"
                        + "   double(id)))) AS m,"
                        + " CASE WHEN id % 13 = 0 THEN NULL WHEN id % 13 = 1 THEN map() ELSE map(concat('v', id % 6),"
                        + "   IF(id % 4 = 0, NULL, array(int(id), NULL, int(id % 3))), concat('w', id % 4), array()) END AS mv"
                        + " FROM range(0, 3000)");
        sql("CREATE TABLE nested_oracle USING parquet AS SELECT * FROM nested_rows");
        sql("CREATE NAMESPACE IF NOT EXISTS lake.nest");
    }

    @Test
    void anAppendTableReadsAsSparksParquetReader() throws Exception {
        sql("CREATE TABLE lake.nest.app (" + COLUMNS + ") TBLPROPERTIES (" + SHREDDED + ")");
        sql("INSERT INTO lake.nest.app SELECT * FROM nested_rows WHERE id < 1500");
        sql("INSERT INTO lake.nest.app SELECT * FROM nested_rows WHERE id >= 1500");
        assertThat(shreddedFiles("app")).as("data files in the shredded layout").isPositive();
        assertThat(rows("lake.nest.app")).isEqualTo(rows("nested_oracle"));
        assertThat(
                        sql(
                                "SELECT id, get(ar, 0).y, ra.l, mr['fixed'], mv['w1'] FROM lake.nest.app WHERE r.x > 100 ORDER BY id"))
                .isEqualTo(
                        sql(
                                "SELECT id, get(ar, 0).y, ra.l, mr['fixed'], mv['w1'] FROM nested_oracle WHERE r.x > 100 ORDER BY id"));
    }

    @Test
    void aPrimaryKeyTableWithDeletionVectorsReadsAsSparksParquetReaderAfterUpdatesAndDeletes()
            throws Exception {
        sql(
                "CREATE TABLE lake.nest.pk ("
                        + COLUMNS
                        + ") TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
                        + "'deletion-vectors.enabled' = 'true', "
                        + SHREDDED
                        + ")");
        sql("INSERT INTO lake.nest.pk SELECT * FROM nested_rows");
        sql(
                "UPDATE lake.nest.pk SET a = array(1, NULL), r = NULL, mv = map('u', array(7)) WHERE id % 5 = 2");
        sql("DELETE FROM lake.nest.pk WHERE id % 9 = 4");
        assertThat(shreddedFiles("pk")).as("data files in the shredded layout").isPositive();
        sql(
                "CREATE OR REPLACE TEMP VIEW nested_pk_oracle AS SELECT id,"
                        + " IF(id % 5 = 2, array(1, NULL), a) AS a, IF(id % 5 = 2, NULL, r) AS r, ar, ra, mr, aa, m,"
                        + " IF(id % 5 = 2, map('u', array(7)), mv) AS mv FROM nested_oracle WHERE id % 9 != 4");
        assertThat(rows("lake.nest.pk")).isEqualTo(rows("nested_pk_oracle"));
    }

    private List<String> rows(String table) {
        List<String> out = new ArrayList<>();
        for (Row r : sql(String.format(SELECT, table))) {
            out.add(r.toString());
        }
        assertThat(out).isNotEmpty();
        return out;
    }

    /** How many of the table's current data files store a column in the shredded layout. */
    private int shreddedFiles(String name) throws Exception {
        FileStoreTable table = paimonTable("nest", name);
        int n = 0;
        for (Split s : table.newReadBuilder().newScan().plan().splits()) {
            DataSplit d = (DataSplit) s;
            for (org.apache.paimon.io.DataFileMeta f : d.dataFiles()) {
                org.apache.paimon.fs.Path p =
                        new org.apache.paimon.fs.Path(
                                table.location(), "bucket-" + d.bucket() + "/" + f.fileName());
                try (org.apache.parquet.hadoop.ParquetFileReader r =
                        org.apache.parquet.hadoop.ParquetFileReader.open(
                                PaimonFiles.inputFile(table.fileIO(), p, f.fileSize()),
                                PaimonFiles.readOptions())) {
                    boolean shredded = false;
                    for (org.apache.parquet.schema.Type t :
                            r.getFooter().getFileMetaData().getSchema().getFields()) {
                        shredded |= ParquetSchemas.looksShredded(t);
                    }
                    n += shredded ? 1 : 0;
                }
            }
        }
        return n;
    }
}
