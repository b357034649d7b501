package dev.strata.index;

import dev.strata.shredding.cache.BoundedCache;
import dev.strata.shredding.io.BufferedReads;
import dev.strata.shredding.parquet.PageChecksums;
import dev.strata.shredding.read.PositionReads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.casting.CastFieldGetter;
import org.apache.paimon.casting.CastedRow;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
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
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.FileRecordIterator;
import org.apache.paimon.reader.FileRecordReader;
import org.apache.paimon.schema.IndexCastMapping;
import org.apache.paimon.schema.SchemaEvolutionUtil;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.ProjectedRow;
import org.apache.paimon.utils.RoaringBitmap32;

/**
 * Rows of one Parquet data file read by position: the positions of rows matching a predicate on a
 * few columns, then only the wanted rows of any columns. Both skip the pages that cannot hold what
 * is asked for (Paimon's column-index filter, and the positions as a row selection).
 */
public final class DataFileRows {

    /** Fields of a table's schemas by (location, branch, schema id); schema files never change. */
    private static final BoundedCache<String, List<DataField>> SCHEMA_FIELDS = BoundedCache.of(256);

    /**
     * Positions of one file read value by value; more go through Paimon's reader, whose reads of
     * neighbouring pages are merged.
     */
    static final int MAX_POSITION_READS = 256;

    private DataFileRows() {}

    /**
     * Whether {@code file} can be read by position for the columns of {@code wanted} (fields of the
     * table's current schema): a Parquet file, whose columns are found by field id and evolved to
     * the current schema as Paimon's reader does (renamed: by id; added since: NULL; type changed:
     * Paimon's cast), so files written before {@code ALTER TABLE} and option-only changes qualify.
     */
    public static boolean selectable(FileStoreTable table, DataFileMeta file, RowType wanted) {
        return columns(table, file, wanted) != null;
    }

    /**
     * The wanted fields a file has, under its own names and types, and Paimon's own schema
     * evolution from them to the wanted ones (by field id: absent ones NULL, changed types cast).
     */
    private static final class FileColumns {
        final RowType read;

        /** Per wanted field, its index in {@link #read} or -1; null when it is the same index. */
        private final int[] index;

        private final ProjectedRow projected;
        private final CastedRow casted;

        FileColumns(RowType read, IndexCastMapping evolution) {
            this.read = read;
            this.index = evolution == null ? null : evolution.getIndexMapping();
            CastFieldGetter[] casts = evolution == null ? null : evolution.getCastMapping();
            this.projected = index == null ? null : ProjectedRow.from(index);
            this.casted = casts == null ? null : CastedRow.from(casts);
        }

        /** Where wanted field {@code i} is in {@link #read}, or -1 when the file lacks it. */
        int indexOf(int i) {
            return index == null ? i : index[i];
        }

        /** A file row as a row of the wanted fields; valid until the next call. */
        InternalRow project(InternalRow fileRow) {
            InternalRow row = projected == null ? fileRow : projected.replaceRow(fileRow);
            return casted == null ? row : casted.replaceRow(row);
        }
    }

    private static FileColumns columns(FileStoreTable table, DataFileMeta file, RowType wanted) {
        if (!"parquet".equals(file.fileFormat())) {
            return null;
        }
        if (file.schemaId() == table.schema().id()) {
            return new FileColumns(wanted, null);
        }
        String key = table.location() + "#" + table.coreOptions().branch() + "#" + file.schemaId();
        List<DataField> fileFields = SCHEMA_FIELDS.get(key);
        if (fileFields == null) {
            fileFields = table.schemaManager().schema(file.schemaId()).fields();
            SCHEMA_FIELDS.put(key, fileFields);
        }
        // The file's fields that are wanted, in the wanted order; Paimon maps them by id.
        Map<Integer, DataField> byId = new HashMap<>();
        fileFields.forEach(f -> byId.put(f.id(), f));
        List<DataField> read = new ArrayList<>();
        for (DataField w : wanted.getFields()) {
            DataField f = byId.get(w.id());
            if (f != null) {
                read.add(f);
            }
        }
        try {
            return new FileColumns(
                    new RowType(read),
                    SchemaEvolutionUtil.createIndexCastMapping(wanted.getFields(), read));
        } catch (RuntimeException e) {
            // no cast from the file's type: Paimon's own reader fails the same way
            return null;
        }
    }

