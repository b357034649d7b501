package dev.strata.spark.procedures;

import dev.strata.index.LevelReport;
import dev.strata.index.PkFullTextIndex;
import dev.strata.index.PkFullTextRebuild;
import dev.strata.spark.errors.StrataErrors;
import dev.strata.spark.write.StrataCommitMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.source.DataSplit;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code CALL <catalog>.sys.rebuild_pk_fulltext(table => 'db.t', where => '...', force => false)}:
 * one row per (partition, bucket, level) touched.
 *
 * <p>One task per selected bucket builds missing or stale archives (every level with {@code force})
 * and retires stale ones. If any bucket failed or the data changed since planning, every generated
 * archive is deleted; otherwise all index changes are committed in one snapshot.
 */
final class RebuildPkFullTextProcedure extends StrataProcedure {

    static final String NAME = "rebuild_pk_fulltext";

    private static final StructType OUTPUT =
            new StructType()
                    .add("partition", DataTypes.StringType, false)
                    .add("bucket", DataTypes.IntegerType, false)
                    .add("level", DataTypes.IntegerType, false)
                    .add("action", DataTypes.StringType, false)
                    .add("source_files", DataTypes.IntegerType, false)
                    .add("rows_indexed", DataTypes.LongType, false)
                    .add("archive_bytes", DataTypes.LongType, false);

    RebuildPkFullTextProcedure(TableResolver catalog) {
        super(
                catalog,
                NAME,
                "Builds missing or stale primary-key full-text archives (all with force) of the "
                        + "buckets matching where, in Spark tasks, and commits them in one snapshot.");
    }

