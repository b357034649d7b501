package dev.strata.spark.read;

import dev.strata.index.DataFileRows;
import dev.strata.index.search.ParallelBuckets;
import dev.strata.spark.catalog.TableDiagnosis;
import dev.strata.spark.data.PaimonToSpark;
import dev.strata.spark.data.SparkToPaimon;
import dev.strata.spark.functions.PaimonBuckets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.BucketSpec;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.TableRead;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The rows of a plain scan whose leading sort-key column holds one of a few values, read on the
 * driver: files are sorted by that column, so its pages narrow each file to the few positions that
 * hold the values, and only those rows of the other columns are read. A Spark job reading the
 * narrowed scan would decode every page whose statistics admit a value, of every column. Splits
 * whose files need merging are read as that job's task would read them, by Paimon's merging read
 * (whose merge engine decides what a key holds), saving only the job.
 */
final class KeyLookup {

    /**
     * Files read at most (3-5 ms each, two at a time): beyond that, a Spark job over executors
     * reads the narrowed scan faster.
     */
    private static final int MAX_FILES = 32;

    /**
     * Bytes of files at most when splits need merging: those are read as a Spark task would read
     * them (the pages the key's statistics admit, of every column), so only a small read saves the
     * job.
     */
    private static final long MAX_MERGED_BYTES = 64L << 20;

    private KeyLookup() {}

    /**
     * The live rows of {@code splits} (planned with {@code column IN values} among their
     * predicates) whose {@code column} is in {@code values}, with {@code columns}; empty when
     * {@code column} does not lead the files' sort order, a column is not a table column
     * (metadata), there are more than {@link #MAX_FILES} files, or more than {@code maxRows} rows
     * match. Files are read by position when every split is raw-convertible and every file is
     * Parquet readable by position; otherwise through {@code reads} (Paimon's read, merging, as a
     * task would), unless the files exceed {@link #MAX_MERGED_BYTES} or {@code column} is not among
     * {@code columns}.
     */
    static Optional<InternalRow[]> rows(
            String tableName,
            FileStoreTable table,
            List<Split> splits,
            String column,
            List<Object> values,
            List<String> columns,
            Supplier<TableRead> reads,
            int maxRows) {
        List<String> sortKey = table.schema().trimmedPrimaryKeys();
        int index = table.rowType().getFieldIndex(column);
        if (sortKey.isEmpty()
                || !sortKey.get(0).equals(column)
                || index < 0
                || !table.rowType().getFieldNames().containsAll(columns)) {
            return Optional.empty();
        }
        DataField keyField = table.rowType().getFields().get(index);
        DataTypeRoot root = keyField.type().getTypeRoot();
        // byte[] has no value equality: binary keys are left to the scan
        if (values.isEmpty() || root == DataTypeRoot.BINARY || root == DataTypeRoot.VARBINARY) {
            return Optional.empty();
        }
        RowType keyType = new RowType(List.of(keyField));
        List<Object> keys = new ArrayList<>();
        for (Object v : values) {
            keys.add(SparkToPaimon.value(v, keyField.type()));
        }
        List<DataField> fields = new ArrayList<>();
        for (String c : columns) {
            fields.add(table.rowType().getField(c));
        }
        RowType readType = new RowType(fields);
        int files = 0;
        long bytes = 0;
        boolean merging = false;
        for (Split split : splits) {
            if (!(split instanceof DataSplit)) {
                return Optional.empty();
            }
            merging |= !((DataSplit) split).rawConvertible();
            for (DataFileMeta file : ((DataSplit) split).dataFiles()) {
                bytes += file.fileSize();
                if (++files > MAX_FILES) {
                    return Optional.empty();
                }
            }
        }
        // Files that need merging, or that are not Parquet readable by position (ORC, say), are
        // read as a task reads them, when small.
        boolean byPosition = !merging && positional(table, splits, keyType, readType);
        if (!byPosition && (bytes > MAX_MERGED_BYTES || !columns.contains(column))) {
            return Optional.empty();
        }
        PaimonToSpark converter = PaimonToSpark.forRowType(readType);
        Buckets buckets = Buckets.of(table, column, keyType);
        List<DataSplit> dataSplits = new ArrayList<>();
        splits.forEach(s -> dataSplits.add((DataSplit) s));
        boolean merged = !byPosition;
        try {
            List<List<InternalRow>> found =
                    ParallelBuckets.map(
                            dataSplits,
                            split -> {
                                Set<Object> inBucket = buckets.keysOf(split, keys);
                                if (inBucket.isEmpty()) {
                                    return List.of();
                                }
                                return merged
                                        ? merged(
                                                reads.get(),
                                                split,
                                                readType,
                                                columns.indexOf(column),
                                                inBucket,
                                                converter,
                                                maxRows)
                                        : read(
                                                table, split, keyType, inBucket, readType,
                                                converter, maxRows);
                            });
            List<InternalRow> rows = new ArrayList<>();
            for (List<InternalRow> r : found) {
                if (r == null) {
                    return Optional.empty();
                }
                rows.addAll(r);
            }
            return rows.size() > maxRows
                    ? Optional.empty()
                    : Optional.of(rows.toArray(new InternalRow[0]));
        } catch (IOException | RuntimeException e) {
            throw TableDiagnosis.explain(
                    tableName,
                    table,
                    "look up rows by " + column + " in",
                    e instanceof IOException
                            ? new UncheckedIOException((IOException) e)
                            : (RuntimeException) e);
        }
    }

