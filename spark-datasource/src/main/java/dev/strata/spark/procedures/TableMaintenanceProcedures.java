package dev.strata.spark.procedures;

import dev.strata.spark.errors.StrataErrors;
import dev.strata.spark.write.PendingMessages;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.Snapshot;
import org.apache.paimon.operation.CleanOrphanFilesResult;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.utils.BranchManager;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshot, tag and branch maintenance, each through Paimon's own operation so files (full-text
 * archives included) are kept or deleted by the same rules as in any other Paimon engine.
 */
final class TableMaintenanceProcedures {

    private static final Logger LOG = LoggerFactory.getLogger(TableMaintenanceProcedures.class);

    private TableMaintenanceProcedures() {}

    /** Younger files may belong to a commit in flight. */
    static final Duration MIN_ORPHAN_AGE = Duration.ofHours(1);

    private static InternalRow row(Object... values) {
        Object[] out = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] =
                    values[i] instanceof String
                            ? UTF8String.fromString((String) values[i])
                            : values[i];
        }
        return new GenericInternalRow(out);
    }

    /** {@code yyyy-MM-dd HH:mm:ss[.SSS]} or ISO, in the session time zone, to epoch millis. */
    static long timestampArg(String procedure, String argument, String value) {
        String t = value.trim().replace(' ', 'T');
        try {
            return LocalDateTime.parse(t)
                    .atZone(ZoneId.of(SQLConf.get().sessionLocalTimeZone()))
                    .toInstant()
                    .toEpochMilli();
        } catch (DateTimeParseException e) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run sys.%s: %s => '%s' is not a timestamp. Pass it as 'yyyy-MM-dd HH:mm:ss' (session time zone).",
                            procedure, argument, value));
        }
    }

    private static int positiveInt(InternalRow args, int pos, String procedure, String name) {
        if (args.isNullAt(pos)) {
            return -1;
        }
        int v = args.getInt(pos);
        if (v < 1) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run sys.%s: %s must be at least 1, found %d.",
                            procedure, name, v));
        }
        return v;
    }

    /** {@code expire_snapshots(table, retain_max, retain_min, older_than, max_deletes)}. */
    static final class ExpireSnapshots extends StrataProcedure {
        static final String NAME = "expire_snapshots";
        private static final StructType OUTPUT =
                new StructType().add("deleted_snapshots_num", DataTypes.IntegerType, false);

        ExpireSnapshots(TableResolver catalog) {
            super(
                    catalog,
                    NAME,
                    "Expires snapshots beyond the retention (table options unless given) and deletes the "
                            + "files and full-text archives no remaining snapshot or tag uses.");
        }

        @Override
        public ProcedureParameter[] parameters() {
            return new ProcedureParameter[] {
                ProcedureParameter.in("table", DataTypes.StringType).build(),
                ProcedureParameter.in("retain_max", DataTypes.IntegerType)
                        .defaultValue("NULL")
                        .build(),
                ProcedureParameter.in("retain_min", DataTypes.IntegerType)
                        .defaultValue("NULL")
                        .build(),
                ProcedureParameter.in("older_than", DataTypes.StringType)
                        .defaultValue("NULL")
                        .build(),
                ProcedureParameter.in("max_deletes", DataTypes.IntegerType)
                        .defaultValue("NULL")
                        .build()
            };
        }

        @Override
        Scan run(InternalRow args) {
            ProcedureTable target = ProcedureTable.resolve(catalog(), NAME, stringArg(args, 0));
            FileStoreTable table = target.table();
            org.apache.paimon.CoreOptions options = table.coreOptions();
            int retainMax = positiveInt(args, 1, NAME, "retain_max");
            int retainMin = positiveInt(args, 2, NAME, "retain_min");
            int maxDeletes = positiveInt(args, 4, NAME, "max_deletes");
            int max = retainMax > 0 ? retainMax : options.snapshotNumRetainMax();
            // Paimon refuses max < min: without retain_min, lower the minimum to retain_max.
            int min = retainMin > 0 ? retainMin : Math.min(options.snapshotNumRetainMin(), max);
            if (min > max) {
                throw StrataErrors.analysis(
                        String.format(
                                "Cannot expire snapshots of %s: retain_min (%d) is larger than retain_max (%d).",
                                target.name(), min, max));
            }
            ExpireConfig.Builder config =
                    ExpireConfig.builder()
                            .snapshotRetainMax(max)
                            .snapshotRetainMin(min)
                            .snapshotMaxDeletes(
                                    maxDeletes > 0 ? maxDeletes : options.snapshotExpireLimit());
            String olderThan = stringArg(args, 3);
            if (olderThan != null) {
                long millis = timestampArg(NAME, "older_than", olderThan);
                config.snapshotTimeRetain(
                        Duration.ofMillis(Math.max(0, System.currentTimeMillis() - millis)));
            } else {
                config.snapshotTimeRetain(options.snapshotTimeRetain());
            }
            ExpireConfig expire = config.build();
            int deleted =
                    new ProcedureRun(NAME, "expire snapshots of", target.name(), table)
                            .perform(
                                    "retain " + min + " to " + max + " snapshots",
                                    () -> table.newExpireSnapshots().config(expire).expire(),
                                    "Snapshots expired before the failure stay expired; run it again.");
            return result(OUTPUT, List.of(row(deleted)));
        }
    }

    /** {@code create_tag(table, tag, snapshot)}; default: the latest snapshot. */
    static final class CreateTag extends StrataProcedure {
        static final String NAME = "create_tag";
        private static final StructType OUTPUT =
                new StructType()
                        .add("tag", DataTypes.StringType, false)
                        .add("snapshot_id", DataTypes.LongType, false);

        CreateTag(TableResolver catalog) {
            super(
                    catalog,
                    NAME,
                    "Tags a snapshot (the latest by default); a tag keeps its snapshot's files readable.");
        }

        @Override
        public ProcedureParameter[] parameters() {
            return new ProcedureParameter[] {
                ProcedureParameter.in("table", DataTypes.StringType).build(),
                ProcedureParameter.in("tag", DataTypes.StringType).build(),
                ProcedureParameter.in("snapshot", DataTypes.LongType).defaultValue("NULL").build()
            };
        }

        @Override
        Scan run(InternalRow args) {
            ProcedureTable target = ProcedureTable.resolve(catalog(), NAME, stringArg(args, 0));
            FileStoreTable table = target.table();
            String tag = tagArg(target, args, 1, NAME);
            if (tag.contains(",")) {
                throw StrataErrors.analysis(
                        String.format(
                                "Cannot create tag '%s' of %s: the name contains ',', which sys.delete_tag reads as"
                                        + " a separator between tag names. Tag names must not contain ','; choose"
                                        + " another name, e.g. '%s'.",
                                tag, target.name(), tag.replace(',', '_')));
            }
            if (tag.chars().allMatch(Character::isDigit)) {
                throw StrataErrors.analysis(
                        String.format(
                                "Cannot create tag '%s' of %s: a name of digits only is read as a snapshot id by"
                                        + " VERSION AS OF '%s' and rollback(version => '%s'), so the tag could not be"
                                        + " named there. Choose a name with a letter, e.g. 'v%s'.",
                                tag, target.name(), tag, tag, tag));
            }
            if (table.tagManager().tagExists(tag)) {
                throw StrataErrors.analysis(
                        String.format(
                                "Cannot create tag '%s' of %s: the tag exists. Delete it first with CALL sys.delete_tag.",
                                tag, target.name()));
            }
            long snapshot;
            if (args.isNullAt(2)) {
                Snapshot latest = table.snapshotManager().latestSnapshot();
                if (latest == null) {
                    throw StrataErrors.analysis(
                            String.format(
                                    "Cannot create tag '%s' of %s: the table has no snapshot yet.",
                                    tag, target.name()));
                }
                snapshot = latest.id();
            } else {
                snapshot = args.getLong(2);
                requireSnapshot(target, snapshot, "create tag '" + tag + "' of");
            }
            long tagged = snapshot;
            new ProcedureRun(NAME, "create tag '" + tag + "' of", target.name(), table)
                    .perform(
                            "snapshot " + snapshot,
                            () -> {
                                table.createTag(tag, tagged);
                                return null;
                            },
                            "See the tags in " + target.name() + "$tags before running it again.");
            return result(OUTPUT, List.of(row(tag, snapshot)));
        }
    }

    /** {@code delete_tag(table, tag)}; several tags separated by commas. */
    static final class DeleteTag extends StrataProcedure {
        static final String NAME = "delete_tag";
        private static final StructType OUTPUT =
                new StructType().add("tag", DataTypes.StringType, false);

        DeleteTag(TableResolver catalog) {
            super(catalog, NAME, "Deletes tags (comma separated), and the files only they kept.");
        }

        @Override
        public ProcedureParameter[] parameters() {
            return new ProcedureParameter[] {
                ProcedureParameter.in("table", DataTypes.StringType).build(),
                ProcedureParameter.in("tag", DataTypes.StringType).build()
            };
        }

        @Override
        Scan run(InternalRow args) {
            ProcedureTable target = ProcedureTable.resolve(catalog(), NAME, stringArg(args, 0));
            String tags = stringArg(args, 1);
            List<InternalRow> rows = new ArrayList<>();
            List<String> names = new ArrayList<>();
            // Older tags may have a comma in their name: delete by the whole name.
            boolean whole =
                    tags != null
                            && tags.contains(",")
                            && dev.strata.spark.catalog.WarehouseNames.isSegment(tags.trim())
                            && target.table().tagManager().tagExists(tags.trim());
            String[] parts =
                    tags == null ? new String[0] : whole ? new String[] {tags} : tags.split(",");
            for (String t : parts) {
                String tag = t.trim();
                dev.strata.spark.catalog.WarehouseNames.check(
                        "delete a tag of " + target.name(),
                        dev.strata.spark.catalog.WarehouseNames.Kind.TAG,
                        tag);
                if (!target.table().tagManager().tagExists(tag)) {
                    throw StrataErrors.analysis(
                            String.format(
                                    "Cannot delete tag '%s' of %s: no such tag. See the tags in %s.",
                                    tag, target.name(), target.systemTable("tags")));
                }
                names.add(tag);
            }
            if (names.isEmpty()) {
                throw StrataErrors.analysis(
                        "Cannot run sys.delete_tag: argument tag is empty. Pass tag => 'name'.");
            }
            ProcedureRun run =
                    new ProcedureRun(NAME, "delete tags of", target.name(), target.table());
            for (String tag : names) {
                run.perform(
                        "tag " + tag,
                        () -> {
                            target.table().deleteTag(tag);
                            return null;
                        },
                        "The tags before '"
                                + tag
                                + "' were deleted; see "
                                + target.name()
                                + "$tags before running it again.");
                rows.add(row(tag));
            }
            return result(OUTPUT, rows);
        }
    }

    /**
     * {@code rollback(table, version | snapshot | tag)}; {@code version} (as in Paimon's procedure)
     * is a snapshot id when all digits, else a tag name.
     */
    static final class Rollback extends StrataProcedure {
        static final String NAME = "rollback";
        private static final StructType OUTPUT =
                new StructType()
                        .add("previous_snapshot_id", DataTypes.LongType, false)
                        .add("current_snapshot_id", DataTypes.LongType, false);

        Rollback(TableResolver catalog) {
            super(
                    catalog,
                    NAME,
                    "Rolls the table back to a snapshot or tag; later snapshots are deleted.");
        }

        @Override
        public ProcedureParameter[] parameters() {
            return new ProcedureParameter[] {
                ProcedureParameter.in("table", DataTypes.StringType).build(),
                ProcedureParameter.in("version", DataTypes.StringType).defaultValue("NULL").build(),
                ProcedureParameter.in("snapshot", DataTypes.LongType).defaultValue("NULL").build(),
                ProcedureParameter.in("tag", DataTypes.StringType).defaultValue("NULL").build()
            };
        }

        @Override
        Scan run(InternalRow args) {
            ProcedureTable target = ProcedureTable.resolve(catalog(), NAME, stringArg(args, 0));
            FileStoreTable table = target.table();
            int given = 0;
            for (int i = 1; i <= 3; i++) {
                given += args.isNullAt(i) ? 0 : 1;
            }
            if (given != 1) {
                throw StrataErrors.analysis(
                        String.format(
                                "Cannot roll back %s: give exactly one of snapshot => <id>, tag => '<name>' "
                                        + "or version => '<id or tag name>'.",
                                target.name()));
            }
            Long snapshot = args.isNullAt(2) ? null : args.getLong(2);
            int tagPosition = 3;
            if (!args.isNullAt(1)) {
                String version = stringArg(args, 1).trim();
                if (!version.isEmpty() && version.chars().allMatch(Character::isDigit)) {
                    snapshot = Long.parseLong(version);
                } else {
                    tagPosition = 1;
                }
            }
            Snapshot before = table.snapshotManager().latestSnapshot();
            long previous = before == null ? -1 : before.id();
            ProcedureRun run = new ProcedureRun(NAME, "roll back", target.name(), table);
            String then =
                    "See "
                            + target.name()
                            + "$snapshots for the state of the table before running it again.";
            long current;
            if (snapshot != null) {
                current = snapshot;
                requireSnapshot(target, current, "roll back");
                long to = current;
                run.perform(
                        "to snapshot " + current,
                        () -> {
                            table.rollbackTo(to);
                            return null;
                        },
                        then);
            } else {
                String tag = tagArg(target, args, tagPosition, NAME);
                if (!table.tagManager().tagExists(tag)) {
                    throw StrataErrors.analysis(
                            String.format(
                                    "Cannot roll back %s to tag '%s': no such tag. See the tags in %s.",
                                    target.name(), tag, target.systemTable("tags")));
                }
                current = table.tagManager().getOrThrow(tag).trimToSnapshot().id();
                run.perform(
                        "to tag " + tag,
                        () -> {
                            table.rollbackTo(tag);
                            return null;
                        },
                        then);
            }
            return result(OUTPUT, List.of(row(previous, current)));
        }
    }

    /**
     * {@code create_branch(table, branch, tag)}: at the tag's snapshot, or empty with the current
     * schema. Used as {@code db.`t$branch_<name>`}.
     */
    static final class CreateBranch extends StrataProcedure {
        static final String NAME = "create_branch";
        private static final StructType OUTPUT =
                new StructType()
                        .add("branch", DataTypes.StringType, false)
                        .add("tag", DataTypes.StringType, true);

        CreateBranch(TableResolver catalog) {
            super(
                    catalog,
                    NAME,
                    "Creates a branch from a tag (or an empty one); read and write it as t$branch_<name>.");
        }

        @Override
        public ProcedureParameter[] parameters() {
            return new ProcedureParameter[] {
                ProcedureParameter.in("table", DataTypes.StringType).build(),
                ProcedureParameter.in("branch", DataTypes.StringType).build(),
                ProcedureParameter.in("tag", DataTypes.StringType).defaultValue("NULL").build()
            };
        }

        @Override
        Scan run(InternalRow args) {
            ProcedureTable target = ProcedureTable.resolve(catalog(), NAME, stringArg(args, 0));
            FileStoreTable table = mainBranch(target, NAME);
            String branch = branchArg(target, args, 1, NAME);
            if (table.branchManager().branchExists(branch)) {
                throw StrataErrors.analysis(
                        String.format(
                                "Cannot create branch '%s' of %s: the branch exists. Delete it first with CALL"
                                        + " sys.delete_branch, or choose another name.",
                                branch, target.name()));
            }
            String tag = args.isNullAt(2) ? null : tagArg(target, args, 2, NAME);
            if (tag != null && !table.tagManager().tagExists(tag)) {
                throw StrataErrors.analysis(
                        String.format(
                                "Cannot create branch '%s' of %s from tag '%s': no such tag. See the tags in %s.",
                                branch, target.name(), tag, target.systemTable("tags")));
            }
            new ProcedureRun(NAME, "create branch '" + branch + "' of", target.name(), table)
                    .perform(
                            tag == null ? "an empty branch" : "tag " + tag,
                            () -> {
                                createBranch(table, branch, tag);
                                return null;
                            },
                            "See the branches in " + target.systemTable("branches") + ".");
            return result(OUTPUT, List.of(row(branch, tag)));
        }
    }

    /**
     * Paimon's branch from a tag copies the tag's snapshot file, which expire_snapshots may have
     * deleted while the tag keeps the snapshot readable: it then failed with the file's
     * NoSuchFileException and left a branch directory that $branches listed but no query could
     * read. Such a branch gets the snapshot from the tag file itself; a failed creation removes
     * what it wrote.
     */
    static void createBranch(FileStoreTable table, String branch, String tag) throws Exception {
        org.apache.paimon.fs.Path dir =
                new org.apache.paimon.fs.Path(
                        org.apache.paimon.utils.BranchManager.branchPath(table.location(), branch));
        try {
            if (tag == null) {
                table.createBranch(branch);
                return;
            }
            org.apache.paimon.Snapshot tagged = table.tagManager().getOrThrow(tag).trimToSnapshot();
            if (table.snapshotManager().snapshotExists(tagged.id())) {
                table.createBranch(branch, tag);
                return;
            }
            org.apache.paimon.utils.BranchManager.validateBranch(branch);
            org.apache.paimon.fs.FileIO io = table.fileIO();
            io.copyFile(
                    table.tagManager().tagPath(tag),
                    table.tagManager().copyWithBranch(branch).tagPath(tag),
                    false);
            io.writeFile(
                    table.snapshotManager().copyWithBranch(branch).snapshotPath(tagged.id()),
                    tagged.toJson(),
                    false);
            org.apache.paimon.schema.SchemaManager schemas = table.schemaManager();
            for (long id : schemas.listAllIds()) {
                if (id <= tagged.schemaId()) {
                    io.copyFile(
                            schemas.toSchemaPath(id),
                            schemas.copyWithBranch(branch).toSchemaPath(id),
                            false);
                }
            }
        } catch (Exception e) {
            try {
                table.fileIO().delete(dir, true);
            } catch (java.io.IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /** {@code delete_branch(table, branch)}: the branch and the files only it kept. */
    static final class DeleteBranch extends StrataProcedure {
        static final String NAME = "delete_branch";
        private static final StructType OUTPUT =
                new StructType().add("branch", DataTypes.StringType, false);

        DeleteBranch(TableResolver catalog) {
            super(catalog, NAME, "Deletes a branch and the files only it kept.");
        }

        @Override
        public ProcedureParameter[] parameters() {
            return new ProcedureParameter[] {
                ProcedureParameter.in("table", DataTypes.StringType).build(),
                ProcedureParameter.in("branch", DataTypes.StringType).build()
            };
        }

        @Override
        Scan run(InternalRow args) {
            ProcedureTable target = ProcedureTable.resolve(catalog(), NAME, stringArg(args, 0));
            FileStoreTable table = mainBranch(target, NAME);
            String branch = existingBranch(target, table, args, NAME);
            new ProcedureRun(NAME, "delete branch '" + branch + "' of", target.name(), table)
                    .perform(
                            "branch " + branch,
                            () -> {
                                table.deleteBranch(branch);
                                return null;
                            },
                            "See the branches in " + target.systemTable("branches") + ".");
            return result(OUTPUT, List.of(row(branch)));
        }
    }

    /** {@code fast_forward(table, branch)}: the table becomes the branch; the branch stays. */
    static final class FastForward extends StrataProcedure {
        static final String NAME = "fast_forward";
        private static final StructType OUTPUT =
                new StructType()
                        .add("branch", DataTypes.StringType, false)
                        .add("current_snapshot_id", DataTypes.LongType, true);

        FastForward(TableResolver catalog) {
            super(catalog, NAME, "Makes the table's main branch what a branch is now.");
        }

        @Override
        public ProcedureParameter[] parameters() {
            return new ProcedureParameter[] {
                ProcedureParameter.in("table", DataTypes.StringType).build(),
                ProcedureParameter.in("branch", DataTypes.StringType).build()
            };
        }

        @Override
        Scan run(InternalRow args) {
            ProcedureTable target = ProcedureTable.resolve(catalog(), NAME, stringArg(args, 0));
            FileStoreTable table = mainBranch(target, NAME);
            String branch = existingBranch(target, table, args, NAME);
            new ProcedureRun(NAME, "fast-forward", target.name(), table)
                    .perform(
                            "to branch " + branch,
                            () -> {
                                table.fastForward(branch);
                                restoreEarliestHint(table);
                                return null;
                            },
                            "See " + target.systemTable("snapshots") + " before running it again.");
            Long current = table.snapshotManager().latestSnapshotId();
            return result(OUTPUT, List.of(row(branch, current)));
        }
    }

    /**
     * Paimon's fast-forward copies the branch's EARLIEST hint over the main branch's, while main's
     * snapshots before the branch point (the ancestors of the branch's first snapshot) stay on
     * disk: $snapshots left them out, and a rollback to one of them kept the snapshots after it, so
     * the table read rows of both. The hint names the earliest snapshot on disk again.
     */
    static void restoreEarliestHint(FileStoreTable table) throws java.io.IOException {
        java.util.Optional<Long> earliest =
                table.snapshotManager().snapshotIdStream().min(Long::compare);
        if (earliest.isPresent()) {
            table.snapshotManager().commitEarliestHint(earliest.get());
        }
    }

    /**
     * {@code remove_orphan_files(table, older_than, dry_run)}: files no snapshot, tag or branch
     * references, and stale {@link PendingMessages} directories older than {@code older_than}
     * (their files are table files, so Paimon's rule decides: deleted only when unreferenced).
     */
    static final class RemoveOrphanFiles extends StrataProcedure {
        static final String NAME = "remove_orphan_files";
        private static final StructType OUTPUT =
                new StructType()
                        .add("deleted_file_count", DataTypes.LongType, false)
                        .add("deleted_file_bytes", DataTypes.LongType, false)
                        .add("dry_run", DataTypes.BooleanType, false);

        RemoveOrphanFiles(TableResolver catalog) {
            super(
                    catalog,
                    NAME,
                    "Deletes (or with dry_run lists the count of) files older than older_than (default "
                            + "1 day) that no snapshot, tag or branch references, full-text archives included.");
        }

        @Override
        public ProcedureParameter[] parameters() {
            return new ProcedureParameter[] {
                ProcedureParameter.in("table", DataTypes.StringType).build(),
                ProcedureParameter.in("older_than", DataTypes.StringType)
                        .defaultValue("NULL")
                        .build(),
                ProcedureParameter.in("dry_run", DataTypes.BooleanType)
                        .defaultValue("false")
                        .build()
            };
        }

        @Override
        Scan run(InternalRow args) {
            ProcedureTable target = ProcedureTable.resolve(catalog(), NAME, stringArg(args, 0));
            long now = System.currentTimeMillis();
            String olderThan = stringArg(args, 1);
            long millis =
                    olderThan == null
                            ? now - Duration.ofDays(1).toMillis()
                            : timestampArg(NAME, "older_than", olderThan);
            if (millis > now - MIN_ORPHAN_AGE.toMillis()) {
                throw StrataErrors.analysis(
                        String.format(
                                "Cannot remove orphan files of %s: older_than => '%s' is %s, and files younger than"
                                        + " %d hour(s) may belong to a write that has not committed yet. Pass a time at"
                                        + " least %d hour(s) ago.",
                                target.name(),
                                olderThan,
                                millis > now
                                        ? "in the future"
                                        : "less than " + MIN_ORPHAN_AGE.toHours() + " hour(s) ago",
                                MIN_ORPHAN_AGE.toHours(),
                                MIN_ORPHAN_AGE.toHours()));
            }
            boolean dryRun = !args.isNullAt(2) && args.getBoolean(2);
            long[] cleaned =
                    new ProcedureRun(NAME, "remove orphan files of", target.name(), target.table())
                            .perform(
                                    dryRun ? "dry run" : null,
                                    () -> removeOrphans(target, millis, dryRun),
                                    "Nothing referenced was deleted; run it again.");
            return result(OUTPUT, List.of(row(cleaned[0], cleaned[1], dryRun)));
        }

        /** Count and bytes deleted (or, in a dry run, to delete). */
        private static long[] removeOrphans(ProcedureTable target, long millis, boolean dryRun)
                throws Exception {
            // Listed before the clean, so a directory a commit creates meanwhile is not among them.
            List<PendingMessages> stale = new ArrayList<>();
            for (PendingMessages pending : PendingMessages.all(target.table())) {
                if (pending.lastModified() < millis) {
                    stale.add(pending);
                }
            }
            CleanOrphanFilesResult cleaned =
                    new LocalOrphanFilesClean(target.table(), millis, dryRun).clean();
            long count = cleaned.getDeletedFileCount();
            long bytes = cleaned.getDeletedFileTotalLenInBytes();
            for (PendingMessages pending : stale) {
                long[] files = pending.filesAndBytes();
                count += files[0];
                bytes += files[1];
                LOG.info(
                        "{} the pending directory {} of {} ({} files): its commit never finished.",
                        dryRun ? "Would delete" : "Deleting",
                        pending.dir(),
                        target.name(),
                        files[0]);
                if (!dryRun) {
                    pending.delete();
                }
            }
            return new long[] {count, bytes};
        }
    }

    /** Branch procedures act on the main branch. */
    private static FileStoreTable mainBranch(ProcedureTable target, String procedure) {
        FileStoreTable table = target.table();
        if (!BranchManager.isMainBranch(table.coreOptions().branch())) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run sys.%s on %s: it names a branch. Pass the table itself,"
                                    + " table => 'db.table', and the branch as branch => 'name'.",
                            procedure, target.name()));
        }
        return table;
    }

    private static String branchArg(
            ProcedureTable target, InternalRow args, int pos, String procedure) {
        String branch = StrataProcedure.stringArg(args, pos);
        if (branch == null || branch.isBlank()) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run sys.%s on %s: argument branch is empty. Pass branch => 'name'.",
                            procedure, target.name()));
        }
        String name = branch.trim();
        dev.strata.spark.catalog.WarehouseNames.check(
                "use a branch of " + target.name(),
                dev.strata.spark.catalog.WarehouseNames.Kind.BRANCH,
                name);
        try {
            BranchManager.validateBranch(name);
        } catch (IllegalArgumentException e) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run sys.%s on %s: '%s' is not a branch name Paimon accepts (%s)."
                                    + " Choose another name.",
                            procedure, target.name(), name, e.getMessage()));
        }
        return name;
    }

    private static String existingBranch(
            ProcedureTable target, FileStoreTable table, InternalRow args, String procedure) {
        String branch = branchArg(target, args, 1, procedure);
        if (!table.branchManager().branchExists(branch)) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run sys.%s on %s: no branch '%s'. See the branches in %s.",
                            procedure, target.name(), branch, target.systemTable("branches")));
        }
        return branch;
    }

    private static String tagArg(
            ProcedureTable target, InternalRow args, int pos, String procedure) {
        String tag = StrataProcedure.stringArg(args, pos);
        if (tag == null || tag.isBlank()) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot run sys.%s on %s: argument tag is empty. Pass tag => 'name'.",
                            procedure, target.name()));
        }
        dev.strata.spark.catalog.WarehouseNames.check(
                "use a tag of " + target.name(),
                dev.strata.spark.catalog.WarehouseNames.Kind.TAG,
                tag.trim());
        return tag.trim();
    }

    private static void requireSnapshot(ProcedureTable target, long snapshot, String what) {
        if (!target.table().snapshotManager().snapshotExists(snapshot)) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot %s %s to snapshot %d: no such snapshot. See the snapshots in %s.",
                            what, target.name(), snapshot, target.systemTable("snapshots")));
        }
    }
}
