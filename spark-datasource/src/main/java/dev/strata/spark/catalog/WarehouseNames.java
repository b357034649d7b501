package dev.strata.spark.catalog;

import java.net.URI;
import java.util.List;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.fs.Path;

/**
 * Keeps user-given names inside the warehouse. Namespace, table, branch and tag names become path
 * segments, so each must be exactly one: not empty, not {@code .} or {@code ..}, without {@code /},
 * {@code \} or control characters (below U+0020, and U+007F). Deletes check that they remove a
 * directory of the catalog's own layout.
 */
public final class WarehouseNames {

    public enum Kind {
        NAMESPACE("Namespace"),
        TABLE("Table"),
        BRANCH("Branch"),
        TAG("Tag");

        private final String title;

        Kind(String title) {
            this.title = title;
        }

        String rule() {
            return title
                    + " names must not be empty, '.' or '..' and must not contain '/', '\\' or control "
                    + "characters. They are at most "
                    + MAX_NAME_BYTES
                    + " bytes (UTF-8) long.";
        }
    }

    /** 255 bytes a file name, less Paimon's prefix and temporary-file suffix. */
    static final int MAX_NAME_BYTES = 200;

    private WarehouseNames() {}

    /** Throws {@code Cannot <action>: <problem>. <rule>} unless a single safe path segment. */
    public static void check(String action, Kind kind, String name) {
        String problem = problem(name);
        if (problem != null) {
            throw new IllegalArgumentException(
                    String.format("Cannot %s: %s. %s", action, problem, kind.rule()));
        }
    }

    /** Whether {@link #check} would accept it. */
    public static boolean isSegment(String name) {
        return problem(name) == null;
    }

    /** Database, table and branch; a system-table suffix is checked as part of the object name. */
    public static void checkTable(String action, Identifier id) {
        check(action, Kind.NAMESPACE, id.getDatabaseName());
        check(action, Kind.TABLE, id.getObjectName());
        check(action, Kind.TABLE, id.getTableName());
        if (id.getBranchName() != null) {
            check(action, Kind.BRANCH, id.getBranchName());
        }
    }

    /** What is wrong with {@code name} as one path segment, or null. */
    static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "the name is empty";
        }
        if (name.equals(".") || name.equals("..")) {
            return "the name '" + name + "' is a relative path step";
        }
        int bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > MAX_NAME_BYTES) {
            // Paimon names files "tag-<name>" and writes them as ".tag-<name>.<uuid>.tmp" first;
            // past the file system's 255 bytes the write failed with "can't determine the success".
            return String.format(
                    "the name '%s...' is %d bytes long, more than the %d a file name leaves for it",
                    printable(name.substring(0, 20)), bytes, MAX_NAME_BYTES);
        }
        return characterProblem(name);
    }

    static String characterProblem(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\') {
                return String.format(
                        "the name '%s' contains '%c' (%s)", printable(name), c, codePoint(c));
            }
        }
        return controlProblem(name);
    }

    static String controlProblem(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return String.format(
                        "the name '%s' contains the control character %s at position %d",
                        printable(name), codePoint(c), i);
            }
        }
        return null;
    }

    /**
     * Refuses unless {@code dir} is exactly {@code <warehouse>/<segments...>} on the same file
     * system, whatever names other engines stored.
     */
    public static void checkOwnDirectory(
            String action, Path warehouse, Path dir, List<String> segments) {
        URI root = warehouse.toUri();
        URI target = dir.toUri();
        String rootPath = stripTrailingSlash(root.normalize().getPath());
        String expected = rootPath + "/" + String.join("/", segments);
        boolean sameFileSystem =
                sameOrUnset(root.getScheme(), target.getScheme())
                        && sameOrUnset(root.getAuthority(), target.getAuthority());
        boolean ownLayout =
                segments.stream().allMatch(s -> problem(s) == null)
                        && target.getPath() != null
                        && target.normalize().getPath().equals(target.getPath())
                        && stripTrailingSlash(target.getPath()).equals(expected);
        if (!sameFileSystem || !ownLayout) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s: its directory %s is not %s inside the warehouse %s, so Strata deletes nothing. "
                                    + "Remove the directory with the file system's own tools if it must go.",
                            action, dir, expected, warehouse));
        }
    }

    private static boolean sameOrUnset(String a, String b) {
        return a == null || b == null || a.equalsIgnoreCase(b);
    }

    private static String stripTrailingSlash(String path) {
        String p = path == null ? "" : path;
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p.equals("/") ? "" : p;
    }

    static String codePoint(char c) {
        return String.format("U+%04X", (int) c);
    }

    static String printable(String name) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
