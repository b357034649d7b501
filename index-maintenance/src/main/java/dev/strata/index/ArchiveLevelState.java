package dev.strata.index;

import dev.strata.index.maintain.BucketIndexState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToIntFunction;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;

/**
 * The full-text archive state of one level of one bucket in a snapshot ({@link
 * PkFullTextSearcher#levelStates}). {@code state} is {@code current} (the archive covers exactly
 * the level's files), {@code stale} (sources, text field or header do not match; a rebuild or the
 * next compaction replaces it), {@code missing} (a level above 0 without an archive) or {@code
 * not_indexed} (level 0). {@code rowsNotCovered} counts rows no current archive covers, on a
 * level's first entry only, so a bucket's sum is what a search indexes at query time or leaves out.
 * A stale archive whose header cannot be read has level -1.
 */
public final class ArchiveLevelState {

    public static final String CURRENT = "current";
    public static final String STALE = "stale";
    public static final String MISSING = "missing";
    public static final String NOT_INDEXED = "not_indexed";

    private final int level;
    private final String archive;
    private final String state;
    private final int sourceFiles;
    private final long rows;
    private final Long archiveBytes;
    private final long rowsNotCovered;

    private ArchiveLevelState(
            int level,
            IndexFileMeta archive,
            String state,
            int sourceFiles,
            long rows,
            long rowsNotCovered) {
        this.level = level;
        this.archive = archive == null ? null : archive.fileName();
        this.state = state;
        this.sourceFiles = sourceFiles;
        this.rows = rows;
        this.archiveBytes = archive == null ? null : archive.fileSize();
        this.rowsNotCovered = rowsNotCovered;
    }

    static List<ArchiveLevelState> of(
            List<DataFileMeta> dataFiles,
            BucketIndexState state,
            ToIntFunction<IndexFileMeta> levelOf) {
        TreeMap<Integer, List<DataFileMeta>> files = new TreeMap<>();
        for (DataFileMeta f : dataFiles) {
            files.computeIfAbsent(f.level(), l -> new ArrayList<>()).add(f);
        }
        TreeMap<Integer, IndexFileMeta> current = new TreeMap<>();
        for (IndexFileMeta archive : state.currentPayloads()) {
            current.put(levelOf.applyAsInt(archive), archive);
        }
        TreeMap<Integer, List<IndexFileMeta>> stale = new TreeMap<>();
        for (IndexFileMeta archive : state.stalePayloads()) {
            stale.computeIfAbsent(levelOf.applyAsInt(archive), l -> new ArrayList<>()).add(archive);
        }
        TreeSet<Integer> levels = new TreeSet<>(files.keySet());
        levels.addAll(current.keySet());
        levels.addAll(stale.keySet());
        Map<String, IndexFileMeta> covered = state.payloadBySourceFile();
        List<ArchiveLevelState> out = new ArrayList<>();
        for (int level : levels) {
            List<DataFileMeta> levelFiles = files.getOrDefault(level, Collections.emptyList());
            long rows = 0;
            long notCovered = 0;
            for (DataFileMeta f : levelFiles) {
                rows += f.rowCount();
                if (!covered.containsKey(f.fileName())) {
                    notCovered += f.rowCount();
                }
            }
            int n = levelFiles.size();
            List<ArchiveLevelState> entries = new ArrayList<>();
            if (level == 0) {
                entries.add(new ArchiveLevelState(level, null, NOT_INDEXED, n, rows, notCovered));
            } else if (current.containsKey(level)) {
                entries.add(
                        new ArchiveLevelState(
                                level, current.get(level), CURRENT, n, rows, notCovered));
            } else if (!stale.containsKey(level)) {
                entries.add(new ArchiveLevelState(level, null, MISSING, n, rows, notCovered));
            }
            for (IndexFileMeta archive : stale.getOrDefault(level, Collections.emptyList())) {
                entries.add(
                        new ArchiveLevelState(
                                level,
                                archive,
                                STALE,
                                n,
                                rows,
                                entries.isEmpty() ? notCovered : 0));
            }
            out.addAll(entries);
        }
        return out;
    }

    public int level() {
        return level;
    }

    /** The archive's file name, or null for {@code missing} and {@code not_indexed}. */
    public String archive() {
        return archive;
    }

    public String state() {
        return state;
    }

    public int sourceFiles() {
        return sourceFiles;
    }

    public long rows() {
        return rows;
    }

    /** The archive's size in bytes as the index manifest records it, or null without an archive. */
    public Long archiveBytes() {
        return archiveBytes;
    }

    public long rowsNotCovered() {
        return rowsNotCovered;
    }

    @Override
    public String toString() {
        return "ArchiveLevelState{level="
                + level
                + ", archive="
                + archive
                + ", state="
                + state
                + ", files="
                + sourceFiles
                + ", rows="
                + rows
                + ", notCovered="
                + rowsNotCovered
                + "}";
    }
}
