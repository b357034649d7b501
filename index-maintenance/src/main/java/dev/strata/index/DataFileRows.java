package dev.strata.index;

import dev.strata.shredding.cache.BoundedCache;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatReaderFactory;
import org.apache.paimon.fs.Path;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.reader.FileRecordIterator;
import org.apache.paimon.reader.FileRecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;

/**
 * Rows of one Parquet data file read by position: the positions of rows matching a predicate on a
 * few columns, then only the wanted rows of any columns. Both skip the pages that cannot hold what
 * is asked for (Paimon's column-index filter, and the positions as a row selection).
 */
public final class DataFileRows {

    /** Fields of a table's schemas by (location, branch, schema id); schema files never change. */
    private static final BoundedCache<String, List<DataField>> SCHEMA_FIELDS = BoundedCache.of(256);

    private DataFileRows() {}

    /**
     * Whether {@code file} can be read by position with the table's current column names: a Parquet
     * file whose schema has the current fields (true across option-only changes, which {@code ALTER
     * TABLE ... SET TBLPROPERTIES} and Paimon's own jobs make).
     */
    public static boolean selectable(FileStoreTable table, DataFileMeta file) {
        if (!"parquet".equals(file.fileFormat())) {
            return false;
        }
        long schemaId = file.schemaId();
        if (schemaId == table.schema().id()) {
            return true;
        }
        String key = table.location() + "#" + table.coreOptions().branch() + "#" + schemaId;
        List<DataField> fields = SCHEMA_FIELDS.get(key);
        if (fields == null) {
            fields = table.schemaManager().schema(schemaId).fields();
            SCHEMA_FIELDS.put(key, fields);
        }
        return fields.equals(table.schema().fields());
    }

    /**
     * The rows (deleted ones included) of a {@link #selectable} file whose first column of {@code
     * type} (a projection of the table's fields) is one of {@code values} (Paimon's internal
     * values, compared with {@code equals}): their positions, ascending, with that value (the
     * object of {@code values}); null when there are more than {@code max}. {@code pages} (over
     * {@code type}) lets the reader skip pages that cannot hold a value.
     */
    public static Map<Long, Object> matches(
            FileStoreTable table,
            BinaryRow partition,
            int bucket,
            DataFileMeta file,
            RowType type,
            Predicate pages,
            Set<Object> values,
            int max)
            throws IOException {
        Map<Long, Object> found = new LinkedHashMap<>();
        // The caller's value objects are returned: the reader's may point into reused buffers.
        Map<Object, Object> canonical = new HashMap<>();
        values.forEach(v -> canonical.put(v, v));
        InternalRow.FieldGetter key = InternalRow.createFieldGetter(type.getTypeAt(0), 0);
        try (FileRecordReader<InternalRow> reader =
                reader(table, partition, bucket, file, type, List.of(pages), null)) {
            FileRecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                try {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        // Asked for every row: Paimon's iterator advances a position only when
                        // asked, and a batch's unasked rows would shift the next batch's positions.
                        long position = batch.returnedPosition();
                        Object value = canonical.get(key.getFieldOrNull(row));
                        if (value != null) {
                            if (found.size() == max) {
                                return null;
                            }
                            found.put(position, value);
                        }
                    }
                } finally {
                    batch.releaseBatch();
                }
            }
        }
        return found;
    }

    /**
     * The live rows of a {@link #selectable} file at {@code positions}, by position (deleted rows
     * absent), with the columns of {@code type}.
     */
    public static Map<Long, InternalRow> read(
            FileStoreTable table,
            BinaryRow partition,
            int bucket,
            DataFileMeta file,
            RowType type,
            long[] positions,
            DeletionVector dv)
            throws IOException {
        RoaringBitmap32 selection = new RoaringBitmap32();
        for (long p : positions) {
            selection.add((int) p);
        }
        InternalRowSerializer serializer = new InternalRowSerializer(type);
        Map<Long, InternalRow> found = new HashMap<>();
        try (FileRecordReader<InternalRow> reader =
                reader(table, partition, bucket, file, type, null, selection)) {
            FileRecordIterator<InternalRow> batch;
            while (found.size() < selection.getCardinality()
                    && (batch = reader.readBatch()) != null) {
                try {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        long position = batch.returnedPosition();
                        if (selection.contains((int) position)
                                && (dv == null || !dv.isDeleted(position))) {
                            found.put(position, serializer.copy(row));
                        }
                    }
                } finally {
                    batch.releaseBatch();
                }
            }
        }
        return found;
    }

    private static FileRecordReader<InternalRow> reader(
            FileStoreTable table,
            BinaryRow partition,
            int bucket,
            DataFileMeta file,
            RowType type,
            List<Predicate> filters,
            RoaringBitmap32 selection)
            throws IOException {
        Path path =
                table.store()
                        .pathFactory()
                        .createDataFilePathFactory(partition, bucket)
                        .toPath(file);
        FormatReaderFactory formats =
                FileFormat.fromIdentifier(file.fileFormat(), new Options(table.options()))
                        .createReaderFactory(type, type, filters);
        return formats.createReader(
                new FormatReaderContext(table.fileIO(), path, file.fileSize(), selection));
    }
}
