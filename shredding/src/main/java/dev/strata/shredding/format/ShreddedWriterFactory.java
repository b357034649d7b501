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
 * One per rolling writer: chooses K for each file from each shredded column's K adaptation window.
 * Unlike Paimon's per-factory window (every commit and compaction restarting at K_max), the window
 * is shared by all writers of the same table location and column in this JVM, so small commits do
 * not write K_max-wide files forever; K is self-described per file, so this changes file shape,
 * never answers. Tables without a {@code path} option keep a window per factory. A column with an
 * empty window takes K from the file's first rows ({@link SampledWriter}).
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
     * K per shredded column: the window's, and at least what the file's sampled rows need. Without
     * the floor, a window of narrow files (an UPDATE's few one-key maps) gave a compaction of the
     * bucket's two-key rows K = 1, and all but one key overflowed.
     */
    private Map<String, ShreddedParquetWriter.ColumnSpec> specs(List<InternalRow> sample) {
        Map<String, ShreddedParquetWriter.ColumnSpec> specs = new LinkedHashMap<>();
        layouts.forEach(
                (name, layout) -> {
                    KAdaptation window = adaptation.get(name);
                    int k;
                    if (sample == null) {
                        k = window.nextK();
                    } else {
                        int sampled =
                                KAdaptation.choose(
                                        widths(sample, rowType.getFieldIndex(name)),
                                        nonNullMaps(sample, rowType.getFieldIndex(name)),
                                        layout.maxColumns());
                        k = window.hasHistory() ? Math.max(window.nextK(), sampled) : sampled;
                    }
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
     * While a column has no completed file in its window, the file's schema is fixed only after its
     * first {@value #SAMPLE_ROWS} rows (or {@value #SAMPLE_BYTES} bytes, or the end), K chosen by
     * the window rule over their map widths; wider rows overflow. Rows are copied, as Paimon and
     * Spark reuse row objects. {@code disjoint} columns are always sampled: the policy plans from
     * these rows.
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
            // A file without map entries (NULL maps, a DELETE's rows) says nothing of widths.
            writer.maxRowWidths()
                    .forEach(
                            (name, w) -> {
                                if (w > 0) {
                                    adaptation.get(name).fileCompleted(w);
                                }
                            });
        }
    }

    /** Rows buffered before a file without K history fixes its schema. */
    static final int SAMPLE_ROWS = 10_000;

    /** Bytes (Paimon's binary row size) buffered at most before such a file fixes its schema. */
    static final long SAMPLE_BYTES = 16L * 1024 * 1024;
}
