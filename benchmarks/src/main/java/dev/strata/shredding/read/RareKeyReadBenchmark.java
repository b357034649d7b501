package dev.strata.shredding.read;

import dev.strata.shredding.ShreddedReadMetrics.Counter;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.pushdown.MapPredicate;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;

/**
 * Not a test; a main class: CPU time of one thread reading {@code m[KEY] > X} from every data file
 * of one bucket directory of a table with a shredded {@code MAP<STRING, DOUBLE>} column {@code m},
 * through {@link ShreddedColumns} as the Spark columnar scan uses it, REPS times in one JVM.
 * Arguments: {@code BUCKET_DIR KEY X REPS}. Compare two builds by putting each build's {@code
 * shredding/target/classes} first on the class path, alternating runs. Prints the rows found and
 * the sum of their values, which must agree between builds.
 */
public final class RareKeyReadBenchmark {
    public static void main(String[] a) throws Exception {
        String key = a[1];
        double x = Double.parseDouble(a[2]);
        int reps = Integer.parseInt(a[3]);
        File[] files = new File(a[0]).listFiles((d, n) -> n.endsWith(".parquet"));
        RowType rt =
                RowType.of(
                        new DataType[] {DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE())},
                        new String[] {"m"});
        var tb = ManagementFactory.getThreadMXBean();
        LocalFileIO io = LocalFileIO.create();
        for (int rep = 0; rep < reps; rep++) {
            long cpu0 = tb.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            long rows = 0;
            double sum = 0;
            var scope = dev.strata.shredding.ShreddedReadMetrics.collect();
            for (File f : files) {
                try (ShreddedColumns c =
                        new ShreddedColumns(
                                PaimonFiles.inputFile(io, new Path(f.getPath()), f.length()),
                                f.getPath(),
                                rt,
                                Map.of("m", List.of(key)),
                                MapPredicate.leaf("m", key, MapPredicate.Op.GT, x),
                                false)) {
                    int n;
                    while ((n = c.nextWindow()) > 0) {
                        ShreddedColumns.MapKeys mk = (ShreddedColumns.MapKeys) c.field(0);
                        for (int i = 0; i < n; i++) {
                            int r = c.row(i);
                            ColumnCursor cc = mk.valueChunk(0, r);
                            if (cc != null) {
                                sum += cc.getDouble(mk.valueOrdinal(0, r));
                                rows++;
                            }
                        }
                    }
                }
            }
            var sn = scope.snapshot();
            scope.close();
            if (rep == 0)
                System.out.println(
                        "rowGroups "
                                + sn.get(Counter.ROW_GROUPS_TOTAL)
                                + " skipped "
                                + sn.get(Counter.ROW_GROUPS_SKIPPED)
                                + " subColumns "
                                + sn.get(Counter.SUB_COLUMNS_READ)
                                + " valuePagesSkipped "
                                + sn.get(Counter.VALUE_PAGES_SKIPPED));
            System.out.printf(
                    "rep %d cpu %.1f ms wall %.1f ms rows %d sum %.3f%n",
                    rep,
                    (tb.getCurrentThreadCpuTime() - cpu0) / 1e6,
                    (System.nanoTime() - w0) / 1e6,
                    rows,
                    sum);
        }
    }
}
