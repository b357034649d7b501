package dev.strata.index.maintain;

import dev.strata.index.archive.ArchiveBuilder;
import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeader;
import dev.strata.index.archive.HeaderLookup;
import dev.strata.index.levels.LevelPlanner;
import dev.strata.index.source.SourceFile;
import dev.strata.index.source.SourcePolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;

/**
 * Keeps the archives of one (partition, bucket) equal to its data levels: one archive per non-empty
 * level above 0, covering exactly the level's eligible files. {@link #prepareCommit} applies a
 * commit's data transition, harvests and checks a finished build and starts at most one new one;
 * any failure rolls the maintainer back and deletes the archives the call generated.
 */
public final class BucketMaintainer implements AutoCloseable {

    /** How many unacceptable builds one call tolerates before it gives up. */
    public static final int MAX_REJECTED_BUILDS = 3;

    private final int textFieldId;
    private final ArchiveFiles files;
    private final ArchiveBuilder builder;
    private final HeaderLookup headers;
    private final LevelPlanner<IndexFileMeta> levels;

    private List<IndexFileMeta> current;
    private List<IndexFileMeta> retired;
    private LinkedHashMap<String, DataFileMeta> active;
    private ExecutorService executor;
    private PendingBuild pending;

    /** Restores the maintainer; stale archives are retired by the next commit, no build starts. */
    public BucketMaintainer(
            int textFieldId,
            ArchiveFiles files,
            ArchiveBuilder builder,
            HeaderLookup headers,
            Collection<DataFileMeta> restoredDataFiles,
            Collection<IndexFileMeta> restoredArchives,
            ExecutorService executor) {
        this.textFieldId = textFieldId;
        this.files = files;
        this.builder = builder;
        this.headers = headers;
        this.executor = executor;
        this.levels =
                new LevelPlanner<>(
                        a -> header(a).sourceMeta().dataLevel(),
                        a -> header(a).sourceMeta().sourceFiles());
        this.active = new LinkedHashMap<>();
        if (restoredDataFiles != null) {
            for (DataFileMeta file : restoredDataFiles) {
                if (SourcePolicy.isSource(file)) {
                    active.put(file.fileName(), file);
                }
            }
        }
        BucketIndexState state =
                BucketIndexState.fromActiveDataFiles(
                        textFieldId,
                        active.values(),
                        restoredArchives == null ? Collections.emptyList() : restoredArchives,
                        headers);
        this.current = new ArrayList<>(state.currentPayloads());
        this.retired = new ArrayList<>(state.stalePayloads());
        for (IndexFileMeta archive : current) {
            for (SourceFile source : header(archive).sourceMeta().sourceFiles()) {
                DataFileMeta file = active.get(source.fileName());
                if (file != null && file.rowCount() != source.rowCount()) {
                    throw new IllegalStateException(
                            "Full-text source "
                                    + source.fileName()
                                    + " row count does not match its active data file.");
                }
            }
        }
    }

    private ArchiveHeader header(IndexFileMeta archive) {
        try {
            return headers.header(archive);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read header of full-text archive " + archive.fileName(), e);
        }
    }

