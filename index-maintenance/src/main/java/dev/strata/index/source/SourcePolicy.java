package dev.strata.index.source;

import java.util.Optional;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.FileSource;

/**
 * Which data files an archive may index: every file at a level above 0, whatever wrote it. Level 0
 * is never indexed (its files overlap and the next compaction merges them away).
 *
 * <p>Unlike Paimon's own index, which admits only files a compaction rewrote ({@link
 * FileSource#COMPACT}), Strata also indexes files a compaction merely moved up a level (still
 * {@code APPEND}), such as a small INSERT's rows after the writer's compaction of a deletion-vector
 * table, which would otherwise be readable but never searchable.
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
