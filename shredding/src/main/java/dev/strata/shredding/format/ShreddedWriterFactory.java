package dev.strata.shredding.format;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.allocate.KAdaptation;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.cache.BoundedCache;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedParquetWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.format.FormatWriterFactory;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.types.RowType;

/**
 * One per rolling writer (Paimon creates a writer factory per rolling file writer): chooses K for
 * each file from the K adaptation window of each shredded column, so consecutive files adapt K to
 * the max row widths of the files completed before.
 *
 * <p>Difference from Paimon [INF]: Paimon keeps the window per writer factory, so every commit and
 * every compaction starts again at K_max. Here the window is shared by all writers of the same
 * table location and column in this JVM (a bounded cache), so a stream of small commits does not
 * write K_max-wide files forever. K stays per file and self-described, so this only changes file
 * shape, never answers. Tables without a {@code path} option keep a window per factory, as in
 * Paimon. A column whose window is still empty takes K from the first rows of the file instead of
 * K_max ({@link SampledWriter}).
 */
final class ShreddedWriterFactory implements FormatWriterFactory {

    private final RowType rowType;
    private final Map<String, ShreddingOptions.ColumnLayout> layouts;
    private final Map<String, KAdaptation> adaptation = new LinkedHashMap<>();
    private final long rowGroupBytes;
    private final int zstdLevel;
    private final boolean byteStreamSplit;
    private final int maxSegments;

    ShreddedWriterFactory(
            RowType rowType,
            Map<String, ShreddingOptions.ColumnLayout> layouts,
            long rowGroupBytes,
            String tablePath,
            int zstdLevel,
            boolean byteStreamSplit,
            int maxSegments) {
        this.maxSegments = maxSegments;
        this.zstdLevel = zstdLevel;
        this.byteStreamSplit = byteStreamSplit;
        this.rowType = rowType;
        this.layouts = layouts;
        this.rowGroupBytes = rowGroupBytes;
        layouts.forEach(
                (name, layout) ->
                        adaptation.put(
                                name,
                                tablePath == null
                                        ? new KAdaptation(layout.maxColumns())
                                        : SHARED.window(tablePath, name, layout.maxColumns())));
    }

    private static final SharedWindows SHARED = new SharedWindows();

    /** Windows shared per (table path, column, K_max), at most 1 024 ({@link BoundedCache}). */
    private static final class SharedWindows {
        private final BoundedCache<String, KAdaptation> windows = BoundedCache.of(1024);

        KAdaptation window(String path, String column, int maxColumns) {
            String key = path + "\u0000" + column + "\u0000" + maxColumns;
            KAdaptation window = windows.get(key);
            return window != null ? window : windows.putIfAbsent(key, new KAdaptation(maxColumns));
        }
    }

    @Override
    public FormatWriter create(PositionOutputStream out, String compression) throws IOException {
        return new SampledWriter(out, compression);
    }

    /**
     * The K of every shredded column for a file: from the window when this table's column has
     * completed files (Paimon's rule), otherwise from the widths of the file's first rows ({@code
     * sample}, null when every column has history).
     */
    private Map<String, ShreddedParquetWriter.ColumnSpec> specs(List<InternalRow> sample) {
        Map<String, ShreddedParquetWriter.ColumnSpec> specs = new LinkedHashMap<>();
        layouts.forEach(
                (name, layout) -> {
                    KAdaptation window = adaptation.get(name);
                    int k =
                            sample == null || window.hasHistory()
                                    ? window.nextK()
                                    : KAdaptation.choose(
                                            widths(sample, rowType.getFieldIndex(name)),
                                            nonNullMaps(sample, rowType.getFieldIndex(name)),
                                            layout.maxColumns());
                    specs.put(
                            name,
                            new ShreddedParquetWriter.ColumnSpec(k, layout.policy(), maxSegments));
                });
        return specs;
    }

    private static int[] widths(List<InternalRow> rows, int field) {
        int[] w = new int[rows.size()];
        int n = 0;
        for (InternalRow r : rows) {
            if (!r.isNullAt(field)) {
                w[n++] = r.getMap(field).size();
            }
        }
        return w;
    }

    private static int nonNullMaps(List<InternalRow> rows, int field) {
        int n = 0;
        for (InternalRow r : rows) {
            if (!r.isNullAt(field)) {
                n++;
            }
        }
        return n;
    }

    private boolean needsSample() {
        for (KAdaptation a : adaptation.values()) {
            if (!a.hasHistory()) {
                return true;
            }
        }
        // A policy that plans placement from the file's first rows.
        return layouts.values().stream().anyMatch(l -> l.policy() == PlacementPolicy.DISJOINT);
    }

    /**
     * Beyond Paimon [INF], which starts every writer at K_max: while a column has no completed file
     * in its window, the file's schema is fixed only after its first {@value #SAMPLE_ROWS} rows (or
     * {@value #SAMPLE_BYTES} bytes of them, or the file's end), and K is chosen by the window rule
     * over those rows' map widths, capped by max-columns. Rows are copied while buffered (Paimon
     * and Spark reuse row objects). Wider rows overflow. Files of a column placed by {@code
     * disjoint} are always sampled: the policy plans its columns from these rows.
     */
    private final class SampledWriter implements FormatWriter {
        private final PositionOutputStream out;
        private final String compression;
        private List<InternalRow> sample;
        private long sampleBytes;
        private InternalRowSerializer serializer;
        private ShreddedParquetWriter writer;

        SampledWriter(PositionOutputStream out, String compression) throws IOException {
            this.out = out;
            this.compression = compression;
            if (needsSample()) {
                sample = new ArrayList<>();
                serializer = new InternalRowSerializer(rowType);
            } else {
                open(null);
            }
        }

        private void open(List<InternalRow> rows) throws IOException {
            writer =
                    new ShreddedParquetWriter(
                            new PaimonFiles.StreamOutputFile(out, "paimon-stream"),
                            rowType,
                            specs(rows),
                            new ShreddedParquetWriter.Settings()
                                    .compression(compression)
                                    .rowGroupBytes(rowGroupBytes)
                                    .zstdLevel(zstdLevel)
                                    .byteStreamSplit(byteStreamSplit));
            if (rows != null) {
                writer.plan(rows);
            }
        }

        private void flushSample() throws IOException {
            List<InternalRow> rows = sample;
            sample = null;
            serializer = null;
            open(rows);
            for (InternalRow r : rows) {
                writer.write(r);
            }
        }

        @Override
        public void addElement(InternalRow row) throws IOException {
            if (sample == null) {
                writer.write(row);
                return;
            }
            BinaryRow copy = serializer.toBinaryRow(row).copy();
            sample.add(copy);
            sampleBytes += copy.getSizeInBytes();
            if (sample.size() >= SAMPLE_ROWS || sampleBytes >= SAMPLE_BYTES) {
                flushSample();
            }
        }

        @Override
        public boolean reachTargetSize(boolean suggestedCheck, long targetSize) {
            if (sample != null) {
                return suggestedCheck && sampleBytes >= targetSize;
            }
            return suggestedCheck && writer.dataSize() >= targetSize;
        }

        @Override
        public void close() throws IOException {
            if (sample != null) {
                flushSample();
            }
            writer.close();
            writer.maxRowWidths().forEach((name, w) -> adaptation.get(name).fileCompleted(w));
        }
    }

    /** Rows buffered before a file without K history fixes its schema. */
    static final int SAMPLE_ROWS = 10_000;

    /**
     * Bytes (Paimon's binary row size) buffered at most before a file without K history fixes its
     * schema.
     */
    static final long SAMPLE_BYTES = 16L * 1024 * 1024;
}
