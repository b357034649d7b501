package dev.strata.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/** Which attempt is the last one follows Spark's own rule for the master in use. */
class TaskAttemptsTest {

    private static int attempts(String master, String maxFailures) {
        SparkConf conf = new SparkConf(false).set("spark.master", master);
        if (maxFailures != null) {
            conf.set("spark.task.maxFailures", maxFailures);
        }
        return TaskAttempts.maxFailures(conf);
    }

    @Test
    void localMastersRetryOnlyWhenTheyNameAFailureCount() {
        assertThat(attempts("local[2]", "8")).isEqualTo(1);
        assertThat(attempts("local[*]", null)).isEqualTo(1);
        assertThat(attempts("local[2, 3]", null)).isEqualTo(3);
        assertThat(attempts("local[*,5]", "8")).isEqualTo(5);
    }

    @Test
    void clusterMastersUseSparkTaskMaxFailures() {
        assertThat(attempts("yarn", null)).isEqualTo(4);
        assertThat(attempts("spark://host:7077", "6")).isEqualTo(6);
    }

    @Test
    void outsideATaskEveryAttemptIsTheLast() {
        assertThat(TaskAttempts.isLastAttempt()).isTrue();
    }
}
