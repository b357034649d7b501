package dev.strata.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.spark.StrataSparkTestBase;
import dev.strata.spark.catalog.PartitionSelector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A {@code where => '...'} argument is a partition predicate and nothing else: constructs that
 * would read files, call Java methods or run statements are refused before any of the filter runs,
 * and every allowed construct selects exactly the partitions plain Spark SQL selects over the same
 * partition values.
 */
class PartitionFilterTest extends StrataSparkTestBase {

    private static final String TABLE = "lake.pf.events";
    private static final String SECRET = "strata-secret-line-4711";
    private static final String PROBE = "strata.where.probe";

    private Path secretFile;

    @BeforeAll
    void createTable() throws Exception {
        secretFile = root.resolve("outside-warehouse").resolve("secret.txt");
        Files.createDirectories(secretFile.getParent());
        Files.writeString(secretFile, SECRET + "\n");

        sql("CREATE NAMESPACE lake.pf");
        sql(
                "CREATE TABLE %s (id BIGINT, dt STRING, hour INT, body STRING) PARTITIONED BY (dt, hour) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt,hour', 'bucket' = '2', 'deletion-vectors.enabled' = 'true', "
                        + "'strata-full-text.index.columns' = 'body')",
                TABLE);
        String[] days = {"2026-10-31", "2026-11-01", "2026-11-02", "2026-12-01"};
        int[] hours = {0, 7, 13, 23};
        List<String> values = new ArrayList<>();
        long id = 0;
        for (String day : days) {
            for (int hour : hours) {
                for (int i = 0; i < 3; i++) {
                    values.add(
                            String.format(
                                    "(%d, '%s', %d, 'disk write failure %d')", id, day, hour, id));
                    id++;
                }
            }
        }
        sql(
                "INSERT INTO %s SELECT * FROM VALUES %s AS v(id, dt, hour, body)",
                TABLE, String.join(", ", values));
        // The oracle: the same partition values in a plain parquet table of Spark's own catalog.
        sql(
                "CREATE TABLE default.pf_partitions USING parquet AS SELECT DISTINCT dt, hour FROM %s",
                TABLE);
    }

