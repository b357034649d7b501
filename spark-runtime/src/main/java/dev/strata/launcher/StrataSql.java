package dev.strata.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@code bin/strata-sql}: SQL on an embedded local Spark with a Strata catalog {@code lake}.
 *
 * <pre>
 * strata-sql [--warehouse DIR] [-e "SQL; SQL"] [-f FILE]     (no -e/-f: interactive prompt)
 * </pre>
 *
 * Statements run in order; query results print as aligned tables while Spark's console progress bar shows
 * long stages. The first failing statement prints its error and ends the program with exit code 1.
 */
public final class StrataSql {

    static final int MAX_PRINTED_ROWS = 10_000;

    /** A URI scheme of two or more characters (one letter before ':' would be a Windows drive). */
    private static final Pattern URI_SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+:");

    private StrataSql() {}

    public static void main(String[] args) throws IOException {
        String warehouse = "warehouse";
        String inline = null;
        String file = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--warehouse":
                    warehouse = value(args, ++i, "--warehouse");
                    break;
                case "-e":
                    inline = value(args, ++i, "-e");
                    break;
                case "-f":
                    file = value(args, ++i, "-f");
                    break;
                case "-h":
                case "--help":
                    usage(System.out);
                    return;
                default:
                    System.err.println("strata-sql: unknown argument '" + args[i] + "'.");
                    usage(System.err);
                    System.exit(2);
            }
        }
        String script = null;
        if (file != null) {
            Path path = Path.of(file);
            if (!Files.isReadable(path)) {
                System.err.println("strata-sql: cannot read SQL file " + path.toAbsolutePath()
                        + ": it does not exist or is not readable.");
                System.exit(2);
            }
            script = Files.readString(path, StandardCharsets.UTF_8);
        }
        if (inline != null) {
            script = script == null ? inline : script + ";\n" + inline;
        }
        String warehouseUri = warehouseUri(warehouse, System.err);
        if (warehouseUri == null) {
            System.exit(1);
        }
        SparkSession spark = session(warehouseUri);
        int exit;
        try {
            exit = script != null ? runScript(spark, script) : interactive(spark);
        } finally {
            spark.stop();
        }
        System.exit(exit);
    }

    /**
     * The warehouse location for the catalog: a URI with a scheme ({@code file:}, {@code hdfs:}, {@code s3a:} ...) is
     * kept as given, for Paimon's FileIO to resolve; a plain path is made absolute. A local warehouse that does not
     * exist is created (saying so on {@code err}) when its parent directory exists; otherwise this prints why and
     * returns null.
     */
    static String warehouseUri(String warehouse, PrintStream err) {
        boolean uri = URI_SCHEME.matcher(warehouse).lookingAt();
        Path dir;
        if (!uri) {
            dir = Path.of(warehouse).toAbsolutePath().normalize();
        } else if (warehouse.regionMatches(true, 0, "file:", 0, 5)) {
            try {
                dir = Path.of(URI.create(warehouse));
            } catch (IllegalArgumentException e) {
                err.println("strata-sql: Cannot open warehouse " + warehouse + ": it is not a valid file URI ("
                        + e.getMessage() + "). Use file:/absolute/path or a plain path.");
                return null;
            }
        } else {
            return warehouse;
        }
        if (Files.isDirectory(dir)) {
            return uri ? warehouse : dir.toUri().toString();
        }
        if (Files.exists(dir)) {
            err.println("strata-sql: Cannot open warehouse " + dir + ": it is a file, not a directory. "
                    + "Pass a directory to --warehouse.");
            return null;
        }
        Path parent = dir.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            err.println("strata-sql: Cannot create warehouse " + dir + ": its parent directory " + parent
                    + " does not exist. Create the parent first or check the --warehouse path.");
            return null;
        }
        try {
            Files.createDirectory(dir);
        } catch (IOException e) {
            err.println("strata-sql: Cannot create warehouse " + dir + ": " + e.getMessage()
                    + ". Check the permissions of " + parent + ".");
            return null;
        }
        err.println("Created new warehouse at " + dir);
        return uri ? warehouse : dir.toUri().toString();
    }

    static SparkSession session(String warehouseUri) {
        String sparkWarehouse = warehouseUri.endsWith("/") ? warehouseUri + "spark-warehouse"
                : warehouseUri + "/spark-warehouse";
        return SparkSession.builder()
                .master(System.getProperty("strata.master", "local[*]"))
                .appName("strata-sql")
                .config("spark.ui.showConsoleProgress", "true")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.extensions", "dev.strata.spark.StrataExtensions")
                .config("spark.sql.catalog.lake", "dev.strata.spark.StrataCatalog")
                .config("spark.sql.catalog.lake.warehouse", warehouseUri)
                .config("spark.sql.warehouse.dir", sparkWarehouse)
                .getOrCreate();
    }

    /** Runs statements in order; 0 when all succeeded, 1 at the first failure. */
    static int runScript(SparkSession spark, String script) {
        for (String statement : SqlScript.split(script)) {
            if (!run(spark, statement, System.out, System.err)) {
                return 1;
            }
        }
        return 0;
    }

    static boolean run(SparkSession spark, String statement, PrintStream out, PrintStream err) {
        try {
            Dataset<Row> result = spark.sql(statement);
            if (result.schema().isEmpty()) {
                result.collectAsList();
                out.println("OK");
            } else {
                List<Row> rows = result.limit(MAX_PRINTED_ROWS + 1).collectAsList();
                boolean truncated = rows.size() > MAX_PRINTED_ROWS;
                new ResultPrinter(out).print(result.schema(), truncated ? rows.subList(0, MAX_PRINTED_ROWS) : rows,
                        truncated);
            }
            return true;
        } catch (Exception e) {
            err.println("Error in statement: " + abbreviate(statement));
            err.println(e.getMessage() == null ? e.toString() : e.getMessage());
            return false;
        }
    }

    private static int interactive(SparkSession spark) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder buffer = new StringBuilder();
        System.out.println("Strata SQL on Spark " + spark.version() + ". Catalog: lake. End statements with ';', "
                + "leave with 'exit;'.");
        boolean failed = false;
        while (true) {
            System.out.print(buffer.length() == 0 ? "strata> " : "      > ");
            System.out.flush();
            String line = in.readLine();
            if (line == null) {
                break;
            }
            buffer.append(line).append('\n');
            if (!SqlScript.complete(buffer.toString())) {
                continue;
            }
            List<String> statements = SqlScript.split(buffer.toString());
            buffer.setLength(0);
            for (String statement : statements) {
                String word = statement.strip().toLowerCase();
                if (word.equals("exit") || word.equals("quit")) {
                    return failed ? 1 : 0;
                }
                failed |= !run(spark, statement, System.out, System.err);
            }
        }
        return failed ? 1 : 0;
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            System.err.println("strata-sql: " + flag + " needs a value.");
            usage(System.err);
            System.exit(2);
        }
        return args[i];
    }

    private static String abbreviate(String statement) {
        String oneLine = statement.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 117) + "...";
    }

    private static void usage(PrintStream out) {
        out.println("usage: strata-sql [--warehouse DIR] [-e \"SQL; SQL\"] [-f FILE]");
        out.println("  Runs SQL on an embedded local Spark with catalog 'lake' over the Paimon warehouse DIR");
        out.println("  (default ./warehouse). Without -e or -f, reads statements from an interactive prompt.");
    }
}
