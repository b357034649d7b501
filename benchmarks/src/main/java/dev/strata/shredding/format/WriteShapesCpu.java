package dev.strata.shredding.format;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.parquet.ArrayBackedMap;
import dev.strata.testing.maps.GeneratedMap;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FileFormatFactory;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.format.parquet.ParquetFileFormat;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;

/**
 * One thread's CPU time to write one file of map rows through the table's file format (what a
 * Paimon writer calls), shredded and with Paimon's own Parquet MAP side by side: {@code bash
 * benchmarks/target/run dev.strata.shredding.format.WriteShapesCpu [shape] [rows] [rounds]}, shape
 * one of {@code independent}, {@code longtail}, {@code wide-universe}, {@code strings}, {@code
 * decimals} (defaults longtail, 200 000, 8). Prints each round and the medians of the second half.
 */
public final class WriteShapesCpu {

    private WriteShapesCpu() {}

    public static void main(String[] args) throws Exception {
        String shape = args.length > 0 ? args[0] : "longtail";
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        DataType valueType = shape.equals("strings") ? DataTypes.STRING() : DataTypes.DOUBLE();
        RowType type =
                RowType.of(
                        new DataType[] {
                            DataTypes.BIGINT(), DataTypes.MAP(DataTypes.STRING(), valueType)
                        },
                        new String[] {"id", "m"});
        List<InternalRow> input = generate(shape, rows, new SplittableRandom(42));
        Options shredded = new Options();
        shredded.set("fields.m.map.storage-layout", "shared-shredding");
        FileFormat strata =
                new StrataParquetFileFormatFactory()
                        .create(new FileFormatFactory.FormatContext(shredded, 1024, 1024));
        FileFormat paimon =
                new ParquetFileFormat(
                        new FileFormatFactory.FormatContext(new Options(), 1024, 1024));
        java.nio.file.Path dir = Files.createTempDirectory("strata-write-shapes");
        long[] s = new long[rounds];
        long[] p = new long[rounds];
        long[] bytes = new long[2];
        for (int r = 0; r < rounds; r++) {
            System.gc();
            s[r] = write(strata, type, input, dir.resolve("s.parquet"), bytes, 0);
            System.gc();
            p[r] = write(paimon, type, input, dir.resolve("p.parquet"), bytes, 1);
            System.out.printf(
                    "round %d: shredded %d ms, paimon MAP %d ms%n",
                    r, s[r] / 1_000_000, p[r] / 1_000_000);
        }
        Files.deleteIfExists(dir);
        long ms = median(s) / 1_000_000;
        long mp = median(p) / 1_000_000;
        System.out.printf(
                "%s x %d: shredded %d ms (%d bytes), paimon MAP %d ms (%d bytes), speed %.2fx of the MAP%n",
                shape, rows, ms, bytes[0], mp, bytes[1], mp / (double) ms);
    }

    private static long median(long[] values) {
        long[] warm = Arrays.copyOfRange(values, values.length / 2, values.length);
        Arrays.sort(warm);
        return warm[warm.length / 2];
    }

    private static long write(
            FileFormat format,
            RowType type,
            List<InternalRow> input,
            java.nio.file.Path file,
            long[] bytes,
            int slot)
            throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        LocalFileIO io = LocalFileIO.create();
        Path path = new Path(file.toString());
        long start = threads.getCurrentThreadCpuTime();
        try (PositionOutputStream out = io.newOutputStream(path, true)) {
            FormatWriter w = format.createWriterFactory(type).create(out, "zstd");
            for (InternalRow row : input) {
                w.addElement(row);
            }
            w.close();
        }
        long cpu = threads.getCurrentThreadCpuTime() - start;
        bytes[slot] = Files.size(file);
        Files.delete(file);
        return cpu;
    }

    static List<InternalRow> generate(String shape, int rows, SplittableRandom random) {
        List<InternalRow> out = new ArrayList<>(rows);
        if (shape.equals("decimals")) {
            // ShreddedBytesTest's rows: 30 keys a row in families, two-decimal values.
            for (GeneratedMap m : ShreddedBytesTest.rows(rows, 30, 2)) {
                out.add(GenericRow.of((long) out.size(), TestMaps.toPaimon(m)));
            }
            return out;
        }
        for (int id = 0; id < rows; id++) {
            switch (shape) {
                case "independent":
                    {
                        // 40 keys a row, one from each block of 50; integer-valued doubles.
                        Object[] k = new Object[40];
                        double[] v = new double[40];
                        for (int i = 0; i < 40; i++) {
                            k[i] = BinaryString.fromString("k_" + (i * 50 + random.nextInt(50)));
                            v[i] = random.nextInt(1000);
                        }
                        out.add(
                                GenericRow.of(
                                        (long) id,
                                        new ArrayBackedMap(
                                                new GenericArray(k), new GenericArray(v))));
                        break;
                    }
                case "longtail":
                case "wide-universe":
                    {
                        // 6 keys in every row, 44 skewed tail draws (duplicates dropped) of 3 000
                        // keys (u^2), or of ~130 000 (u^3 x 3 000 x the draw's position); 5 % NULL,
                        // 2 % NaN.
                        boolean wide = shape.equals("wide-universe");
                        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
                        for (int i = 0; i < 50; i++) {
                            double u = random.nextDouble();
                            names.add(
                                    i < 6
                                            ? "fixed" + i
                                            : wide
                                                    ? "tail" + ((int) (u * u * u * 3000) * 50 + i)
                                                    : "t_" + (int) (u * u * 3000));
                        }
                        Object[] k = new Object[names.size()];
                        Object[] v = new Object[names.size()];
                        int i = 0;
                        for (String name : names) {
                            k[i] = BinaryString.fromString(name);
                            int x = random.nextInt(100);
                            v[i++] =
                                    x < 5
                                            ? null
                                            : x < 7 ? Double.NaN : random.nextInt(100_000) / 1000.0;
                        }
                        out.add(GenericRow.of((long) id, new ArrayBackedMap(k, v)));
                        break;
                    }
                case "strings":
                    {
                        // 20 keys a row from 60 groups x 20, values from 300 strings.
                        Object[] k = new Object[20];
                        Object[] v = new Object[20];
                        for (int i = 0; i < 20; i++) {
                            k[i] = BinaryString.fromString("attr" + (random.nextInt(60) * 20 + i));
                            v[i] = BinaryString.fromString("v" + random.nextInt(300));
                        }
                        out.add(GenericRow.of((long) id, new ArrayBackedMap(k, v)));
                        break;
                    }
                default:
                    throw new IllegalArgumentException(
                            "Cannot generate rows for shape "
                                    + shape
                                    + ": expected independent, longtail, wide-universe, strings or decimals.");
            }
        }
        return out;
    }
}
