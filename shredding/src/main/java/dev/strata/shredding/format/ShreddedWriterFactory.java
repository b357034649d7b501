package dev.strata.shredding.format;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.allocate.KAdaptation;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedParquetWriter;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.format.FormatWriterFactory;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.types.RowType;

/**
 * One per rolling writer (Paimon creates a writer factory per rolling file writer): chooses K for each
 * file from the K adaptation window of each shredded column, so consecutive files adapt K to
 * the max row widths of the files completed before.
 *
 * <p>Difference from Paimon [INF]: Paimon keeps the window per writer factory, so every commit and every
 * compaction starts again at K_max. Here the window is shared by all writers of the same table location
 * and column in this JVM (a bounded cache), so a stream of small commits does not write K_max-wide
 * files forever. K stays per file and self-described, so this only changes file shape, never answers.
 * Tables without a {@code path} option keep a window per factory, as in Paimon.
 */
final class ShreddedWriterFactory implements FormatWriterFactory {

    private final RowType rowType;
    private final Map<String, ShreddingOptions.ColumnLayout> layouts;
    private final Map<String, KAdaptation> adaptation = new LinkedHashMap<>();
    private final long rowGroupBytes;
    private final int zstdLevel;
    private final boolean byteStreamSplit;

    ShreddedWriterFactory(RowType rowType, Map<String, ShreddingOptions.ColumnLayout> layouts, long rowGroupBytes,
            String tablePath, int zstdLevel, boolean byteStreamSplit) {
        this.zstdLevel = zstdLevel;
        this.byteStreamSplit = byteStreamSplit;
        this.rowType = rowType;
        this.layouts = layouts;
        this.rowGroupBytes = rowGroupBytes;
        layouts.forEach((name, layout) -> adaptation.put(name,
                tablePath == null ? new KAdaptation(layout.maxColumns()) : SHARED.window(tablePath, name, layout.maxColumns())));
    }

    private static final SharedWindows SHARED = new SharedWindows();

    /** Windows shared per (table path, column, K_max), least recently used evicted beyond 1 024 entries. */
    private static final class SharedWindows {
        private final Map<String, KAdaptation> windows = new java.util.LinkedHashMap<String, KAdaptation>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, KAdaptation> eldest) {
                return size() > 1024;
            }
        };

        synchronized KAdaptation window(String path, String column, int maxColumns) {
            return windows.computeIfAbsent(path + "\u0000" + column + "\u0000" + maxColumns, k -> new KAdaptation(maxColumns));
        }
    }

    @Override
    public FormatWriter create(PositionOutputStream out, String compression) throws IOException {
        Map<String, ShreddedParquetWriter.ColumnSpec> specs = new LinkedHashMap<>();
        layouts.forEach((name, layout) -> specs.put(name,
                new ShreddedParquetWriter.ColumnSpec(adaptation.get(name).nextK(), layout.policy())));
        ShreddedParquetWriter writer = new ShreddedParquetWriter(new PaimonFiles.StreamOutputFile(out, "paimon-stream"),
                rowType, specs, new ShreddedParquetWriter.Settings().compression(compression).rowGroupBytes(rowGroupBytes)
                        .zstdLevel(zstdLevel).byteStreamSplit(byteStreamSplit));
        return new FormatWriter() {
            @Override
            public void addElement(InternalRow row) throws IOException {
                writer.write(row);
            }

            @Override
            public boolean reachTargetSize(boolean suggestedCheck, long targetSize) {
                return suggestedCheck && writer.dataSize() >= targetSize;
            }

            @Override
            public void close() throws IOException {
                writer.close();
                writer.maxRowWidths().forEach((name, w) -> adaptation.get(name).fileCompleted(w));
            }
        };
    }
}
