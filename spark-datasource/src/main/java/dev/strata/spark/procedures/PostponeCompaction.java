package dev.strata.spark.procedures;

import dev.strata.index.PkFullTextIndex;
import dev.strata.index.source.ParkedFiles;
import dev.strata.spark.write.PaimonTaskWriter;
import dev.strata.spark.write.PendingMessages;
import dev.strata.spark.write.StrataCommitMessage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.KeyValue;
import org.apache.paimon.KeyValueFileStore;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.RowKeyExtractor;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.utils.SerializationUtils;
import org.apache.spark.Partitioner;
import scala.Tuple2;

/**
 * Compaction of a postpone-bucket table ({@code bucket = -2}): rows parked in bucket -2 move into
 * real buckets.
 *
 * <p>A partition keeps the bucket count its real-bucket files have, else gets {@code
 * postpone.default-bucket-num}. Postpone files are ordered by write order (creation time, sequence
 * number, name) since a later write of a key must win. One task per file routes rows to their
 * bucket; the shuffle sorts each bucket's rows by (file order, row position) into one task, which
 * writes them after the bucket's existing files and fully compacts the bucket (so the merge engine
 * sees write order and data ends above level 0), building its full-text archives. Each task folds
 * its messages into one compact increment, so the driver's commit is a single COMPACT snapshot.
 */
final class PostponeCompaction {

    static final int POSTPONE_BUCKET = -2;

    private PostponeCompaction() {}

    static final class Plan {
        final List<Target> targets = new ArrayList<>();
        final List<SourceFile> sources = new ArrayList<>();
        final List<CommitMessage> removals = new ArrayList<>();
        final Map<BinaryRow, Integer> bucketCounts = new LinkedHashMap<>();
    }

    /** A (partition, bucket) to write, with the partition's bucket count. */
    static final class Target implements Serializable {
        private static final long serialVersionUID = 1L;
        final BinaryRow partition;
        final int bucket;
        final int numBuckets;

        Target(BinaryRow partition, int bucket, int numBuckets) {
            this.partition = partition;
            this.bucket = bucket;
            this.numBuckets = numBuckets;
        }
    }

    /** A postpone file, its rank in write order, and the index of its partition's first target. */
    static final class SourceFile implements Serializable {
        private static final long serialVersionUID = 1L;
        final DataSplit split;
        final String fileName;
        final int order;
        final int firstTarget;
        final int numBuckets;

        SourceFile(DataSplit split, String fileName, int order, int firstTarget, int numBuckets) {
            this.split = split;
            this.fileName = fileName;
            this.order = order;
            this.firstTarget = firstTarget;
            this.numBuckets = numBuckets;
        }
    }

