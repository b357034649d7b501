package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;

/**
 * Column DEFAULT values: declared in CREATE TABLE, stored where Paimon keeps them, filled by
 * INSERTs that omit a column or say DEFAULT (against the same statements on a Spark parquet table),
 * and shared with Paimon's own writers.
 */
class ColumnDefaultsTest extends StrataSparkTestBase {

    private static final String COLUMNS =
            "(id INT, s STRING DEFAULT 'none', n BIGINT DEFAULT 5, d DATE DEFAULT DATE '2026-01-02',"
                    + " x DOUBLE DEFAULT 1.5, b BOOLEAN DEFAULT true, dec DECIMAL(10,2) DEFAULT 3.25,"
                    + " ntz TIMESTAMP_NTZ DEFAULT TIMESTAMP_NTZ '2026-01-02 03:04:05', q STRING DEFAULT 'it''s', bin BINARY DEFAULT X'4142')";

    @Test
    void insertsFillDefaultsLikeSparksOwnTables() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.dv");
        sql("CREATE TABLE lake.dv.t " + COLUMNS);
        sql("CREATE TABLE dv_oracle " + COLUMNS + " USING parquet");
        for (String table : List.of("lake.dv.t", "dv_oracle")) {
            sql("INSERT INTO %s (id) VALUES (1)", table);
            sql("INSERT INTO %s (id, s, n) VALUES (2, 'x', 7)", table);
            sql(
                    "INSERT INTO %s VALUES (3, DEFAULT, DEFAULT, DATE '2020-01-01', DEFAULT, false,"
                            + " DEFAULT, DEFAULT, DEFAULT, DEFAULT)",
                    table);
            sql("INSERT INTO %s (n, id) SELECT id * 10, id FROM range(4, 6)", table);
        }
        assertThat(sql("SELECT * FROM lake.dv.t ORDER BY id"))
                .hasSize(5)
                .containsExactlyElementsOf(sql("SELECT * FROM dv_oracle ORDER BY id"));

        // Stored as Paimon keeps defaults: text every Paimon writer casts to the column's type.
        RowType rowType = paimonTable("dv", "t").rowType();
        assertThat(rowType.getField("id").defaultValue()).isNull();
        assertThat(rowType.getField("s").defaultValue()).isEqualTo("'none'");
        assertThat(rowType.getField("n").defaultValue()).isEqualTo("5");
        assertThat(rowType.getField("d").defaultValue()).isEqualTo("'2026-01-02'");
        assertThat(rowType.getField("dec").defaultValue()).isEqualTo("3.25");
        assertThat(rowType.getField("q").defaultValue()).isEqualTo("'it's'");
        assertThat(rowType.getField("bin").defaultValue()).isEqualTo("'AB'");

        // Paimon writes a column's default in place of NULL: Strata's writes go through Paimon's
        // table write, as every Paimon engine's do.
        sql("INSERT INTO lake.dv.t (id, s) VALUES (6, NULL)");
        assertThat(sql("SELECT s FROM lake.dv.t WHERE id = 6"))
                .containsExactly(RowFactory.create("none"));

        // Row-level statements (primary-key tables) take DEFAULT as an assignment's value.
        sql(
                "CREATE TABLE lake.dv.k (id INT NOT NULL, s STRING DEFAULT 'none', n BIGINT DEFAULT 5)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
        sql("INSERT INTO lake.dv.k (id, n) VALUES (1, 7), (2, 8)");
        sql("UPDATE lake.dv.k SET s = 'y', n = DEFAULT WHERE id = 2");
        sql(
                "MERGE INTO lake.dv.k USING (SELECT 3 AS id) src ON k.id = src.id"
                        + " WHEN NOT MATCHED THEN INSERT (id) VALUES (src.id)");
        assertThat(sql("SELECT * FROM lake.dv.k ORDER BY id"))
                .containsExactly(
                        RowFactory.create(1, "none", 7L),
                        RowFactory.create(2, "y", 5L),
                        RowFactory.create(3, "none", 5L));
    }