    /** The partitions plain Spark SQL selects with {@code where}, as {@code dt=../hour=..}. */
    private Set<String> oracle(String where) {
        return sql("SELECT dt, hour FROM default.pf_partitions WHERE " + where).stream()
                .map(
                        r ->
                                "dt="
                                        + (r.isNullAt(0) ? "null" : r.getString(0))
                                        + "/hour="
                                        + (r.isNullAt(1) ? "null" : r.get(1).toString()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The partitions {@link PartitionSelector} selects with {@code where} among the table's
     * partitions.
     */
    private Set<String> selected(String where) throws Exception {
        FileStoreTable table = paimonTable("pf", "events");
        RowType partitionType = table.rowType().project(table.partitionKeys());
        List<BinaryRow> partitions = table.newReadBuilder().newScan().listPartitions();
        assertThat(partitions).hasSize(16);
        return PartitionSelector.select(table, TABLE, partitions, where).stream()
                .map(p -> PartitionSelector.describe(partitionType, p))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> partitionsOf(List<Row> report) {
        return report.stream()
                .map(r -> r.getString(0))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyAllowedConstructSelectsWhatSparkSqlSelects() throws Exception {
        String[] filters = {
            "dt = '2026-11-01'",
            "dt IN ('2026-11-01', '2026-12-01') AND hour IN (0, 13)",
            "dt NOT IN ('2026-11-01')",
            "hour BETWEEN 5 AND 13",
            "hour NOT BETWEEN 5 AND 13",
            "hour IS NULL",
            "dt IS NOT NULL AND NOT (hour IS NULL)",
            "dt LIKE '2026-11-%'",
            "dt NOT LIKE '%-01' OR hour = 7",
            "dt ILIKE '2026-1_-01'",
            "dt = date_format(date_add('2026-10-31', 1), 'yyyy-MM-dd')",
            "dt = concat('2026', '-11-', lpad('2', 2, '0'))",
            "dt = lower(upper('2026-11-02')) AND hour > 1 + 5",
            "CAST(dt AS DATE) >= DATE '2026-11-02'",
            "hour::STRING = '7'",
            "CAST(hour AS STRING) = CAST(7 AS STRING)",
            "hour <=> NULL",
            "hour != 7 AND hour <> 0",
            "dt = '2026-' || '11-01'",
            "dt < '2026-11-02' AND hour <= 7 OR dt >= '2026-12-01' AND hour IS NOT NULL",
            "DT = '2026-11-01' AND `hour` = 13",
            "hour IS DISTINCT FROM 7",
            "dt >= date_format(date_sub(current_date(), 36500), 'yyyy-MM-dd')",
            "1 = 1",
            "false",
        };
        for (String where : filters) {
            assertThat(selected(where)).as(where).isEqualTo(oracle(where));
        }
        // Partition columns of a primary-key table are keys, never null.
        assertThat(selected("hour IS NULL OR dt IS NULL")).isEmpty();
        assertThat(selected("hour IS NOT NULL AND dt IS NOT NULL")).hasSize(16);
        assertThat(selected("hour BETWEEN 5 AND 13 AND dt LIKE '%-11-01'"))
                .containsExactly("dt=2026-11-01/hour=13", "dt=2026-11-01/hour=7");
    }

    @Test
    void procedureEntryPointsSelectWhatSparkSqlSelects() {
        String where = "dt IN ('2026-11-01', '2026-11-02') AND hour BETWEEN 1 AND 10";
        assertThat(oracle(where)).containsExactly("dt=2026-11-01/hour=7", "dt=2026-11-02/hour=7");
        assertThat(
                        partitionsOf(
                                sql(
                                        "CALL lake.sys.compact(table => 'pf.events', where => '%s')",
                                        where.replace("'", "''"))))
                .isEqualTo(oracle(where));
        assertThat(
                        partitionsOf(
                                sql(
                                        "CALL lake.sys.rebuild_pk_fulltext(table => 'pf.events', where => '%s', "
                                                + "force => true)",
                                        where.replace("'", "''"))))
                .isEqualTo(oracle(where));
    }

    /**
     * Before: any filter on a CHAR or VARCHAR partition column failed with Spark's
     * UNSUPPORTED_CHAR_OR_VARCHAR_AS_STRING ("Write a filter over partition columns dt").
     */
    @Test
    void charAndVarcharPartitionColumnsAreFilteredAsSparkComparesThem() {
        sql(
                "CREATE TABLE lake.pf.cv (id BIGINT NOT NULL, body STRING, dt VARCHAR(5) NOT NULL,"
                        + " c CHAR(3) NOT NULL) PARTITIONED BY (dt, c) TBLPROPERTIES"
                        + " ('primary-key' = 'id,dt,c', 'bucket' = '1', 'deletion-vectors.enabled' ="
                        + " 'true', 'strata-full-text.index.columns' = 'body')");
        sql(
                "INSERT INTO lake.pf.cv VALUES (1, 'disk one', 'a', 'x'), (2, 'disk two', 'a', 'yy'),"
                        + " (3, 'disk three', 'b', 'x')");
        String where = "dt = ''a'' AND c = ''x''";
        assertThat(
                        partitionsOf(
                                sql(
                                        "CALL lake.sys.compact(table => 'pf.cv', where => '%s')",
                                        where)))
                .hasSize(1)
                .allMatch(p -> p.contains("dt=a") && p.contains("c=x"));
        // 'yy' is stored as 'yy ' in CHAR(3): Spark pads the literal, and so does the filter.
        assertThat(
                        partitionsOf(
                                sql(
                                        "CALL lake.sys.rebuild_pk_fulltext(table => 'pf.cv',"
                                                + " where => 'c = ''yy''', force => true)")))
                .hasSize(1)
                .allMatch(p -> p.contains("dt=a") && p.contains("c=yy"));
    }

    /**
     * Runs {@code where} through compact and rebuild_pk_fulltext; both must refuse with {@code
     * why}.
     */
    private void assertRefused(String where, String why) {
        String quoted = where.replace("'", "''");
        for (String call :
                List.of(
                        "CALL lake.sys.compact(table => 'pf.events', where => '%s')",
                        "CALL lake.sys.rebuild_pk_fulltext(table => 'pf.events', where => '%s', force => true)")) {
            assertThatThrownBy(() -> sql(call, quoted))
                    .as(call, where)
                    .hasMessageStartingWith(
                            "Cannot use where => '" + where + "' for " + TABLE + ": ")
                    .hasMessageContaining(why)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
        }
    }

    @Test
    void aSubqueryReadingAFileOutsideTheWarehouseIsRefusedWithoutReadingIt() {
        String path = secretFile.toAbsolutePath().toString();
        assertRefused(
                "hour = CAST((SELECT first(value) FROM text.`" + path + "`) AS INT)",
                "subqueries are not allowed in a partition filter");
        assertRefused(
                "dt IN (SELECT value FROM text.`" + path + "`)", "subqueries are not allowed");
        assertRefused(
                "EXISTS (SELECT * FROM text.`" + path + "` WHERE value = dt)",
                "subqueries are not allowed");
    }

    @Test
    void reflectionIsRefusedBeforeAnythingRuns() {
        System.clearProperty(PROBE);
        assertRefused(
                "hour = 1 OR java_method('java.lang.System', 'setProperty', '"
                        + PROBE
                        + "', 'ran') = 'x'",
                "function java_method is not allowed in a partition filter: it calls Java methods");
        assertRefused(
                "reflect('java.lang.System', 'setProperty', '" + PROBE + "', 'ran') IS NULL",
                "function reflect is not allowed");
        assertRefused(
                "try_reflect('java.lang.System', 'setProperty', '" + PROBE + "', 'ran') IS NULL",
                "function try_reflect is not allowed");
        assertThat(System.getProperty(PROBE)).as("a reflective call ran").isNull();
        // Would end the test JVM if it ran.
        assertRefused(
                "java_method('java.lang.System', 'exit', 3) = 0",
                "function java_method is not allowed");
    }

    @Test
    void aStatementListIsRefusedWithSparksParseErrorAsCause() {
        assertRefused(
                "1=1; DROP TABLE lake.pf.events",
                "it is not a single SQL expression ([PARSE_SYNTAX_ERROR] Syntax error at or near ';'");
        assertThat(sql("SHOW TABLES IN lake.pf").stream().map(r -> r.getString(1)))
                .contains("events");
        assertThat(sql("SELECT count(*) FROM %s", TABLE).get(0).getLong(0)).isEqualTo(48L);
    }

    @Test
    void columnsOtherThanPartitionColumnsAreRefusedNamingThem() {
        assertRefused("id > 1", "column id is not one of the partition columns [dt, hour]");
        assertRefused(
                "body = 'x' OR dt = '2026-11-01'",
                "column body is not one of the partition columns [dt, hour]");
        assertRefused(
                "events.dt = '2026-11-01'", "column events.dt is not one of the partition columns");
        assertRefused(
                "__strata_partition_index = 0",
                "column __strata_partition_index is not one of the partition");
        assertRefused(
                "current_user = 'x'", "column current_user is not one of the partition columns");
    }

    @Test
    void everyOtherConstructIsRefusedNamingIt() {
        assertRefused(
                "upper(dt) = 'X'",
                "function upper may take only literals and built-in functions of literals");
        assertRefused("hour + 1 = 8", "the operator + may be applied to literals only");
        assertRefused("dt IN ('a', dt)", "the items of IN must be literals");
        assertRefused("rand() < 0.5", "function rand is not deterministic");
        assertRefused("uuid() = dt", "function uuid is not deterministic");
        assertRefused("count(1) > 0", "function count is an aggregate function");
        assertRefused("sum(hour) > 0", "function sum is an aggregate function");
        assertRefused("first(hour) > 0", "aggregates are not allowed");
        assertRefused("row_number() OVER (ORDER BY dt) = 1", "window functions are not allowed");
        assertRefused("explode(array(1)) = 1", "function explode is a generator function");
        assertRefused(
                "exists(array(1), x -> x = hour)",
                "function exists is a higher-order (lambda) function");
        assertRefused("raise_error('boom') IS NULL", "function raise_error is not allowed");
        assertRefused("assert_true(false) IS NULL", "function assert_true is not allowed");
        assertRefused("input_file_name() = ''", "function input_file_name is not deterministic");
        assertRefused("current_user() = 'x'", "function current_user depends on the session");
        assertRefused("xpath_string('<a>x</a>', 'a') = dt", "function xpath_string is not allowed");
        assertRefused(
                "no_such_function(1) = 1",
                "function no_such_function is not a built-in Spark function");
        assertRefused(
                "system.builtin.upper('x') = dt",
                "function system.builtin.upper is a qualified name");
        assertRefused("dt = :day", "parameter markers are not allowed");
        assertRefused(
                "named_struct('a', dt).a = 'x'", "field, element and key accesses are not allowed");
        assertRefused("dt RLIKE '.*'", "RLIKE expressions are not allowed");
        assertRefused("CASE WHEN hour = 1 THEN true END", "CASE expressions are not allowed");
        assertRefused("dt LIKE ANY ('2026-11-%')", "LIKE ANY and LIKE ALL are not allowed");
        assertRefused(
                "dt = date_add('2026-11-01')",
                "function date_add cannot be applied to these arguments");
    }

    @Test
    void aTemporaryFunctionShadowingABuiltInIsRefused() throws Exception {
        // A session of its own: the temporary function replaces the built-in lower in that session
        // only.
        SparkSession other = newSession();
        other.udf()
                .register("lower", (UDF1<String, String>) s -> "2026-11-01", DataTypes.StringType);
        String resolved = other.sql("SELECT lower('X')").first().getString(0);
        String call = "CALL lake.sys.compact(table => 'pf.events', where => 'dt = lower(''X'')')";
        try {
            if (resolved.equals("2026-11-01")) {
                // Spark 4.1: the temporary function shadows the built-in in that session.
                assertThatThrownBy(() -> other.sql(call).collectAsList())
                        .hasMessageContaining(
                                "function lower is shadowed by a temporary function of this session");
            } else {
                // Spark 4.2 resolves built-ins before temporary functions: nothing is shadowed,
                // and the filter means what the built-in means (no partition 'x').
                assertThat(resolved).isEqualTo("x");
                assertThat(other.sql(call).collectAsList()).isEmpty();
            }
        } finally {
            SparkSession.setActiveSession(spark);
        }
        assertThat(selected("dt = lower('2026-11-01')")).isEqualTo(oracle("dt = '2026-11-01'"));
    }

    @Test
    void aTableWithoutSnapshotsStillHasItsFilterChecked() {
        sql(
                "CREATE TABLE lake.pf.empty (id BIGINT, dt STRING, body STRING) PARTITIONED BY (dt) "
                        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '-2', 'deletion-vectors.enabled' = 'true', "
                        + "'strata-full-text.index.columns' = 'body')");
        for (String call :
                List.of(
                        "CALL lake.sys.compact(table => 'pf.empty', where => 'id = 1')",
                        "CALL lake.sys.rebuild_pk_fulltext(table => 'pf.empty', where => 'id = 1')")) {
            assertThatThrownBy(() -> sql(call))
                    .as(call)
                    .hasMessageStartingWith(
                            "Cannot use where => 'id = 1' for lake.pf.empty: column id is not one of "
                                    + "the partition columns [dt]");
        }
        assertThat(sql("CALL lake.sys.compact(table => 'pf.empty', where => 'dt = ''x''')"))
                .isEmpty();
    }

    @Test
    void aFilterThatIsNotBooleanOrDoesNotTypeCheckIsRefusedWithSparksReason() {
        assertThatThrownBy(() -> sql("CALL lake.sys.compact(table => 'pf.events', where => 'dt')"))
                .hasMessageStartingWith("Cannot use where => 'dt' for " + TABLE + ": ")
                .hasMessageContaining("Write a filter over partition columns dt, hour");
    }
}
