package dev.strata.launcher;

import dev.strata.spark.compat.SparkVersionApi;
import dev.strata.spark.write.PaimonCommits;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.spark.SparkException;
import org.apache.spark.SparkExecutorInfo;
import org.apache.spark.SparkStatusTracker;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.CommandResult;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.jline.keymap.KeyMap;
import org.jline.reader.Buffer;
import org.jline.reader.EOFError;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.Reference;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * {@code bin/strata-sql}: SQL on an embedded local Spark with a Strata catalog {@code lake}.
 *
 * <pre>
 * strata-sql [--warehouse DIR|URI] [--master URL] [--spark 4.1|4.2] [--driver-memory SIZE] [--conf K=V]...
 *            [--jars JARS] [-i FILE]... [-f FILE] [-e "SQL; SQL"] [--continue-on-error]
 *            (no -e/-f: the prompt after -i, or the statements piped on stdin)
 * </pre>
 *
 * Statements run in order; results print as tables (or csv/json), DDL/DML print what they did. In a
 * batch (-i, -f, -e, piped stdin) the first failure ends with exit code 1, unless
 * --continue-on-error runs the rest; the prompt always goes on.
 */
public final class StrataSql {

    static final int MAX_PRINTED_ROWS = 10_000;

    /** A URI scheme of two or more characters (one letter before ':' would be a Windows drive). */
    private static final Pattern URI_SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+:");

    private StrataSql() {}

    public static void main(String[] args) throws IOException {
        Options options = Options.parse(args, System.err);
        if (options == null) {
            usage(System.err);
            System.exit(2);
        }
        if (options.help) {
            usage(System.out);
            return;
        }
        // -i files first, then -f, then -e: each is a list of statements run in that order.
        List<String> scripts = new ArrayList<>();
        for (String init : options.initFiles) {
            scripts.add(readScript(init, "-i"));
        }
        if (options.file != null) {
            scripts.add(readScript(options.file, "-f"));
        }
        if (options.inline != null) {
            scripts.add(options.inline);
        }
        // Piped stdin is a script like -f: read whole and split the same way, so a statement means
        // the same whether it is typed, piped or in a file.
        boolean prompt = options.file == null && options.inline == null && stdinIsTerminal();
        if (options.file == null && options.inline == null && !prompt) {
            scripts.add(new String(System.in.readAllBytes(), StandardCharsets.UTF_8));
        }
        String warehouseUri = warehouseUri(options.warehouse, System.err);
        if (warehouseUri == null) {
            System.exit(1);
        }
        Map<String, String> conf = new LinkedHashMap<>();
        // The progress bar redraws one line with '\r': on a terminal only, never into a file.
        conf.put("spark.ui.showConsoleProgress", String.valueOf(stderrIsTerminal()));
        conf.putAll(options.conf);
        String jars = executorJars(options.master, options.jars, conf, runtimeJar(), System.err);
        if (jars != null) {
            conf.put("spark.jars", jars);
        }
        SparkSession spark = session(warehouseUri, options.master, conf);
        if (options.verbose) {
            System.err.println(
                    "strata-sql: Spark "
                            + spark.version()
                            + ", master "
                            + spark.sparkContext().master()
                            + ", catalog lake at "
                            + warehouseUri);
        }
        Runner runner =
                new Runner(
                        options.output,
                        options.timing,
                        options.verbose,
                        options.continueOnError,
                        System.out,
                        System.err);
        int exit = 0;
        try {
            for (String script : scripts) {
                exit |= runner.runScript(spark, script);
                if (exit != 0 && !options.continueOnError) {
                    break;
                }
            }
            if (prompt && (exit == 0 || options.continueOnError)) {
                exit |= interactive(spark, runner);
            }
        } finally {
            awaitRunningTasks(spark, 10_000);
            spark.stop();
        }
        System.exit(exit);
    }

