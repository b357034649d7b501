package dev.strata.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.spark.catalog.LocalCommitFileIO;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.CatalogOptions;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warehouse {@code --warehouse} names is the directory Paimon writes, also when its path has
 * characters a URI escapes.
 */
class WarehousePathTest {

    @TempDir Path dir;

    @Test
    void tablesLandInTheNamedDirectory() throws Exception {
        for (String name : new String[] {"my lake", "50% off", "a#b"}) {
            Path named = dir.resolve(name);
            for (String given :
                    new String[] {named.toString(), "file:" + named.toUri().getRawPath()}) {
                PrintStream err =
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
                String uri = StrataSql.warehouseUri(given, err);
                Options options = new Options();
                options.set(CatalogOptions.WAREHOUSE, uri);
                try (Catalog catalog =
                        CatalogFactory.createCatalog(
                                LocalCommitFileIO.catalogContext(options, new Configuration()))) {
                    catalog.createDatabase("db", true);
                    catalog.createTable(
                            Identifier.create("db", "t"),
                            Schema.newBuilder().column("id", DataTypes.INT()).build(),
                            true);
                }
                assertThat(named.resolve("db.db").resolve("t").resolve("schema"))
                        .as("tables of --warehouse %s (catalog warehouse %s)", given, uri)
                        .isDirectory();
            }
            try (Stream<Path> siblings = Files.list(dir)) {
                assertThat(siblings.map(p -> p.getFileName().toString()))
                        .as("no directory of an escaped name")
                        .allMatch(
                                n ->
                                        !n.contains("%20")
                                                && !n.contains("%25")
                                                && !n.contains("%23"));
            }
        }
    }
}
