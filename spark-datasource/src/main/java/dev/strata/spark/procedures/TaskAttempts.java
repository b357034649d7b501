package dev.strata.spark.procedures;

import dev.strata.spark.errors.StrataErrors;
import dev.strata.spark.write.PendingMessages;
import dev.strata.spark.write.StrataCommitMessage;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.UUID;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;

/**
 * Spark still retries a failed attempt, but the last attempt reports its failure as a result: a
 * failed job would drop the messages of succeeded tasks, the only record of the files they wrote.
 */
final class TaskAttempts {

    private TaskAttempts() {}

    /** A task's messages and optional result, or why its last attempt failed. */
    static final class Outcome implements Serializable {
        private static final long serialVersionUID = 1L;

        final StrataCommitMessage messages;
        final Serializable result;
        final String error;

        Outcome(StrataCommitMessage messages, String error) {
            this(messages, null, error);
        }

        Outcome(StrataCommitMessage messages, Serializable result, String error) {
            this.messages = messages;
            this.result = result;
            this.error = error;
        }
    }

    /** Successful outcomes are recorded in {@code pending} before they are returned. */
    static <T> Function<T, Outcome> reportingLastFailure(
            Function<T, Outcome> task, PendingMessages pending) {
        return input -> {
            Outcome outcome;
            try {
                outcome = task.call(input);
            } catch (Exception | LinkageError e) {
                if (!isLastAttempt()) {
                    throw e;
                }
                return failed(e);
            }
            return recorded(outcome, pending);
        };
    }

    /**
     * If recording fails, the outcome is returned as failed with its messages, so the driver
     * deletes its files and commits nothing.
     */
    static Outcome recorded(Outcome outcome, PendingMessages pending) {
        if (outcome.error != null) {
            return outcome;
        }
        try {
            pending.record(attemptName(), outcome.messages.messages());
            return outcome;
        } catch (IOException | RuntimeException e) {
            return new Outcome(
                    outcome.messages,
                    outcome.result,
                    e.getClass().getSimpleName() + ": " + StrataErrors.rootMessage(e));
        }
    }

    /** {@code <partition>-<task attempt id>}, unique within the application. */
    private static String attemptName() {
        TaskContext task = TaskContext.get();
        return task == null
                ? "driver-" + UUID.randomUUID()
                : task.partitionId() + "-" + task.taskAttemptId();
    }

    static Outcome failed(Throwable e) {
        return new Outcome(
                StrataCommitMessage.of(List.of()),
                e.getClass().getSimpleName() + ": " + StrataErrors.rootMessage(e));
    }

    static boolean isLastAttempt() {
        TaskContext task = TaskContext.get();
        if (task == null) {
            return true;
        }
        return task.attemptNumber() + 1
                >= maxFailures(
                        SparkEnv.get() == null ? new SparkConf(false) : SparkEnv.get().conf());
    }

    /** {@code local[N]}: 1, {@code local[N,F]}: F, otherwise spark.task.maxFailures. */
    static int maxFailures(SparkConf conf) {
        String master = conf.get("spark.master", "");
        if (master.startsWith("local")) {
            int comma = master.indexOf(',');
            if (comma > 0 && master.endsWith("]")) {
                try {
                    return Integer.parseInt(
                            master.substring(comma + 1, master.length() - 1).trim());
                } catch (NumberFormatException e) {
                    return 1;
                }
            }
            return 1;
        }
        return conf.getInt("spark.task.maxFailures", 4);
    }
}