    /** The archives' sources changed before their commit: nothing was committed. */
    private static final class DataChangedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        DataChangedException(String message) {
            super(message);
        }
    }

    @Override
    public ProcedureParameter[] parameters() {
        return new ProcedureParameter[] {
            ProcedureParameter.in("table", DataTypes.StringType).build(),
            ProcedureParameter.in("where", DataTypes.StringType).defaultValue("NULL").build(),
            ProcedureParameter.in("force", DataTypes.BooleanType).defaultValue("false").build()
        };
    }

    @Override
    Scan run(InternalRow args) {
        ProcedureTable target = ProcedureTable.resolve(catalog(), NAME, stringArg(args, 0));
        // Archives of files replaced meanwhile were discarded: build them again.
        return attempts(
                target,
                "rebuild full-text archives of",
                DataChangedException.class,
                () -> rebuild(target, args),
                (e, attempts) ->
                        new IllegalStateException(
                                e.getMessage()
                                        + String.format(
                                                "Other writers changed the data during each of %d attempts; run the "
                                                        + "procedure again when fewer writers change the table.",
                                                attempts),
                                e));
    }

    private Scan rebuild(ProcedureTable target, InternalRow args) {
        String where = stringArg(args, 1);
        target.checkWhere(where);
        boolean force = !args.isNullAt(2) && args.getBoolean(2);
        FileStoreTable table = target.table();
        if (!PkFullTextIndex.isEnabled(table)) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot rebuild full-text archives of %s: option '%s' is not set on the table. Set it with "
                                    + "ALTER TABLE %s SET TBLPROPERTIES ('%s' = '<text column>').",
                            target.name(),
                            PkFullTextIndex.COLUMNS_OPTION,
                            target.name(),
                            PkFullTextIndex.COLUMNS_OPTION));
        }
        PkFullTextIndex.validate(target.name(), table.schema());
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        if (snapshot == null) {
            return result(OUTPUT, List.of());
        }
        Map<BucketRef, Set<String>> planned = dataFiles(table, snapshot.id());
        List<BinaryRow> partitions =
                planned.keySet().stream().map(b -> b.partition).distinct().toList();
        List<BinaryRow> selected = target.select(partitions, where);
        List<BucketRef> tasks =
                planned.keySet().stream().filter(b -> selected.contains(b.partition)).toList();
        if (tasks.isEmpty()) {
            return result(OUTPUT, List.of());
        }

        ProcedureRun run =
                new ProcedureRun(
                        NAME,
                        "rebuild full-text archives of",
                        target.name(),
                        table,
                        "the rebuilt full-text archives of " + target.name());
        List<String> labels =
                tasks.stream()
                        .map(b -> target.describe(b.partition) + " bucket " + b.bucket)
                        .toList();
        List<TaskAttempts.Outcome> outcomes =
                run.runTasks(
                        ProcedureRun.count(tasks.size(), "bucket") + (force ? " (force)" : ""),
                        tasks,
                        new RebuildBucket(table, snapshot.id(), force),
                        labels);

        List<CommitMessage> messages = ProcedureRun.messages(outcomes);
        if (messages.stream().anyMatch(m -> !((CommitMessageImpl) m).isEmpty())) {
            Snapshot latest = table.snapshotManager().latestSnapshot();
            if (latest.id() != snapshot.id()) {
                Map<BucketRef, Set<String>> now = dataFiles(table, latest.id());
                List<String> changed = new ArrayList<>();
                for (BucketRef bucket : tasks) {
                    if (!Objects.equals(planned.get(bucket), now.get(bucket))) {
                        changed.add(target.describe(bucket.partition) + " bucket " + bucket.bucket);
                    }
                }
                if (!changed.isEmpty()) {
                    run.discard(messages);
                    throw new DataChangedException(
                            String.format(
                                    "Cannot commit rebuilt full-text archives of %s: the data of %s changed since snapshot %d "
                                            + "(now %d), so the new archives would not match their sources. Nothing was "
                                            + "committed. ",
                                    target.name(), changed, snapshot.id(), latest.id()));
                }
            }
            run.commit(messages);
        }

        List<LevelReport> reports = new ArrayList<>();
        for (TaskAttempts.Outcome outcome : outcomes) {
            @SuppressWarnings("unchecked")
            List<LevelReport> report = (List<LevelReport>) outcome.result;
            reports.addAll(report);
        }
        reports.sort(
                Comparator.comparing((LevelReport r) -> target.describe(r.partition()))
                        .thenComparingInt(LevelReport::bucket)
                        .thenComparingInt(LevelReport::level)
                        .thenComparing(LevelReport::action));
        List<InternalRow> rows = new ArrayList<>();
        for (LevelReport r : reports) {
            rows.add(
                    new GenericInternalRow(
                            new Object[] {
                                UTF8String.fromString(target.describe(r.partition())),
                                r.bucket(),
                                r.level(),
                                UTF8String.fromString(r.action()),
                                r.sourceFiles(),
                                r.rowsIndexed(),
                                r.archiveBytes()
                            }));
        }
        return result(OUTPUT, rows);
    }

    private static Map<BucketRef, Set<String>> dataFiles(FileStoreTable table, long snapshotId) {
        Map<BucketRef, Set<String>> files = new LinkedHashMap<>();
        for (DataSplit split :
                table.newSnapshotReader().withSnapshot(snapshotId).read().dataSplits()) {
            Set<String> names =
                    files.computeIfAbsent(
                            new BucketRef(split.partition().copy(), split.bucket()),
                            k -> new TreeSet<>());
            split.dataFiles().forEach(f -> names.add(f.fileName()));
        }
        return files;
    }

    /**
     * Without Paimon's async file reader, whose prefetch thread would use a second core: task
     * slots, not hidden threads, decide how many cores a rebuild uses.
     */
    static FileStoreTable withinTaskCores(FileStoreTable table) {
        TaskContext task = TaskContext.get();
        if (task != null && task.cpus() > 1) {
            return table;
        }
        return table.copy(Map.of(CoreOptions.FILE_READER_ASYNC_THRESHOLD.key(), "1024 tb"));
    }

    /** Rebuilds one bucket; a failed attempt deletes its archives. */
    private static final class RebuildBucket
            implements org.apache.spark.api.java.function.Function<
                    BucketRef, TaskAttempts.Outcome> {
        private static final long serialVersionUID = 1L;
        private final FileStoreTable table;
        private final long snapshotId;
        private final boolean force;

        RebuildBucket(FileStoreTable table, long snapshotId, boolean force) {
            this.table = table;
            this.snapshotId = snapshotId;
            this.force = force;
        }

        @Override
        public TaskAttempts.Outcome call(BucketRef bucket) throws Exception {
            PkFullTextRebuild.Result result = null;
            try {
                result =
                        PkFullTextRebuild.run(
                                withinTaskCores(table),
                                snapshotId,
                                bucket.partition,
                                bucket.bucket,
                                force,
                                null);
                return new TaskAttempts.Outcome(
                        StrataCommitMessage.of(result.messages()),
                        new ArrayList<>(result.report()),
                        null);
            } catch (Exception | LinkageError e) {
                if (result != null) {
                    try {
                        result.abort();
                    } catch (Exception suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
                throw e;
            }
        }
    }
}
