package dev.strata.index;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeaders;
import dev.strata.index.maintain.BucketIndexState;
import dev.strata.index.options.FullTextDefinition;
import dev.strata.index.search.BucketSearcher;
import dev.strata.index.search.CorpusStats;
import dev.strata.index.search.FreshRows;
import dev.strata.index.search.SearchHit;
import dev.strata.index.search.SearchQuery;
import dev.strata.index.source.SourcePolicy;
import dev.strata.shredding.cache.BoundedCache;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.KeyValue;
import org.apache.paimon.KeyValueFileStore;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatReaderFactory;
import org.apache.paimon.fs.Path;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.KeyValueFileReaderFactory;
import org.apache.paimon.manifest.BucketEntry;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.FileRecordIterator;
import org.apache.paimon.reader.FileRecordReader;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;

/**
 * Searches the archives of a table, one bucket at a time (run per bucket in engine tasks, then
 * merge with {@link #topK}), and reads the rows behind the hits. Files covered by a current archive
 * are searched through it; rows of level 0 and of levels whose archive is missing or stale are
 * indexed at query time ({@link FreshRows}, counted in {@link
 * BucketResult#rowsIndexedAtQueryTime()}) when the search asks for fresh rows, else not searched
 * (counted in {@link BucketResult#unsearchableRows()}). One BM25 across buckets: {@link #stats} per
 * bucket, summed, then {@link #search} with the sum. Archives are classified by their heads; an
 * archive Lucene finds damaged as it opens or reads it makes the search fail with {@link
 * dev.strata.shredding.io.DamagedFileException} (a failed read is diagnosed with the whole-file
 * checksum, {@link dev.strata.index.archive.ArchiveReader#diagnose}); a rebuild replaces it. A
 * search does not read whole archives to check them: that is the rebuild's and the diagnosis's job.
 */
public final class PkFullTextSearcher {

    /**
     * Archive headers read by the searches of this JVM (cached by path, length, time and footer
     * checksum).
     */
    private static final ArchiveHeaders HEADERS = new ArchiveHeaders(false);

    private final Maintainers maintainers;

    private PkFullTextSearcher(FileStoreTable table) {
        this.maintainers = new Maintainers(table, HEADERS, null);
    }

    public static PkFullTextSearcher create(FileStoreTable table) {
        return new PkFullTextSearcher(table);
    }

    /** {@code query} as a search of this table's indexed column (field qualifiers checked). */
    SearchQuery scoped(String query) {
        return new SearchQuery(
                query, maintainers.table.fullName(), maintainers.definition.column());
    }

    /**
     * Hits of one bucket, how many rows were indexed at query time, and how many could not be
     * searched.
     */
    public static final class BucketResult {
        private final List<SearchHit> hits;
        private final long unsearchableRows;
        private final long rowsIndexedAtQueryTime;

        BucketResult(List<SearchHit> hits, long unsearchableRows, long rowsIndexedAtQueryTime) {
            this.hits = hits;
            this.unsearchableRows = unsearchableRows;
            this.rowsIndexedAtQueryTime = rowsIndexedAtQueryTime;
        }

        /** At most k hits, best first (score desc, then file name, then row position). */
        public List<SearchHit> hits() {
            return hits;
        }

        /**
         * Physical rows of the bucket's data files that were not searched (no current archive,
         * fresh search off).
         */
        public long unsearchableRows() {
            return unsearchableRows;
        }

        /** Physical rows of the bucket's data files indexed in memory for this search. */
        public long rowsIndexedAtQueryTime() {
            return rowsIndexedAtQueryTime;
        }
    }

    /**
     * Whether searches of this table can index uncovered rows at query time: the primary-key rules
     * {@link FreshRows} applies are those of a deletion-vector table with the {@code deduplicate}
     * merge engine ordered by Paimon's own sequence numbers. Other tables search their archives
     * only.
     */
    public boolean freshSearchSupported() {
        CoreOptions options = CoreOptions.fromMap(maintainers.table.options());
        return options.mergeEngine() == CoreOptions.MergeEngine.DEDUPLICATE
                && options.sequenceField().isEmpty()
                && options.deletionVectorsEnabled();
    }

    /**
     * The top-k live rows of one bucket for a Lucene classic query, from the current archives only,
     * each scored with its archive's own statistics.
     *
     * @throws IllegalArgumentException for a blank or unparsable query or k &lt;= 0
     * @throws IOException when an archive cannot be read (e.g. {@code DamagedFileException})
     */
    public BucketResult search(
            long snapshotId, BinaryRow partition, int bucket, String query, int k)
            throws IOException {
        return search(snapshotId, partition, bucket, query, k, null, false);
    }

