package dev.strata.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Copies an on-disk fixture out of this test-jar. A fixture {@code fixtures/<group>/<name>/} comes with a
 * listing {@code fixtures/<group>/<name>.files} (one relative path per line), because a directory inside a
 * jar cannot be listed.
 */
public final class Fixtures {

    private Fixtures() {}

    /** Copies {@code fixtures/<group>/<name>} to {@code target/<name>} and returns that directory. */
    public static Path copy(String group, String name, Path target) throws IOException {
        ClassLoader loader = Fixtures.class.getClassLoader();
        String base = "fixtures/" + group + "/";
        List<String> files;
        try (InputStream listing = loader.getResourceAsStream(base + name + ".files")) {
            if (listing == null) {
                throw new IOException("Cannot copy fixture " + base + name + ": its listing " + name
                        + ".files is not on the classpath.");
            }
            files = new String(listing.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
        Path root = target.resolve(name);
        for (String file : files) {
            Path dest = root.resolve(file);
            Files.createDirectories(dest.getParent());
            try (InputStream in = loader.getResourceAsStream(base + name + "/" + file)) {
                if (in == null) {
                    throw new IOException("Cannot copy fixture " + base + name + ": file " + file + " is missing.");
                }
                Files.copy(in, dest);
            }
        }
        return root;
    }
}