    /**
     * Waits (at most {@code maxMillis}) until no task runs: stopping Spark while an aborted job's
     * tasks are still being killed logs a RejectedExecutionException stack trace at exit.
     */
    static void awaitRunningTasks(SparkSession spark, long maxMillis) {
        SparkStatusTracker tracker = spark.sparkContext().statusTracker();
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        while (System.nanoTime() < deadline) {
            int running = 0;
            for (SparkExecutorInfo executor : tracker.getExecutorInfos()) {
                running += executor.numRunningTasks();
            }
            if (running == 0 && tracker.getActiveJobIds().length == 0) {
                return;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The command line; {@link #parse} returns null after printing why an argument is refused. */
    static final class Options {
        String warehouse = "warehouse";
        String master = System.getProperty("strata.master", "local[*]");
        final Map<String, String> conf = new LinkedHashMap<>();
        final List<String> initFiles = new ArrayList<>();
        final List<String> jars = new ArrayList<>();
        String file;
        String inline;
        Output output = Output.TABLE;
        boolean timing;
        boolean verbose;
        boolean continueOnError;
        boolean help;

        static Options parse(String[] args, PrintStream err) {
            Options options = new Options();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                String name = arg;
                String value = null;
                int eq = arg.indexOf('=');
                if (arg.startsWith("--") && eq > 0) {
                    name = arg.substring(0, eq);
                    value = arg.substring(eq + 1);
                }
                if (name.equals("-h") || name.equals("--help")) {
                    options.help = true;
                    continue;
                }
                if (name.equals("--timing")) {
                    options.timing = true;
                    continue;
                }
                if (name.equals("--continue-on-error")) {
                    options.continueOnError = true;
                    continue;
                }
                if (name.equals("--verbose")) {
                    // bin/strata-sql set the log levels to INFO; also print the session's set-up.
                    options.verbose = true;
                    continue;
                }
                if (!TAKES_VALUE.contains(name)) {
                    err.println(
                            "strata-sql: Cannot run with argument '"
                                    + arg
                                    + "': it is not an option of "
                                    + "strata-sql. See the usage below.");
                    return null;
                }
                if (value == null) {
                    if (i + 1 >= args.length) {
                        err.println(
                                "strata-sql: Cannot run with option "
                                        + name
                                        + ": it needs a value.");
                        return null;
                    }
                    value = args[++i];
                }
                switch (name) {
                    case "--warehouse":
                        options.warehouse = value;
                        break;
                    case "--master":
                        options.master = value;
                        break;
                    case "--spark":
                        // bin/strata-sql picked the runtime built for this minor; a launcher built
                        // for another one means the script and the build disagree.
                        if (!value.equals(SparkVersionApi.SPARK_MINOR)) {
                            err.println(
                                    "strata-sql: Cannot run with --spark "
                                            + value
                                            + ": this runtime is built for Spark "
                                            + SparkVersionApi.SPARK_MINOR
                                            + ". Use --spark 4.1 or --spark 4.2 after `mvn -B -DskipTests package`.");
                            return null;
                        }
                        break;
                    case "--driver-memory":
                        // bin/strata-sql sizes the heap from it; Spark keeps it as driver memory.
                        options.conf.put("spark.driver.memory", value);
                        break;
                    case "--conf":
                        int sep = value.indexOf('=');
                        if (sep <= 0) {
                            err.println(
                                    "strata-sql: Cannot use --conf '"
                                            + value
                                            + "': expected key=value, "
                                            + "for example --conf spark.sql.shuffle.partitions=8.");
                            return null;
                        }
                        options.conf.put(value.substring(0, sep).strip(), value.substring(sep + 1));
                        break;
                    case "--output":
                        try {
                            options.output = Output.valueOf(value.toUpperCase(Locale.ROOT));
                        } catch (IllegalArgumentException e) {
                            err.println(
                                    "strata-sql: Cannot use --output "
                                            + value
                                            + ": expected table, csv or json.");
                            return null;
                        }
                        break;
                    case "--jars":
                        for (String jar : value.split(",")) {
                            if (!jar.isBlank()) {
                                options.jars.add(jar.strip());
                            }
                        }
                        break;
                    case "-i":
                        options.initFiles.add(value);
                        break;
                    case "-f":
                        if (options.file != null) {
                            err.println(
                                    "strata-sql: Cannot run -f "
                                            + value
                                            + ": -f "
                                            + options.file
                                            + " was already given. Pass one -f (and -i for files to run first).");
                            return null;
                        }
                        options.file = value;
                        break;
                    case "-e":
                        options.inline =
                                options.inline == null ? value : options.inline + ";\n" + value;
                        break;
                    default:
                        throw new IllegalStateException(name);
                }
            }
            return options;
        }
    }

    private static final Set<String> TAKES_VALUE =
            Set.of(
                    "--warehouse",
                    "--master",
                    "--spark",
                    "--driver-memory",
                    "--conf",
                    "--jars",
                    "--output",
                    "-i",
                    "-f",
                    "-e");

    private static String readScript(String file, String option) {
        Path path = Path.of(file);
        if (!Files.isReadable(path) || Files.isDirectory(path)) {
            System.err.println(
                    "strata-sql: Cannot read "
                            + option
                            + " file "
                            + path.toAbsolutePath()
                            + ": it does not exist or is not a readable file. Check the path.");
            System.exit(2);
        }
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.err.println(
                    "strata-sql: Cannot read "
                            + option
                            + " file "
                            + path.toAbsolutePath()
                            + ": "
                            + e.getMessage()
                            + ". Check that it is UTF-8 text.");
            System.exit(2);
            return null;
        }
    }

    /**
     * The catalog's warehouse: a URI with a scheme is kept for Paimon's FileIO, a plain path made
     * absolute; a missing local warehouse is created if its parent exists, else this returns null.
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
                err.println(
                        "strata-sql: Cannot open warehouse "
                                + warehouse
                                + ": it is not a valid file URI ("
                                + e.getMessage()
                                + "). Use file:/absolute/path or a plain path.");
                return null;
            }
        } else {
            return warehouse;
        }
        if (Files.isDirectory(dir)) {
            return dev.strata.spark.catalog.LocalCommitFileIO.fileUri(dir);
        }
        if (Files.exists(dir)) {
            err.println(
                    "strata-sql: Cannot open warehouse "
                            + dir
                            + ": it is a file, not a directory. "
                            + "Pass a directory to --warehouse.");
            return null;
        }
        Path parent = dir.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            err.println(
                    "strata-sql: Cannot create warehouse "
                            + dir
                            + ": its parent directory "
                            + parent
                            + " does not exist. Create the parent first or check the --warehouse path.");
            return null;
        }
        try {
            Files.createDirectory(dir);
        } catch (IOException e) {
            err.println(
                    "strata-sql: Cannot create warehouse "
                            + dir
                            + ": "
                            + e.getMessage()
                            + ". Check the permissions of "
                            + parent
                            + ".");
            return null;
        }
        err.println("Created new warehouse at " + dir);
        return dev.strata.spark.catalog.LocalCommitFileIO.fileUri(dir);
    }

    /** The jar this class was loaded from, or null when it runs from a class directory. */
    static Path runtimeJar() {
        try {
            Path location =
                    Path.of(
                            StrataSql.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI());
            return Files.isRegularFile(location) ? location : null;
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /**
     * {@code spark.jars} for a session: on a cluster master the executors need Strata's classes, so
     * the runtime jar is shipped with the {@code --jars}; a user's {@code spark.jars} stays. Null
     * for a local master, whose tasks run in this JVM.
     */
    static String executorJars(
            String master,
            List<String> jars,
            Map<String, String> conf,
            Path runtimeJar,
            PrintStream err) {
        boolean inThisJvm = master.equals("local") || master.startsWith("local[");
        if (inThisJvm || conf.containsKey("spark.jars")) {
            return null;
        }
        List<String> shipped = new ArrayList<>();
        if (runtimeJar != null) {
            shipped.add(runtimeJar.toAbsolutePath().toString());
        } else {
            err.println(
                    "strata-sql: Cannot ship Strata's classes to the executors of "
                            + master
                            + ": the launcher runs from class directories, not the runtime jar. "
                            + "Run it without STRATA_SQL_CLASSPATH, or pass --conf spark.jars=<jars>.");
        }
        for (String jar : jars) {
            shipped.add(
                    URI_SCHEME.matcher(jar).lookingAt()
                            ? jar
                            : Path.of(jar).toAbsolutePath().normalize().toString());
        }
        return shipped.isEmpty() ? null : String.join(",", shipped);
    }

    static SparkSession session(String warehouseUri) {
        return session(warehouseUri, System.getProperty("strata.master", "local[*]"), Map.of());
    }

    /** A session with catalog {@code lake} over the warehouse, {@code conf} applied last. */
    static SparkSession session(String warehouseUri, String master, Map<String, String> conf) {
        String sparkWarehouse =
                warehouseUri.endsWith("/")
                        ? warehouseUri + "spark-warehouse"
                        : warehouseUri + "/spark-warehouse";
        SparkSession.Builder builder =
                SparkSession.builder()
                        .master(master)
                        .appName("strata-sql")
                        .config("spark.ui.showConsoleProgress", "true")
                        .config("spark.driver.host", "127.0.0.1")
                        .config("spark.driver.bindAddress", "127.0.0.1")
                        .config("spark.sql.extensions", "dev.strata.spark.StrataExtensions")
                        .config("spark.sql.catalog.lake", "dev.strata.spark.StrataCatalog")
                        .config("spark.sql.catalog.lake.warehouse", warehouseUri)
                        .config("spark.sql.warehouse.dir", sparkWarehouse);
        conf.forEach(builder::config);
        return builder.getOrCreate();
    }

    /** Runs statements in order; 0 when all succeeded, 1 at the first failure. */
    static int runScript(SparkSession spark, String script) {
        return new Runner(Output.TABLE, false, false, false, System.out, System.err)
                .runScript(spark, script);
    }

    static boolean run(SparkSession spark, String statement, PrintStream out, PrintStream err) {
        return run(spark, statement, out, err, Output.TABLE, false);
    }

    static boolean run(
            SparkSession spark,
            String statement,
            PrintStream out,
            PrintStream err,
            Output output,
            boolean timing) {
        return new Runner(output, timing, false, false, out, err).run(spark, statement);
    }

    static final class Runner {
        private final Output output;
        private final boolean timing;
        private final boolean verbose;
        private final boolean continueOnError;
        private final PrintStream out;
        private final PrintStream err;

        Runner(
                Output output,
                boolean timing,
                boolean verbose,
                boolean continueOnError,
                PrintStream out,
                PrintStream err) {
            this.output = output;
            this.timing = timing;
            this.verbose = verbose;
            this.continueOnError = continueOnError;
            this.out = out;
            this.err = err;
        }

        /** Runs statements; 1 on failure (with --continue-on-error only after the rest), else 0. */
        int runScript(SparkSession spark, String script) {
            int exit = 0;
            for (String statement : SqlScript.split(script)) {
                if (!run(spark, statement)) {
                    exit = 1;
                    if (!continueOnError) {
                        break;
                    }
                }
            }
            return exit;
        }

        /**
         * Runs one statement and prints its rows in the {@code output} format, or for statements
         * without result columns what they did (on {@code err} in csv/json, so stdout stays data).
         */
        boolean run(SparkSession spark, String statement) {
            long startedNanos = System.nanoTime();
            try (PaimonCommits.Recording commits = PaimonCommits.record()) {
                Dataset<Row> result = spark.sql(statement);
                String fetched;
                if (result.schema().isEmpty()) {
                    result.collectAsList();
                    String report =
                            StatementReport.describe(spark, result.queryExecution(), commits);
                    (output == Output.TABLE ? out : err).println(report);
                    fetched = "";
                } else {
                    List<Row> rows = printable(result).collectAsList();
                    boolean truncated = rows.size() > MAX_PRINTED_ROWS;
                    List<Row> shown = truncated ? rows.subList(0, MAX_PRINTED_ROWS) : rows;
                    boolean command =
                            result.queryExecution().commandExecuted() instanceof CommandResult;
                    new ResultPrinter(out)
                            .print(result.schema(), shown, truncated, output, command);
                    fetched = ", fetched " + shown.size() + (shown.size() == 1 ? " row" : " rows");
                }
                if (timing) {
                    err.printf(
                            Locale.ROOT,
                            "Time taken: %.3f s%s%n",
                            (System.nanoTime() - startedNanos) / 1e9,
                            fetched);
                }
                return true;
            } catch (Exception e) {
                err.println("Error in statement: " + abbreviate(statement));
                if (verbose) {
                    e.printStackTrace(err);
                } else {
                    err.println(errorMessage(e));
                }
                return false;
            }
        }
    }

    /** A stack frame line inside an exception message, as Spark puts a task's trace there. */
    private static final Pattern STACK_FRAME =
            Pattern.compile("\\s*(at \\S+\\(.*\\)|\\.\\.\\. \\d+ more|Driver stacktrace:)\\s*");

    /**
     * A failed statement's message without stack frames: a task failure's message holds the task's
     * trace; its cause's message says what went wrong.
     */
    static String errorMessage(Throwable e) {
        Throwable t = e;
        while (t instanceof SparkException
                && t.getCause() != null
                && String.valueOf(t.getMessage()).startsWith("Job aborted due to stage failure")) {
            t = t.getCause();
        }
        String message = t.getMessage() == null ? t.toString() : t.getMessage();
        return message.lines()
                .filter(line -> !STACK_FRAME.matcher(line).matches())
                .collect(Collectors.joining("\n"))
                .strip();
    }

    /**
     * What {@link #run} collects: the statement's own Dataset when its analysed plan cannot return
     * more than {@link #MAX_PRINTED_ROWS} rows, so it runs exactly as {@code
     * spark.sql(q).collect()} would; otherwise the statement under a limit of one row more, to know
     * it was truncated.
     */
    static Dataset<Row> printable(Dataset<Row> result) {
        // Only the analysed plan's bound: asking the statement's optimized plan would optimize it
        // once for the answer and again under the limit. Strata's rules may also replace a bounded
        // plan by nodes that state no bound (a text_match count answered from the archives).
        if (bounded(result.queryExecution().analyzed())) {
            return result;
        }
        return result.limit(MAX_PRINTED_ROWS + 1);
    }

    private static boolean bounded(LogicalPlan plan) {
        scala.Option<Object> maxRows = plan.maxRows();
        return maxRows.isDefined() && (Long) maxRows.get() <= MAX_PRINTED_ROWS;
    }

    /** How query results are printed ({@code --output}). */
    enum Output {
        TABLE,
        CSV,
        JSON
    }

    /** The Spark job group of the statement the prompt is running, cancelled by Ctrl-C. */
    private static final String JOB_GROUP = "strata-sql-statement";

    /**
     * The prompt (JLine, history in ~/.strata_sql_history), statements over lines until ';'. Ctrl-C
     * cancels the running statement's jobs or drops typed text; Ctrl-D leaves (twice if
     * half-typed).
     */
    private static int interactive(SparkSession spark, Runner runner) throws IOException {
        Path history = Path.of(System.getProperty("user.home"), ".strata_sql_history");
        try (Terminal terminal = TerminalBuilder.builder().system(true).dumb(true).build()) {
            LineReader reader =
                    LineReaderBuilder.builder()
                            .terminal(terminal)
                            .appName("strata-sql")
                            .parser(new StatementParser())
                            .variable(LineReader.HISTORY_FILE, history)
                            .variable(LineReader.SECONDARY_PROMPT_PATTERN, "      > ")
                            // JLine would expand '!' and drop one level of backslashes ('\\b'
                            // typed would reach Spark as '\b'): the prompt passes text as typed.
                            .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                            .build();
            boolean[] eofWarned = {false};
            reader.getWidgets()
                    .put(
                            "strata-eof",
                            () -> {
                                Buffer buffer = reader.getBuffer();
                                if (buffer.length() == 0 || eofWarned[0]) {
                                    throw new EndOfFileException();
                                }
                                eofWarned[0] = true;
                                reader.printAbove(
                                        "The statement is not finished: end it with ';', or press Ctrl-D again to leave "
                                                + "without running it.");
                                return true;
                            });
            reader.getKeyMaps()
                    .get(LineReader.MAIN)
                    .bind(new Reference("strata-eof"), KeyMap.ctrl('D'));
            terminal.handle(
                    Terminal.Signal.INT,
                    signal -> {
                        terminal.writer().println("\nCancelling the running statement...");
                        terminal.writer().flush();
                        spark.sparkContext().cancelJobGroup(JOB_GROUP);
                    });
            terminal.writer()
                    .println(
                            "Strata SQL on Spark "
                                    + spark.version()
                                    + ". Catalog: lake. End statements "
                                    + "with ';', leave with Ctrl-D or 'exit;'.");
            terminal.writer().flush();
            boolean failed = false;
            while (true) {
                String text;
                eofWarned[0] = false;
                try {
                    text = reader.readLine("strata> ");
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                for (String statement : SqlScript.split(text)) {
                    String word = statement.strip().toLowerCase(Locale.ROOT);
                    if (word.equals("exit") || word.equals("quit")) {
                        return failed ? 1 : 0;
                    }
                    spark.sparkContext().setJobGroup(JOB_GROUP, abbreviate(statement), true);
                    try {
                        failed |= !runner.run(spark, statement);
                    } finally {
                        spark.sparkContext().clearJobGroup();
                    }
                }
            }
            return failed ? 1 : 0;
        }
    }

    /** Asks JLine for another line while the typed text does not end with a complete statement. */
    private static final class StatementParser extends DefaultParser {
        StatementParser() {
            // A backslash is SQL's escape inside literals, not the line editor's.
            escapeChars(new char[0]);
        }

        @Override
        public ParsedLine parse(String line, int cursor, ParseContext context) {
            if (context == ParseContext.ACCEPT_LINE
                    && !line.isBlank()
                    && !SqlScript.complete(line)) {
                throw new EOFError(-1, -1, "statement not ended with ';'");
            }
            return super.parse(line, cursor, context);
        }
    }

    /** Whether stdin is a terminal; bin/strata-sql tells with {@code -t 0} (Java 17 cannot). */
    private static boolean stdinIsTerminal() {
        String told = System.getProperty("strata.sql.stdin.terminal");
        return told == null ? System.console() != null : Boolean.parseBoolean(told);
    }

    /** Whether stderr is a terminal ({@code -t 2} in bin/strata-sql). */
    private static boolean stderrIsTerminal() {
        String told = System.getProperty("strata.sql.stderr.terminal");
        return told == null ? System.console() != null : Boolean.parseBoolean(told);
    }

    private static String abbreviate(String statement) {
        String oneLine = statement.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 117) + "...";
    }

    private static void usage(PrintStream out) {
        out.println("usage: strata-sql [options]");
        out.println("  Runs SQL on an embedded Spark with catalog 'lake' over a Paimon warehouse.");
        out.println(
                "  --warehouse DIR|URI   warehouse directory or URI (file:, hdfs:, s3a: ...; default ./warehouse)");
        out.println("  --master URL          Spark master (default local[*])");
        out.println(
                "  --spark 4.1|4.2       the Spark minor to run on: the runtime built for it (default 4.1)");
        out.println("  --driver-memory SIZE  heap of the driver JVM, for example 8g (default 4g)");
        out.println("  --conf KEY=VALUE      a Spark or SQL setting for the session (repeatable)");
        out.println(
                "  --jars JAR,JAR        jars for the driver's classpath, also shipped to a cluster's executors");
        out.println(
                "  --output FORMAT       query results as table (default), csv or json (one object per line)");
        out.println("  --timing              print the time each statement took (on stderr)");
        out.println(
                "  --verbose             Spark and Paimon logs at INFO and errors with their stack traces");
        out.println("  -i FILE               statements to run first (repeatable)");
        out.println("  -f FILE               a file of statements, run after -i");
        out.println("  -e \"SQL; SQL\"         statements run after -f");
        out.println(
                "  --continue-on-error   in -i/-f/-e and piped stdin, run the statements after a failing one");
        out.println(
                "  Without -e or -f, reads statements from the prompt after -i, or from stdin when it is piped.");
        out.println(
                "  In a batch the first failing statement ends the program with exit code 1 (with");
        out.println(
                "  --continue-on-error the rest run and the exit code is 1 at the end); the prompt goes on.");
        out.println("  A bad argument exits with 2.");
    }
}
