package dev.strata.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code bin/strata-sql} puts in {@code spark.jars} for each kind of master. */
class ExecutorJarsTest {

    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    private final Path runtime = Path.of("/opt/strata/strata-spark-runtime.jar");

    @Test
    void aClusterGetsTheRuntimeJarThenTheJarsOption() {
        assertThat(
                        StrataSql.executorJars(
                                "spark://127.0.0.1:7077",
                                List.of("lib/hadoop-aws.jar", "hdfs://nn/jars/x.jar"),
                                Map.of(),
                                runtime,
                                err))
                .isEqualTo(
                        runtime
                                + ","
                                + Path.of("lib/hadoop-aws.jar").toAbsolutePath()
                                + ",hdfs://nn/jars/x.jar");
        assertThat(
                        StrataSql.executorJars(
                                "local-cluster[2,1,1024]", List.of(), Map.of(), runtime, err))
                .isEqualTo(runtime.toString());
    }

    @Test
    void localMastersAndAnExplicitSparkJarsAreLeftAlone() {
        assertThat(StrataSql.executorJars("local[*]", List.of("a.jar"), Map.of(), runtime, err))
                .isNull();
        assertThat(StrataSql.executorJars("local", List.of(), Map.of(), runtime, err)).isNull();
        assertThat(
                        StrataSql.executorJars(
                                "spark://h:1",
                                List.of(),
                                Map.of("spark.jars", "/x.jar"),
                                runtime,
                                err))
                .isNull();
    }

    @Test
    void classDirectoriesCannotBeShippedAndSaySo() {
        assertThat(StrataSql.executorJars("spark://h:1", List.of(), Map.of(), null, err)).isNull();
        assertThat(errBytes.toString(StandardCharsets.UTF_8))
                .contains("Cannot ship Strata's classes to the executors of spark://h:1");
    }
}
