package dev.strata.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.spark.StrataSparkTestBase;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every Spark job a procedure starts carries a job description naming the procedure and the table
 * (what the Spark UI shows), captured by a real {@link SparkListener}; the caller's own description
 * is back afterwards.
 */
class ProcedureJobDescriptionTest extends StrataSparkTestBase {

    private static final String OUTER = "the caller's own description";

    /** Local property that marks the test's own marker jobs (not counted as a procedure's). */
    private static final String MARKER = "strata.test.marker";

    private final List<String> descriptions = new CopyOnWriteArrayList<>();
    private final AtomicInteger ended = new AtomicInteger();
    private final Map<Integer, String> markerJobs = new ConcurrentHashMap<>();
    private final BlockingQueue<String> markersEnded = new LinkedBlockingQueue<>();
    private int markers;
    private SparkListener listener;

    @BeforeEach
    void listen() {
        listener =
                new SparkListener() {
                    @Override
                    public void onJobStart(SparkListenerJobStart jobStart) {
                        String marker = jobStart.properties().getProperty(MARKER);
                        if (marker != null) {
                            markerJobs.put(jobStart.jobId(), marker);
                            return;
                        }
                        descriptions.add(
                                String.valueOf(
                                        jobStart.properties()
                                                .getProperty(ProcedureRun.JOB_DESCRIPTION)));
                    }

                    @Override
                    public void onJobEnd(SparkListenerJobEnd jobEnd) {
                        String marker = markerJobs.remove(jobEnd.jobId());
                        if (marker != null) {
                            markersEnded.add(marker);
                            return;
                        }
                        ended.incrementAndGet();
                    }
                };
        spark.sparkContext().addSparkListener(listener);
    }

    @AfterEach
    void stopListening() {
        spark.sparkContext().removeSparkListener(listener);
    }

    /**
     * The descriptions of the Spark jobs {@code call} started, once every one of them has ended.
     */
    private List<String> jobsOf(String call) throws InterruptedException {
        waitForListener();
        descriptions.clear();
        ended.set(0);
        spark.sparkContext().setJobDescription(OUTER);
        try {
            sql(call);
            assertThat(spark.sparkContext().getLocalProperty(ProcedureRun.JOB_DESCRIPTION))
                    .isEqualTo(OUTER);
        } finally {
            spark.sparkContext().setJobDescription(null);
        }
        waitForListener();
        return List.copyOf(descriptions);
    }

    /**
     * Listener events arrive asynchronously, in the order they were posted: once the end of a
     * marker job started now has arrived, every event of the jobs before it has too.
     */
    private void waitForListener() throws InterruptedException {
        String marker = "marker-" + (++markers);
        spark.sparkContext().setLocalProperty(MARKER, marker);
        try {
            JavaSparkContext.fromSparkContext(spark.sparkContext())
                    .parallelize(List.of(1), 1)
                    .count();
        } finally {
            spark.sparkContext().setLocalProperty(MARKER, null);
        }
        assertThat(markersEnded.poll(60, TimeUnit.SECONDS)).isEqualTo(marker);
        assertThat(ended.get()).isEqualTo(descriptions.size());
    }

    @Test
    void compactionsAndRebuildsDescribeTheirJobs() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.jd");
        sql(
                "CREATE TABLE lake.jd.pk (id BIGINT, dt STRING, body STRING) PARTITIONED BY (dt) TBLPROPERTIES ("
                        + "'primary-key' = 'id,dt', 'bucket' = '2', 'deletion-vectors.enabled' = 'true', "
                        + "'strata-full-text.index.columns' = 'body')");
        sql(
                "INSERT INTO lake.jd.pk SELECT id, concat('d', id % 2), concat('text ', id) FROM range(0, 100)");
        sql("CREATE TABLE lake.jd.log (id BIGINT, v STRING)");
        for (int i = 0; i < 6; i++) {
            sql("INSERT INTO lake.jd.log SELECT id, 'v' FROM range(0, 10)");
        }
        sql(
                "CREATE TABLE lake.jd.inbox (id BIGINT, body STRING) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '-2', 'postpone.default-bucket-num' = '2')");
        sql("INSERT INTO lake.jd.inbox SELECT id, 'b' FROM range(0, 20)");

        assertThat(jobsOf("CALL lake.sys.compact(table => 'jd.pk')"))
                .containsExactly("Strata compact lake.jd.pk: 4 buckets");
        assertThat(jobsOf("CALL lake.sys.compact(table => 'jd.log')"))
                .isNotEmpty()
                .allSatisfy(
                        d ->
                                assertThat(d)
                                        .startsWith("Strata compact lake.jd.log: ")
                                        .endsWith("append compaction task"));
        assertThat(jobsOf("CALL lake.sys.compact(table => 'jd.inbox')"))
                .isNotEmpty()
                .allSatisfy(
                        d ->
                                assertThat(d)
                                        .startsWith("Strata compact lake.jd.inbox: ")
                                        .contains("postpone file")
                                        .endsWith("into 2 buckets"));
        assertThat(jobsOf("CALL lake.sys.rebuild_pk_fulltext(table => 'jd.pk', force => true)"))
                .containsExactly("Strata rebuild_pk_fulltext lake.jd.pk: 4 buckets (force)");
    }

    /**
     * Snapshot and tag maintenance runs Paimon's own operations on the driver: no Spark job to
     * describe.
     */
    @Test
    void snapshotAndTagProceduresStartNoSparkJob() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.jd");
        sql(
                "CREATE TABLE lake.jd.tags (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
        for (int i = 0; i < 3; i++) {
            sql("INSERT INTO lake.jd.tags SELECT id, 'v%d' FROM range(0, 10)", i);
        }
        assertThat(
                        jobsOf(
                                "CALL lake.sys.create_tag(table => 'jd.tags', tag => 'a', snapshot => 1)"))
                .isEmpty();
        assertThat(jobsOf("CALL lake.sys.delete_tag(table => 'jd.tags', tag => 'a')")).isEmpty();
        assertThat(jobsOf("CALL lake.sys.rollback(table => 'jd.tags', snapshot => 2)")).isEmpty();
        assertThat(jobsOf("CALL lake.sys.expire_snapshots(table => 'jd.tags', retain_max => 1)"))
                .isEmpty();
        assertThat(jobsOf("CALL lake.sys.remove_orphan_files(table => 'jd.tags', dry_run => true)"))
                .isEmpty();
    }
}