    /**
     * The collection statistics of {@code query} over what {@link #search(long, BinaryRow, int,
     * String, int, CorpusStats, boolean)} with the same {@code fresh} reads in this bucket; sum
     * them over every bucket of a search (with {@link CorpusStats#add}) and pass the sum to each
     * bucket's search, so all scores are comparable.
     */
    public CorpusStats stats(
            long snapshotId, BinaryRow partition, int bucket, String query, boolean fresh)
            throws IOException {
        return prepare(snapshot(snapshotId), partition, bucket, fresh).stats(query);
    }

    /**
     * The top-k live rows of one bucket for a Lucene classic query. With {@code fresh} (and {@link
     * #freshSearchSupported()}), rows no current archive covers are indexed at query time, and
     * archived versions of keys that have a newer version in level 0 are not returned. Scores use
     * {@code global} (null: each index's own statistics).
     */
    public BucketResult search(
            long snapshotId,
            BinaryRow partition,
            int bucket,
            String query,
            int k,
            CorpusStats global,
            boolean fresh)
            throws IOException {
        return prepare(snapshot(snapshotId), partition, bucket, fresh).search(query, k, global);
    }

    /**
     * Every (partition, bucket) of {@code snapshot} with its file and row counts, as Paimon's scan
     * reads them from the snapshot's manifests (remembered per snapshot in this JVM, so a repeated
     * search skips the manifest scan; a new commit is a new snapshot).
     */
    public List<BucketEntry> bucketEntries(Snapshot snapshot) {
        return SnapshotBuckets.shared().bucketEntries(maintainers.table, snapshot);
    }

    /**
     * One bucket of a snapshot classified once for a query (its data files, current archives,
     * deletion vectors and, with {@code fresh}, the rows indexed at query time): {@link
     * PreparedBucket#stats}, {@link PreparedBucket#search} and {@link PreparedBucket#readRows} of
     * the same query all read what was classified here, without looking the snapshot's files up
     * again. Holds no query result; valid for the snapshot it was prepared for only.
     */
    public PreparedBucket prepare(Snapshot snapshot, BinaryRow partition, int bucket, boolean fresh)
            throws IOException {
        return new PreparedBucket(
                snapshot, partition.copy(), bucket, bucket(snapshot, partition, bucket, fresh));
    }

    /** What {@link #prepare} classified in one bucket, for the passes of one query. */
    public final class PreparedBucket {
        private final Snapshot snapshot;
        private final BinaryRow partition;
        private final int bucket;
        private final Bucket b;

        private PreparedBucket(Snapshot snapshot, BinaryRow partition, int bucket, Bucket b) {
            this.snapshot = snapshot;
            this.partition = partition;
            this.bucket = bucket;
            this.b = b;
        }

        /**
         * The collection statistics of {@code query} over what {@link #search} reads in this
         * bucket; sum them over every bucket of a search and pass the sum to each bucket's search.
         */
        public CorpusStats stats(String query) throws IOException {
            try (Analyzer analyzer = maintainers.definition.analyzer().newAnalyzer()) {
                return BucketSearcher.stats(
                        b.archiveFiles,
                        maintainers.headers,
                        b.state.currentPayloads(),
                        b.files.dataFiles,
                        b.dvs,
                        b.fresh,
                        analyzer,
                        scoped(query));
            }
        }

        /**
         * The top-k live rows of this bucket, as {@link PkFullTextSearcher#search(long, BinaryRow,
         * int, String, int, CorpusStats, boolean)} with the prepared {@code fresh}.
         */
        public BucketResult search(String query, int k, CorpusStats global) throws IOException {
            return searchPrepared(this, query, k, global);
        }

        /** {@link PkFullTextSearcher#readRows} of a data file of this bucket. */
        public List<InternalRow> readRows(String fileName, long[] positions, List<String> columns)
                throws IOException {
            return readPrepared(this, fileName, positions, columns);
        }

