package dev.strata.spark.procedures;

import dev.strata.index.PkFullTextIndex;
import dev.strata.shredding.io.DamagedFileException;
import dev.strata.spark.errors.StrataErrors;
import dev.strata.spark.read.SplitFailures;
import dev.strata.spark.write.PaimonCommits;
import dev.strata.spark.write.PaimonTaskWriter;
import dev.strata.spark.write.StrataCommitMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.append.AppendCompactCoordinator;
import org.apache.paimon.append.AppendCompactTask;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.operation.BaseAppendFileStoreWrite;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.AppendCompactTaskSerializer;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.source.DataSplit;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code CALL <catalog>.sys.compact(table => 'db.t', where => 'dt = ''2026-11-01''', full =>
 * true)}: one row per visited (partition, bucket).
 *
 * <p>One Spark task per selected bucket, committed in one snapshot. {@code full} (default true, as
 * in Paimon's batch compact) rewrites each bucket into its top level. Bucket-unaware tables use
 * Paimon's append compaction planner; postpone-bucket tables go through {@link PostponeCompaction}.
 */
final class CompactProcedure extends StrataProcedure {

    static final String NAME = "compact";

    private static final StructType OUTPUT =
            new StructType()
                    .add("partition", DataTypes.StringType, false)
                    .add("bucket", DataTypes.IntegerType, false)
                    .add("files_before", DataTypes.IntegerType, false)
                    .add("files_after", DataTypes.IntegerType, false)
                    .add("rows", DataTypes.LongType, false);

    CompactProcedure(TableResolver catalog) {
        super(
                catalog,
                NAME,
                "Compacts the buckets of a table (optionally only the partitions matching where) "
                        + "in Spark tasks and commits the result in one snapshot.");
    }

    @Override
    public ProcedureParameter[] parameters() {
        return new ProcedureParameter[] {
            ProcedureParameter.in("table", DataTypes.StringType).build(),
            ProcedureParameter.in("where", DataTypes.StringType).defaultValue("NULL").build(),
            ProcedureParameter.in("full", DataTypes.BooleanType).defaultValue("true").build()
        };
    }

    @Override
    Scan run(InternalRow args) {
        ProcedureTable target = ProcedureTable.resolve(catalog(), NAME, stringArg(args, 0));
        // A compaction made obsolete by a concurrent change committed nothing: plan it again.
        return attempts(
                target,
                "compact",
                PaimonCommits.ConcurrentChangeException.class,
                () -> compact(target, args),
                (e, attempts) ->
                        new IllegalStateException(
                                String.format(
                                        "Cannot compact %s: other writers changed the same buckets during each of %d "
                                                + "attempts (last: %s). Nothing was committed; run it again when "
                                                + "fewer writers change the table.",
                                        target.name(), attempts, StrataErrors.rootMessage(e)),
                                e));
    }

    private Scan compact(ProcedureTable target, InternalRow args) {
        String where = stringArg(args, 1);
        target.checkWhere(where);
        boolean full = args.isNullAt(2) || args.getBoolean(2);
        FileStoreTable table = target.table();
        PkFullTextIndex.validate(target.name(), table.schema());
        if (table.coreOptions().bucket() == PostponeCompaction.POSTPONE_BUCKET) {
            return compactPostpone(target, where);
        }
        if (table.coreOptions().writeOnly()) {
            // The table's writers leave compaction to a dedicated job, which this is (as Paimon's
            // own compact action, it compacts regardless).
            table = table.copy(Map.of(CoreOptions.WRITE_ONLY.key(), "false"));
        }
        if (full && PkFullTextIndex.isEnabled(table)) {
            // A lone level-0 file moved up unrewritten keeps its APPEND source and is never
            // indexed: rewrite every file so all top-level files are archive sources.
            table =
                    table.copy(
                            Map.of(CoreOptions.COMPACTION_FORCE_REWRITE_ALL_FILES.key(), "true"));
        }

        Map<BucketRef, BucketFiles> before = bucketFiles(table);
        List<BinaryRow> partitions =
                before.keySet().stream().map(k -> k.partition).distinct().toList();
        List<BinaryRow> selected = target.select(partitions, where);
        ProcedureRun run =
                new ProcedureRun(
                        NAME,
                        "compact",
                        target.name(),
                        table,
                        "the compaction of " + target.name());

        List<TaskAttempts.Outcome> outcomes;
        if (table.coreOptions().bucket() > 0) {
            List<BucketRef> tasks = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            for (BucketRef key : before.keySet()) {
                if (selected.contains(key.partition)) {
                    tasks.add(new BucketRef(key.partition.copy(), key.bucket));
                    labels.add(target.describe(key.partition) + " bucket " + key.bucket);
                }
            }
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            outcomes =
                    run.runTasks(
                            ProcedureRun.count(tasks.size(), "bucket"),
                            tasks,
                            new CompactBucket(table, builder, full),
                            labels);
        } else {
            // Paimon's planner waits for compaction.min.file-num small files; a full compaction
            // merges any two.
            FileStoreTable planning =
                    full
                            ? table.copy(Map.of(CoreOptions.COMPACTION_MIN_FILE_NUM.key(), "2"))
                            : table;
            AppendCompactCoordinator coordinator = new AppendCompactCoordinator(planning, false);
            List<byte[]> tasks = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            AppendCompactTaskSerializer serializer = new AppendCompactTaskSerializer();
            // Paimon's coordinator throws EndOfScanException on a table without a snapshot.
            List<AppendCompactTask> planned =
                    table.snapshotManager().latestSnapshotId() == null
                            ? List.of()
                            : coordinator.run();
            for (AppendCompactTask task : planned) {
                if (selected.contains(task.partition())) {
                    tasks.add(serialize(serializer, task));
                    String partition = target.describe(task.partition());
                    labels.add(
                            (partition.isEmpty() ? "" : partition + ": ")
                                    + ProcedureRun.count(task.compactBefore().size(), "file"));
                }
            }
            outcomes =
                    run.runTasks(
                            ProcedureRun.count(tasks.size(), "append compaction task"),
                            tasks,
                            new CompactAppendFiles(table, serializer.getVersion()),
                            labels);
        }

        List<CommitMessage> messages = ProcedureRun.messages(outcomes);
        run.commit(messages);
        return result(OUTPUT, rows(target, before, selected, messages));
    }

    /** Reports the written buckets and, per partition, bucket -2 (files before, none after). */
    private Scan compactPostpone(ProcedureTable target, String where) {
        FileStoreTable table = target.table();
        Long snapshotId = table.snapshotManager().latestSnapshotId();
        if (snapshotId == null) {
            return result(OUTPUT, List.of());
        }
        List<DataSplit> realSplits =
                table.newSnapshotReader()
                        .withSnapshot(snapshotId)
                        .onlyReadRealBuckets()
                        .read()
                        .dataSplits();
        List<DataSplit> postponeSplits =
                table.newSnapshotReader()
                        .withSnapshot(snapshotId)
                        .withBucket(PostponeCompaction.POSTPONE_BUCKET)
                        .read()
                        .dataSplits();
        Map<BinaryRow, Integer> knownBuckets = new LinkedHashMap<>();
        Map<BucketRef, BucketFiles> realFiles = new LinkedHashMap<>();
        for (DataSplit split : realSplits) {
            BinaryRow partition = split.partition().copy();
            if (split.totalBuckets() != null && split.totalBuckets() > 0) {
                Integer previous = knownBuckets.put(partition, split.totalBuckets());
                if (previous != null && !previous.equals(split.totalBuckets())) {
                    throw new IllegalStateException(
                            String.format(
                                    "Cannot compact %s: partition %s has files written for %d and for %d buckets. "
                                            + "Rewrite the partition (INSERT OVERWRITE) so it has one bucket count.",
                                    target.name(),
                                    target.describe(partition),
                                    previous,
                                    split.totalBuckets()));
                }
            }
            BucketFiles files =
                    realFiles.computeIfAbsent(
                            new BucketRef(partition, split.bucket()), k -> new BucketFiles());
            split.dataFiles().forEach(files::add);
        }
        Map<BucketRef, BucketFiles> postponeFiles = new LinkedHashMap<>();
        for (DataSplit split : postponeSplits) {
            BucketFiles files =
                    postponeFiles.computeIfAbsent(
                            new BucketRef(split.partition().copy(), split.bucket()),
                            k -> new BucketFiles());
            split.dataFiles().forEach(files::add);
        }
        List<BinaryRow> partitions =
                postponeFiles.keySet().stream().map(k -> k.partition).distinct().toList();
        List<BinaryRow> selected = target.select(partitions, where);
        PostponeCompaction.Plan plan =
                PostponeCompaction.plan(table, postponeSplits, knownBuckets, selected);

        ProcedureRun run =
                new ProcedureRun(
                        NAME,
                        "compact",
                        target.name(),
                        table,
                        "the compaction of " + target.name());
        List<CommitMessage> written =
                PostponeCompaction.execute(
                        run,
                        table,
                        plan,
                        ProcedureRun.count(plan.sources.size(), "postpone file")
                                + " of "
                                + ProcedureRun.count(plan.bucketCounts.size(), "partition")
                                + " into "
                                + ProcedureRun.count(plan.targets.size(), "bucket"));
        List<CommitMessage> messages = new ArrayList<>(plan.removals);
        messages.addAll(written);
        run.commit(messages);

        Map<BucketRef, BucketFiles> before = new LinkedHashMap<>();
        for (CommitMessage message : messages) {
            BucketRef key = new BucketRef(message.partition(), message.bucket());
            Map<BucketRef, BucketFiles> source =
                    message.bucket() == PostponeCompaction.POSTPONE_BUCKET
                            ? postponeFiles
                            : realFiles;
            before.put(key, source.getOrDefault(key, new BucketFiles()));
        }
        return result(OUTPUT, rows(target, before, selected, messages));
    }

    private static List<InternalRow> rows(
            ProcedureTable target,
            Map<BucketRef, BucketFiles> before,
            List<BinaryRow> selected,
            List<CommitMessage> messages) {
        Map<BucketRef, BucketFiles> after = new LinkedHashMap<>();
        for (Map.Entry<BucketRef, BucketFiles> e : before.entrySet()) {
            if (selected.contains(e.getKey().partition)) {
                after.put(e.getKey(), e.getValue().copy());
            }
        }
        // Only buckets the compaction changed: the others had nothing to compact.
        Set<BucketRef> changed = new HashSet<>();
        for (CommitMessage message : messages) {
            CommitMessageImpl m = (CommitMessageImpl) message;
            BucketRef key = new BucketRef(m.partition(), m.bucket());
            if (!m.compactIncrement().isEmpty() || !m.newFilesIncrement().newFiles().isEmpty()) {
                changed.add(key);
            }
            BucketFiles files = after.computeIfAbsent(key, k -> new BucketFiles());
            m.compactIncrement().compactBefore().forEach(files::remove);
            m.compactIncrement().compactAfter().forEach(files::add);
            DataIncrement data = m.newFilesIncrement();
            data.newFiles().forEach(files::add);
        }
        List<InternalRow> rows = new ArrayList<>();
        after.entrySet().stream()
                .filter(e -> changed.contains(e.getKey()))
                .sorted(
                        Comparator.comparing(
                                        (Map.Entry<BucketRef, BucketFiles> e) ->
                                                target.describe(e.getKey().partition))
                                .thenComparingInt(e -> e.getKey().bucket))
                .forEach(
                        e ->
                                rows.add(
                                        new GenericInternalRow(
                                                new Object[] {
                                                    UTF8String.fromString(
                                                            target.describe(e.getKey().partition)),
                                                    e.getKey().bucket,
                                                    before.getOrDefault(
                                                                    e.getKey(), new BucketFiles())
                                                            .count(),
                                                    e.getValue().count(),
                                                    e.getValue().rows()
                                                })));
        return rows;
    }

    private static Map<BucketRef, BucketFiles> bucketFiles(FileStoreTable table) {
        Map<BucketRef, BucketFiles> files = new LinkedHashMap<>();
        for (DataSplit split : table.newSnapshotReader().read().dataSplits()) {
            BucketFiles bucket =
                    files.computeIfAbsent(
                            new BucketRef(split.partition().copy(), split.bucket()),
                            k -> new BucketFiles());
            split.dataFiles().forEach(bucket::add);
        }
        return files;
    }

    private static byte[] serialize(
            AppendCompactTaskSerializer serializer, AppendCompactTask task) {
        try {
            return serializer.serialize(task);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static final class BucketFiles {
        private final Map<String, Long> rowsByFile = new LinkedHashMap<>();

        void add(DataFileMeta file) {
            rowsByFile.put(file.fileName(), file.rowCount());
        }

        void remove(DataFileMeta file) {
            rowsByFile.remove(file.fileName());
        }

        int count() {
            return rowsByFile.size();
        }

        long rows() {
            return rowsByFile.values().stream().mapToLong(Long::longValue).sum();
        }

        BucketFiles copy() {
            BucketFiles copy = new BucketFiles();
            copy.rowsByFile.putAll(rowsByFile);
            return copy;
        }
    }

    /** Executor side of a fixed-bucket compaction. */
    static final class CompactBucket
            implements org.apache.spark.api.java.function.Function<
                    BucketRef, TaskAttempts.Outcome> {
        private static final long serialVersionUID = 1L;
        private final FileStoreTable table;
        private final BatchWriteBuilder builder;
        private final boolean full;

        CompactBucket(FileStoreTable table, BatchWriteBuilder builder, boolean full) {
            this.table = table;
            this.builder = builder;
            this.full = full;
        }

        @Override
        public TaskAttempts.Outcome call(BucketRef task) throws Exception {
            try (PaimonTaskWriter writer = PaimonTaskWriter.open(table, builder)) {
                writer.compact(task.partition, task.bucket, full);
                return new TaskAttempts.Outcome(
                        StrataCommitMessage.of(writer.prepareCommit()), null);
            } catch (Exception e) {
                // Paimon's merge reader does not name a damaged file: check the bucket's files.
                for (org.apache.paimon.table.source.DataSplit split :
                        table.newSnapshotReader()
                                .withPartitionFilter(java.util.List.of(task.partition))
                                .withBucket(task.bucket)
                                .read()
                                .dataSplits()) {
                    java.io.IOException explained =
                            SplitFailures.explain(table.name(), table.fileIO(), split, e);
                    if (explained instanceof DamagedFileException) {
                        throw explained;
                    }
                }
                throw e;
            }
        }
    }

    /** Executor side of an append-table compaction task. */
    private static final class CompactAppendFiles
            implements org.apache.spark.api.java.function.Function<byte[], TaskAttempts.Outcome> {
        private static final long serialVersionUID = 1L;
        private final FileStoreTable table;
        private final int version;

        CompactAppendFiles(FileStoreTable table, int version) {
            this.table = table;
            this.version = version;
        }

        @Override
        public TaskAttempts.Outcome call(byte[] bytes) throws Exception {
            AppendCompactTask task = new AppendCompactTaskSerializer().deserialize(version, bytes);
            BaseAppendFileStoreWrite write =
                    (BaseAppendFileStoreWrite) table.store().newWrite(UUID.randomUUID().toString());
            try {
                return new TaskAttempts.Outcome(
                        StrataCommitMessage.of(List.of(task.doCompact(table, write))), null);
            } finally {
                write.close();
            }
        }
    }
}
