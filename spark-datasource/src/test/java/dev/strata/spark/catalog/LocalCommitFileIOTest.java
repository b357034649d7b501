package dev.strata.spark.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.DefaultSparkOnly;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.catalog.AbstractCatalog;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.DelegateCatalog;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.options.CatalogOptions;
import org.apache.paimon.options.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local warehouse's catalog commits through {@link LocalCommitFileIO}: two processes claiming the
 * same snapshot ids never both win one.
 */
@DefaultSparkOnly
class LocalCommitFileIOTest {

    private static final int WINS = 1500;

    @TempDir Path dir;

    @Test
    void aLocalWarehouseCommitsThroughIt() throws Exception {
        assertThat(catalogFileIO(dir.toUri().toString())).isInstanceOf(LocalCommitFileIO.class);
        assertThat(catalogFileIO(dir.resolve("plain").toString()))
                .isInstanceOf(LocalCommitFileIO.class);
        Options s3 = new Options();
        s3.set(CatalogOptions.WAREHOUSE, "s3a://bucket/lake");
        assertThat(LocalCommitFileIO.catalogContext(s3, new Configuration()).preferIO()).isNull();
    }

    /** A path's space stays a space: Paimon takes a {@code file:} URI's "%20" literally. */
    @Test
    void aPathWarehouseIsTheDirectoryItNames() throws Exception {
        Path named = dir.resolve("my lake");
        Options options = new Options();
        options.set(CatalogOptions.WAREHOUSE, named.toString());
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        LocalCommitFileIO.catalogContext(options, new Configuration()))) {
            catalog.createDatabase("db", true);
        }
        assertThat(named.resolve("db.db")).isDirectory();
        assertThat(dir.resolve("my%20lake")).doesNotExist();
    }

    @Test
    void aRenameNeverReplacesAFile() throws Exception {
        FileIO io = catalogFileIO(dir.toUri().toString());
        org.apache.paimon.fs.Path target =
                new org.apache.paimon.fs.Path(dir.resolve("s-1").toUri());
        assertThat(io.tryToWriteAtomic(target, "first")).isTrue();
        assertThat(io.tryToWriteAtomic(target, "second")).isFalse();
        assertThat(io.readFileUtf8(target)).isEqualTo("first");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("no temporary file left")
                    .containsExactly("s-1");
        }
    }

    /**
     * Two processes write files snapshot-1, snapshot-2, ... as Paimon commits snapshots: each takes
     * the id after the highest that exists and writes it only if absent, until it has won {@value
     * #WINS} ids. Every id a process reports won must hold what it wrote. Paimon's own local FileIO
     * lost some in every such run (5 to 25 of 3 000).
     */
    @Test
    void twoProcessesNeverBothWinAnId() throws Exception {
        Path snapshots = Files.createDirectories(dir.resolve("snapshot"));
        Process a = race(snapshots, "a");
        Process b = race(snapshots, "b");
        List<String> wins = new ArrayList<>(finished(a, "a"));
        wins.addAll(finished(b, "b"));
        assertThat(wins).hasSize(2 * WINS);
        List<String> replaced = new ArrayList<>();
        for (String win : wins) {
            String[] idAndToken = win.split(" ");
            String content =
                    Files.readString(snapshots.resolve("snapshot-" + idAndToken[0])).trim();
            if (!content.equals(idAndToken[1])) {
                replaced.add(win + " (the file holds " + content + ")");
            }
        }
        assertThat(replaced).as("ids won by one process and then replaced by the other").isEmpty();
    }

    private FileIO catalogFileIO(String warehouse) throws Exception {
        Options options = new Options();
        options.set(CatalogOptions.WAREHOUSE, warehouse);
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        LocalCommitFileIO.catalogContext(options, new Configuration()))) {
            return ((AbstractCatalog) DelegateCatalog.rootCatalog(catalog)).fileIO();
        }
    }

    private Process race(Path snapshots, String name) throws Exception {
        List<String> command =
                List.of(
                        new File(System.getProperty("java.home"), "bin/java").getPath(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        SnapshotIdRace.class.getName(),
                        dir.toUri().toString(),
                        snapshots.toString(),
                        String.valueOf(WINS),
                        name);
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .start();
    }

    private List<String> finished(Process child, String name) throws Exception {
        assertThat(child.waitFor(5, TimeUnit.MINUTES)).as("child %s finished", name).isTrue();
        List<String> lines = Files.readAllLines(dir.resolve(name + ".out"), StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as("child %s exit code; output: %s", name, lines).isZero();
        return lines.stream().filter(l -> l.matches("[0-9]+ [a-z]+-[0-9]+")).toList();
    }

    /** One racing process: the catalog's FileIO of warehouse args[0], ids in args[1]. */
    public static final class SnapshotIdRace {
        public static void main(String[] args) throws Exception {
            Options options = new Options();
            options.set(CatalogOptions.WAREHOUSE, args[0]);
            File snapshots = new File(args[1]);
            int wins = Integer.parseInt(args[2]);
            try (Catalog catalog =
                    CatalogFactory.createCatalog(
                            LocalCommitFileIO.catalogContext(options, new Configuration()))) {
                FileIO io = ((AbstractCatalog) DelegateCatalog.rootCatalog(catalog)).fileIO();
                int won = 0;
                int id = 1;
                while (won < wins) {
                    while (new File(snapshots, "snapshot-" + id).exists()) {
                        id++;
                    }
                    String token = args[3] + "-" + won;
                    org.apache.paimon.fs.Path path =
                            new org.apache.paimon.fs.Path(
                                    new File(snapshots, "snapshot-" + id).toURI());
                    if (io.tryToWriteAtomic(path, token)) {
                        System.out.println(id + " " + token);
                        won++;
                    }
                }
            }
        }
    }
}