        /**
         * The given columns of the rows behind {@code hits} (all of this bucket), aligned with
         * {@code hits}; an entry is null when the snapshot's deletion vector deletes that row. When
         * every column is a primary-key or partition column, the rows are made from the keys the
         * hits carry and the bucket's partition and no data file is read; otherwise each hit's row
         * is read from its data file by position. No columns: rows of no fields, for liveness only.
         */
        public List<InternalRow> rows(List<SearchHit> hits, List<String> columns)
                throws IOException {
            List<InternalRow> fromKeys = rowsFromKeys(this, hits, columns);
            if (fromKeys != null) {
                return fromKeys;
            }
            List<String> read =
                    columns.isEmpty()
                            ? List.of(maintainers.table.schema().trimmedPrimaryKeys().get(0))
                            : columns;
            Map<String, List<Integer>> byFile = new LinkedHashMap<>();
            for (int i = 0; i < hits.size(); i++) {
                byFile.computeIfAbsent(hits.get(i).fileName(), f -> new ArrayList<>()).add(i);
            }
            InternalRow[] rows = new InternalRow[hits.size()];
            for (Map.Entry<String, List<Integer>> e : byFile.entrySet()) {
                long[] positions =
                        e.getValue().stream().mapToLong(i -> hits.get(i).position()).toArray();
                List<InternalRow> found = readPrepared(this, e.getKey(), positions, read);
                for (int j = 0; j < positions.length; j++) {
                    InternalRow row = found.get(j);
                    rows[e.getValue().get(j)] =
                            row == null || !columns.isEmpty() ? row : new GenericRow(0);
                }
            }
            return Arrays.asList(rows);
        }
    }

    /**
     * {@link PreparedBucket#rows} answered from the hits' keys and the partition, or null when a
     * column is neither a primary-key nor a partition column.
     */
    private List<InternalRow> rowsFromKeys(
            PreparedBucket prepared, List<SearchHit> hits, List<String> columns) {
        FileStoreTable table = maintainers.table;
        List<String> keyColumns = table.schema().trimmedPrimaryKeys();
        List<String> partitionColumns = table.schema().partitionKeys();
        RowType keyType = table.schema().logicalTrimmedPrimaryKeysType();
        RowType partitionType = table.schema().logicalPartitionType();
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[columns.size()];
        boolean[] fromPartition = new boolean[columns.size()];
        for (int c = 0; c < columns.size(); c++) {
            int k = keyColumns.indexOf(columns.get(c));
            int p = partitionColumns.indexOf(columns.get(c));
            if (k >= 0) {
                getters[c] = InternalRow.createFieldGetter(keyType.getTypeAt(k), k);
            } else if (p >= 0) {
                getters[c] = InternalRow.createFieldGetter(partitionType.getTypeAt(p), p);
                fromPartition[c] = true;
            } else {
                return null;
            }
        }
        List<InternalRow> rows = new ArrayList<>(hits.size());
        for (SearchHit hit : hits) {
            DeletionVector dv = prepared.b.dvs.get(hit.fileName());
            if (dv != null && dv.isDeleted(hit.position())) {
                rows.add(null);
                continue;
            }
            GenericRow row = new GenericRow(columns.size());
            for (int c = 0; c < columns.size(); c++) {
                row.setField(
                        c,
                        getters[c].getFieldOrNull(
                                fromPartition[c] ? prepared.partition : hit.key()));
            }
            rows.add(row);
        }
        return rows;
    }

    private BucketResult searchPrepared(
            PreparedBucket prepared, String query, int k, CorpusStats global) throws IOException {
        Bucket b = prepared.b;
        BinaryRow partition = prepared.partition;
        int bucket = prepared.bucket;
        List<DataFileMeta> eligible = new ArrayList<>();
        for (DataFileMeta f : b.files.dataFiles) {
            if (SourcePolicy.isSource(f)) {
                eligible.add(f);
            }
        }
        Set<BinaryRow> hidden = b.fresh == null ? Collections.emptySet() : b.fresh.level0Keys();
        List<SearchHit> archived;
        int n = k;
        while (true) {
            List<SearchHit> got =
                    BucketSearcher.search(
                            partition.copy(),
                            bucket,
                            b.archiveFiles,
                            maintainers.headers,
                            b.state.currentPayloads(),
                            eligible,
                            b.dvs,
                            global,
                            scoped(query),
                            n);
            List<SearchHit> kept = hidden.isEmpty() ? got : withoutKeys(got, hidden);
            if (kept.size() >= k || got.size() < n || n >= Integer.MAX_VALUE / 4) {
                archived = kept;
                break;
            }
            // Some of the best archived hits are older versions of keys updated in level 0: look
            // further.
            n = n * 4;
        }
        List<SearchHit> all = new ArrayList<>(archived);
        if (b.fresh != null) {
            try (Analyzer analyzer = maintainers.definition.analyzer().newAnalyzer()) {
                all.addAll(
                        BucketSearcher.searchFresh(
                                partition.copy(),
                                bucket,
                                b.fresh,
                                analyzer,
                                global,
                                scoped(query),
                                k));
            }
        }
        return new BucketResult(
                BucketSearcher.topK(all, k), b.unsearchable, b.fresh == null ? 0 : b.fresh.rows());
    }

