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
 * One per rolling writer (Paimon creates a writer factory per rolling file writer): holds the K
 * adaptation window of each shredded column (spec §6), so consecutive files of the writer adapt K to
 * the max row widths of the files it completed.
 */
final class ShreddedWriterFactory implements FormatWriterFactory {

    private final RowType rowType;
    private final Map<String, ShreddingOptions.ColumnLayout> layouts;
    private final Map<String, KAdaptation> adaptation = new LinkedHashMap<>();
    private final long rowGroupBytes;

    ShreddedWriterFactory(RowType rowType, Map<String, ShreddingOptions.ColumnLayout> layouts, long rowGroupBytes) {
        this.rowType = rowType;
        this.layouts = layouts;
        this.rowGroupBytes = rowGroupBytes;
        layouts.forEach((name, layout) -> adaptation.put(name, new KAdaptation(layout.maxColumns())));
    }

    @Override
    public FormatWriter create(PositionOutputStream out, String compression) throws IOException {
        Map<String, ShreddedParquetWriter.ColumnSpec> specs = new LinkedHashMap<>();
        layouts.forEach((name, layout) -> specs.put(name,
                new ShreddedParquetWriter.ColumnSpec(adaptation.get(name).nextK(), layout.policy())));
        ShreddedParquetWriter writer = new ShreddedParquetWriter(new PaimonFiles.StreamOutputFile(out, "paimon-stream"),
                rowType, specs, new ShreddedParquetWriter.Settings().compression(compression).rowGroupBytes(rowGroupBytes));
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
