package dev.strata.spark.procedures;

import dev.strata.spark.errors.StrataErrors;
import dev.strata.spark.write.PaimonCommits;
import dev.strata.spark.write.PendingMessages;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.SparkSession;

/**
 * How a procedure runs its work and commits it, the same for every procedure (the one runner of all
 * of them):
 *
 * <ul>
 *   <li>every Spark job it starts carries a job description naming the procedure and the table
 *       ({@code Strata compact lake.db.t: 4 buckets}), shown in the Spark UI and in {@code
 *       spark.job.description}; the caller's description is restored afterwards. The job group is
 *       left alone: whoever runs the statement (e.g. {@code bin/strata-sql}) cancels its jobs by
 *       that group;
 *   <li>its tasks run through {@link TaskAttempts}: Spark retries a failed attempt, the last
 *       attempt reports its failure, so the driver sees every task's messages;
 *   <li>each task records its messages in the commit's pending directory before returning them
 *       ({@link TaskAttempts#recorded}), so files of a task whose outcome never reached the driver
 *       are found;
 *   <li>if any task failed, the files and archives every task wrote are deleted and nothing is
 *       committed; otherwise all messages are committed in one snapshot through {@link
 *       PaimonCommits} (which cleans up whatever part of a failed commit did not land).
 * </ul>
 */
final class ProcedureRun {

    static final String JOB_DESCRIPTION = "spark.job.description";

    private final String procedure;
    private final String action;
    private final String name;
    private final FileStoreTable table;
    private final String what;
    private PaimonCommits.Commit commit;

    /**
     * A run of {@code procedure} on {@code table} (named {@code name}) that commits nothing; {@code
     * action} completes failure messages: {@code "Cannot <action> <name>: ..."}.
     */
    ProcedureRun(String procedure, String action, String name, FileStoreTable table) {
        this(procedure, action, name, table, null);
    }

    /**
     * A run that commits what its tasks wrote in one commit, named {@code what} in messages ("the
     * compaction of lake.db.t"); the commit is prepared when the first tasks start, and they record
     * their messages in its pending directory.
     */
    ProcedureRun(String procedure, String action, String name, FileStoreTable table, String what) {
        this.procedure = procedure;
        this.action = action;
        this.name = name;
        this.table = table;
        this.what = what;
    }

    /** The run's commit, prepared on first use (its baseline is the latest snapshot then). */
    private PaimonCommits.Commit commit() {
        if (what == null) {
            throw new IllegalStateException(
                    "Cannot commit "
                            + procedure
                            + " of "
                            + name
                            + ": this run was created without a commit.");
        }
        if (commit == null) {
            commit = PaimonCommits.prepare(table, null, what);
        }
        return commit;
    }

    /**
     * Where this run's tasks record their messages before returning them (see {@link
     * TaskAttempts#recorded}).
     */
    PendingMessages pending() {
        return commit().pending();
    }