    /** Which rows of one bucket's data files match a text match, as {@link #matches} found them. */
    public static final class BucketMatches {
        private final Map<String, RoaringBitmap32> positions;
        private final Set<String> unknownFiles;
        private final long rowsIndexedAtQueryTime;

        BucketMatches(
                Map<String, RoaringBitmap32> positions,
                Set<String> unknownFiles,
                long rowsIndexedAtQueryTime) {
            this.positions = positions;
            this.unknownFiles = unknownFiles;
            this.rowsIndexedAtQueryTime = rowsIndexedAtQueryTime;
        }

        /**
         * The matching row positions of a data file of a level above 0 that was searched; an empty
         * bitmap when none of its rows matches, null when the file was not searched ({@link
         * #isUnknown}).
         */
        public RoaringBitmap32 positions(String fileName) {
            if (unknownFiles.contains(fileName)) {
                return null;
            }
            RoaringBitmap32 p = positions.get(fileName);
            return p == null ? new RoaringBitmap32() : p;
        }

        /**
         * Whether the file's rows were not searched (level 0, or no current archive and no fresh
         * indexing).
         */
        public boolean isUnknown(String fileName) {
            return unknownFiles.contains(fileName);
        }

        /** Physical rows indexed in memory to answer the match. */
        public long rowsIndexedAtQueryTime() {
            return rowsIndexedAtQueryTime;
        }
    }

    /**
     * Every row of one bucket that a batch read of the snapshot returns and that matches all of
     * {@code queries}: the rows of the data files above level 0, with the snapshot's deletion
     * vectors applied — what Paimon reads of a deletion-vector (or first-row) table, whose level-0
     * rows become readable only once compacted. Unlike {@link #search}, no level-0 version hides an
     * archived one, since a read returns the archived version until that compaction. Files a
     * current archive covers are matched through it; with {@code fresh} (and {@link
     * #freshSearchSupported()}) the other files above level 0 are indexed at query time, else they
     * (and level-0 files) are reported as unknown, so a caller reads them whole.
     */
    public BucketMatches matches(
            long snapshotId, BinaryRow partition, int bucket, List<String> queries, boolean fresh)
            throws IOException {
        MatchScope scope = matchScope(snapshotId, partition, bucket, queries, fresh);
        Map<String, RoaringBitmap32> result = scope.positions(scope.state.currentPayloads());
        return new BucketMatches(
                result, scope.unknown, scope.freshRows == null ? 0 : scope.freshRows.rows());
    }

    /**
     * How many rows of {@code readFiles} (data files of the bucket a read returns) {@link #matches}
     * with the same arguments would report, or null when one of them was not searched ({@link
     * BucketMatches#isUnknown}). A current archive all of whose source files are read and none of
     * which has a deleted row (a deletion vector also marks each row a newer version of its key
     * replaced) has only live documents, so its matches are counted by Lucene ({@link
     * BucketSearcher#countWhereAllLive}, from the term's document frequency for a single term)
     * without visiting a row position; the other archives and the rows indexed at query time are
     * matched position by position, as {@link #matches} does.
     */
    public Long count(
            long snapshotId,
            BinaryRow partition,
            int bucket,
            List<String> queries,
            boolean fresh,
            Set<String> readFiles)
            throws IOException {
        MatchScope scope = matchScope(snapshotId, partition, bucket, queries, fresh);
        for (String f : readFiles) {
            if (scope.unknown.contains(f)) {
                return null;
            }
        }
        BucketSearcher.Count counted =
                BucketSearcher.countWhereAllLive(
                        scope.archiveFiles,
                        maintainers.headers,
                        scope.state.currentPayloads(),
                        scope.eligible,
                        scope.dvs,
                        queries.stream().map(this::scoped).toList(),
                        readFiles);
        long total = counted.count();
        for (Map.Entry<String, RoaringBitmap32> e :
                scope.positions(counted.notCounted()).entrySet()) {
            if (readFiles.contains(e.getKey())) {
                total += e.getValue().getCardinality();
            }
        }
        return total;
    }

