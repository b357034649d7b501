package dev.strata.index.source;

import java.util.Optional;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.FileSource;

/**
 * Which data files an archive may index: every file at a level above 0, whatever wrote it. Level 0
 * is never indexed (its files overlap and are merged away by the next compaction).
 *
 * <p>Paimon's own primary-key full-text index admits only files a compaction rewrote ({@link
 * FileSource#COMPACT}), so a file that a compaction merely moves up a level keeps its {@code
 * APPEND} source and stays unindexed until it is rewritten. That is what the writer's own
 * compaction of a deletion-vector table does with the rows of a small INSERT: they would be
 * readable but never searchable. Strata indexes such a file at its new level in the same commit; a
 * level's files form one sorted run whatever their source, and deletion vectors still decide which
 * of their rows are live.
 */
public final class SourcePolicy {

    private SourcePolicy() {}

    /** Whether {@code file} is an eligible archive source. */
    public static boolean isSource(DataFileMeta file) {
        return isSource(file.fileSource(), file.level());
    }

    /** The same rule on raw values. */
    public static boolean isSource(Optional<FileSource> source, int level) {
        return level > 0;
    }
}
