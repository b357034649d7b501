package dev.strata.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedParquetWriter;
import dev.strata.testing.DefaultSparkOnly;
import dev.strata.testing.TestSeeds;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The columnar reader's heap is bounded by pages, not by row groups: one file with a single row
 * group of 200 000 rows, about 34 keys a row and K = 64, so {@code __field_mapping} holds 12.8M
 * level entries (a whole-chunk decode holds them as several int arrays, over 200 MB), is read in a
 * separate JVM with {@value #HEAP} of heap, and the rows it returns must be the written ones (the
 * oracle is the generator's own rows). The rare-key reads need the mapping and ran out of memory
 * before the reader streamed pages.
 */
@DefaultSparkOnly
class BoundedMemoryReadTest {

    private static final String HEAP = "-Xmx96m";
    private static final int ROWS = 200_000;
    private static final int KEYS_PER_ROW = 32;

    /**
     * Keys k0 .. k39 are each in about 32 of every 40 rows and keep their columns (ownership
     * segments, no mapping needed); every row also has two of the rare k40 .. k1999, which churn
     * through the other 24 columns, so reading a rare key needs {@code __field_mapping}.
     */
    private static final int HOT = 40;

    private static final int RARE_PER_ROW = 2;
    private static final int UNIVERSE = 2000;
    private static final int[] TRACKED = {7, 777};

    @TempDir static Path dir;

    private static Path file;

    /** Per tracked key, its value by row (NaN: absent). */
    private static final Map<Integer, double[]> values = new java.util.HashMap<>();

    @BeforeAll
    static void writeFile() throws Exception {
        RowType rowType =
                RowType.of(
                        new org.apache.paimon.types.DataType[] {
                            DataTypes.BIGINT(),
                            DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE())
                        },
                        new String[] {"id", "m"});
        Random random = new Random(TestSeeds.seed("boundedMemoryRead"));
        for (int k : TRACKED) {
            double[] v = new double[ROWS];
            java.util.Arrays.fill(v, Double.NaN);
            values.put(k, v);
        }
        file = dir.resolve("big.parquet");
        org.apache.paimon.fs.Path p = new org.apache.paimon.fs.Path(file.toUri().toString());
        LocalFileIO io = LocalFileIO.create();
        try (PositionOutputStream out = io.newOutputStream(p, true)) {
            ShreddedParquetWriter w =
                    new ShreddedParquetWriter(
                            new PaimonFiles.StreamOutputFile(out, p.toString()),
                            rowType,
                            Map.of(
                                    "m",
                                    new ShreddedParquetWriter.ColumnSpec(64, PlacementPolicy.LRU)),
                            new ShreddedParquetWriter.Settings().rowGroupBytes(Long.MAX_VALUE));
            for (int r = 0; r < ROWS; r++) {
                Map<BinaryString, Double> m = new java.util.LinkedHashMap<>();
                for (int k = 0; k < HOT; k++) {
                    if (random.nextInt(HOT) >= KEYS_PER_ROW) {
                        continue;
                    }
                    put(m, k, r, random);
                }
                for (int e = 0; e < RARE_PER_ROW; e++) {
                    put(m, HOT + random.nextInt(UNIVERSE - HOT), r, random);
                }
                w.write(GenericRow.of((long) r, new GenericMap(m)));
            }
            w.close();
        }
        try (ParquetFileReader r =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(io, p, Files.size(file)),
                        PaimonFiles.readOptions())) {
            assertThat(r.getRowGroups()).as("one row group").hasSize(1);
        }
    }

    private static void put(Map<BinaryString, Double> m, int k, int r, Random random) {
        double v = Math.round(random.nextDouble() * 10000) / 100.0;
        m.put(BinaryString.fromString("k" + k), v);
        if (values.containsKey(k)) {
            values.get(k)[r] = v;
        }
    }

    @Test
    void aKeyOfAHugeRowGroupReadsInASmallHeap() throws Exception {
        assertThat(readInChild("k7")).isEqualTo(expected(7, Double.NEGATIVE_INFINITY));
    }

    @Test
    void aRareKeyOfAHugeRowGroupReadsInASmallHeap() throws Exception {
        assertThat(readInChild("k777")).isEqualTo(expected(777, Double.NEGATIVE_INFINITY));
    }

    @Test
    void thePushedRowFilterReadsInASmallHeap() throws Exception {
        assertThat(readInChild("k777", "50.0")).isEqualTo(expected(777, 50.0));
    }

    /** {@code rows present sum ids} as the child prints them, from the written rows. */
    private static String expected(int key, double above) {
        long rows = 0;
        long present = 0;
        double sum = 0;
        long ids = 0;
        for (int r = 0; r < ROWS; r++) {
            double v = values.get(key)[r];
            boolean hit = !Double.isNaN(v) && v > above;
            if (above == Double.NEGATIVE_INFINITY || hit) {
                rows++;
                ids += r;
            }
            if (hit) {
                present++;
                sum += v;
            }
        }
        return rows + " " + present + " " + sum + " " + ids;
    }

    private static String readInChild(String... args) throws Exception {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                new File(System.getProperty("java.home"), "bin/java").getPath(),
                                HEAP,
                                "-XX:+ExitOnOutOfMemoryError",
                                "-cp",
                                System.getProperty("java.class.path"),
                                LargeRowGroupRead.class.getName(),
                                file.toString()));
        command.addAll(List.of(args));
        Path out = dir.resolve("child-" + String.join("-", args) + ".out");
        Process child =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(out.toFile())
                        .start();
        assertThat(child.waitFor(5, TimeUnit.MINUTES)).as("child finished").isTrue();
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as("child exit code; output: %s", lines).isZero();
        return lines.get(lines.size() - 1);
    }
}
