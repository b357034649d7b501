package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** DDL through the Strata catalog, checked against what Spark and Paimon's own API then report. */
class CatalogDdlTest extends StrataSparkTestBase {

    @Test
    void namespacesAreCreatedListedAndDropped() {
        sql("CREATE NAMESPACE lake.ns_a");
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ns_a");
        sql("CREATE NAMESPACE lake.ns_b");
        List<String> names =
                sql("SHOW NAMESPACES IN lake").stream().map(r -> r.getString(0)).toList();
        assertThat(names).contains("ns_a", "ns_b");
        sql("DROP NAMESPACE lake.ns_b");
        assertThat(sql("SHOW NAMESPACES IN lake").stream().map(r -> r.getString(0)))
                .doesNotContain("ns_b");
        sql("CREATE TABLE lake.ns_a.t (x INT)");
        assertThatThrownBy(() -> sql("DROP NAMESPACE lake.ns_a")).hasMessageContaining("ns_a");
        sql("DROP NAMESPACE lake.ns_a CASCADE");
        assertThat(sql("SHOW NAMESPACES IN lake").stream().map(r -> r.getString(0)))
                .doesNotContain("ns_a");
        // A filesystem warehouse keeps no namespace properties: Paimon dropped them, logging.
        assertThatThrownBy(() -> sql("CREATE NAMESPACE lake.ns_c COMMENT 'sales data'"))
                .hasMessageContaining(
                        "Cannot create namespace lake.ns_c with COMMENT 'sales data': a filesystem"
                                + " warehouse keeps no namespace properties");
        assertThat(sql("SHOW NAMESPACES IN lake").stream().map(r -> r.getString(0)))
                .doesNotContain("ns_c");
    }

