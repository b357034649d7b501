package dev.strata.spark.read;

import dev.strata.spark.data.SparkTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Pushes columns, predicates and a limit into Paimon. Predicates are also returned to Spark,
 * because Paimon uses them to prune, not to filter row by row, except those Paimon's partition
 * pruning answers exactly ({@link SparkPredicates#exactOnPartitions}), as Paimon's own connector
 * does: a count over some partitions is then answered from metadata.
 */
public final class StrataScanBuilder
        implements ScanBuilder,
                SupportsPushDownV2Filters,
                SupportsPushDownRequiredColumns,
                SupportsPushDownLimit,
                SupportsPushDownAggregates {

    private final String tableName;
    private final FileStoreTable table;
    private StructType requiredSchema;
    private final List<org.apache.spark.sql.connector.expressions.filter.Predicate> pushed =
            new ArrayList<>();
    private final List<Predicate> paimonPredicates = new ArrayList<>();
    private Integer limit;

    /** Whether a pushed predicate only prunes, so Spark filters the rows again. */
    private boolean prunedOnly;

    private final MapPushdown mapPushdown;
    private TextMatchPushdown textMatch;

    /** Decided once: an exact text match's count; empty when unknown. */
    private Optional<Long> textMatchCount;

    /** Decided once: the partitions with live rows and their counts; empty when unknown. */
    private Optional<List<PushedAggregate.Partition>> partitions;

    private PushedAggregate pushedAggregate;

    public StrataScanBuilder(String tableName, FileStoreTable table, StructType schema) {
        this(tableName, table, schema, MapPushdown.none());
    }

    /** Scans also apply the optimizer's map pushdown. */
    public StrataScanBuilder(
            String tableName, FileStoreTable table, StructType schema, MapPushdown mapPushdown) {
        this.tableName = tableName;
        this.table = table;
        this.requiredSchema = schema;
        this.mapPushdown = mapPushdown;
    }

    /** Reads only rows that can match {@code textMatch}. */
    public StrataScanBuilder withTextMatch(TextMatchPushdown textMatch) {
        this.textMatch = textMatch;
        return this;
    }

    @Override
    public org.apache.spark.sql.connector.expressions.filter.Predicate[] pushPredicates(
            org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
        SparkPredicates converter = new SparkPredicates(table.rowType());
        List<org.apache.spark.sql.connector.expressions.filter.Predicate> postScan =
                new ArrayList<>();
        for (org.apache.spark.sql.connector.expressions.filter.Predicate predicate : predicates) {
            Optional<Predicate> converted = converter.convert(predicate);
            if (converted.isPresent()) {
                pushed.add(predicate);
                paimonPredicates.add(converted.get());
                if (converter.exactOnPartitions(predicate, table.partitionKeys())) {
                    continue;
                }
                prunedOnly = true;
            }
            postScan.add(predicate);
        }
        return postScan.toArray(new org.apache.spark.sql.connector.expressions.filter.Predicate[0]);
    }

    @Override
    public org.apache.spark.sql.connector.expressions.filter.Predicate[] pushedPredicates() {
        return pushed.toArray(new org.apache.spark.sql.connector.expressions.filter.Predicate[0]);
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        this.requiredSchema = requiredSchema;
    }

    @Override
    public boolean pushLimit(int limit) {
        if (textMatch != null) {
            // Paimon's limit counts the rows of planned files, not the rows that match.
            return false;
        }
        this.limit = limit;
        return true;
    }

    /**
     * Only aggregates the driver knows without reading. An exact text match's {@code count(*)},
     * which the indexes answer for every row; or, over a scan filtered at most by partition whose
     * every split has a known merged row count, {@code count(*)} and {@code min} / {@code max} of
     * partition columns, grouped by nothing or by partition columns ({@link PushedAggregate}).
     * Anything else is aggregated by Spark.
     */
    @Override
    public boolean supportCompletePushDown(Aggregation aggregation) {
        return aggregate(aggregation) != null;
    }

    @Override
    public boolean pushAggregation(Aggregation aggregation) {
        pushedAggregate = aggregate(aggregation);
        return pushedAggregate != null;
    }

    /** {@code aggregation} answered, or null when the driver cannot answer it without reading. */
    private PushedAggregate aggregate(Aggregation aggregation) {
        if ((textMatch != null && !textMatch.exact())
                || prunedOnly
                || !mapPushdown.isEmpty()
                || (aggregation.aggregateExpressions().length == 0
                        && aggregation.groupByExpressions().length == 0)) {
            return null;
        }
        RowType partitionType = table.schema().logicalPartitionType();
        int[] columns = PushedAggregate.columns(aggregation, table.partitionKeys(), partitionType);
        if (columns == null) {
            return null;
        }
        StrataScan scan = scan(new int[0], KeyColumns.none(table.rowType().project(new int[0])));
        if (textMatch != null) {
            if (Arrays.stream(columns).anyMatch(c -> c >= 0)) {
                return null; // the archives count matches, not partitions
            }
            if (textMatchCount == null) {
                textMatchCount =
                        Optional.ofNullable(((StrataBatch) scan.toBatch()).exactTextMatchCount());
            }
            return textMatchCount
                    .map(n -> PushedAggregate.count(tableName, textMatch, aggregation, n))
                    .orElse(null);
        }
        if (partitions == null) {
            partitions = Optional.ofNullable(scan.knownPartitions());
        }
        return partitions
                .map(
                        live ->
                                PushedAggregate.of(
                                        tableName,
                                        aggregation,
                                        columns,
                                        SparkTypes.toSpark(partitionType),
                                        live))
                .orElse(null);
    }

    @Override
    public Scan build() {
        if (pushedAggregate != null) {
            return pushedAggregate;
        }
        RowType rowType = table.rowType();
        // Table columns first (returned as read), then key columns and the maps they need.
        List<Integer> read = new ArrayList<>();
        List<String[]> keyColumns = new ArrayList<>();
        List<String> keyNames = new ArrayList<>();
        for (StructField field : requiredSchema.fields()) {
            int index = rowType.getFieldIndex(field.name());
            if (index >= 0) {
                read.add(index);
                continue;
            }
            String[] keyColumn = mapPushdown.keyColumn(field.name());
            if (keyColumn == null) {
                throw new IllegalStateException(
                        "Cannot scan "
                                + tableName
                                + ": Spark asked for column "
                                + field.name()
                                + " which the table does not have; columns are "
                                + rowType.getFieldNames());
            }
            keyColumns.add(keyColumn);
            keyNames.add(field.name());
        }
        int returned = read.size();
        int[] mapOrdinals = new int[keyColumns.size()];
        for (int c = 0; c < mapOrdinals.length; c++) {
            int map = rowType.getFieldIndex(keyColumns.get(c)[0]);
            if (!read.contains(map)) {
                read.add(map);
            }
            mapOrdinals[c] = read.indexOf(map);
        }
        int[] projection = read.stream().mapToInt(Integer::intValue).toArray();
        if (!keyColumns.isEmpty() && textMatch != null) {
            throw new IllegalStateException(
                    "Cannot scan "
                            + tableName
                            + ": map key columns "
                            + keyNames
                            + " were asked for together with a text match. This is a bug in the"
                            + " Strata map pushdown rule.");
        }
        return scan(
                projection,
                new KeyColumns(
                        rowType.project(projection),
                        returned,
                        mapOrdinals,
                        keyColumns.stream().map(k -> k[1]).toArray(String[]::new),
                        keyNames.toArray(new String[0])));
    }

    private StrataScan scan(int[] projection, KeyColumns keyColumns) {
        List<String> names = new ArrayList<>();
        for (int i : projection) {
            names.add(table.rowType().getFieldNames().get(i));
        }
        return new StrataScan(
                tableName,
                table,
                projection,
                paimonPredicates,
                pushed,
                limit,
                mapPushdown.restrictedTo(names),
                textMatch,
                keyColumns,
                "");
    }
}
