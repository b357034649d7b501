package dev.strata.spark.procedures;

import java.io.Serializable;
import java.util.List;

import dev.strata.spark.StrataErrors;
import dev.strata.spark.write.StrataCommitMessage;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;

/**
 * Runs a procedure's task so that Spark still retries a failed attempt, but the last attempt reports its
 * failure as a result instead of failing the job. A failed job would drop the commit messages of the tasks
 * that succeeded, and with them the only record of the files and archives they wrote; with every task
 * reporting, the driver can delete all of them and commit nothing.
 */
final class TaskAttempts {

    private TaskAttempts() {}

    /** What one task produced, or why its last attempt failed. */
    static final class Outcome implements Serializable {
        private static final long serialVersionUID = 1L;

        final StrataCommitMessage messages;
        final String error;

        Outcome(StrataCommitMessage messages, String error) {
            this.messages = messages;
            this.error = error;
        }
    }

    /** {@code task} with its last attempt's failure turned into an {@link Outcome}. */
    static <T> Function<T, Outcome> reportingLastFailure(Function<T, StrataCommitMessage> task) {
        return input -> {
            try {
                return new Outcome(task.call(input), null);
            } catch (Exception | LinkageError e) {
                if (!isLastAttempt()) {
                    throw e;
                }
                return failed(e);
            }
        };
    }

    /** The outcome of a last attempt that failed with {@code e} (having cleaned up after itself). */
    static Outcome failed(Throwable e) {
        return new Outcome(StrataCommitMessage.of(List.of()), e.getClass().getSimpleName() + ": " + StrataErrors.rootMessage(e));
    }

    /**
     * The messages of all outcomes; if any task failed, deletes what every message would have added and throws
     * {@code "Cannot compact <table>: ..."} naming the failures.
     */
    static List<org.apache.paimon.table.sink.CommitMessage> messagesOrAbort(
            org.apache.paimon.table.FileStoreTable table, String name, List<Outcome> outcomes) {
        List<org.apache.paimon.table.sink.CommitMessage> messages = new java.util.ArrayList<>();
        List<String> failures = new java.util.ArrayList<>();
        for (Outcome outcome : outcomes) {
            messages.addAll(outcome.messages.messages());
            if (outcome.error != null) {
                failures.add(outcome.error);
            }
        }
        if (failures.isEmpty()) {
            return messages;
        }
        IllegalStateException error = new IllegalStateException(String.format(
                "Cannot compact %s: %d of %d task%s failed (%s). No snapshot was created and the files the "
                        + "other tasks wrote were deleted; fix the cause and run the procedure again.",
                name, failures.size(), outcomes.size(), outcomes.size() == 1 ? "" : "s", String.join("; ", failures)));
        try {
            dev.strata.spark.write.PaimonCommits.discard(table, messages);
        } catch (Exception e) {
            error.addSuppressed(e);
        }
        throw error;
    }

    /** Whether Spark will not retry the running task attempt if it fails. */
    static boolean isLastAttempt() {
        TaskContext task = TaskContext.get();
        if (task == null) {
            return true;
        }
        return task.attemptNumber() + 1 >= maxFailures(SparkEnv.get() == null ? new SparkConf(false) : SparkEnv.get().conf());
    }

    /** Spark's attempts per task: {@code local[N]} 1, {@code local[N,F]} F, otherwise spark.task.maxFailures. */
    static int maxFailures(SparkConf conf) {
        String master = conf.get("spark.master", "");
        if (master.startsWith("local")) {
            int comma = master.indexOf(',');
            if (comma > 0 && master.endsWith("]")) {
                try {
                    return Integer.parseInt(master.substring(comma + 1, master.length() - 1).trim());
                } catch (NumberFormatException e) {
                    return 1;
                }
            }
            return 1;
        }
        return conf.getInt("spark.task.maxFailures", 4);
    }
}