    /** What {@link #matches} and {@link #count} search in one bucket. */
    private final class MatchScope {
        ArchiveFiles archiveFiles;
        BucketIndexState state;
        Map<String, DeletionVector> dvs;
        final List<DataFileMeta> eligible = new ArrayList<>();
        final Set<String> unknown = new java.util.HashSet<>();
        FreshRows freshRows;
        List<String> queries;

        /**
         * The matching row positions, by data file, of every query in {@code archives} (current
         * archives of the bucket) and in the rows indexed at query time.
         */
        Map<String, RoaringBitmap32> positions(List<IndexFileMeta> archives) throws IOException {
            Map<String, RoaringBitmap32> result = null;
            for (String query : queries) {
                Map<String, RoaringBitmap32> found =
                        archives.isEmpty()
                                ? new HashMap<>()
                                : BucketSearcher.matchAll(
                                        archiveFiles,
                                        maintainers.headers,
                                        archives,
                                        eligible,
                                        dvs,
                                        scoped(query));
                if (freshRows != null) {
                    try (Analyzer analyzer = maintainers.definition.analyzer().newAnalyzer()) {
                        found.putAll(
                                BucketSearcher.matchAllFresh(freshRows, analyzer, scoped(query)));
                    }
                }
                if (result == null) {
                    result = found;
                } else {
                    Map<String, RoaringBitmap32> both = new HashMap<>();
                    for (Map.Entry<String, RoaringBitmap32> e : result.entrySet()) {
                        RoaringBitmap32 other = found.get(e.getKey());
                        if (other != null) {
                            both.put(e.getKey(), RoaringBitmap32.and(e.getValue(), other));
                        }
                    }
                    result = both;
                }
            }
            return result == null ? new HashMap<>() : result;
        }
    }