    /**
     * The rows (deleted ones included) of a {@link #selectable} file whose first column of {@code
     * type} (a projection of the table's fields) is one of {@code values} (Paimon's internal
     * values, compared with {@code equals}): their positions, ascending, with that value (the
     * object of {@code values}); null when there are more than {@code max}. The reader skips pages
     * whose statistics rule every value out: {@link PositionReads#matching} where it decodes the
     * column (integer and string keys), else Paimon's reader with its page filter.
     */
    public static Map<Long, Object> matches(
            FileStoreTable table,
            BinaryRow partition,
            int bucket,
            DataFileMeta file,
            RowType type,
            Set<Object> values,
            int max)
            throws IOException {
        FileColumns columns = columns(table, file, type);
        if (columns == null || columns.indexOf(0) < 0) {
            throw new IllegalStateException(
                    "Cannot find rows by "
                            + type.getFieldNames().get(0)
                            + " in data file "
                            + file.fileName()
                            + ": it is not selectable. This is a bug in Strata.");
        }
        Map<Long, Object> direct =
                PositionReads.matching(
                        table.fileIO(),
                        path(table, partition, bucket, file),
                        file.fileSize(),
                        new RowType(List.of(columns.read.getFields().get(columns.indexOf(0)))),
                        values,
                        max,
                        PageChecksums.verifyEnabled(table.options()));
        if (direct != null) {
            return direct;
        }
        // Paimon's page filter, over the column's name in the file.
        Predicate pages =
                new PredicateBuilder(columns.read).in(columns.indexOf(0), new ArrayList<>(values));
        Map<Long, Object> found = new LinkedHashMap<>();
        // The caller's value objects are returned: the reader's may point into reused buffers.
        Map<Object, Object> canonical = new HashMap<>();
        values.forEach(v -> canonical.put(v, v));
        InternalRow.FieldGetter key = InternalRow.createFieldGetter(type.getTypeAt(0), 0);
        try (FileRecordReader<InternalRow> reader =
                reader(table, partition, bucket, file, columns.read, List.of(pages), null)) {
            FileRecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                try {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        // Asked for every row: Paimon's iterator advances a position only when
                        // asked, and a batch's unasked rows would shift the next batch's positions.
                        long position = batch.returnedPosition();
                        Object value = canonical.get(key.getFieldOrNull(columns.project(row)));
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
        FileColumns columns = columns(table, file, type);
        if (columns == null) {
            throw new IllegalStateException(
                    "Cannot read rows of data file "
                            + file.fileName()
                            + " by position: it is"
                            + " not selectable. This is a bug in Strata.");
        }
        if (columns.read.getFieldCount() == 0) {
            // every wanted column was added after the file was written
            for (long p : positions) {
                if (dv == null || !dv.isDeleted(p)) {
                    found.put(p, new GenericRow(type.getFieldCount()));
                }
            }
            return found;
        }
        Map<Long, InternalRow> direct =
                atPositions(table, partition, bucket, file, columns, dv, positions);
        if (direct != null) {
            direct.forEach((p, row) -> found.put(p, serializer.copy(columns.project(row))));
            return found;
        }
        try (FileRecordReader<InternalRow> reader =
                reader(table, partition, bucket, file, columns.read, null, selection)) {
            FileRecordIterator<InternalRow> batch;
            while (found.size() < selection.getCardinality()
                    && (batch = reader.readBatch()) != null) {
                try {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        long position = batch.returnedPosition();
                        if (selection.contains((int) position)
                                && (dv == null || !dv.isDeleted(position))) {
                            found.put(position, serializer.copy(columns.project(row)));
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
     * The live rows at a few positions read value by value ({@link PositionReads}: a page each,
     * inflated up to the row), or null when there are many or a column needs Paimon's reader.
     */
    private static Map<Long, InternalRow> atPositions(
            FileStoreTable table,
            BinaryRow partition,
            int bucket,
            DataFileMeta file,
            FileColumns columns,
            DeletionVector dv,
            long[] positions)
            throws IOException {
        if (positions.length > MAX_POSITION_READS) {
            return null;
        }
        long[] live =
                Arrays.stream(positions)
                        .distinct()
                        .filter(p -> dv == null || !dv.isDeleted(p))
                        .toArray();
        Path path = path(table, partition, bucket, file);
        return PositionReads.read(
                table.fileIO(),
                path,
                file.fileSize(),
                columns.read,
                live,
                PageChecksums.verifyEnabled(table.options()));
    }

    private static Path path(
            FileStoreTable table, BinaryRow partition, int bucket, DataFileMeta file) {
        return table.store()
                .pathFactory()
                .createDataFilePathFactory(partition, bucket)
                .toPath(file);
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
        Path path = path(table, partition, bucket, file);
        FormatReaderFactory formats =
                FileFormat.fromIdentifier(file.fileFormat(), new Options(table.options()))
                        .createReaderFactory(type, type, filters);
        return formats.createReader(
                new FormatReaderContext(
                        BufferedReads.of(table.fileIO()), path, file.fileSize(), selection));
    }
}
