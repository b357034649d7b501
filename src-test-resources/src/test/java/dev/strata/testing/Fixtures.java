package dev.strata.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Copies an on-disk fixture out of this test-jar. A fixture {@code fixtures/<group>/<name>/} comes
 * with a listing {@code fixtures/<group>/<name>.files} (one relative path per line), because a
 * directory inside a jar cannot be listed.
 */
public final class Fixtures {

    private Fixtures() {}

    /**
     * Copies {@code fixtures/<group>/<name>} to {@code target/<name>} and returns that directory.
     */
    public static Path copy(String group, String name, Path target) throws IOException {
        return copyFrom("fixtures/" + group + "/", name, target);
    }

    /**
     * Copies the Paimon 2.0 table {@code paimon2-fixtures/db.db/<table>} into the warehouse
     * directory {@code warehouse} (as {@code warehouse/db.db/<table>}, database {@code db}) and
     * returns the table directory.
     */
    public static Path copyPaimon2Table(String table, Path warehouse) throws IOException {
        return copyFrom("paimon2-fixtures/db.db/", table, warehouse.resolve("db.db"));
    }

    /**
     * The expected rows of a Paimon 2.0 fixture table, one JSON object per line (README.md beside
     * them).
     */
    public static List<String> paimon2ExpectedRows(String table) throws IOException {
        String name = "paimon2-fixtures/" + table + ".expected.jsonl";
        try (InputStream in = Fixtures.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException(
                        "Cannot read the expected rows of fixture table "
                                + table
                                + ": "
                                + name
                                + " is not on the classpath.");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(l -> !l.isBlank())
                    .toList();
        }
    }

    private static Path copyFrom(String base, String name, Path target) throws IOException {
        ClassLoader loader = Fixtures.class.getClassLoader();
        List<String> files;
        try (InputStream listing = loader.getResourceAsStream(base + name + ".files")) {
            if (listing == null) {
                throw new IOException(
                        "Cannot copy fixture "
                                + base
                                + name
                                + ": its listing "
                                + name
                                + ".files is not on the classpath.");
            }
            files =
                    new String(listing.readAllBytes(), StandardCharsets.UTF_8)
                            .lines()
                            .filter(l -> !l.isBlank())
                            .toList();
        }
        Path root = target.resolve(name);
        for (String file : files) {
            Path dest = root.resolve(file);
            Files.createDirectories(dest.getParent());
            try (InputStream in = loader.getResourceAsStream(base + name + "/" + file)) {
                if (in == null) {
                    throw new IOException(
                            "Cannot copy fixture "
                                    + base
                                    + name
                                    + ": file "
                                    + file
                                    + " is missing.");
                }
                Files.copy(in, dest);
            }
        }
        return root;
    }
}
