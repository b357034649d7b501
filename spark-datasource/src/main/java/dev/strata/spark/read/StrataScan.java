package dev.strata.spark.read;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.shredding.ShreddedReadHandover;
import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.parquet.PageChecksums;
import dev.strata.spark.catalog.TableDiagnosis;
import dev.strata.spark.data.ColumnReferences;
import dev.strata.spark.data.PaimonToSpark;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.functions.BucketTransformFunction;
import dev.strata.spark.metrics.ShreddedScanMetrics;
import dev.strata.spark.metrics.TextMatchMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.partition.PartitionPredicate;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.BucketSpec;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportPartitioning;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.connector.read.SupportsRuntimeV2Filtering;
import org.apache.spark.sql.connector.read.partitioning.KeyGroupedPartitioning;
import org.apache.spark.sql.connector.read.partitioning.Partitioning;
import org.apache.spark.sql.connector.read.partitioning.UnknownPartitioning;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;

/**
 * A configured Strata scan. Spark may prune its partitions at run time (dynamic partition pruning)
 * before the batch plans its splits.
 */
final class StrataScan
        implements NarrowableScan,
                SupportsReportStatistics,
                SupportsRuntimeV2Filtering,
                SupportsReportPartitioning {

    /**
     * Paimon reads files above this size on a separate thread; the shredded reader counts skipped
     * data per thread, so every file is read on the task thread.
     */
    private static final String NO_ASYNC_FILE_READS = "1024 tb";

    private final String tableName;
    private final FileStoreTable table;
    private final int[] projection;

    /** Pushed predicates, plus the runtime filters Spark gave {@link #filter}. */
    private List<Predicate> predicates;

    private final List<org.apache.spark.sql.connector.expressions.filter.Predicate> pushed;
    private final Integer limit;
    private final RowType readType;
    private final MapPushdown mapPushdown;
    private final KeyColumns keyColumns;

    /** What {@link #narrowedTo} added, for EXPLAIN ("" when nothing). */
    private final String narrowing;

    /** Nullable. */
    private final TextMatchPushdown textMatch;

    /** Per bucket, found once for every batch of this scan. */
    private final Map<String, PkFullTextSearcher.BucketMatches> textMatches =
            new java.util.concurrent.ConcurrentHashMap<>();

    private StrataBatch batch;

    /** Built once: statistics and the batch plan with it. */
    private SplitReaders readers;

    /** The projection, plus the text column of an exact match. */
    private final int[] readProjection;

    /** The text column's position in {@link #readProjection} for an exact match, else -1. */
    private final int textOrdinal;

    /** Planned once for both the statistics and the batch. */
    private List<Split> splits;

    StrataScan(
            String tableName,
            FileStoreTable table,
            int[] projection,
            List<Predicate> predicates,
            List<org.apache.spark.sql.connector.expressions.filter.Predicate> pushed,
            Integer limit,
            MapPushdown mapPushdown,
            TextMatchPushdown textMatch,
            KeyColumns keyColumns,
            String narrowing) {
        this.narrowing = narrowing;
        this.tableName = tableName;
        this.table = table;
        this.projection = projection;
        this.predicates = List.copyOf(predicates);
        this.pushed = List.copyOf(pushed);
        this.limit = limit;
        this.readType = table.rowType().project(projection);
        this.mapPushdown = mapPushdown;
        this.textMatch = textMatch;
        this.keyColumns = keyColumns;
        if (textMatch != null && textMatch.exact()) {
            // An exact scan matches rows it reads whole itself, so it needs the text column.
            int text = table.rowType().getFieldIndex(textMatch.column());
            int at =
                    java.util.stream.IntStream.range(0, projection.length)
                            .filter(i -> projection[i] == text)
                            .findFirst()
                            .orElse(projection.length);
            int[] read = projection;
            if (at == projection.length) {
                read = java.util.Arrays.copyOf(projection, projection.length + 1);
                read[projection.length] = text;
            }
            this.readProjection = read;
            this.textOrdinal = at;
        } else {
            this.readProjection = projection;
            this.textOrdinal = -1;
        }
    }

    @Override
    public StructType readSchema() {
        return SparkTypes.toSpark(keyColumns.outputType());
    }

    @Override
    public String description() {
        StringBuilder sb = new StringBuilder(tableName);
        sb.append(" [PushedPredicates: [")
                .append(pushed.stream().map(Object::toString).collect(Collectors.joining(", ")))
                .append("]");
        if (!mapPushdown.conjuncts().isEmpty()) {
            sb.append(", PushedMapPredicates: ").append(mapPushdown.predicatesText());
        }
        if (!mapPushdown.selectedKeys().isEmpty()) {
            sb.append(", SelectedKeys: ").append(mapPushdown.selectedKeysText());
        }
        if (!narrowing.isEmpty()) {
            sb.append(", NarrowedTo: ").append(narrowing);
        }
        if (textMatch != null) {
            sb.append(", PushedTextMatch: ").append(textMatch.describe());
        }
        if (limit != null) {
            sb.append(", PushedLimit: ").append(limit);
        }
        String snapshot = table.options().get("scan.snapshot-id");
        if (snapshot != null) {
            sb.append(", Snapshot: ").append(snapshot);
        }
        return sb.append("]").toString();
    }

    /**
     * This scan when it does nothing but prune (no map pushdown, text match or limit), else null.
     */
    PlainScan plain() {
        if (limit != null || !mapPushdown.isEmpty() || textMatch != null) {
            return null;
        }
        List<Predicate> partitionOnly = new ArrayList<>();
        SparkPredicates converter = new SparkPredicates(table.rowType());
        for (org.apache.spark.sql.connector.expressions.filter.Predicate p : pushed) {
            if (converter.exactOnPartitions(p, table.partitionKeys())) {
                partitionOnly.add(converter.convert(p).orElseThrow());
            }
        }
        return new PlainScan(
                table,
                readType.getFieldNames(),
                PartitionPredicate.splitPartitionPredicatesAndDataPredicates(
                                partitionOnly, table.rowType(), table.partitionKeys())
                        .getLeft()
                        .orElse(null));
    }

    @Override
    public Optional<Scan> narrowedTo(String column, List<Object> values) {
        if (limit != null) {
            return Optional.empty();
        }
        String described = column + " IN " + values.size() + " values";
        return new SparkPredicates(table.rowType())
                .in(column, values)
                .map(
                        in -> {
                            List<Predicate> more = new ArrayList<>(predicates);
                            more.add(in);
                            return new StrataScan(
                                    tableName,
                                    table,
                                    projection,
                                    more,
                                    pushed,
                                    null,
                                    mapPushdown,
                                    textMatch,
                                    keyColumns,
                                    narrowing.isEmpty() ? described : narrowing + ", " + described);
                        });
    }

    @Override
    public Optional<org.apache.spark.sql.catalyst.InternalRow[]> lookUp(
            String column, List<Object> values, int maxRows) {
        PlainScan plain = plain();
        if (plain == null) {
            return Optional.empty();
        }
        return KeyLookup.rows(
                tableName,
                table,
                splits(),
                column,
                values,
                plain.columns(),
                () -> readers().get(SplitReadMode.PLAIN).newRead(),
                maxRows);
    }

    @Override
    public Optional<org.apache.spark.sql.catalyst.InternalRow[]> firstRows(
            int n,
            java.util.function.Predicate<org.apache.spark.sql.catalyst.InternalRow> keep,
            long maxRead) {
        if (!mapPushdown.isEmpty() || textMatch != null) {
            return Optional.empty();
        }
        PaimonToSpark converter = PaimonToSpark.forRowType(readType);
        List<org.apache.spark.sql.catalyst.InternalRow> rows = new ArrayList<>(Math.min(n, 1024));
        long[] read = {0};
        long[] bytes = {0};
        RuntimeException[] rejected = {null};
        // splits in planning order, each only as far as the rows still wanted (a merging split
        // merges only that far)
        for (Split split : splits()) {
            if (rows.size() >= n
                    || read[0] >= maxRead
                    || bytes[0] > MAX_FIRST_ROWS_BYTES
                    || rejected[0] != null) {
                break;
            }
            long rowBytes = bytesPerRow(split);
            try {
                SplitRows.read(
                        readers().get(SplitReadMode.PLAIN).newRead(),
                        split,
                        row -> {
                            read[0]++;
                            bytes[0] += rowBytes;
                            org.apache.spark.sql.catalyst.InternalRow r = converter.convert(row);
                            try {
                                if (keep.test(r)) {
                                    rows.add(r);
                                }
                            } catch (RuntimeException e) {
                                rejected[0] = e; // the caller's expression, not the split
                                return false;
                            }
                            return rows.size() < n
                                    && read[0] < maxRead
                                    && bytes[0] <= MAX_FIRST_ROWS_BYTES;
                        });
            } catch (IOException | RuntimeException e) {
                throw new UncheckedIOException(
                        SplitFailures.explain(tableName, table.fileIO(), split, e));
            }
        }
        if (rejected[0] != null
                || (rows.size() < n && (read[0] >= maxRead || bytes[0] > MAX_FIRST_ROWS_BYTES))) {
            return Optional.empty();
        }
        return Optional.of(rows.toArray(new org.apache.spark.sql.catalyst.InternalRow[0]));
    }

    /**
     * Most bytes of data files (compressed, as a split's files average per row) read on the driver
     * for a {@code LIMIT} before it is left to a Spark job: wide rows make few rows costly.
     */
    private static final long MAX_FIRST_ROWS_BYTES = 16L << 20;

    /** A split's data file bytes per row, 0 when unknown. */
    private static long bytesPerRow(Split split) {
        if (!(split instanceof DataSplit)) {
            return 0;
        }
        long bytes = 0;
        long rows = 0;
        for (DataFileMeta file : ((DataSplit) split).dataFiles()) {
            bytes += file.fileSize();
            rows += file.rowCount();
        }
        return rows == 0 ? 0 : Math.max(1, bytes / rows);
    }

    /**
     * Returned partition columns whose predicates reach Paimon ({@link SparkPredicates#pushable});
     * none under a pushed limit, since a filter below it would change which rows it keeps.
     */
    @Override
    public NamedReference[] filterAttributes() {
        if (limit != null) {
            return new NamedReference[0];
        }
        List<String> output = keyColumns.outputType().getFieldNames();
        return table.partitionKeys().stream()
                .filter(name -> output.contains(name) && SparkPredicates.pushable(name))
                .map(name -> Expressions.column(ColumnReferences.quoted(name)))
                .toArray(NamedReference[]::new);
    }

    /**
     * Adds runtime partition filters to the planning predicates and drops what was planned: Spark
     * asks for the batch again. Filters Paimon cannot take are left to Spark.
     */
    @Override
    public synchronized void filter(
            org.apache.spark.sql.connector.expressions.filter.Predicate[] filters) {
        SparkPredicates converter = new SparkPredicates(table.rowType());
        List<Predicate> more = new ArrayList<>(predicates);
        for (org.apache.spark.sql.connector.expressions.filter.Predicate filter : filters) {
            converter.convert(filter).ifPresent(more::add);
        }
        if (more.size() > predicates.size()) {
            predicates = List.copyOf(more);
            splits = null;
            readers = null;
            batch = null;
        }
    }

    MapPushdown mapPushdown() {
        return mapPushdown;
    }

    /**
     * Lets Spark size joins. Rows: the snapshot's total record count for an unfiltered scan of the
     * latest snapshot (avoids planning, which reads every manifest), else the planned splits'
     * counts. Bytes: rows times the read columns' default widths.
     */
    @Override
    public Statistics estimateStatistics() {
        long rows = 0;
        CoreOptions.StartupMode mode = table.coreOptions().startupMode();
        boolean latest =
                mode == CoreOptions.StartupMode.LATEST_FULL
                        || mode == CoreOptions.StartupMode.LATEST;
        Set<String> partitionKeys = new HashSet<>(table.partitionKeys());
        if (latest
                && predicates.stream()
                        .noneMatch(p -> PredicateBuilder.containsFields(p, partitionKeys))) {
            rows = table.latestSnapshot().map(Snapshot::totalRecordCount).orElse(0L);
        } else {
            for (Split split : splits()) {
                long n = split.mergedRowCount().orElse(split.rowCount());
                if (n < 0) {
                    return new ScanStatistics(OptionalLong.empty(), OptionalLong.empty());
                }
                rows += n;
            }
        }
        long rowBytes = 0;
        for (DataField field : keyColumns.outputType().getFields()) {
            rowBytes += field.type().defaultSize();
        }
        return new ScanStatistics(
                OptionalLong.of(Math.max(rows * rowBytes, rows)), OptionalLong.of(rows));
    }

    /**
     * {@code bucket(N, key)} for storage-partitioned joins: a fixed-bucket table with Paimon's
     * default bucket function and a returned one-column key of a type {@link
     * BucketTransformFunction#supports}. Decided without planning splits; splits are keyed by
     * bucket only when each bucket is one split ({@link StrataBatch}), since Spark reads one key's
     * splits in one task. A pushed text match reports nothing.
     */
    @Override
    public Partitioning outputPartitioning() {
        Integer buckets = bucketKeyed();
        if (buckets == null) {
            return new UnknownPartitioning(0);
        }
        String key = table.bucketSpec().getBucketKeys().get(0);
        return new KeyGroupedPartitioning(
                new org.apache.spark.sql.connector.expressions.Expression[] {
                    Expressions.bucket(buckets, ColumnReferences.quoted(key))
                },
                buckets);
    }

    /** The bucket count when the scan reports its bucketing, else null. */
    private Integer bucketKeyed() {
        BucketSpec spec = table.bucketSpec();
        if (!SQLConf.get().v2BucketingEnabled()
                || textMatch != null
                || spec.getBucketMode() != BucketMode.HASH_FIXED
                || table.coreOptions().bucketFunctionType()
                        != CoreOptions.BucketFunctionType.DEFAULT
                || spec.getBucketKeys().size() != 1) {
            return null;
        }
        String key = spec.getBucketKeys().get(0);
        int index = table.rowType().getFieldIndex(key);
        if (index < 0
                || !BucketTransformFunction.supports(table.rowType().getTypeAt(index))
                || !keyColumns.outputType().getFieldNames().contains(key)) {
            return null;
        }
        return spec.getNumBuckets();
    }

    /**
     * The row count when Paimon knows every split's merged count, else null. Only valid without
     * predicates other than exact partition filters, limit, map or text pushdown; the caller
     * checks.
     */
    Long knownRowCount() {
        long total = 0;
        for (Split split : splits()) {
            OptionalLong n = split.mergedRowCount();
            if (n.isEmpty()) {
                return null;
            }
            total += n.getAsLong();
        }
        return total;
    }

    /**
     * Each partition that has live rows, with its row count, when Paimon knows every split's merged
     * count; else null. Same validity as {@link #knownRowCount}.
     */
    List<PushedAggregate.Partition> knownPartitions() {
        PaimonToSpark partitions = PaimonToSpark.forRowType(table.schema().logicalPartitionType());
        Map<org.apache.paimon.data.BinaryRow, Long> counts = new LinkedHashMap<>();
        for (Split split : splits()) {
            OptionalLong n = split.mergedRowCount();
            if (n.isEmpty() || !(split instanceof DataSplit)) {
                return null;
            }
            counts.merge(((DataSplit) split).partition(), n.getAsLong(), Long::sum);
        }
        List<PushedAggregate.Partition> live = new ArrayList<>();
        counts.forEach(
                (partition, n) -> {
                    if (n > 0) { // a partition whose rows are all deleted has none to aggregate
                        live.add(
                                new PushedAggregate.Partition(
                                        partitions.convert(partition).values(), n));
                    }
                });
        return live;
    }

    private record ScanStatistics(OptionalLong sizeInBytes, OptionalLong numRows)
            implements Statistics {}

    private synchronized List<Split> splits() {
        if (splits == null) {
            try {
                splits = readers().get(SplitReadMode.PLAIN).newScan().plan().splits();
            } catch (RuntimeException e) {
                // Paimon's planning errors rarely name the damaged file.
                throw TableDiagnosis.explain(tableName, table, "plan a scan of", e);
            }
        }
        return splits;
    }

    private synchronized SplitReaders readers() {
        if (readers != null) {
            return readers;
        }
        Map<SplitReadMode, Map<String, String>> options = new EnumMap<>(SplitReadMode.class);
        boolean shredded =
                !ShreddingOptions.shreddedColumns(table.rowType(), table.options()).isEmpty();
        options.put(
                SplitReadMode.PLAIN,
                shredded || !mapPushdown.isEmpty() ? handover(Map.of()) : null);
        if (!mapPushdown.isEmpty()) {
            if (!mapPushdown.selectedKeys().isEmpty()) {
                options.put(
                        SplitReadMode.SELECTED_KEYS,
                        handover(
                                ShreddedReadHandover.encode(
                                        table.rowType(), mapPushdown.selectedKeys(), null, false)));
            }
            options.put(
                    SplitReadMode.PRUNING,
                    handover(
                            ShreddedReadHandover.encode(
                                    table.rowType(),
                                    mapPushdown.selectedKeys(),
                                    mapPushdown.predicate(),
                                    true)));
        }
        readers = new SplitReaders(table, options, predicates, readProjection, limit);
        return readers;
    }

    /** Cached until {@link #filter}: driver metrics report the batch that planned. */
    @Override
    public synchronized Batch toBatch() {
        if (batch != null) {
            return batch;
        }
        SplitReaders readers = readers();
        StrataReaderFactory.ExactTextMatch exact =
                textOrdinal < 0
                        ? null
                        : new StrataReaderFactory.ExactTextMatch(
                                table.rowType().project(readProjection),
                                textOrdinal,
                                textMatch.matchers());
        batch =
                new StrataBatch(
                        tableName,
                        table,
                        split -> SplitReadMode.of(table, split, mapPushdown),
                        readers,
                        readType,
                        keyColumns,
                        textMatch == null
                                        && ColumnarReads.eligible(
                                                table, readType, mapPushdown, limit)
                                ? new StrataReaderFactory.ColumnarPlan(
                                        table.fileIO(),
                                        table.schema().id(),
                                        mapPushdown,
                                        PageChecksums.verifyEnabled(table.options()))
                                : null,
                        textMatch,
                        textMatches,
                        exact,
                        this::splits,
                        bucketKeyed());
        return batch;
    }

    private static Map<String, String> handover(Map<String, String> options) {
        Map<String, String> out = new LinkedHashMap<>(options);
        out.put("file-reader-async-threshold", NO_ASYNC_FILE_READS);
        return out;
    }

    @Override
    public CustomMetric[] supportedCustomMetrics() {
        return textMatch == null
                ? ShreddedScanMetrics.supported()
                : concat(ShreddedScanMetrics.supported(), TextMatchMetrics.supported());
    }

    private static <T> T[] concat(T[] a, T[] b) {
        T[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Override
    public CustomTaskMetric[] reportDriverMetrics() {
        if (batch == null) {
            return new CustomTaskMetric[0];
        }
        CustomTaskMetric[] values =
                ShreddedScanMetrics.driverValues(batch.splitsPlanned(), batch.splitsPruning());
        TextMatchSplits matched = batch.textMatchSplits();
        return matched == null
                ? values
                : concat(
                        values,
                        TextMatchMetrics.driverValues(
                                matched.rowsMatched,
                                matched.filesSkipped,
                                matched.filesReadWhole,
                                matched.rowsIndexedAtQueryTime));
    }
}
