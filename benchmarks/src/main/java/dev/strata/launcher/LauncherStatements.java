package dev.strata.launcher;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.SparkSession;

/**
 * The launcher's path for one statement (parse, collect what {@code bin/strata-sql} collects, print
 * the table into a discarded stream), for benchmarks outside this package that time statements as a
 * user of the shell sees them.
 */
public final class LauncherStatements {

    private LauncherStatements() {}

    /** Runs {@code statement} as the launcher does; its error, if any, fails the benchmark. */
    public static void run(SparkSession spark, String statement) {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream(), true);
        PrintStream err = new PrintStream(errors, true, StandardCharsets.UTF_8);
        if (!StrataSql.run(spark, statement, discard, err)) {
            throw new IllegalStateException(
                    "Cannot time statement '"
                            + statement
                            + "': the launcher reported "
                            + errors.toString(StandardCharsets.UTF_8).strip()
                            + ". Fix the statement or the table it reads.");
        }
    }
}
