package dev.strata.shredding.format;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.TestMaps;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.parquet.ShreddedParquetWriter;
import dev.strata.testing.maps.GeneratedMap;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;

/**
 * One thread's CPU time to write one shredded file straight through {@code ShreddedParquetWriter}
 * (no Paimon table, no other threads): {@code bash benchmarks/target/run ...ShreddedWriteCpu [rows]
 * [width] [decimals] [iterations]} (defaults 100 000 x 30, 2 decimals, 15). Prints every iteration
 * and the median of the second half, so two builds compare by running each in turn on the same
 * class path but their own {@code target/classes}.
 */
public final class ShreddedWriteCpu {

    private ShreddedWriteCpu() {}

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int width = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int decimals = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 15;
        List<GeneratedMap> maps = ShreddedBytesTest.rows(rows, width, decimals);
        List<InternalRow> input = new ArrayList<>();
        for (int i = 0; i < maps.size(); i++) {
            input.add(GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        java.nio.file.Path dir = Files.createTempDirectory("strata-write-cpu");
        long[] cpu = new long[iterations];
        long size = 0;
        for (int i = 0; i < iterations; i++) {
            Path file = new Path(dir.resolve("f" + i + ".parquet").toString());
            long start = threads.getCurrentThreadCpuTime();
            FileRoundTrip.write(
                    file,
                    PaimonTables.ROW_TYPE,
                    Map.of("m", width),
                    ShreddingOptions.DEFAULT_POLICY,
                    new ShreddedParquetWriter.Settings(),
                    input,
                    r -> r);
            cpu[i] = threads.getCurrentThreadCpuTime() - start;
            size = Files.size(dir.resolve("f" + i + ".parquet"));
            Files.delete(dir.resolve("f" + i + ".parquet"));
            System.out.printf("iteration %d: CPU %d ms%n", i, cpu[i] / 1_000_000);
        }
        Files.delete(dir);
        long[] warm = Arrays.copyOfRange(cpu, iterations / 2, iterations);
        Arrays.sort(warm);
        System.out.printf(
                "file %d bytes; median CPU of the last %d: %d ms (%.1f ns a value)%n",
                size,
                warm.length,
                warm[warm.length / 2] / 1_000_000,
                warm[warm.length / 2] / (double) ((long) rows * width));
    }
}