    @Test
    void aTableWhosePaimonSchemaHasDefaultsIsFilledByStrataAndPaimonAlike() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.dp");
        createPaimonTable(
                "dp",
                "t",
                Schema.newBuilder()
                        .column("id", DataTypes.INT())
                        .column("tag", DataTypes.STRING(), null, "'fresh'")
                        .column("level", DataTypes.INT(), null, "3")
                        .build());
        sql("INSERT INTO lake.dp.t (id) VALUES (1)");
        FileStoreTable paimon = paimonTable("dp", "t");
        BatchWriteBuilder builder = paimon.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite();
                BatchTableCommit commit = builder.newCommit()) {
            write.write(GenericRow.of(2, null, 9));
            write.write(GenericRow.of(3, BinaryString.fromString("old"), null));
            commit.commit(write.prepareCommit());
        }
        assertThat(sql("SELECT * FROM lake.dp.t ORDER BY id"))
                .containsExactly(
                        RowFactory.create(1, "fresh", 3),
                        RowFactory.create(2, "fresh", 9),
                        RowFactory.create(3, "old", 3));
        assertThat(sql("DESCRIBE TABLE EXTENDED lake.dp.t").stream().map(Row::toString))
                .contains("[tag,string,'fresh']", "[level,int,3]");
    }

    @Test
    void defaultsPaimonCannotKeepAreRefusedNamingTheColumn() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.dr");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.dr.a (id INT, at TIMESTAMP_NTZ DEFAULT localtimestamp())"))
                .hasMessageContaining(
                        "Cannot store the default localtimestamp() of column at of table lake.dr.a:"
                                + " Paimon keeps a column's default as one constant value");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.dr.b (id INT, at TIMESTAMP DEFAULT TIMESTAMP '2026-01-01 00:00:00')"))
                .hasMessageContaining("of column at of table lake.dr.b")
                .hasMessageContaining("in each writer's time zone");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.dr.c (id INT, tags ARRAY<STRING> DEFAULT ARRAY('a'))"))
                .hasMessageContaining("of column tags of table lake.dr.c");
        assertThatThrownBy(() -> sql("CREATE TABLE lake.dr.d (id INT, c CHAR(4) DEFAULT 'ab')"))
                .hasMessageContaining("of column c of table lake.dr.d")
                .hasMessageContaining("Use a STRING column for a default text");
        assertThat(sql("SHOW TABLES IN lake.dr")).isEmpty();

        sql("CREATE TABLE lake.dr.t (id INT NOT NULL, s STRING)");
        sql("INSERT INTO lake.dr.t VALUES (1, NULL)");
        long schemaId = paimonTable("dr", "t").schema().id();
        assertThatThrownBy(() -> sql("ALTER TABLE lake.dr.t ADD COLUMN n INT DEFAULT 4"))
                .hasMessageContaining("Cannot add column n with DEFAULT 4 to table lake.dr.t");
        assertThatThrownBy(() -> sql("ALTER TABLE lake.dr.t ALTER COLUMN s SET DEFAULT 'x'"))
                .hasMessageContaining(
                        "Cannot set the default 'x' of nullable column s of table lake.dr.t");
        assertThat(paimonTable("dr", "t").schema().id()).isEqualTo(schemaId);
        assertThat(sql("SELECT * FROM lake.dr.t")).containsExactly(RowFactory.create(1, null));

        // A NOT NULL column holds no NULL a default could replace.
        sql("ALTER TABLE lake.dr.t ALTER COLUMN id SET DEFAULT 42");
        sql("INSERT INTO lake.dr.t (s) VALUES ('a')");
        sql("ALTER TABLE lake.dr.t ALTER COLUMN id DROP DEFAULT");
        assertThat(paimonTable("dr", "t").rowType().getField("id").defaultValue()).isNull();
        assertThat(sql("SELECT * FROM lake.dr.t ORDER BY id"))
                .containsExactly(RowFactory.create(1, null), RowFactory.create(42, "a"));
    }
}
