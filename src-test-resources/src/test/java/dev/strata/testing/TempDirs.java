package dev.strata.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing what tests and benchmarks wrote into their temporary directories. */
public final class TempDirs {

    private TempDirs() {}

    /**
     * Deletes {@code path} and everything below it, best effort (a file that cannot be deleted
     * stays); nothing when it does not exist.
     */
    public static void delete(Path path) {
        if (path == null || !Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + path + " to delete it", e);
        }
    }
}