    /** {@code knownBuckets}: the bucket count of each partition that has real-bucket files. */
    static Plan plan(
            FileStoreTable table,
            List<DataSplit> postponeSplits,
            Map<BinaryRow, Integer> knownBuckets,
            List<BinaryRow> selected) {
        int defaultBuckets = table.coreOptions().postponeDefaultBucketNum();
        Plan plan = new Plan();
        Map<BinaryRow, List<Object[]>> filesByPartition = new LinkedHashMap<>();
        for (DataSplit split : postponeSplits) {
            if (!selected.contains(split.partition())) {
                continue;
            }
            List<Object[]> files =
                    filesByPartition.computeIfAbsent(
                            split.partition().copy(), p -> new ArrayList<>());
            for (DataFileMeta file : split.dataFiles()) {
                files.add(new Object[] {split, file});
            }
            plan.removals.add(
                    new CommitMessageImpl(
                            split.partition().copy(),
                            POSTPONE_BUCKET,
                            split.totalBuckets(),
                            DataIncrement.emptyIncrement(),
                            new CompactIncrement(
                                    new ArrayList<>(split.dataFiles()),
                                    new ArrayList<>(),
                                    new ArrayList<>())));
        }
        Comparator<Object[]> writeOrder =
                Comparator.comparing((Object[] f) -> (DataFileMeta) f[1], ParkedFiles.WRITE_ORDER);
        int order = 0;
        for (Map.Entry<BinaryRow, List<Object[]>> e : filesByPartition.entrySet()) {
            BinaryRow partition = e.getKey();
            int numBuckets = knownBuckets.getOrDefault(partition, defaultBuckets);
            if (numBuckets <= 0) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot compact postpone-bucket table %s: option '%s' is %d. Set it to a positive bucket count.",
                                table.name(),
                                CoreOptions.POSTPONE_DEFAULT_BUCKET_NUM.key(),
                                numBuckets));
            }
            plan.bucketCounts.put(partition, numBuckets);
            int firstTarget = plan.targets.size();
            for (int b = 0; b < numBuckets; b++) {
                plan.targets.add(new Target(partition, b, numBuckets));
            }
            List<Object[]> files = e.getValue();
            files.sort(writeOrder);
            for (Object[] f : files) {
                plan.sources.add(
                        new SourceFile(
                                (DataSplit) f[0],
                                ((DataFileMeta) f[1]).fileName(),
                                order++,
                                firstTarget,
                                numBuckets));
            }
        }
        return plan;
    }

    static FileStoreTable fixedBucketTable(FileStoreTable table, int numBuckets) {
        Map<String, String> options = new HashMap<>();
        options.put(CoreOptions.BUCKET.key(), Integer.toString(numBuckets));
        options.put(CoreOptions.WRITE_ONLY.key(), "false");
        if (PkFullTextIndex.isEnabled(table)) {
            // Every top-level file must be rewritten to become an archive source.
            options.put("compaction.force-rewrite-all-files", "true");
        }
        return table.copy(options);
    }

    /**
     * The uncommitted messages of the written buckets; if a bucket fails, deletes what the others
     * wrote and throws.
     */
    static List<CommitMessage> execute(
            ProcedureRun run, FileStoreTable table, Plan plan, String detail) {
        if (plan.sources.isEmpty()) {
            return List.of();
        }
        List<Target> targets = plan.targets;
        PendingMessages pending = run.pending();
        List<TaskAttempts.Outcome> results =
                run.collect(
                        detail,
                        () ->
                                ProcedureRun.spark()
                                        .parallelize(plan.sources, plan.sources.size())
                                        .flatMapToPair(new ReadPostponeFile(table))
                                        .repartitionAndSortWithinPartitions(
                                                new TargetPartitioner(targets.size()),
                                                new PositionOrder())
                                        .mapPartitionsWithIndex(
                                                new WriteTarget(table, targets, pending), true)
                                        .collect());
        return run.messagesOrAbort(results, null);
    }

    /** Target index, and file rank and row position for ordering. */
    static final class RowPosition implements Serializable {
        private static final long serialVersionUID = 1L;
        final int target;
        final int file;
        final long row;

        RowPosition(int target, int file, long row) {
            this.target = target;
            this.file = file;
            this.row = row;
        }
    }

    static final class PositionOrder implements Comparator<RowPosition>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public int compare(RowPosition a, RowPosition b) {
            int c = Integer.compare(a.file, b.file);
            return c != 0 ? c : Long.compare(a.row, b.row);
        }
    }

    static final class TargetPartitioner extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int targets;

        TargetPartitioner(int targets) {
            this.targets = targets;
        }

        @Override
        public int numPartitions() {
            return targets;
        }

        @Override
        public int getPartition(Object key) {
            return ((RowPosition) key).target;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TargetPartitioner && ((TargetPartitioner) o).targets == targets;
        }

        @Override
        public int hashCode() {
            return targets;
        }
    }

    /**
     * One postpone file's key-values in file order, routed to their bucket. A record is the row
     * kind byte followed by the value row in Paimon's binary row serialization.
     */
    static final class ReadPostponeFile
            implements org.apache.spark.api.java.function.PairFlatMapFunction<
                    SourceFile, RowPosition, byte[]> {
        private static final long serialVersionUID = 1L;
        private final FileStoreTable table;

        ReadPostponeFile(FileStoreTable table) {
            this.table = table;
        }

        @Override
        public Iterator<Tuple2<RowPosition, byte[]>> call(SourceFile source) throws Exception {
            DataFileMeta file =
                    source.split.dataFiles().stream()
                            .filter(f -> f.fileName().equals(source.fileName))
                            .findFirst()
                            .orElseThrow(
                                    () ->
                                            new IllegalStateException(
                                                    "Postpone file "
                                                            + source.fileName
                                                            + " left its split."));
            RecordReader<KeyValue> reader =
                    ((KeyValueFileStore) table.store())
                            .newReaderFactoryBuilder()
                            .build(
                                    source.split.partition(),
                                    POSTPONE_BUCKET,
                                    DeletionVector.emptyFactory())
                            .createRecordReader(file);
            RowKeyExtractor extractor =
                    fixedBucketTable(table, source.numBuckets).createRowKeyExtractor();
            InternalRowSerializer serializer = new InternalRowSerializer(table.rowType());
            RecordReaderIterator<KeyValue> records = new RecordReaderIterator<>(reader);
            return new Iterator<>() {
                private long position;
                private boolean closed;

                @Override
                public boolean hasNext() {
                    if (closed) {
                        return false;
                    }
                    if (records.hasNext()) {
                        return true;
                    }
                    close();
                    return false;
                }

                @Override
                public Tuple2<RowPosition, byte[]> next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    KeyValue kv = records.next();
                    extractor.setRecord(kv.value());
                    int bucket = extractor.bucket();
                    byte[] row =
                            SerializationUtils.serializeBinaryRow(
                                    serializer.toBinaryRow(kv.value()));
                    byte[] record = new byte[row.length + 1];
                    record[0] = kv.valueKind().toByteValue();
                    System.arraycopy(row, 0, record, 1, row.length);
                    return new Tuple2<>(
                            new RowPosition(source.firstTarget + bucket, source.order, position++),
                            record);
                }

                private void close() {
                    closed = true;
                    try {
                        records.close();
                    } catch (Exception e) {
                        throw new IllegalStateException(
                                "Cannot close postpone file " + source.fileName, e);
                    }
                }
            };
        }
    }

    /** Writes one bucket's rows, fully compacts it, and returns one compact-only message. */
    static final class WriteTarget
            implements org.apache.spark.api.java.function.Function2<
                    Integer,
                    Iterator<Tuple2<RowPosition, byte[]>>,
                    Iterator<TaskAttempts.Outcome>> {
        private static final long serialVersionUID = 1L;
        private final FileStoreTable table;
        private final List<Target> targets;
        private final PendingMessages pending;

        WriteTarget(FileStoreTable table, List<Target> targets, PendingMessages pending) {
            this.table = table;
            this.targets = targets;
            this.pending = pending;
        }

        @Override
        public Iterator<TaskAttempts.Outcome> call(
                Integer index, Iterator<Tuple2<RowPosition, byte[]>> rows) throws Exception {
            if (!rows.hasNext()) {
                return List.<TaskAttempts.Outcome>of().iterator();
            }
            try {
                return List.of(
                                TaskAttempts.recorded(
                                        new TaskAttempts.Outcome(
                                                write(targets.get(index), rows), null),
                                        pending))
                        .iterator();
            } catch (Exception | LinkageError e) {
                if (!TaskAttempts.isLastAttempt()) {
                    throw e;
                }
                return List.of(TaskAttempts.failed(e)).iterator();
            }
        }

        private StrataCommitMessage write(Target target, Iterator<Tuple2<RowPosition, byte[]>> rows)
                throws Exception {
            FileStoreTable fixed = fixedBucketTable(table, target.numBuckets);
            List<CommitMessage> messages;
            try (PaimonTaskWriter writer =
                    PaimonTaskWriter.open(fixed, fixed.newBatchWriteBuilder())) {
                try {
                    while (rows.hasNext()) {
                        byte[] record = rows.next()._2;
                        byte[] bytes = new byte[record.length - 1];
                        System.arraycopy(record, 1, bytes, 0, bytes.length);
                        BinaryRow row = SerializationUtils.deserializeBinaryRow(bytes);
                        row.setRowKind(RowKind.fromByteValue(record[0]));
                        writer.write(row, target.bucket);
                    }
                    writer.compact(target.partition, target.bucket, true);
                    messages = writer.prepareCommit();
                } catch (Throwable t) {
                    try {
                        writer.abort();
                    } catch (Throwable suppressed) {
                        t.addSuppressed(suppressed);
                    }
                    throw t;
                }
            }
            List<CommitMessage> folded = new ArrayList<>(messages.size());
            for (CommitMessage m : messages) {
                folded.add(CompactOnlyMessage.fold(fixed, (CommitMessageImpl) m));
            }
            return StrataCommitMessage.of(folded);
        }
    }
}
