package dev.strata.spark.read;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.pushdown.MapPredicate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.table.source.RawFile;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * Reads the shredded files of one append split, in order, as column batches ({@link
 * ShreddedFileColumns}).
 */
final class ShreddedColumnarReader extends ColumnBatchReader {

    private final List<ShreddedFileColumns> files;
    private int current;

    private ShreddedColumnarReader(
            List<ShreddedFileColumns> files,
            KeyColumns columns,
            int capacity,
            ShreddedReadMetrics.Scope metrics) {
        super(columns.outputType(), capacity, metrics);
        this.files = files;
    }

    /**
     * A reader over the files, or null (all files closed again) when one of them cannot be decoded
     * here, e.g. a map column not shredded in that file.
     */
    static ShreddedColumnarReader open(
            FileIO fileIO,
            List<RawFile> rawFiles,
            KeyColumns keyColumns,
            Map<String, List<String>> selectedKeys,
            MapPredicate pruning,
            boolean verifyPages,
            int capacity,
            ShreddedReadMetrics.Scope metrics)
            throws IOException {
        List<ShreddedFileColumns> files = new ArrayList<>();
        boolean ok = false;
        try {
            for (RawFile f : rawFiles) {
                ShreddedFileColumns columns =
                        new ShreddedFileColumns(
                                fileIO,
                                f.path(),
                                f.fileSize(),
                                keyColumns,
                                selectedKeys,
                                pruning,
                                verifyPages);
                files.add(columns);
                if (!columns.readable()) {
                    return null;
                }
            }
            ok = true;
            return new ShreddedColumnarReader(files, keyColumns, capacity, metrics);
        } finally {
            if (!ok) {
                for (ShreddedFileColumns c : files) {
                    c.close();
                }
            }
        }
    }

    @Override
    int fill(WritableColumnVector[] vectors, int offset, int max) throws IOException {
        while (current < files.size()) {
            int read = files.get(current).read(vectors, offset, max);
            if (read > 0) {
                return read;
            }
            files.get(current++).close();
        }
        return 0;
    }

    @Override
    void closeSource() throws IOException {
        for (int i = current; i < files.size(); i++) {
            files.get(i).close();
        }
    }
}