    private MatchScope matchScope(
            long snapshotId, BinaryRow partition, int bucket, List<String> queries, boolean fresh)
            throws IOException {
        if (queries.isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot match rows of bucket "
                            + bucket
                            + " of "
                            + maintainers.table.name()
                            + ": no query was given. Pass at least one full-text query.");
        }
        FileStoreTable table = maintainers.table;
        Snapshot snapshot = SnapshotBuckets.snapshot(table, snapshotId);
        BucketFiles files = SnapshotBuckets.shared().files(table, snapshot, partition, bucket);
        MatchScope scope = new MatchScope();
        scope.queries = queries;
        scope.archiveFiles = ArchiveFiles.of(table, partition, bucket);
        ArchiveFiles archiveFiles = scope.archiveFiles;
        scope.state =
                BucketIndexState.fromActiveDataFiles(
                        maintainers.definition.fieldId(),
                        files.dataFiles,
                        files.archives,
                        archive -> maintainers.headers.header(archiveFiles, archive));
        scope.dvs = SnapshotBuckets.shared().deletionVectors(table, snapshot, partition, bucket);
        List<DataFileMeta> uncovered = new ArrayList<>();
        for (DataFileMeta f : files.dataFiles) {
            if (SourcePolicy.isSource(f)) {
                scope.eligible.add(f);
            }
            if (!scope.state.payloadBySourceFile().containsKey(f.fileName())) {
                if (f.level() > 0 && fresh && freshSearchSupported()) {
                    uncovered.add(f);
                } else {
                    scope.unknown.add(f.fileName());
                }
            }
        }
        scope.freshRows =
                uncovered.isEmpty()
                        ? null
                        : FRESH.get(
                                table,
                                snapshot,
                                partition,
                                bucket,
                                uncovered,
                                scope.dvs,
                                maintainers.definition,
                                Collections.emptySet()); // a read does not see parked rows either
        return scope;
    }

    /** The hits whose row's primary key (stored in the archive) is not in {@code keys}. */
    private static List<SearchHit> withoutKeys(List<SearchHit> hits, Set<BinaryRow> keys) {
        List<SearchHit> kept = new ArrayList<>();
        for (SearchHit h : hits) {
            if (!keys.contains(h.key())) {
                kept.add(h);
            }
        }
        return kept;
    }

    /** What one bucket's search reads. */
    private static final class Bucket {
        BucketFiles files;
        ArchiveFiles archiveFiles;
        BucketIndexState state;
        List<DataFileMeta> uncovered;
        Map<String, DeletionVector> dvs;
        FreshRows fresh;
        long unsearchable;
    }

    /**
     * The data files, archives and archive state of one bucket, and the data files no current
     * archive covers (the rows a search indexes at query time or leaves out).
     */
    private Bucket classify(Snapshot snapshot, BinaryRow partition, int bucket) {
        FileStoreTable table = maintainers.table;
        Bucket b = new Bucket();
        b.files = SnapshotBuckets.shared().files(table, snapshot, partition, bucket);
        b.archiveFiles = ArchiveFiles.of(table, partition, bucket);
        ArchiveFiles archiveFiles = b.archiveFiles;
        b.state =
                BucketIndexState.fromActiveDataFiles(
                        maintainers.definition.fieldId(),
                        b.files.dataFiles,
                        b.files.archives,
                        archive -> maintainers.headers.header(archiveFiles, archive));
        b.uncovered = new ArrayList<>();
        for (DataFileMeta f : b.files.dataFiles) {
            if (!b.state.payloadBySourceFile().containsKey(f.fileName())) {
                b.uncovered.add(f);
            }
        }
        return b;
    }

    /**
     * The archive state of every level of one bucket in a snapshot, classified exactly as a search
     * classifies it (so {@link ArchiveLevelState#rowsNotCovered()} summed over a bucket is what a
     * search without fresh rows leaves out): level 0 ({@code not_indexed}), each level above 0 with
     * its current archive ({@code current}), a stale one ({@code stale}) or none ({@code missing}),
     * and stale archives of levels that no longer have files (level -1 when the archive's header
     * cannot be read). Lowest level first.
     */
    public List<ArchiveLevelState> levelStates(long snapshotId, BinaryRow partition, int bucket) {
        Snapshot snapshot = SnapshotBuckets.snapshot(maintainers.table, snapshotId);
        Bucket b = classify(snapshot, partition, bucket);
        return ArchiveLevelState.of(
                b.files.dataFiles,
                b.state,
                archive -> {
                    try {
                        return maintainers
                                .headers
                                .header(b.archiveFiles, archive)
                                .sourceMeta()
                                .dataLevel();
                    } catch (Exception e) {
                        return -1;
                    }
                });
    }

    private Snapshot snapshot(long snapshotId) {
        return SnapshotBuckets.snapshot(maintainers.table, snapshotId);
    }

    private Bucket bucket(Snapshot snapshot, BinaryRow partition, int bucket, boolean fresh)
            throws IOException {
        FileStoreTable table = maintainers.table;
        Bucket b = classify(snapshot, partition, bucket);
        b.dvs = SnapshotBuckets.shared().deletionVectors(table, snapshot, partition, bucket);
        List<DataFileMeta> uncovered = b.uncovered;
        if (fresh && freshSearchSupported()) {
            if (bucket == BucketMode.POSTPONE_BUCKET) {
                b.fresh =
                        uncovered.isEmpty()
                                ? null
                                : FRESH.parked(
                                        table,
                                        snapshot,
                                        partition,
                                        uncovered,
                                        maintainers.definition);
            } else {
                // A postpone-bucket table's parked rows are newer than every row of the partition's
                // buckets.
                Set<BinaryRow> parkedKeys = parkedKeys(table, snapshot, partition);
                b.fresh =
                        uncovered.isEmpty() && parkedKeys.isEmpty()
                                ? null
                                : FRESH.get(
                                        table,
                                        snapshot,
                                        partition,
                                        bucket,
                                        uncovered,
                                        b.dvs,
                                        maintainers.definition,
                                        parkedKeys);
            }
        } else {
            for (DataFileMeta f : uncovered) {
                b.unsearchable += f.rowCount();
            }
        }
        return b;
    }

    /**
     * The keys parked in bucket -2 of {@code partition} of a postpone-bucket table (empty for other
     * tables).
     */
    private Set<BinaryRow> parkedKeys(FileStoreTable table, Snapshot snapshot, BinaryRow partition)
            throws IOException {
        if (CoreOptions.fromMap(table.options()).bucket() != BucketMode.POSTPONE_BUCKET) {
            return Collections.emptySet();
        }
        List<DataFileMeta> parked =
                SnapshotBuckets.shared()
                        .files(table, snapshot, partition, BucketMode.POSTPONE_BUCKET)
                        .dataFiles;
        return parked.isEmpty()
                ? Collections.emptySet()
                : FRESH.parked(table, snapshot, partition, parked, maintainers.definition)
                        .level0Keys();
    }

    /**
     * Rows indexed at query time, kept for the statistics pass and the search pass of the same
     * query.
     */
    private static final FreshCache FRESH = new FreshCache();

    private static final class FreshCache {
        /** Buckets whose query-time rows are kept. */
        private static final int CAPACITY = 32;

        // Not closed on eviction: the rows are indexed on the heap, which the collector frees
        // once the last search using them is done.
        private final BoundedCache<String, FreshRows> entries = BoundedCache.of(CAPACITY);

        FreshRows parked(
                FileStoreTable table,
                Snapshot snapshot,
                BinaryRow partition,
                List<DataFileMeta> files,
                FullTextDefinition definition)
                throws IOException {
            return cached(
                    table,
                    snapshot,
                    partition,
                    BucketMode.POSTPONE_BUCKET,
                    files,
                    definition,
                    "parked",
                    readers ->
                            FreshRows.indexParked(
                                    files, readers, keyType(table), definition.analyzer()));
        }

        FreshRows get(
                FileStoreTable table,
                Snapshot snapshot,
                BinaryRow partition,
                int bucket,
                List<DataFileMeta> files,
                Map<String, DeletionVector> dvs,
                FullTextDefinition definition,
                Set<BinaryRow> newerElsewhere)
                throws IOException {
            // The keys newer elsewhere follow from the snapshot and the partition, both part of the
            // cache key.
            return cached(
                    table,
                    snapshot,
                    partition,
                    bucket,
                    files,
                    definition,
                    newerElsewhere.isEmpty() ? "bucket" : "bucket-under-parked",
                    readers ->
                            FreshRows.index(
                                    files,
                                    readers,
                                    keyType(table),
                                    dvs,
                                    definition.analyzer(),
                                    newerElsewhere));
        }

        private static RowType keyType(FileStoreTable table) {
            return table.rowType().project(table.schema().trimmedPrimaryKeys());
        }

        private interface Build {
            FreshRows build(FreshRows.KeyValueFiles readers) throws IOException;
        }

        private FreshRows cached(
                FileStoreTable table,
                Snapshot snapshot,
                BinaryRow partition,
                int bucket,
                List<DataFileMeta> files,
                FullTextDefinition definition,
                String mode,
                Build build)
                throws IOException {
            StringBuilder key =
                    new StringBuilder(table.location().toString())
                            .append('\u0000')
                            .append(mode)
                            .append('\u0000')
                            .append(snapshot.id())
                            .append('\u0000')
                            .append(snapshot.timeMillis())
                            .append('\u0000')
                            .append(Arrays.toString(partition.toBytes()))
                            .append('\u0000')
                            .append(bucket)
                            .append('\u0000')
                            .append(definition.analyzer());
            for (DataFileMeta f : files) {
                key.append('\u0000').append(f.fileName());
            }
            String k = key.toString();
            FreshRows cached = entries.get(k);
            if (cached != null) {
                return cached;
            }
            FileStoreTable table0 = table;
            KeyValueFileReaderFactory readers =
                    ((KeyValueFileStore) table0.store())
                            .newReaderFactoryBuilder()
                            .copyWithoutProjection()
                            .withReadValueType(
                                    new RowType(Collections.singletonList(definition.field())))
                            .build(partition, bucket, DeletionVector.emptyFactory());
            FreshRows built = build.build(readers::createRecordReader);
            return entries.putIfAbsent(k, built);
        }
    }

    /** Merges per-bucket hits into the global top-k (ties broken by position order). */
    public static List<SearchHit> topK(List<SearchHit> hits, int k) {
        return BucketSearcher.topK(hits, k);
    }

    /** The current archives of one bucket in a snapshot (for checks and reports). */
    public List<IndexFileMeta> currentArchives(long snapshotId, BinaryRow partition, int bucket) {
        FileStoreTable table = maintainers.table;
        BucketFiles files =
                BucketFiles.read(
                        table, SnapshotBuckets.snapshot(table, snapshotId), partition, bucket);
        ArchiveFiles archiveFiles = ArchiveFiles.of(table, partition, bucket);
        return BucketIndexState.fromActiveDataFiles(
                        maintainers.definition.fieldId(),
                        files.dataFiles,
                        files.archives,
                        archive -> maintainers.headers.header(archiveFiles, archive))
                .currentPayloads();
    }

    /**
     * Reads the given columns of rows of one data file by physical position. The result is aligned
     * with {@code positions}; an entry is null when the snapshot's deletion vector deletes that
     * row.
     */
    public List<InternalRow> readRows(
            long snapshotId,
            BinaryRow partition,
            int bucket,
            String fileName,
            long[] positions,
            List<String> columns)
            throws IOException {
        FileStoreTable table = maintainers.table;
        Snapshot snapshot = snapshot(snapshotId);
        return readRows(
                snapshot,
                SnapshotBuckets.shared().files(table, snapshot, partition, bucket),
                SnapshotBuckets.shared().deletionVectors(table, snapshot, partition, bucket),
                partition,
                bucket,
                fileName,
                positions,
                columns);
    }

    private List<InternalRow> readPrepared(
            PreparedBucket prepared, String fileName, long[] positions, List<String> columns)
            throws IOException {
        return readRows(
                prepared.snapshot,
                prepared.b.files,
                prepared.b.dvs,
                prepared.partition,
                prepared.bucket,
                fileName,
                positions,
                columns);
    }

    private List<InternalRow> readRows(
            Snapshot snapshot,
            BucketFiles files,
            Map<String, DeletionVector> dvs,
            BinaryRow partition,
            int bucket,
            String fileName,
            long[] positions,
            List<String> columns)
            throws IOException {
        FileStoreTable table = maintainers.table;
        long snapshotId = snapshot.id();
        DataFileMeta file = null;
        for (DataFileMeta f : files.dataFiles) {
            if (f.fileName().equals(fileName)) {
                file = f;
            }
        }
        if (file == null) {
            throw new IllegalArgumentException(
                    "Cannot read rows of data file "
                            + fileName
                            + ": it is not in snapshot "
                            + snapshotId
                            + " bucket "
                            + bucket
                            + ".");
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
                        "Cannot read column '"
                                + column
                                + "' of table "
                                + table.name()
                                + ": no such column. Columns are "
                                + table.rowType().getFieldNames()
                                + ".");
            }
            fields.add(field);
        }
        RowType type = new RowType(fields);
        DeletionVector dv = dvs.get(fileName);
        for (long p : positions) {
            if (p < 0 || p >= file.rowCount()) {
                throw new IllegalArgumentException(
                        "Cannot read row "
                                + p
                                + " of data file "
                                + fileName
                                + ": it has "
                                + file.rowCount()
                                + " rows.");
            }
        }
        Map<Long, InternalRow> found;
        try {
            found =
                    "parquet".equals(file.fileFormat()) && currentFields(table, file.schemaId())
                            ? readSelected(table, partition, bucket, file, type, positions, dv)
                            : readThrough(table, partition, bucket, file, type, positions, dv);
        } catch (IOException | RuntimeException e) {
            // Paimon's and parquet-mr's readers name the file but not what was being done.
            throw new IOException(
                    "Cannot read the rows of hits in data file "
                            + file.fileName()
                            + " of table "
                            + table.fullName()
                            + " (columns "
                            + columns
                            + "): "
                            + e.getMessage()
                            + ". The file is damaged or unreadable: restore it from a backup.",
                    e);
        }
        List<InternalRow> rows = new ArrayList<>(positions.length);
        for (long p : positions) {
            rows.add(found.get(p));
        }
        return rows;
    }

    /**
     * Fields of a table's schemas by (table location, branch, schema id); schema files never
     * change.
     */
    private static final BoundedCache<String, List<DataField>> SCHEMA_FIELDS = BoundedCache.of(256);

    /**
     * Whether a file written with schema {@code schemaId} holds the table's current fields (same
     * ids, names and types): true across changes of table options only (each one a new schema),
     * which {@code ALTER TABLE ... SET TBLPROPERTIES} and Paimon's own jobs make.
     */
    private static boolean currentFields(FileStoreTable table, long schemaId) {
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
     * Reads only the wanted rows of a Parquet file whose fields are the table's current ones: the
     * positions go to Paimon's Parquet reader as a row selection, which skips the row groups and
     * pages (by the file's column index) that hold none of them, and only the value columns asked
     * for are decoded.
     */
    private static Map<Long, InternalRow> readSelected(
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
        Path path =
                table.store()
                        .pathFactory()
                        .createDataFilePathFactory(partition, bucket)
                        .toPath(file);
        FormatReaderFactory formats =
                FileFormat.fromIdentifier(file.fileFormat(), new Options(table.options()))
                        .createReaderFactory(type, type, null);
        InternalRowSerializer serializer = new InternalRowSerializer(type);
        Map<Long, InternalRow> found = new HashMap<>();
        try (FileRecordReader<InternalRow> reader =
                formats.createReader(
                        new FormatReaderContext(
                                table.fileIO(), path, file.fileSize(), selection))) {
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

    /** Reads a file from its start up to the last wanted row (other formats, older schemas). */
    private static Map<Long, InternalRow> readThrough(
            FileStoreTable table,
            BinaryRow partition,
            int bucket,
            DataFileMeta file,
            RowType type,
            long[] positions,
            DeletionVector dv)
            throws IOException {
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