    /**
     * Brings the archives up to date with this commit's data transition (appended files must not be
     * eligible sources). With {@code waitCompaction} it blocks until every level is current.
     */
    public synchronized IndexCommit prepareCommit(
            DataIncrement append, CompactIncrement compact, boolean waitCompaction)
            throws Exception {
        List<DataFileMeta> appended = append == null ? Collections.emptyList() : append.newFiles();
        for (DataFileMeta file : appended) {
            if (SourcePolicy.isSource(file)) {
                throw new IllegalArgumentException(
                        "Append files must not be primary-key full-text index sources.");
            }
        }
        List<DataFileMeta> before =
                compact == null ? Collections.emptyList() : compact.compactBefore();
        List<DataFileMeta> after =
                compact == null ? Collections.emptyList() : compact.compactAfter();

        final List<IndexFileMeta> savedCurrent = new ArrayList<>(current);
        final List<IndexFileMeta> savedRetired = new ArrayList<>(retired);
        final LinkedHashMap<String, DataFileMeta> savedActive = new LinkedHashMap<>(active);
        final List<IndexFileMeta> generated = new ArrayList<>();
        try {
            Set<String> afterNames = new HashSet<>();
            for (DataFileMeta file : after) {
                afterNames.add(file.fileName());
            }
            for (DataFileMeta file : before) {
                if (!afterNames.contains(file.fileName())) {
                    active.remove(file.fileName());
                }
            }
            for (DataFileMeta file : after) {
                if (SourcePolicy.isSource(file)) {
                    active.put(file.fileName(), file);
                } else {
                    active.remove(file.fileName());
                }
            }
            List<IndexFileMeta> created = new ArrayList<>();
            List<IndexFileMeta> removed = new ArrayList<>(retired);
            retired.clear();
            int rejected = 0;
            while (true) {
                IndexFileMeta archive = null;
                LevelPlanner.Plan<IndexFileMeta> plan = null;
                if (pending != null && (waitCompaction || pending.isDone())) {
                    PendingBuild build = pending;
                    try {
                        archive = build.await();
                        plan = build.plan();
                        pending = null;
                    } catch (CancellationException e) {
                        pending = null;
                    } catch (ExecutionException e) {
                        pending = null;
                        throw unwrap(e);
                    }
                }
                if (archive != null) {
                    generated.add(archive);
                    if (canAccept(plan, archive)) {
                        remove(plan.inputs(), created, removed, generated);
                        current.add(archive);
                        created.add(archive);
                    } else {
                        generated.remove(archive);
                        files.delete(archive);
                        rejected++;
                        if (rejected > MAX_REJECTED_BUILDS) {
                            throw new IllegalStateException(
                                    "Cannot bring full-text archives up to date: "
                                            + rejected
                                            + " builds for level "
                                            + plan.dataLevel()
                                            + " produced archives that do not match their sources; giving up."
                                            + " Check the archive builder.");
                        }
                    }
                }
                if (pending == null) {
                    Optional<LevelPlanner.Plan<IndexFileMeta>> next =
                            levels.pick(current, active.values());
                    if (next.isPresent()) {
                        if (next.get().isDrop()) {
                            remove(next.get().inputs(), created, removed, generated);
                            continue;
                        }
                        pending = PendingBuild.start(next.get(), builder, files, executor);
                    }
                }
                if (!waitCompaction || pending == null) {
                    break;
                }
            }
            boolean compactTransition = !before.isEmpty() || !after.isEmpty();
            boolean changed = !created.isEmpty() || !removed.isEmpty();
            IndexChange change = changed ? new IndexChange(created, removed) : null;
            return new IndexCommit(
                    compactTransition ? null : change,
                    compactTransition ? change : null,
                    () -> rollback(savedCurrent, savedRetired, savedActive, generated, null));
        } catch (Throwable t) {
            rollback(savedCurrent, savedRetired, savedActive, generated, t);
            if (t instanceof Exception) {
                throw (Exception) t;
            }
            if (t instanceof Error) {
                throw (Error) t;
            }
            throw new RuntimeException(t);
        }
    }

    private static Throwable unwrap(ExecutionException e) {
        return e.getCause() == null ? e : e.getCause();
    }

    private void remove(
            List<IndexFileMeta> inputs,
            List<IndexFileMeta> created,
            List<IndexFileMeta> removed,
            List<IndexFileMeta> generated)
            throws IOException {
        for (IndexFileMeta input : inputs) {
            if (!current.remove(input)) {
                throw new IllegalStateException(
                        "Full-text rebuild input is no longer active: " + input.fileName() + ".");
            }
            if (created.remove(input)) {
                generated.remove(input);
                files.delete(input);
            } else {
                removed.add(input);
            }
        }
    }

