package dev.strata.index.maintain;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeader;
import dev.strata.index.archive.HeaderLookup;
import dev.strata.index.levels.LevelPlanner;
import dev.strata.index.source.SourceFile;
import dev.strata.index.source.SourcePolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;

/**
 * Which archives of one bucket are current and which are stale. Immutable. The lenient form ({@link
 * #fromActiveDataFiles}) makes an archive current only if its header is readable, it indexes the
 * text field and its ordered sources equal its level's desired files exactly; anything else is
 * stale, as are two matching archives for one level.
 */
public final class BucketIndexState {

    private final List<IndexFileMeta> current;
    private final List<IndexFileMeta> stale;
    private final Map<String, IndexFileMeta> payloadBySourceFile;

    private BucketIndexState(
            List<IndexFileMeta> current,
            List<IndexFileMeta> stale,
            Map<String, IndexFileMeta> bySource) {
        this.current = Collections.unmodifiableList(current);
        this.stale = Collections.unmodifiableList(stale);
        this.payloadBySourceFile = Collections.unmodifiableMap(bySource);
    }

    public List<IndexFileMeta> currentPayloads() {
        return current;
    }

    public List<IndexFileMeta> stalePayloads() {
        return stale;
    }

    /** Source data file name to the current archive covering it, in insertion order. */
    public Map<String, IndexFileMeta> payloadBySourceFile() {
        return payloadBySourceFile;
    }

    /** Strict classification: errors propagate, inconsistencies throw. */
    public static BucketIndexState strict(
            int textFieldId, Collection<IndexFileMeta> payloads, HeaderLookup headers)
            throws IOException {
        List<IndexFileMeta> current = new ArrayList<>();
        List<IndexFileMeta> stale = new ArrayList<>();
        Map<String, IndexFileMeta> bySource = new LinkedHashMap<>();
        Set<String> names = new HashSet<>();
        for (IndexFileMeta payload : payloads) {
            if (!ArchiveFiles.INDEX_TYPE.equals(payload.indexType())) {
                continue;
            }
            ArchiveHeader header = headers.header(payload);
            if (header.textFieldId() != textFieldId) {
                stale.add(payload);
                continue;
            }
            if (!names.add(payload.fileName())) {
                throw new IllegalStateException(
                        "Active full-text payload "
                                + payload.fileName()
                                + " appears more than once in the index manifest.");
            }
            long total = header.sourceMeta().totalRowCount();
            if (payload.rowCount() != total || header.rowCount() != total) {
                throw new IllegalStateException(
                        "Full-text archive "
                                + payload.fileName()
                                + " row metadata does not match its source files"
                                + " (manifest rows "
                                + payload.rowCount()
                                + ", header rows "
                                + header.rowCount()
                                + ", source rows "
                                + total
                                + ").");
            }
            for (SourceFile source : header.sourceMeta().sourceFiles()) {
                IndexFileMeta previous = bySource.putIfAbsent(source.fileName(), payload);
                if (previous != null) {
                    throw new IllegalStateException(
                            "Source data file "
                                    + source.fileName()
                                    + " is covered by both full-text archives "
                                    + previous.fileName()
                                    + " and "
                                    + payload.fileName()
                                    + ".");
                }
            }
            current.add(payload);
        }
        return new BucketIndexState(current, stale, bySource);
    }

    /** Lenient classification against the active data files (only eligible ones count). */
    public static BucketIndexState fromActiveDataFiles(
            int textFieldId,
            Collection<DataFileMeta> activeDataFiles,
            Collection<IndexFileMeta> payloads,
            HeaderLookup headers) {
        List<DataFileMeta> eligible = new ArrayList<>();
        for (DataFileMeta file : activeDataFiles) {
            if (SourcePolicy.isSource(file)) {
                eligible.add(file);
            }
        }
        TreeMap<Integer, List<DataFileMeta>> desired = LevelPlanner.desiredByLevel(eligible);
        List<IndexFileMeta> stale = new ArrayList<>();
        TreeMap<Integer, List<IndexFileMeta>> byLevel = new TreeMap<>();
        for (IndexFileMeta payload : payloads) {
            if (!ArchiveFiles.INDEX_TYPE.equals(payload.indexType())) {
                continue;
            }
            try {
                ArchiveHeader header = headers.header(payload);
                if (header.textFieldId() != textFieldId) {
                    stale.add(payload);
                    continue;
                }
                int level = header.sourceMeta().dataLevel();
                List<DataFileMeta> files = desired.get(level);
                if (files == null
                        || !LevelPlanner.sameSources(header.sourceMeta().sourceFiles(), files)) {
                    stale.add(payload);
                    continue;
                }
                strict(textFieldId, Collections.singletonList(payload), headers);
                byLevel.computeIfAbsent(level, l -> new ArrayList<>()).add(payload);
            } catch (Exception e) {
                stale.add(payload);
            }
        }
        List<IndexFileMeta> current = new ArrayList<>();
        List<IndexFileMeta> duplicates = new ArrayList<>();
        for (List<IndexFileMeta> level : byLevel.values()) {
            if (level.size() == 1) {
                current.add(level.get(0));
            } else {
                duplicates.addAll(level);
            }
        }
        stale.addAll(duplicates);
        Map<String, IndexFileMeta> bySource = new LinkedHashMap<>();
        for (IndexFileMeta payload : current) {
            try {
                for (SourceFile source : headers.header(payload).sourceMeta().sourceFiles()) {
                    bySource.put(source.fileName(), payload);
                }
            } catch (IOException e) {
                throw new IllegalStateException(
                        "Header of " + payload.fileName() + " became unreadable.", e);
            }
        }
        return new BucketIndexState(current, stale, bySource);
    }

    @Override
    public String toString() {
        return "BucketIndexState{current=" + names(current) + ", stale=" + names(stale) + "}";
    }

    private static List<String> names(List<IndexFileMeta> metas) {
        List<String> names = new ArrayList<>();
        for (IndexFileMeta m : metas) {
            names.add(m.fileName());
        }
        return names;
    }
}
