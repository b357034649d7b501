package dev.strata.spark.catalog;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.paimon.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * The last check before DROP deletes a directory: it must be exactly the object's own directory
 * inside the warehouse, whatever names the metadata holds.
 */
class OwnDirectoryCheckTest {

    private static final Path WAREHOUSE = new Path("file:/data/wh");
    private static final List<String> TABLE = List.of("db.db", "t");

    private static void refused(Path warehouse, String dir, List<String> segments) {
        assertThatThrownBy(
                        () ->
                                WarehouseNames.checkOwnDirectory(
                                        "drop table lake.db.t", warehouse, new Path(dir), segments))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll(
                        "Cannot drop table lake.db.t: its directory", "so Strata deletes nothing");
    }

    @Test
    void theTablesOwnDirectoryMayBeDeleted() {
        assertThatCode(
                        () ->
                                WarehouseNames.checkOwnDirectory(
                                        "drop table lake.db.t",
                                        WAREHOUSE,
                                        new Path("file:/data/wh/db.db/t"),
                                        TABLE))
                .doesNotThrowAnyException();
        assertThatCode(
                        () ->
                                WarehouseNames.checkOwnDirectory(
                                        "drop table lake.db.t",
                                        new Path("file:/data/wh/"),
                                        new Path("file:/data/wh/db.db/t"),
                                        TABLE))
                .doesNotThrowAnyException();
        assertThatCode(
                        () ->
                                WarehouseNames.checkOwnDirectory(
                                        "drop namespace lake.db",
                                        WAREHOUSE,
                                        new Path("file:/data/wh/db.db"),
                                        List.of("db.db")))
                .doesNotThrowAnyException();
        assertThatCode(
                        () ->
                                WarehouseNames.checkOwnDirectory(
                                        "drop table lake.db.t",
                                        new Path("/data/wh"),
                                        new Path("/data/wh/db.db/t"),
                                        TABLE))
                .doesNotThrowAnyException();
        // locations are compared as the file system resolves them
        assertThatCode(
                        () ->
                                WarehouseNames.checkOwnDirectory(
                                        "drop table lake.db.t",
                                        WAREHOUSE,
                                        new Path("file:/data/wh/../wh/./db.db/t"),
                                        TABLE))
                .doesNotThrowAnyException();
    }

    @Test
    void relativeStepsAreRefusedEvenWhenTheNamesMatch() {
        // a table another engine named '..': <warehouse>/db.db/.. is the warehouse itself
        refused(WAREHOUSE, "file:/data/wh/db.db/..", List.of("db.db", ".."));
        refused(WAREHOUSE, "file:/data/wh/db.db/t/..", TABLE);
        refused(WAREHOUSE, "file:/data/wh/../x.db", List.of("../x.db"));
    }

    @Test
    void directoriesOtherThanTheOwnOneAreRefused() {
        refused(WAREHOUSE, "file:/data/wh", TABLE);
        refused(WAREHOUSE, "file:/data/wh/db.db", TABLE);
        refused(WAREHOUSE, "file:/data/wh/db.db/t/sub", TABLE);
        refused(WAREHOUSE, "file:/data/wh/other.db/t", TABLE);
        refused(WAREHOUSE, "file:/data/elsewhere/db.db/t", TABLE);
        refused(WAREHOUSE, "file:/data/wh2/db.db/t", TABLE);
        refused(WAREHOUSE, "s3://bucket/data/wh/db.db/t", TABLE);
        refused(new Path("hdfs://nn1/data/wh"), "hdfs://nn2/data/wh/db.db/t", TABLE);
    }
}
