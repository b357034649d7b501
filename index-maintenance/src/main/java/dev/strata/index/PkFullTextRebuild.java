package dev.strata.index;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeader;
import dev.strata.index.archive.ArchiveHeaders;
import dev.strata.index.maintain.BucketMaintainer;
import dev.strata.index.maintain.IndexChange;
import dev.strata.index.maintain.IndexCommit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;

/**
 * Rebuilds the archives of one (partition, bucket) for {@code CALL rebuild_pk_fulltext}: levels
 * without a current archive (whole-file checksum checked), or every level with {@code force}.
 */
public final class PkFullTextRebuild {

    private PkFullTextRebuild() {}

    /** Index-only commit messages, a per-level report and an abort hook. */
    public static final class Result {
        private final List<CommitMessage> messages;
        private final List<LevelReport> report;
        private final IndexCommit commit;

        Result(List<CommitMessage> messages, List<LevelReport> report, IndexCommit commit) {
            this.messages = messages;
            this.report = report;
            this.commit = commit;
        }

        /** Zero or one index-only message (nothing when every level was already current). */
        public List<CommitMessage> messages() {
            return messages;
        }

        public List<LevelReport> report() {
            return report;
        }

        /** Deletes the archives this rebuild generated, when its messages will not be committed. */
        public void abort() throws IOException {
            commit.abort();
        }
    }

    /** Rebuilds against {@code snapshotId}; a null {@code localTempDir} means java.io.tmpdir. */
    public static Result run(
            FileStoreTable table,
            long snapshotId,
            BinaryRow partition,
            int bucket,
            boolean force,
            java.nio.file.Path localTempDir)
            throws Exception {
        Maintainers maintainers = new Maintainers(table, true, localTempDir);
        Snapshot snapshot = table.snapshotManager().snapshot(snapshotId);
        BucketFiles restored = maintainers.bucketFiles(snapshot, partition, bucket);
        ExecutorService executor =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "strata-pk-full-text-rebuild");
                            t.setDaemon(true);
                            return t;
                        });
        try (BucketMaintainer maintainer =
                maintainers.restore(restored, partition, bucket, executor)) {
            List<IndexFileMeta> before = maintainer.payloads();
            if (force) {
                maintainer.retireAll();
            }
            IndexCommit commit = maintainer.prepareCommit(null, null, true);
            try {
                List<CommitMessage> messages = new ArrayList<>();
                List<IndexFileMeta> created = Collections.emptyList();
                List<IndexFileMeta> removed = Collections.emptyList();
                if (commit.appendChange().isPresent()) {
                    IndexChange change = commit.appendChange().get();
                    created = change.created();
                    removed = change.removed();
                    messages.add(
                            new CommitMessageImpl(
                                    partition.copy(),
                                    bucket,
                                    restored.totalBuckets,
                                    new DataIncrement(
                                            new ArrayList<>(),
                                            new ArrayList<>(),
                                            new ArrayList<>(),
                                            new ArrayList<>(created),
                                            new ArrayList<>(removed)),
                                    CompactIncrement.emptyIncrement()));
                }
                List<LevelReport> report =
                        report(
                                maintainers,
                                partition,
                                bucket,
                                before,
                                maintainer.payloads(),
                                created,
                                removed);
                return new Result(messages, report, commit);
            } catch (Throwable t) {
                try {
                    commit.abort();
                } catch (Throwable cleanup) {
                    t.addSuppressed(cleanup);
                }
                throw t;
            }
        } finally {
            executor.shutdownNow();
        }
    }

    private static List<LevelReport> report(
            Maintainers maintainers,
            BinaryRow partition,
            int bucket,
            List<IndexFileMeta> before,
            List<IndexFileMeta> after,
            List<IndexFileMeta> created,
            List<IndexFileMeta> removed) {
        BinaryRow p = partition.copy();
        TreeMap<Integer, LevelReport> byLevel = new TreeMap<>();
        Map<Integer, Boolean> builtLevels = new HashMap<>();
        for (IndexFileMeta archive : created) {
            ArchiveHeader h = header(maintainers, p, bucket, archive);
            int level = h.sourceMeta().dataLevel();
            builtLevels.put(level, true);
            byLevel.put(
                    level,
                    new LevelReport(
                            p,
                            bucket,
                            level,
                            "built",
                            h.sourceMeta().sourceFiles().size(),
                            archive.rowCount(),
                            archive.fileSize()));
        }
        for (IndexFileMeta archive : after) {
            if (!created.contains(archive)) {
                ArchiveHeader h = header(maintainers, p, bucket, archive);
                int level = h.sourceMeta().dataLevel();
                byLevel.put(
                        level,
                        new LevelReport(
                                p,
                                bucket,
                                level,
                                "kept",
                                h.sourceMeta().sourceFiles().size(),
                                archive.rowCount(),
                                archive.fileSize()));
            }
        }
        List<LevelReport> result = new ArrayList<>(byLevel.values());
        for (IndexFileMeta archive : removed) {
            int level = -1;
            int sources = 0;
            try {
                // Header checks only: an archive retired for a damaged body still tells its level.
                ArchiveHeader h =
                        new ArchiveHeaders(false)
                                .header(ArchiveFiles.of(maintainers.table, p, bucket), archive);
                level = h.sourceMeta().dataLevel();
                sources = h.sourceMeta().sourceFiles().size();
            } catch (IOException | RuntimeException e) {
                // Unreadable (corrupt or missing) archive: its level is unknown.
            }
            if (level > 0 && builtLevels.containsKey(level)) {
                continue;
            }
            result.add(
                    new LevelReport(
                            p,
                            bucket,
                            level,
                            "retired",
                            sources,
                            archive.rowCount(),
                            archive.fileSize()));
        }
        return result;
    }

    private static ArchiveHeader header(
            Maintainers maintainers, BinaryRow partition, int bucket, IndexFileMeta archive) {
        try {
            return maintainers.headers.header(
                    ArchiveFiles.of(maintainers.table, partition, bucket), archive);
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Cannot read header of full-text archive " + archive.fileName(), e);
        }
    }
}
