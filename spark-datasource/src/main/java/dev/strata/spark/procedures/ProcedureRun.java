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
 * The one runner of every procedure. Each Spark job gets a description naming the procedure and
 * table (the job group is left alone: the statement's runner cancels by it). Tasks run through
 * {@link TaskAttempts} and record their messages in the commit's pending directory; if any task
 * failed everything written is deleted, otherwise all messages are committed in one snapshot
 * through {@link PaimonCommits}.
 */
final class ProcedureRun {

    static final String JOB_DESCRIPTION = "spark.job.description";

    private final String procedure;
    private final String action;
    private final String name;
    private final FileStoreTable table;
    private final String what;
    private PaimonCommits.Commit commit;

    /** A run that commits nothing; failures read {@code "Cannot <action> <name>: ..."}. */
    ProcedureRun(String procedure, String action, String name, FileStoreTable table) {
        this(procedure, action, name, table, null);
    }

    /** A run that commits what its tasks wrote in one commit, prepared on first use. */
    ProcedureRun(String procedure, String action, String name, FileStoreTable table, String what) {
        this.procedure = procedure;
        this.action = action;
        this.name = name;
        this.table = table;
        this.what = what;
    }

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

    PendingMessages pending() {
        return commit().pending();
    }

    /**
     * Runs a job returning one outcome per task. If the job itself fails, deletes what every task
     * recorded before rethrowing: the driver got none of their messages.
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

    static JavaSparkContext spark() {
        return JavaSparkContext.fromSparkContext(SparkSession.active().sparkContext());
    }

    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    String description(String detail) {
        return "Strata "
                + procedure
                + " "
                + name
                + (detail == null || detail.isEmpty() ? "" : ": " + detail);
    }

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

    @FunctionalInterface
    interface Work<R> {
        R call() throws Exception;
    }

    /**
     * Runs driver-side work; a failure becomes {@code "Cannot <action> <name>: <why>. <then>"},
     * {@code then} saying what state the table is in and what to do.
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
     * One Spark task per input; the outcomes in input order if all succeeded, else deletes what
     * every task wrote and throws naming the failed tasks by {@code labels}.
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

    static List<CommitMessage> messages(List<TaskAttempts.Outcome> outcomes) {
        List<CommitMessage> messages = new ArrayList<>();
        outcomes.forEach(o -> messages.addAll(o.messages.messages()));
        return messages;
    }

    /**
     * The messages of all outcomes; if any task failed, deletes what they and every recorded
     * attempt added and throws. {@code labels}: a name per outcome, or null.
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

    void commit(List<CommitMessage> messages) {
        commit().commit(messages);
    }

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
