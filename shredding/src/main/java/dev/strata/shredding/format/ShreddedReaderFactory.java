package dev.strata.shredding.format;

import dev.strata.shredding.ShreddedReadHandover;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.read.ShreddedParquetReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FormatReaderFactory;
import org.apache.paimon.fs.Path;
import org.apache.paimon.reader.FileRecordIterator;
import org.apache.paimon.reader.FileRecordReader;
import org.apache.paimon.types.RowType;

/** Opens shredded files for Paimon's row path with {@link ShreddedParquetReader}. */
final class ShreddedReaderFactory implements FormatReaderFactory {

    private final RowType readType;
    private final Map<String, List<String>> selectedKeys;
    private final MapPredicate pruningPredicate;
    private final int batchSize;
    private final boolean verifyPages;

    /** {@code dataType}: the schema the files were written with; names are mapped by field id. */
    ShreddedReaderFactory(
            RowType dataType,
            RowType readType,
            ShreddedReadHandover.ReadRequest request,
            int batchSize,
            boolean verifyPages) {
        this.readType = readType;
        this.batchSize = batchSize;
        this.verifyPages = verifyPages;
        Map<String, String> rename = FieldNames.in(request.fieldIds(), dataType.getFields());
        Map<String, List<String>> keys = new HashMap<>();
        request.selectedKeys().forEach((name, ks) -> keys.put(rename.getOrDefault(name, name), ks));
        this.selectedKeys = keys;
        this.pruningPredicate =
                request.pruningPredicate() == null
                        ? null
                        : renamed(request.pruningPredicate(), rename);
    }

    private static MapPredicate renamed(MapPredicate p, Map<String, String> rename) {
        if (p instanceof MapPredicate.Leaf) {
            MapPredicate.Leaf l = (MapPredicate.Leaf) p;
            return MapPredicate.leaf(
                    rename.getOrDefault(l.column(), l.column()),
                    l.key(),
                    l.op(),
                    l.literals().toArray());
        }
        List<MapPredicate> children = new ArrayList<>();
        for (MapPredicate c : ((MapPredicate.Compound) p).children()) {
            children.add(renamed(c, rename));
        }
        return p instanceof MapPredicate.And
                ? MapPredicate.and(children)
                : MapPredicate.or(children);
    }

    @Override
    public FileRecordReader<InternalRow> createReader(Context context) throws IOException {
        Path path = context.filePath();
        ShreddedParquetReader reader =
                new ShreddedParquetReader(
                        PaimonFiles.inputFile(context.fileIO(), path, context.fileSize()),
                        path.toString(),
                        readType,
                        selectedKeys,
                        pruningPredicate,
                        context.selection(),
                        verifyPages);
        return new FileRecordReader<InternalRow>() {
            private boolean done;

            @Override
            public FileRecordIterator<InternalRow> readBatch() throws IOException {
                if (done) {
                    return null;
                }
                InternalRow first = reader.next();
                if (first == null) {
                    done = true;
                    return null;
                }
                return new FileRecordIterator<InternalRow>() {
                    private InternalRow pending = first;
                    private long pendingPosition = reader.position();
                    private long returned = -1;
                    private int count;

                    @Override
                    public InternalRow next() throws IOException {
                        if (pending != null) {
                            InternalRow r = pending;
                            returned = pendingPosition;
                            pending = null;
                            count++;
                            return r;
                        }
                        if (count >= batchSize || done) {
                            return null;
                        }
                        InternalRow r = reader.next();
                        if (r == null) {
                            done = true;
                            return null;
                        }
                        returned = reader.position();
                        count++;
                        return r;
                    }

                    @Override
                    public long returnedPosition() {
                        return returned;
                    }

                    @Override
                    public Path filePath() {
                        return path;
                    }

                    @Override
                    public void releaseBatch() {}
                };
            }

            @Override
            public void close() throws IOException {
                reader.close();
            }
        };
    }
}
