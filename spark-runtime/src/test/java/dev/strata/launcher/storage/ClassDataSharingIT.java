package dev.strata.launcher.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.launcher.TestLaunches;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code bin/strata-sql} writes a class-data-sharing archive in the background after a
 * session finds none, and later sessions map it (seen in the JVM's memory map) and answer as
 * before, with nothing of it on stdout or stderr.
 */
class ClassDataSharingIT {

    @TempDir Path dir;

    private static List<Path> archives() throws IOException {
        try (Stream<Path> files = Files.list(PackagedLauncher.moduleDir().resolve("target"))) {
            return files.filter(p -> p.getFileName().toString().matches("strata-sql-\\d+\\.jsa"))
                    .toList();
        }
    }

    /**
     * The strata-sql archive in the memory map of {@code session}, read until it appears or the
     * session ends: bin/strata-sql execs the JVM, so the process is the JVM, and the archive is
     * mapped from its start until it exits.
     */
    private static String mappedArchive(Process session) throws InterruptedException {
        Path maps = Path.of("/proc", Long.toString(session.pid()), "maps");
        Pattern archive = Pattern.compile("(/\\S*/strata-sql-\\d+\\.jsa)$", Pattern.MULTILINE);
        while (session.isAlive()) {
            try {
                Matcher m = archive.matcher(Files.readString(maps, StandardCharsets.UTF_8));
                if (m.find()) {
                    return m.group(1);
                }
            } catch (IOException gone) {
                return null;
            }
            Thread.sleep(50);
        }
        return null;
    }

    @Test
    @EnabledIf("dev.strata.launcher.TestLaunches#onTheLaunchersDefaultMinor")
    void aLaterSessionMapsTheArchiveAnEarlierSessionLeft() throws Exception {
        PackagedLauncher launcher = new PackagedLauncher(dir, TestLaunches.ENVIRONMENT);
        String warehouse = Files.createDirectories(dir.resolve("wh")).toString();
        PackagedLauncher.Result first = launcher.run("--warehouse", warehouse, "-e", "SELECT 1");
        assertThat(first.exit()).as(first.toString()).isZero();

        // Writing and checking the archive takes two JVMs of low priority (~30 s of CPU). Archives
        // of
        // other classpaths (the S3 tests' --jars) may lie beside it: a later session must map its
        // own.
        long end = System.nanoTime() + 300_000_000_000L;
        while (archives().isEmpty() && System.nanoTime() < end) {
            Thread.sleep(500);
        }
        assertThat(archives()).as("archives beside the runtime jar after 300 s").isNotEmpty();
        String mapped = null;
        Process later;
        do {
            later =
                    launcher.start(
                            "--warehouse",
                            warehouse,
                            "-e",
                            "SELECT sum(id) AS total FROM range(0, 4, 1, 2)"
                                    + " WHERE java_method('java.lang.Thread', 'sleep', 1000L) IS NOT NULL");
            mapped = mappedArchive(later);
            if (mapped == null) {
                launcher.finish(later, 300, "SELECT sum(id) ...");
                Thread.sleep(5000);
            }
        } while (mapped == null && System.nanoTime() < end);
        assertThat(mapped).as("an archive mapped by a later session within 300 s").isNotNull();
        assertThat(archives().stream().map(p -> p.getFileName().toString()))
                .as("archives beside the runtime jar")
                .contains(Path.of(mapped).getFileName().toString());
        PackagedLauncher.Result r = launcher.finish(later, 300, "SELECT sum(id) ...");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).as(r.toString()).containsPattern("\\|\\s*6\\s*\\|");
        assertThat(r.out() + r.err())
                .as(r.toString())
                .doesNotContain("cds")
                .doesNotContain("[warning]");
    }
}