    /**
     * Runs the Spark job {@code job} (described by {@code detail}) that returns one outcome per
     * task. If the job itself fails (cancelled, or a task failed in a way Spark does not retry),
     * deletes what every task recorded before rethrowing: the driver got none of their messages.
     */
    List<TaskAttempts.Outcome> collect(String detail, Supplier<List<TaskAttempts.Outcome>> job) {
        try {
            return described(detail, job);
        } catch (RuntimeException | Error e) {
            try {
                commit().abort(List.of());
            } catch (Exception cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /** The Spark context of the active session. */
    static JavaSparkContext spark() {
        return JavaSparkContext.fromSparkContext(SparkSession.active().sparkContext());
    }

    /** {@code 1 bucket}, {@code 4 buckets}: for job descriptions. */
    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /** {@code Strata <procedure> <table>: <detail>}. */
    String description(String detail) {
        return "Strata "
                + procedure
                + " "
                + name
                + (detail == null || detail.isEmpty() ? "" : ": " + detail);
    }

    /**
     * Runs {@code work} with every Spark job it starts described as {@link #description(String)
     * description(detail)}, restoring the previous description afterwards.
     */
    <R> R described(String detail, Supplier<R> work) {
        JavaSparkContext jsc = spark();
        String previous = jsc.getLocalProperty(JOB_DESCRIPTION);
        jsc.setJobDescription(description(detail));
        try {
            return work.get();
        } finally {
            jsc.setLocalProperty(JOB_DESCRIPTION, previous);
        }
    }

    /** Work of a procedure that runs on the driver and may throw anything. */
    @FunctionalInterface
    interface Work<R> {
        R call() throws Exception;
    }

    /**
     * Runs a procedure's driver-side work (Paimon's own table operations, and any Spark job they
     * start described as {@link #description(String) description(detail)}). A failure becomes
     * {@code "Cannot <action> <name>: <why>. <then>"} with the failure as its cause; {@code then}
     * says what state the table is in and what to do.
     */
    <R> R perform(String detail, Work<R> work, String then) {
        return described(
                detail,
                () -> {
                    try {
                        return work.call();
                    } catch (Exception e) {
                        if (e instanceof InterruptedException) {
                            Thread.currentThread().interrupt();
                        }
                        throw new IllegalStateException(
                                String.format(
                                        "Cannot %s %s: %s. %s",
                                        action, name, StrataErrors.rootMessage(e), then),
                                e);
                    }
                });
    }

    /**
     * One Spark task per input ({@code fn} wrapped by {@link TaskAttempts#reportingLastFailure}),
     * described by {@code detail}; the outcomes of all tasks, in input order, if every task
     * succeeded. If any failed, deletes what every task wrote and throws naming each failed task by
     * its entry in {@code labels} (one per input).
     */
    <T> List<TaskAttempts.Outcome> runTasks(
            String detail,
            List<T> inputs,
            Function<T, TaskAttempts.Outcome> fn,
            List<String> labels) {
        if (inputs.isEmpty()) {
            return List.of();
        }
        PendingMessages pending = pending();
        List<TaskAttempts.Outcome> outcomes =
                collect(
                        detail,
                        () ->
                                spark().parallelize(new ArrayList<>(inputs), inputs.size())
                                        .map(TaskAttempts.reportingLastFailure(fn, pending))
                                        .collect());
        messagesOrAbort(outcomes, labels);
        return outcomes;
    }

    /** The messages of outcomes (of tasks that all succeeded). */
    static List<CommitMessage> messages(List<TaskAttempts.Outcome> outcomes) {
        List<CommitMessage> messages = new ArrayList<>();
        outcomes.forEach(o -> messages.addAll(o.messages.messages()));
        return messages;
    }

    /**
     * The messages of all outcomes; if any task failed, deletes what every message and every task
     * attempt recorded in the pending directory would have added, and throws {@code "Cannot
     * <action> <table>: ..."} naming the failures ({@code labels}: a name per outcome, or null).
     */
    List<CommitMessage> messagesOrAbort(List<TaskAttempts.Outcome> outcomes, List<String> labels) {
        List<CommitMessage> messages = messages(outcomes);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            String error = outcomes.get(i).error;
            if (error != null) {
                failures.add(labels == null ? error : labels.get(i) + ": " + error);
            }
        }
        if (failures.isEmpty()) {
            return messages;
        }
        IllegalStateException error =
                new IllegalStateException(
                        String.format(
                                "Cannot %s %s: %d of %d task%s failed (%s). No snapshot was created and the files the other tasks "
                                        + "wrote were deleted; fix the cause and run the procedure again.",
                                action,
                                name,
                                failures.size(),
                                outcomes.size(),
                                outcomes.size() == 1 ? "" : "s",
                                String.join("; ", failures)));
        try {
            commit().abort(messages);
        } catch (Exception e) {
            error.addSuppressed(e);
        }
        throw error;
    }

    /**
     * Commits all messages in one snapshot, or cleans up what did not land; files recorded by task
     * attempts whose messages are not among {@code messages} are deleted either way.
     */
    void commit(List<CommitMessage> messages) {
        commit().commit(messages);
    }

    /**
     * Deletes what the messages (and every recorded task attempt) would have added, before failing
     * without a commit.
     */
    void discard(List<CommitMessage> messages) {
        try {
            commit().discard(messages);
        } catch (Exception e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot delete the uncommitted files %s wrote for %s: %s. Nothing was committed; remove them with "
                                    + "the catalog's sys.remove_orphan_files once they are older than an hour.",
                            procedure, name, e.getMessage()),
                    e);
        }
    }
}
