package dev.strata.index;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeaders;
import dev.strata.index.maintain.BucketIndexState;
import dev.strata.index.search.BucketSearcher;
import dev.strata.index.search.SearchHit;
import dev.strata.index.source.SourcePolicy;

import org.apache.paimon.KeyValue;
import org.apache.paimon.KeyValueFileStore;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatReaderFactory;
import org.apache.paimon.fs.Path;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.FileRecordIterator;
import org.apache.paimon.reader.FileRecordReader;
import org.apache.paimon.utils.RoaringBitmap32;
import org.apache.paimon.io.KeyValueFileReaderFactory;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Searches the archives of a table, one bucket at a time (run per bucket in engine tasks, then merge with
 * {@link #topK}), and reads the rows behind the hits. Only files covered by a current archive are
 * searched; rows of level 0 and of levels whose archive is missing or stale are not searchable (counted
 * in {@link BucketResult#unsearchableRows()}). Archives are classified by their headers; an archive
 * whose header is intact but whose content fails the checksum makes the search fail with
 * {@link dev.strata.index.archive.CorruptArchiveException} (never a silently partial answer); a rebuild
 * replaces it.
 */
public final class PkFullTextSearcher {

    /** Archive headers read by the searches of this JVM (cached by path, length, time and footer checksum). */
    private static final ArchiveHeaders HEADERS = new ArchiveHeaders(false);

    private final Maintainers maintainers;

    private PkFullTextSearcher(FileStoreTable table) {
        this.maintainers = new Maintainers(table, HEADERS, null);
    }

    public static PkFullTextSearcher create(FileStoreTable table) {
        return new PkFullTextSearcher(table);
    }

    /** Hits of one bucket plus how many rows could not be searched. */
    public static final class BucketResult {
        private final List<SearchHit> hits;
        private final long unsearchableRows;

        BucketResult(List<SearchHit> hits, long unsearchableRows) {
            this.hits = hits;
            this.unsearchableRows = unsearchableRows;
        }

        /** At most k hits, best first (score desc, then file name, then row position). */
        public List<SearchHit> hits() {
            return hits;
        }

        /** Physical rows of the bucket's data files that no current archive covers. */
        public long unsearchableRows() {
            return unsearchableRows;
        }
    }

    /**
     * The top-k live rows of one bucket for a Lucene classic query.
     *
     * @throws IllegalArgumentException for a blank or unparsable query or k &lt;= 0
     * @throws IOException when an archive cannot be read (e.g. {@code CorruptArchiveException})
     */
    public BucketResult search(long snapshotId, BinaryRow partition, int bucket, String query, int k) throws IOException {
        FileStoreTable table = maintainers.table;
        Snapshot snapshot = table.snapshotManager().snapshot(snapshotId);
        BucketFiles files = SnapshotBuckets.shared().files(table, snapshot, partition, bucket);
        ArchiveFiles archiveFiles = ArchiveFiles.of(table, partition, bucket);
        BucketIndexState state =
                BucketIndexState.fromActiveDataFiles(
                        maintainers.definition.fieldId(),
                        files.dataFiles,
                        files.archives,
                        archive -> maintainers.headers.header(archiveFiles, archive));
        long unsearchable = 0;
        List<DataFileMeta> eligible = new ArrayList<>();
        for (DataFileMeta f : files.dataFiles) {
            if (SourcePolicy.isSource(f)) {
                eligible.add(f);
            }
            if (!state.payloadBySourceFile().containsKey(f.fileName())) {
                unsearchable += f.rowCount();
            }
        }
        Map<String, DeletionVector> dvs = SnapshotBuckets.shared().deletionVectors(table, snapshot, partition, bucket);
        List<SearchHit> hits =
                BucketSearcher.search(
                        partition.copy(), bucket, archiveFiles, maintainers.headers, state.currentPayloads(), eligible, dvs, query, k);
        return new BucketResult(hits, unsearchable);
    }

    /** Merges per-bucket hits into the global top-k (ties broken by position order). */
    public static List<SearchHit> topK(List<SearchHit> hits, int k) {
        return BucketSearcher.topK(hits, k);
    }

    /** The current archives of one bucket in a snapshot (for checks and reports). */
    public List<IndexFileMeta> currentArchives(long snapshotId, BinaryRow partition, int bucket) {
        FileStoreTable table = maintainers.table;
        BucketFiles files = BucketFiles.read(table, table.snapshotManager().snapshot(snapshotId), partition, bucket);
        ArchiveFiles archiveFiles = ArchiveFiles.of(table, partition, bucket);
        return BucketIndexState.fromActiveDataFiles(
                        maintainers.definition.fieldId(),
                        files.dataFiles,
                        files.archives,
                        archive -> maintainers.headers.header(archiveFiles, archive))
                .currentPayloads();
    }

    /**
     * Reads the given columns of rows of one data file by physical position. The result is aligned with
     * {@code positions}; an entry is null when the snapshot's deletion vector deletes that row.
     */
    public List<InternalRow> readRows(
            long snapshotId, BinaryRow partition, int bucket, String fileName, long[] positions, List<String> columns) throws IOException {
        FileStoreTable table = maintainers.table;
        Snapshot snapshot = table.snapshotManager().snapshot(snapshotId);
        BucketFiles files = SnapshotBuckets.shared().files(table, snapshot, partition, bucket);
        DataFileMeta file = null;
        for (DataFileMeta f : files.dataFiles) {
            if (f.fileName().equals(fileName)) {
                file = f;
            }
        }
        if (file == null) {
            throw new IllegalArgumentException(
                    "Cannot read rows of data file " + fileName + ": it is not in snapshot " + snapshotId + " bucket " + bucket + ".");
        }
        List<DataField> fields = new ArrayList<>();
        for (String column : columns) {
            DataField field = null;
            for (DataField f : table.rowType().getFields()) {
                if (f.name().equals(column)) {
                    field = f;
                }
            }
            if (field == null) {
                throw new IllegalArgumentException(
                        "Cannot read column '" + column + "' of table " + table.name() + ": no such column. Columns are "
                                + table.rowType().getFieldNames() + ".");
            }
            fields.add(field);
        }
        RowType type = new RowType(fields);
        DeletionVector dv = SnapshotBuckets.shared().deletionVectors(table, snapshot, partition, bucket).get(fileName);
        for (long p : positions) {
            if (p < 0 || p >= file.rowCount()) {
                throw new IllegalArgumentException(
                        "Cannot read row " + p + " of data file " + fileName + ": it has " + file.rowCount() + " rows.");
            }
        }
        Map<Long, InternalRow> found =
                file.schemaId() == table.schema().id() && "parquet".equals(file.fileFormat())
                        ? readSelected(table, partition, bucket, file, type, positions, dv)
                        : readThrough(table, partition, bucket, file, type, positions, dv);
        List<InternalRow> rows = new ArrayList<>(positions.length);
        for (long p : positions) {
            rows.add(found.get(p));
        }
        return rows;
    }

    /**
     * Reads only the wanted rows of a Parquet file written with the table's current schema: the positions
     * go to Paimon's Parquet reader as a row selection, which skips the row groups and pages (by the
     * file's column index) that hold none of them, and only the value columns asked for are decoded.
     */
    private static Map<Long, InternalRow> readSelected(
            FileStoreTable table, BinaryRow partition, int bucket, DataFileMeta file, RowType type, long[] positions,
            DeletionVector dv) throws IOException {
        RoaringBitmap32 selection = new RoaringBitmap32();
        for (long p : positions) {
            selection.add((int) p);
        }
        Path path = table.store().pathFactory().createDataFilePathFactory(partition, bucket).toPath(file);
        FormatReaderFactory formats =
                FileFormat.fromIdentifier(file.fileFormat(), new Options(table.options())).createReaderFactory(type, type, null);
        InternalRowSerializer serializer = new InternalRowSerializer(type);
        Map<Long, InternalRow> found = new HashMap<>();
        try (FileRecordReader<InternalRow> reader =
                formats.createReader(new FormatReaderContext(table.fileIO(), path, file.fileSize(), selection))) {
            FileRecordIterator<InternalRow> batch;
            while (found.size() < selection.getCardinality() && (batch = reader.readBatch()) != null) {
                try {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        long position = batch.returnedPosition();
                        if (selection.contains((int) position) && (dv == null || !dv.isDeleted(position))) {
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

    /** Reads a file from its start up to the last wanted row (other formats, older schemas). */
    private static Map<Long, InternalRow> readThrough(
            FileStoreTable table, BinaryRow partition, int bucket, DataFileMeta file, RowType type, long[] positions,
            DeletionVector dv) throws IOException {
        InternalRowSerializer serializer = new InternalRowSerializer(type);
        long[] sorted = positions.clone();
        Arrays.sort(sorted);
        Map<Long, InternalRow> found = new HashMap<>();
        KeyValueFileReaderFactory readers =
                ((KeyValueFileStore) table.store())
                        .newReaderFactoryBuilder()
                        .copyWithoutProjection()
                        .withReadKeyType(RowType.of())
                        .withReadValueType(type)
                        .build(partition, bucket, DeletionVector.emptyFactory());
        try (RecordReader<KeyValue> reader = readers.createRecordReader(file)) {
            long position = 0;
            int next = 0;
            RecordReader.RecordIterator<KeyValue> batch;
            while (next < sorted.length && (batch = reader.readBatch()) != null) {
                try {
                    KeyValue kv;
                    while (next < sorted.length && (kv = batch.next()) != null) {
                        while (next < sorted.length && sorted[next] == position) {
                            if (dv == null || !dv.isDeleted(position)) {
                                found.put(position, serializer.copy(kv.value()));
                            }
                            next++;
                        }
                        position++;
                    }
                } finally {
                    batch.releaseBatch();
                }
            }
        }
        return found;
    }
}