    @Test
    void aPrimaryKeyClauseIsThePaimonPrimaryKeyAndPurgeDropsTheFiles() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.keys");
        sql(
                "CREATE TABLE lake.keys.orders (id BIGINT NOT NULL, dt STRING NOT NULL, v INT,"
                        + " PRIMARY KEY (id, dt)) PARTITIONED BY (dt)"
                        + " TBLPROPERTIES ('bucket' = '2')");
        assertThat(paimonTable("keys", "orders").primaryKeys()).containsExactly("id", "dt");
        sql("INSERT INTO lake.keys.orders VALUES (1, 'a', 1), (2, 'a', 2)");
        sql("INSERT INTO lake.keys.orders VALUES (1, 'a', 10)");
        assertThat(sql("SELECT id, v FROM lake.keys.orders ORDER BY id"))
                .containsExactly(RowFactory.create(1L, 10), RowFactory.create(2L, 2));
        // The same key given twice is one key.
        sql(
                "CREATE TABLE lake.keys.same (id BIGINT NOT NULL, PRIMARY KEY (id))"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
        assertThat(paimonTable("keys", "same").primaryKeys()).containsExactly("id");

        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.keys.two (id BIGINT NOT NULL, k INT NOT NULL,"
                                                + " PRIMARY KEY (id)) TBLPROPERTIES ('primary-key' = 'k',"
                                                + " 'bucket' = '1')"))
                .hasMessageContaining("PRIMARY KEY (id) and TBLPROPERTIES 'primary-key' = 'k'");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.keys.checked (id BIGINT NOT NULL, v INT,"
                                                + " CONSTRAINT positive CHECK (v > 0))"))
                .hasMessageContaining("Cannot create table lake.keys.checked with constraint")
                .hasMessageContaining("no CHECK, UNIQUE or FOREIGN KEY constraints");
        assertThat(sql("SHOW TABLES IN lake.keys").stream().map(r -> r.getString(1)))
                .containsExactlyInAnyOrder("orders", "same");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.keys.orders ADD CONSTRAINT pk2"
                                                + " PRIMARY KEY (id)"))
                .hasMessageContaining("Cannot alter the constraints of table lake.keys.orders");

        Path dir = warehouse.resolve("keys.db").resolve("orders");
        assertThat(dir).exists();
        sql("DROP TABLE lake.keys.orders PURGE");
        assertThat(dir).doesNotExist();
        assertThat(sql("SHOW TABLES IN lake.keys").stream().map(r -> r.getString(1)))
                .containsExactly("same");
    }

    @Test
    void everyStorableTypeRoundTripsWithNullability() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.types");
        sql(
                "CREATE TABLE lake.types.all_types (b BOOLEAN NOT NULL, t TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, "
                        + "f FLOAT, d DOUBLE, dec DECIMAL(20,4), str STRING, c CHAR(4), v VARCHAR(10), bin BINARY, dt DATE, "
                        + "ts TIMESTAMP, ntz TIMESTAMP_NTZ, arr ARRAY<STRING>, m MAP<STRING, ARRAY<INT>>, "
                        + "st STRUCT<x: INT NOT NULL, y: STRUCT<z: STRING>>) COMMENT 'all the types'");
        StructType schema = spark.table("lake.types.all_types").schema();
        assertThat(schema.apply("b").nullable()).isFalse();
        assertThat(schema.apply("i").nullable()).isFalse();
        assertThat(schema.apply("l").nullable()).isTrue();
        assertThat(schema.apply("dec").dataType()).isEqualTo(DataTypes.createDecimalType(20, 4));
        assertThat(schema.apply("ts").dataType()).isEqualTo(DataTypes.TimestampType);
        assertThat(schema.apply("ntz").dataType()).isEqualTo(DataTypes.TimestampNTZType);
        StructType st = (StructType) schema.apply("st").dataType();
        assertThat(st.apply("x").nullable()).isFalse();

        FileStoreTable paimon = paimonTable("types", "all_types");
        assertThat(paimon.rowType().getField("c").type().toString()).isEqualTo("CHAR(4)");
        assertThat(paimon.rowType().getField("v").type().toString()).isEqualTo("VARCHAR(10)");
        assertThat(paimon.rowType().getField("ts").type().toString())
                .isEqualTo("TIMESTAMP(6) WITH LOCAL TIME ZONE");
        assertThat(paimon.comment()).contains("all the types");

        sql(
                "INSERT INTO lake.types.all_types VALUES (true, 1, 2, 3, 4, 1.5, 2.5, 12345.6789, 'x', 'ab', 'vv', X'0102', "
                        + "DATE'2026-11-01', TIMESTAMP'2026-11-01 10:00:00Z', TIMESTAMP_NTZ'2026-11-01 10:00:00', "
                        + "array('a', null), map('k', array(1, 2)), named_struct('x', 7, 'y', named_struct('z', 'zz')))");
        Row row = sql("SELECT c, v, m['k'][1], st.y.z, dec FROM lake.types.all_types").get(0);
        assertThat(row.getString(0)).isEqualTo("ab  ");
        assertThat(row.getString(1)).isEqualTo("vv");
        assertThat(row.getInt(2)).isEqualTo(2);
        assertThat(row.getString(3)).isEqualTo("zz");
        assertThat(row.getDecimal(4)).isEqualByComparingTo("12345.6789");
    }

    @Test
    void typesPaimonCannotStoreAreRefusedNamingTheColumn() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.bad");
        assertThatThrownBy(
                        () -> sql("CREATE TABLE lake.bad.t (id INT, span INTERVAL DAY TO SECOND)"))
                .hasMessageContaining("span")
                .hasMessageContaining("lake.bad.t")
                .hasMessageContaining("Use one of");
        assertThat(sql("SHOW TABLES IN lake.bad")).isEmpty();
    }

    @Test
    void tablePropertiesAreStoredAsPaimonOptionsAndCanBeAltered() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.props");
        sql(
                "CREATE TABLE IF NOT EXISTS lake.props.t (id BIGINT, dt STRING, v STRING) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2', 'merge-engine' = 'deduplicate', "
                        + "'deletion-vectors.enabled' = 'true')");
        sql("CREATE TABLE IF NOT EXISTS lake.props.t (id BIGINT)");
        FileStoreTable table = paimonTable("props", "t");
        assertThat(table.primaryKeys()).containsExactly("id", "dt");
        assertThat(table.partitionKeys()).containsExactly("dt");
        assertThat(table.options())
                .containsEntry("bucket", "2")
                .containsEntry("deletion-vectors.enabled", "true");

        Map<String, String> shown =
                sql("SHOW TBLPROPERTIES lake.props.t").stream()
                        .collect(Collectors.toMap(r -> r.getString(0), r -> r.getString(1)));
        assertThat(shown).containsEntry("bucket", "2").containsEntry("primary-key", "id,dt");

        sql("ALTER TABLE lake.props.t SET TBLPROPERTIES ('snapshot.num-retained.min' = '7')");
        sql("ALTER TABLE lake.props.t UNSET TBLPROPERTIES ('merge-engine')");
        table = paimonTable("props", "t");
        assertThat(table.options())
                .containsEntry("snapshot.num-retained.min", "7")
                .doesNotContainKey("merge-engine");

        String described =
                sql("DESCRIBE TABLE EXTENDED lake.props.t").stream()
                        .map(r -> r.getString(0) + "|" + r.getString(1))
                        .collect(Collectors.joining("\n"));
        assertThat(described).contains("id|bigint").contains("dt|string").contains("bucket=2");
    }

    @Test
    void columnsAreAddedRenamedAndTablesRenamed() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.evo");
        sql("CREATE TABLE lake.evo.t (id BIGINT, name STRING)");
        sql("INSERT INTO lake.evo.t VALUES (1, 'a'), (2, 'b')");
        sql(
                "ALTER TABLE lake.evo.t ADD COLUMNS (score DOUBLE COMMENT 'points', tags ARRAY<STRING>)");
        sql("ALTER TABLE lake.evo.t RENAME COLUMN name TO label");
        sql("INSERT INTO lake.evo.t VALUES (3, 'c', 9.5, array('x'))");
        assertThat(values(sql("SELECT id, label, score FROM lake.evo.t ORDER BY id")))
                .containsExactly(list(1L, "a", null), list(2L, "b", null), list(3L, "c", 9.5));
        StructField score = spark.table("lake.evo.t").schema().apply("score");
        assertThat(score.getComment().get()).isEqualTo("points");
        assertThatThrownBy(() -> sql("ALTER TABLE lake.evo.t ADD COLUMN nn INT NOT NULL"))
                .hasMessageContaining(
                        "Cannot add column nn to table lake.evo.t as NOT NULL: the rows already"
                                + " written have no value for it");

        sql("ALTER TABLE lake.evo.t RENAME TO evo.t2");
        assertThat(sql("SHOW TABLES IN lake.evo").stream().map(r -> r.getString(1)))
                .containsExactly("t2");
        assertThat(sql("SELECT count(*) FROM lake.evo.t2").get(0).getLong(0)).isEqualTo(3L);
        // Paimon's rename would create the namespace with the table's directory.
        assertThatThrownBy(() -> sql("ALTER TABLE lake.evo.t2 RENAME TO lake.nowhere.t2"))
                .hasMessageContaining("namespace lake.nowhere does not exist");
        assertThat(values(sql("SHOW NAMESPACES IN lake"))).doesNotContain(list("nowhere"));
        sql("DROP TABLE lake.evo.t2");
        assertThat(sql("SHOW TABLES IN lake.evo")).isEmpty();
    }

    @Test
    void createTableAsSelectCopiesRowsAndSchema() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.ctas");
        sql("CREATE TABLE lake.ctas.src (id BIGINT, v STRING, dt STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO lake.ctas.src VALUES (1, 'a', 'd1'), (2, 'b', 'd2')");
        sql(
                "CREATE TABLE lake.ctas.copy PARTITIONED BY (dt) TBLPROPERTIES ('file.format' = 'orc') "
                        + "AS SELECT * FROM lake.ctas.src WHERE id > 1");
        assertThat(values(sql("SELECT * FROM lake.ctas.copy")))
                .containsExactly(list(2L, "b", "d2"));
    }

    /**
     * Before: Spark dropped the old table first (the catalog could not stage a replacement), so a
     * refused option or a failing query lost it, and a replace reading its own table wrote no rows.
     */
    @Test
    void replaceTableKeepsTheOldTableUntilTheNewOneIsWritten() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.rtas");
        sql(
                "CREATE TABLE lake.rtas.r (id BIGINT NOT NULL, body STRING)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
        sql("INSERT INTO lake.rtas.r VALUES (1, 'keep me'), (2, 'and me')");
        List<List<Object>> old = values(sql("SELECT * FROM lake.rtas.r ORDER BY id"));

        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE OR REPLACE TABLE lake.rtas.r TBLPROPERTIES"
                                                + " ('bukket' = '1') AS SELECT 3L AS id, 'x' AS body"))
                .hasMessageContaining("lake.rtas.r")
                .hasMessageContaining("bukket");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "REPLACE TABLE lake.rtas.r AS SELECT id,"
                                                + " CAST(1 / (id - 1) AS STRING) AS body"
                                                + " FROM lake.rtas.r"))
                .hasMessageContaining("DIVIDE_BY_ZERO");
        assertThat(values(sql("SELECT * FROM lake.rtas.r ORDER BY id"))).isEqualTo(old);

        // A replace reading its own table sees the old rows.
        sql(
                "CREATE OR REPLACE TABLE lake.rtas.r TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '2') AS SELECT id * 10 AS id, upper(body) AS body"
                        + " FROM lake.rtas.r");
        assertThat(values(sql("SELECT * FROM lake.rtas.r ORDER BY id")))
                .containsExactly(list(10L, "KEEP ME"), list(20L, "AND ME"));
        assertThat(sql("SHOW TBLPROPERTIES lake.rtas.r ('bucket')").get(0).getString(1))
                .isEqualTo("2");
        // A row another session commits to the old table while the replacement is written would
        // be dropped with it: the replace fails instead (before: the row was lost).
        StrataCatalog catalog =
                (StrataCatalog) spark.sessionState().catalogManager().catalog("lake");
        org.apache.spark.sql.connector.catalog.Identifier replaced =
                org.apache.spark.sql.connector.catalog.Identifier.of(new String[] {"rtas"}, "r");
        org.apache.spark.sql.connector.catalog.StagedTable staged =
                catalog.stageReplace(replaced, oneIntColumn());
        sql("INSERT INTO lake.rtas.r VALUES (30, 'concurrent')");
        assertThatThrownBy(staged::commitStagedChanges)
                .hasMessageContaining(
                        "Cannot replace table lake.rtas.r: another session changed it");
        staged.abortStagedChanges();
        assertThat(values(sql("SELECT * FROM lake.rtas.r ORDER BY id")))
                .containsExactly(
                        list(10L, "KEEP ME"), list(20L, "AND ME"), list(30L, "concurrent"));
        // So would a column another session adds: a schema change commits no snapshot.
        staged = catalog.stageCreateOrReplace(replaced, oneIntColumn());
        sql("ALTER TABLE lake.rtas.r ADD COLUMN extra STRING");
        assertThatThrownBy(staged::commitStagedChanges)
                .hasMessageContaining(
                        "Cannot replace table lake.rtas.r: another session changed it");
        staged.abortStagedChanges();
        assertThat(spark.table("lake.rtas.r").columns()).containsExactly("id", "body", "extra");

        // A new name is created; nothing staged is left or listed.
        sql("CREATE OR REPLACE TABLE lake.rtas.n AS SELECT 1 AS x");
        assertThat(values(sql("SELECT * FROM lake.rtas.n"))).containsExactly(list(1));
        assertThat(
                        sql("SHOW TABLES IN lake.rtas").stream()
                                .map(r -> r.getString(1))
                                .sorted()
                                .collect(Collectors.toList()))
                .containsExactly("n", "r");
        assertThat(warehouse.resolve("rtas.db").toFile().list())
                .containsExactlyInAnyOrder("r", "n");
    }

    /** A table definition of one INT column {@code x}, for the catalog's staging calls. */
    private static org.apache.spark.sql.connector.catalog.TableInfo oneIntColumn() {
        return new org.apache.spark.sql.connector.catalog.TableInfo.Builder()
                .withColumns(
                        new org.apache.spark.sql.connector.catalog.Column[] {
                            org.apache.spark.sql.connector.catalog.Column.create(
                                    "x", DataTypes.IntegerType)
                        })
                .withPartitions(new org.apache.spark.sql.connector.expressions.Transform[0])
                .withProperties(Map.of())
                .build();
    }

    /**
     * A replace stopped (killed) after dropping the old table and before renaming the new one into
     * place leaves the name missing: reading it says where the new table is and how to finish.
     * Before, the table was simply not found, and the staged one was hidden from SHOW TABLES.
     */
    @Test
    void aReplaceStoppedBeforeItsRenameSaysWhereTheNewTableIs() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.rtas_kill");
        sql("CREATE TABLE lake.rtas_kill.r (id BIGINT, body STRING)");
        sql("INSERT INTO lake.rtas_kill.r VALUES (1, 'old')");
        StrataCatalog catalog =
                (StrataCatalog) spark.sessionState().catalogManager().catalog("lake");
        org.apache.spark.sql.connector.catalog.Identifier replaced =
                org.apache.spark.sql.connector.catalog.Identifier.of(
                        new String[] {"rtas_kill"}, "r");
        catalog.stageCreateOrReplace(replaced, oneIntColumn());
        String[] dirs = warehouse.resolve("rtas_kill.db").toFile().list();
        String staged =
                java.util.Arrays.stream(dirs)
                        .filter(d -> d.startsWith("__strata_staged_r_"))
                        .findFirst()
                        .orElseThrow();
        sql("INSERT INTO lake.rtas_kill.`" + staged + "` VALUES (7)");
        // The state the kill leaves: the commit's drop done, its rename not.
        sql("DROP TABLE lake.rtas_kill.r");

        assertThatThrownBy(() -> sql("SELECT * FROM lake.rtas_kill.r"))
                .hasMessageContaining("Cannot load table lake.rtas_kill.r: it does not exist")
                .hasMessageContaining(
                        "ALTER TABLE lake.rtas_kill." + staged + " RENAME TO lake.rtas_kill.r");
        sql("ALTER TABLE lake.rtas_kill.`" + staged + "` RENAME TO rtas_kill.r");
        assertThat(values(sql("SELECT * FROM lake.rtas_kill.r"))).containsExactly(list(7));

        // The prefix is reserved, so no user table is hidden from SHOW TABLES or taken for one.
        assertThatThrownBy(() -> sql("CREATE TABLE lake.rtas_kill.__strata_staged_x (id INT)"))
                .hasMessageContaining(
                        "Cannot create table lake.rtas_kill.__strata_staged_x: names starting"
                                + " with '__strata_staged_' are reserved");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "ALTER TABLE lake.rtas_kill.r RENAME TO"
                                                + " rtas_kill.__strata_staged_r_0123456789ab"))
                .hasMessageContaining("are reserved");
        // A missing table without a staged replacement is simply not found.
        assertThatThrownBy(() -> sql("SELECT * FROM lake.rtas_kill.nothing"))
                .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
    }

    @Test
    void badDefinitionsAndUnknownObjectsGetClearErrors() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.err");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.err.pk (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id')"))
                .hasMessageContaining("lake.err.pk")
                .hasMessageContaining("'bucket' = 'N'");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.err.b (id BIGINT) TBLPROPERTIES ('bucket' = 'many')"))
                .hasMessageContaining("'bucket'")
                .hasMessageContaining("many");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.err.pk2 (id BIGINT, v STRING) "
                                                + "TBLPROPERTIES ('primary-key' = 'nope', 'bucket' = '2')"))
                .hasMessageContaining("lake.err.pk2")
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> sql("SELECT * FROM lake.err.missing"))
                .hasMessageContaining("missing");
        assertThatThrownBy(() -> sql("CREATE TABLE lake.no_such_ns.t (id INT)"))
                .hasMessageContaining("no_such_ns");
        // Before: "partitioned by bucket(4, id) ... Use PARTITIONED BY".
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.err.cl (id BIGINT, v STRING)"
                                                + " CLUSTERED BY (id) INTO 4 BUCKETS"))
                .hasMessageContaining("Cannot create table lake.err.cl")
                .hasMessageContaining("TBLPROPERTIES ('bucket' = '4', 'bucket-key' = 'id')");
        assertThat(sql("SHOW TABLES IN lake.err")).isEmpty();

        // USE lake selects the catalog only: the errors said "The schema  cannot be found".
        String catalog = spark.catalog().currentCatalog();
        String database = spark.catalog().currentDatabase();
        try {
            sql("USE lake");
            assertThatThrownBy(() -> sql("SHOW TABLES"))
                    .hasMessageContaining(
                            "Cannot list the tables of catalog lake: no namespace is selected")
                    .hasMessageContaining("USE lake.<db>");
            assertThatThrownBy(() -> sql("CREATE TABLE t (x INT)"))
                    .hasMessageContaining(
                            "Cannot create table lake.t: a table lives in a namespace")
                    .hasMessageContaining("lake.<db>.t");
        } finally {
            sql("USE `" + catalog + "`.`" + database + "`");
        }
    }

    /**
     * Paimon strings carry no collation: a column or table default collation other than UTF8_BINARY
     * was dropped silently, so a column declared case-insensitive compared byte-wise. Now it is
     * refused where it is declared, and nothing is created or changed.
     */
    @Test
    void collationsPaimonCannotKeepAreRefusedWhereTheyAreDeclared() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.coll");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.coll.a (id BIGINT, s STRING COLLATE UTF8_LCASE)"))
                .hasMessageContaining(
                        "Cannot store column s of table lake.coll.a with collation UTF8_LCASE: Paimon strings"
                                + " carry no collation")
                .hasMessageContaining("Remove the COLLATE clause");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.coll.b (m MAP<STRING COLLATE UNICODE_CI, INT>)"))
                .hasMessageContaining(
                        "Cannot store column m.key of table lake.coll.b with collation UNICODE_CI");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.coll.c (st STRUCT<x: ARRAY<STRING COLLATE UTF8_LCASE>>)"))
                .hasMessageContaining(
                        "Cannot store column st.x.element of table lake.coll.c with collation UTF8_LCASE");
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE TABLE lake.coll.d (id BIGINT) DEFAULT COLLATION UTF8_LCASE"))
                .hasMessageContaining(
                        "Cannot create table lake.coll.d with DEFAULT COLLATION UTF8_LCASE: Paimon strings carry"
                                + " no collation");
        assertThat(sql("SHOW TABLES IN lake.coll")).isEmpty();

        // UTF8_BINARY is what Paimon strings compare by: said explicitly, it is accepted.
        sql(
                "CREATE TABLE lake.coll.e (id BIGINT, s STRING COLLATE UTF8_BINARY) DEFAULT COLLATION UTF8_BINARY");
        sql("INSERT INTO lake.coll.e VALUES (1, 'abc')");
        assertThat(sql("SELECT id FROM lake.coll.e WHERE s = 'ABC'")).isEmpty();
        long schemaId = paimonTable("coll", "e").schema().id();
        assertThatThrownBy(
                        () -> sql("ALTER TABLE lake.coll.e ADD COLUMN t STRING COLLATE UTF8_LCASE"))
                .hasMessageContaining(
                        "Cannot store column t of table lake.coll.e with collation UTF8_LCASE");
        assertThatThrownBy(() -> sql("ALTER TABLE lake.coll.e DEFAULT COLLATION UNICODE_CI"))
                .hasMessageContaining(
                        "Cannot alter table lake.coll.e with DEFAULT COLLATION UNICODE_CI: Paimon strings carry"
                                + " no collation");
        sql("ALTER TABLE lake.coll.e DEFAULT COLLATION UTF8_BINARY");
        FileStoreTable e = paimonTable("coll", "e");
        assertThat(e.schema().id()).as("no refused change was written").isEqualTo(schemaId);
        assertThat(e.rowType().getFieldNames()).containsExactly("id", "s");
        assertThat(e.options()).doesNotContainKey("collation");
    }
}