    /** Whether every file of the raw-convertible {@code splits} can be read by position. */
    private static boolean positional(
            FileStoreTable table, List<Split> splits, RowType keyType, RowType readType) {
        for (Split split : splits) {
            for (DataFileMeta file : ((DataSplit) split).dataFiles()) {
                if (!DataFileRows.selectable(table, file, keyType)
                        || !DataFileRows.selectable(table, file, readType)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The split's live rows whose key (at {@code keyAt} of {@code readType}) is in {@code keys},
     * merged by Paimon's own read of the scan (the reader a Spark task would open), or null when
     * more than {@code maxRows}.
     */
    private static List<InternalRow> merged(
            TableRead read,
            DataSplit split,
            RowType readType,
            int keyAt,
            Set<Object> keys,
            PaimonToSpark converter,
            int maxRows)
            throws IOException {
        org.apache.paimon.data.InternalRow.FieldGetter key =
                org.apache.paimon.data.InternalRow.createFieldGetter(
                        readType.getTypeAt(keyAt), keyAt);
        List<InternalRow> rows = new ArrayList<>();
        boolean[] tooMany = {false};
        SplitRows.read(
                read,
                split,
                row -> {
                    if (keys.contains(key.getFieldOrNull(row))) {
                        if (rows.size() == maxRows) {
                            tooMany[0] = true;
                            return false;
                        }
                        rows.add(converter.convert(row));
                    }
                    return true;
                });
        return tooMany[0] ? null : rows;
    }

    /**
     * Which keys a split's bucket can hold: those Paimon's writer puts in it when the table is
     * bucketed by the looked-up column alone, else all.
     */
    private static final class Buckets {
        private final PaimonBuckets buckets;

        private Buckets(PaimonBuckets buckets) {
            this.buckets = buckets;
        }

        static Buckets of(FileStoreTable table, String column, RowType keyType) {
            BucketSpec spec = table.bucketSpec();
            boolean byColumn =
                    spec.getBucketMode() == BucketMode.HASH_FIXED
                            && spec.getBucketKeys().equals(List.of(column));
            return new Buckets(
                    byColumn
                            ? new PaimonBuckets(table.coreOptions().bucketFunctionType(), keyType)
                            : null);
        }

        Set<Object> keysOf(DataSplit split, List<Object> keys) {
            Integer total = split.totalBuckets();
            Set<Object> kept = new HashSet<>();
            for (Object key : keys) {
                if (buckets == null
                        || total == null
                        || buckets.bucket(GenericRow.of(key), total) == split.bucket()) {
                    kept.add(key);
                }
            }
            return kept;
        }
    }

    /** The split's rows whose key is in {@code keys}, or null when more than {@code maxRows}. */
    private static List<InternalRow> read(
            FileStoreTable table,
            DataSplit split,
            RowType keyType,
            Set<Object> keys,
            RowType readType,
            PaimonToSpark converter,
            int maxRows)
            throws IOException {
        // Columns that are the key or a partition column come from the match and the split.
        List<String> partitionKeys = table.partitionKeys();
        String key = keyType.getFieldNames().get(0);
        boolean fromMatch =
                readType.getFieldNames().stream()
                        .allMatch(c -> c.equals(key) || partitionKeys.contains(c));
        List<DataFileMeta> files = split.dataFiles();
        List<DeletionFile> deletions = split.deletionFiles().orElse(null);
        List<InternalRow> rows = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            DataFileMeta file = files.get(i);
            Map<Long, Object> matches =
                    DataFileRows.matches(
                            table,
                            split.partition(),
                            split.bucket(),
                            file,
                            keyType,
                            keys,
                            maxRows - rows.size());
            if (matches == null) {
                return null;
            }
            if (matches.isEmpty()) {
                continue;
            }
            DeletionFile deletion = deletions == null ? null : deletions.get(i);
            DeletionVector dv =
                    deletion == null ? null : DeletionVector.read(table.fileIO(), deletion);
            if (fromMatch) {
                for (Map.Entry<Long, Object> m : matches.entrySet()) {
                    if (dv == null || !dv.isDeleted(m.getKey())) {
                        rows.add(
                                converter.convert(
                                        matchedRow(table, readType, key, m.getValue(), split)));
                    }
                }
                continue;
            }
            long[] positions = matches.keySet().stream().mapToLong(Long::longValue).toArray();
            Map<Long, org.apache.paimon.data.InternalRow> read =
                    DataFileRows.read(
                            table,
                            split.partition(),
                            split.bucket(),
                            file,
                            readType,
                            positions,
                            dv);
            for (long p : positions) {
                org.apache.paimon.data.InternalRow row = read.get(p);
                if (row != null) {
                    rows.add(converter.convert(row));
                }
            }
        }
        return rows;
    }

    /** A row of {@code readType} (key and partition columns) from a match in {@code split}. */
    private static org.apache.paimon.data.InternalRow matchedRow(
            FileStoreTable table, RowType readType, String key, Object value, DataSplit split) {
        RowType partitionType = table.schema().logicalPartitionType();
        GenericRow row = new GenericRow(readType.getFieldCount());
        for (int f = 0; f < readType.getFieldCount(); f++) {
            String name = readType.getFieldNames().get(f);
            if (name.equals(key)) {
                row.setField(f, value);
            } else {
                int p = table.partitionKeys().indexOf(name);
                row.setField(
                        f,
                        org.apache.paimon.data.InternalRow.createFieldGetter(
                                        partitionType.getTypeAt(p), p)
                                .getFieldOrNull(split.partition()));
            }
        }
        return row;
    }
}
