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
import org.apache.paimon.codegen.CodeGenUtils;
import org.apache.paimon.codegen.RecordComparator;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.KeyValueFileReaderFactory;
import org.apache.paimon.manifest.BucketEntry;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;

/**
 * Searches a table's archives one bucket at a time and reads the rows behind the hits. Rows no
 * current archive covers are indexed at query time ({@link FreshRows}) when fresh rows are asked
 * for, else counted as unsearchable. For one BM25 across buckets, sum {@link #stats} over the
 * buckets and pass the sum to {@link #search}. A damaged archive fails the search with {@code
 * DamagedFileException}; verifying whole archives is the rebuild's job, not the search's.
 */
public final class PkFullTextSearcher {

    /** Archive headers read by this JVM's searches, cached by path, length, time and checksum. */
    private static final ArchiveHeaders HEADERS = new ArchiveHeaders(false);

    private final Maintainers maintainers;

    /**
     * Orders hits tying a score by primary key (within a bucket, its trimmed key), as documented.
     */
    private final RecordComparator keyOrder;

    private PkFullTextSearcher(FileStoreTable table) {
        this.maintainers = new Maintainers(table, HEADERS, null);
        this.keyOrder =
                CodeGenUtils.newRecordComparator(
                        table.rowType()
                                .project(table.schema().trimmedPrimaryKeys())
                                .getFieldTypes());
    }

    public static PkFullTextSearcher create(FileStoreTable table) {
        return new PkFullTextSearcher(table);
    }

    /** {@code query} as a search of this table's indexed column (field qualifiers checked). */
    SearchQuery scoped(String query) {
        return new SearchQuery(
                query, maintainers.table.fullName(), maintainers.definition.column());
    }

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

        /** Rows of the bucket's data files not searched (no current archive, fresh search off). */
        public long unsearchableRows() {
            return unsearchableRows;
        }