    private boolean canAccept(LevelPlanner.Plan<IndexFileMeta> plan, IndexFileMeta archive) {
        if (!levels.isCurrent(plan, active.values())) {
            return false;
        }
        for (IndexFileMeta input : plan.inputs()) {
            if (!current.contains(input)) {
                return false;
            }
        }
        BucketIndexState state =
                BucketIndexState.fromActiveDataFiles(
                        textFieldId,
                        plan.sourceFiles(),
                        Collections.singletonList(archive),
                        headers);
        if (state.currentPayloads().size() != 1) {
            return false;
        }
        ArchiveHeader header;
        try {
            header = headers.header(archive);
        } catch (IOException e) {
            return false;
        }
        List<SourceFile> sources = header.sourceMeta().sourceFiles();
        if (header.sourceMeta().dataLevel() != plan.dataLevel()
                || sources.size() != plan.sourceFiles().size()) {
            return false;
        }
        Set<String> retainedCoverage = new HashSet<>();
        for (IndexFileMeta retained : current) {
            if (!plan.inputs().contains(retained)) {
                for (SourceFile s : header(retained).sourceMeta().sourceFiles()) {
                    retainedCoverage.add(s.fileName());
                }
            }
        }
        for (int i = 0; i < sources.size(); i++) {
            SourceFile source = sources.get(i);
            DataFileMeta planned = plan.sourceFiles().get(i);
            DataFileMeta live = active.get(source.fileName());
            if (!source.fileName().equals(planned.fileName())
                    || source.rowCount() != planned.rowCount()
                    || live == null
                    || live.rowCount() != source.rowCount()
                    || retainedCoverage.contains(source.fileName())) {
                return false;
            }
        }
        return true;
    }

    private synchronized void rollback(
            List<IndexFileMeta> savedCurrent,
            List<IndexFileMeta> savedRetired,
            LinkedHashMap<String, DataFileMeta> savedActive,
            List<IndexFileMeta> generated,
            Throwable failure)
            throws IOException {
        current = new ArrayList<>(savedCurrent);
        retired = new ArrayList<>(savedRetired);
        active = new LinkedHashMap<>(savedActive);
        List<Throwable> problems = new ArrayList<>();
        if (pending != null) {
            try {
                pending.cancel();
            } catch (IOException | RuntimeException e) {
                problems.add(e);
            }
            pending = null;
        }
        for (IndexFileMeta archive : new ArrayList<>(generated)) {
            try {
                files.delete(archive);
                generated.remove(archive);
            } catch (IOException | RuntimeException e) {
                problems.add(e);
            }
        }
        if (problems.isEmpty()) {
            return;
        }
        if (failure != null) {
            for (Throwable p : problems) {
                failure.addSuppressed(p);
            }
            return;
        }
        IOException e =
                new IOException(
                        "Cannot delete every archive generated by an aborted full-text commit.");
        for (Throwable p : problems) {
            e.addSuppressed(p);
        }
        throw e;
    }

    /** Whether a background build is running or finished but not yet harvested. */
    public synchronized boolean buildNotCompleted() {
        return pending != null;
    }

    /** Replaces the build executor; only allowed when no build is pending. */
    public synchronized void withExecutor(ExecutorService executor) {
        if (pending != null) {
            throw new IllegalStateException("Cannot replace executor during a full-text build.");
        }
        this.executor = executor;
    }

    /** The current archives. */
    public synchronized List<IndexFileMeta> payloads() {
        return Collections.unmodifiableList(new ArrayList<>(current));
    }

    /** The archives the next commit will remove. */
    public synchronized List<IndexFileMeta> retiredPayloads() {
        return Collections.unmodifiableList(new ArrayList<>(retired));
    }

    public synchronized Map<String, DataFileMeta> activeSourceFiles() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(active));
    }

    public synchronized BucketIndexState state() {
        return BucketIndexState.fromActiveDataFiles(textFieldId, active.values(), current, headers);
    }

    /** Retires every current archive so the next blocking commit rebuilds all levels. */
    public synchronized void retireAll() {
        if (pending != null) {
            throw new IllegalStateException("Cannot retire full-text archives during a build.");
        }
        retired.addAll(current);
        current.clear();
    }

    /** Cancels a pending build; committed archives are untouched. */
    @Override
    public synchronized void close() throws IOException {
        if (pending != null) {
            PendingBuild build = pending;
            pending = null;
            build.cancel();
        }
    }
}
