package dev.strata.index.maintain;

import dev.strata.index.archive.ArchiveBuilder;
import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.levels.LevelPlanner;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.paimon.index.IndexFileMeta;

/** One background archive build for one plan. */
final class PendingBuild {

    private final LevelPlanner.Plan<IndexFileMeta> plan;
    private final ArchiveFiles files;
    private Future<IndexFileMeta> future;
    private boolean cancelled;
    private IndexFileMeta produced;

    private PendingBuild(LevelPlanner.Plan<IndexFileMeta> plan, ArchiveFiles files) {
        this.plan = plan;
        this.files = files;
    }

    static PendingBuild start(
            LevelPlanner.Plan<IndexFileMeta> plan,
            ArchiveBuilder builder,
            ArchiveFiles files,
            ExecutorService executor) {
        PendingBuild build = new PendingBuild(plan, files);
        build.future = executor.submit(() -> build.run(builder));
        return build;
    }

    private IndexFileMeta run(ArchiveBuilder builder) throws Exception {
        IndexFileMeta archive = builder.build(plan.sourceFiles());
        synchronized (this) {
            if (cancelled) {
                files.delete(archive);
                throw new CancellationException(
                        "Full-text build for level " + plan.dataLevel() + " was cancelled.");
            }
            produced = archive;
            return archive;
        }
    }

    LevelPlanner.Plan<IndexFileMeta> plan() {
        return plan;
    }

    boolean isDone() {
        return future.isDone();
    }

    /** Waits for the archive; after a successful return the caller owns it. */
    IndexFileMeta await() throws InterruptedException, ExecutionException {
        IndexFileMeta archive = future.get();
        synchronized (this) {
            produced = null;
        }
        return archive;
    }

    /** Cancels the build and deletes its archive if it was produced but not harvested. */
    void cancel() throws IOException {
        IndexFileMeta orphan;
        synchronized (this) {
            cancelled = true;
            orphan = produced;
            produced = null;
        }
        future.cancel(true);
        if (orphan != null) {
            files.delete(orphan);
        }
    }
}