        /** Physical rows of the bucket's data files indexed in memory for this search. */
        public long rowsIndexedAtQueryTime() {
            return rowsIndexedAtQueryTime;
        }
    }

    /** Whether {@link FreshRows}' rules apply: deduplicate, deletion vectors, no sequence field. */
    public boolean freshSearchSupported() {
        CoreOptions options = CoreOptions.fromMap(maintainers.table.options());
        return options.mergeEngine() == CoreOptions.MergeEngine.DEDUPLICATE
                && options.sequenceField().isEmpty()
                && options.deletionVectorsEnabled();
    }

    /** The top-k live rows of one bucket from current archives only, scored per archive. */
    public BucketResult search(
            long snapshotId, BinaryRow partition, int bucket, String query, int k)
            throws IOException {
        return search(snapshotId, partition, bucket, query, k, null, false);
    }

    /** {@code query}'s statistics over what {@link #search} reads here; sum them over buckets. */
    public CorpusStats stats(
            long snapshotId, BinaryRow partition, int bucket, String query, boolean fresh)
            throws IOException {
        return prepare(snapshot(snapshotId), partition, bucket, fresh).stats(query);
    }

    /**
     * The top-k live rows of one bucket; with {@code fresh}, uncovered rows too, minus archived
     * versions of keys newer in level 0. Scores use {@code global} (null: each index's own).
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

    /** Every (partition, bucket) of {@code snapshot} with file and row counts, cached. */
    public List<BucketEntry> bucketEntries(Snapshot snapshot) {
        return SnapshotBuckets.shared().bucketEntries(maintainers.table, snapshot);
    }

    /** One bucket classified once for a query's passes; valid for {@code snapshot} only. */
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

        /** {@link PkFullTextSearcher#stats} of this bucket. */
        public CorpusStats stats(String query) throws IOException {
            try (Analyzer analyzer = maintainers.definition.analyzer().newAnalyzer()) {
                return BucketSearcher.stats(
                        b.headers,
                        b.state.currentPayloads(),
                        b.files.dataFiles,
                        b.dvs,
                        b.fresh,
                        analyzer,
                        scoped(query));
            }
        }

        /** {@link PkFullTextSearcher#search} of this bucket with the prepared {@code fresh}. */
        public BucketResult search(String query, int k, CorpusStats global) throws IOException {
            return searchPrepared(this, query, k, global);
        }

        /** {@link PkFullTextSearcher#readRows} of a data file of this bucket. */
        public List<InternalRow> readRows(String fileName, long[] positions, List<String> columns)
                throws IOException {
            return readPrepared(this, fileName, positions, columns);
        }

        /**
         * The columns of the rows behind {@code hits}, aligned with them (null: deleted): key and
         * partition columns from the hits' keys and partition, only the others read from the data
         * files. No columns: empty rows, for liveness only.
         */
        public List<InternalRow> rows(List<SearchHit> hits, List<String> columns)
                throws IOException {
            List<InternalRow> withKeys = rowsWithKeys(this, hits, columns);
            return withKeys != null ? withKeys : readRows(hits, columns);
        }

        /** The rows of {@code hits} with {@code columns} read from their files. */
        private List<InternalRow> readRows(List<SearchHit> hits, List<String> columns)
                throws IOException {
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
     * {@link PreparedBucket#rows} with the key and partition columns taken from the hits (every
     * archived document stores its key) and only the other columns read: a key column's page is
     * decoded up to the row like any other. Null when every column is some other column.
     */
    private List<InternalRow> rowsWithKeys(
            PreparedBucket prepared, List<SearchHit> hits, List<String> columns)
            throws IOException {
        TableSchema schema = maintainers.table.schema();
        List<String> keyColumns = schema.trimmedPrimaryKeys();
        List<String> partitionColumns = schema.partitionKeys();
        List<String> others = new ArrayList<>(columns);
        others.removeAll(keyColumns);
        others.removeAll(partitionColumns);
        if (!columns.isEmpty() && others.size() == columns.size()) {
            return null;
        }
        List<InternalRow> read = others.isEmpty() ? null : prepared.readRows(hits, others);
        RowType keyType = schema.logicalTrimmedPrimaryKeysType();
        RowType partitionType = schema.logicalPartitionType();
        RowType readType = maintainers.table.rowType().project(others);
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[columns.size()];
        int[] from = new int[columns.size()]; // 0: key, 1: partition, 2: read
        for (int c = 0; c < columns.size(); c++) {
            int k = keyColumns.indexOf(columns.get(c));
            int p = partitionColumns.indexOf(columns.get(c));
            int o = others.indexOf(columns.get(c));
            from[c] = k >= 0 ? 0 : p >= 0 ? 1 : 2;
            getters[c] =
                    k >= 0
                            ? InternalRow.createFieldGetter(keyType.getTypeAt(k), k)
                            : p >= 0
                                    ? InternalRow.createFieldGetter(partitionType.getTypeAt(p), p)
                                    : InternalRow.createFieldGetter(readType.getTypeAt(o), o);
        }
        List<InternalRow> rows = new ArrayList<>(hits.size());
        for (int h = 0; h < hits.size(); h++) {
            SearchHit hit = hits.get(h);
            DeletionVector dv = prepared.b.dvs.get(hit.fileName());
            InternalRow values = read == null ? null : read.get(h);
            if ((dv != null && dv.isDeleted(hit.position())) || (read != null && values == null)) {
                rows.add(null);
                continue;
            }
            GenericRow row = new GenericRow(columns.size());
            for (int c = 0; c < columns.size(); c++) {
                InternalRow source =
                        from[c] == 0 ? hit.key() : from[c] == 1 ? prepared.partition : values;
                row.setField(c, getters[c].getFieldOrNull(source));
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
                            b.headers,
                            b.state.currentPayloads(),
                            eligible,
                            b.dvs,
                            global,
                            scoped(query),
                            n,
                            keyOrder);
            List<SearchHit> kept = hidden.isEmpty() ? got : withoutKeys(got, hidden);
            if (kept.size() >= k || got.size() < n || n >= Integer.MAX_VALUE / 4) {
                archived = kept;
                break;
            }
            // Hits hidden by newer level-0 versions: look further.
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
                                k,
                                keyOrder));
            }
        }
        return new BucketResult(
                BucketSearcher.topK(all, k, keyOrder),
                b.unsearchable,
                b.fresh == null ? 0 : b.fresh.rows());
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

        /** Matching positions of a searched file (empty if none), null if {@link #isUnknown}. */
        public RoaringBitmap32 positions(String fileName) {
            if (unknownFiles.contains(fileName)) {
                return null;
            }
            RoaringBitmap32 p = positions.get(fileName);
            return p == null ? new RoaringBitmap32() : p;
        }

        /** Whether the file was not searched (level 0, or uncovered without fresh indexing). */
        public boolean isUnknown(String fileName) {
            return unknownFiles.contains(fileName);
        }

        /** Physical rows indexed in memory to answer the match. */
        public long rowsIndexedAtQueryTime() {
            return rowsIndexedAtQueryTime;
        }
    }

    /**
     * The rows of one bucket a batch read of the snapshot returns that match all {@code queries}:
     * rows above level 0 with deletion vectors applied, since Paimon reads level-0 rows only once
     * compacted (so no level-0 version hides an archived one). Without {@code fresh}, uncovered
     * files are reported unknown so the caller reads them whole.
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
     * How many rows of {@code readFiles} {@link #matches} would report (null if one was not
     * searched). Archives whose sources are all read and free of deleted rows hold only live
     * documents, so Lucene counts them without row positions; the rest are matched by position.
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
                        scope.headers,
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
        ArchiveHeaders.Statement headers;
        BucketIndexState state;
        Map<String, DeletionVector> dvs;
        final List<DataFileMeta> eligible = new ArrayList<>();
        final Set<String> unknown = new java.util.HashSet<>();
        FreshRows freshRows;
        List<String> queries;

        /** Matching positions by data file of all queries, in {@code archives} and fresh rows. */
        Map<String, RoaringBitmap32> positions(List<IndexFileMeta> archives) throws IOException {
            Map<String, RoaringBitmap32> result = null;
            for (String query : queries) {
                Map<String, RoaringBitmap32> found =
                        archives.isEmpty()
                                ? new HashMap<>()
                                : BucketSearcher.matchAll(
                                        headers, archives, eligible, dvs, scoped(query));
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
        scope.headers = maintainers.headers.forStatement(ArchiveFiles.of(table, partition, bucket));
        scope.state =
                BucketIndexState.fromActiveDataFiles(
                        maintainers.definition.fieldId(),
                        files.dataFiles,
                        files.archives,
                        maintainers.ofCurrentDefinition(scope.headers));
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

    private static List<SearchHit> withoutKeys(List<SearchHit> hits, Set<BinaryRow> keys) {
        List<SearchHit> kept = new ArrayList<>();
        for (SearchHit h : hits) {
            if (!keys.contains(h.key())) {
                kept.add(h);
            }
        }
        return kept;
    }

    private static final class Bucket {
        BucketFiles files;
        ArchiveHeaders.Statement headers;
        BucketIndexState state;
        List<DataFileMeta> uncovered;
        Map<String, DeletionVector> dvs;
        FreshRows fresh;
        long unsearchable;
    }

    /** The bucket's files, archive state and the data files no current archive covers. */
    private Bucket classify(Snapshot snapshot, BinaryRow partition, int bucket) {
        FileStoreTable table = maintainers.table;
        Bucket b = new Bucket();
        b.files = SnapshotBuckets.shared().files(table, snapshot, partition, bucket);
        b.headers = maintainers.headers.forStatement(ArchiveFiles.of(table, partition, bucket));
        b.state =
                BucketIndexState.fromActiveDataFiles(
                        maintainers.definition.fieldId(),
                        b.files.dataFiles,
                        b.files.archives,
                        maintainers.ofCurrentDefinition(b.headers));
        b.uncovered = new ArrayList<>();
        for (DataFileMeta f : b.files.dataFiles) {
            if (!b.state.payloadBySourceFile().containsKey(f.fileName())) {
                b.uncovered.add(f);
            }
        }
        return b;
    }

    /** Each level's archive state, classified as a search classifies it, lowest level first. */
    public List<ArchiveLevelState> levelStates(long snapshotId, BinaryRow partition, int bucket) {
        Snapshot snapshot = SnapshotBuckets.snapshot(maintainers.table, snapshotId);
        Bucket b = classify(snapshot, partition, bucket);
        return ArchiveLevelState.of(
                b.files.dataFiles,
                b.state,
                archive -> {
                    try {
                        return b.headers.header(archive).sourceMeta().dataLevel();
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
                // Parked rows are newer than every row of the partition's buckets.
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

    /** Keys parked in bucket -2 of a postpone-bucket table's partition (empty for other tables). */
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

    /** Rows indexed at query time, kept for the stats and search passes of the same query. */
    private static final FreshCache FRESH = new FreshCache();

    private static final class FreshCache {
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
                    readers -> FreshRows.indexParked(files, readers, keyType(table), definition));
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
            // Keys newer elsewhere follow from snapshot and partition, both in the cache key.
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
                                    definition,
                                    newerElsewhere));
        }

        /**
         * What the rows were indexed with: the text field (id and type: a table option moves the
         * index to another column, or to a column dropped and added again, without a snapshot) and
         * the analyzer settings.
         */
        private static String indexedAs(FullTextDefinition definition) {
            return definition.fieldId()
                    + "\u0000"
                    + definition.field().type().asSQLString()
                    + "\u0000"
                    + definition.analyzer().toJson();
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
                            .append(indexedAs(definition));
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
                        maintainers.ofCurrentDefinition(
                                archive -> maintainers.headers.header(archiveFiles, archive)))
                .currentPayloads();
    }

    /** The columns of one data file's rows at {@code positions}; null for a deleted row. */
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
                    DataFileRows.selectable(table, file, type)
                            ? DataFileRows.read(table, partition, bucket, file, type, positions, dv)
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

    /** Reads a file from its start up to the last wanted row (formats other than Parquet). */
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
