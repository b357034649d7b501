package dev.strata.index.source;

import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.FileSource;

import java.util.Optional;

/**
 * Which data files an archive may index: files written by a compaction ({@link FileSource#COMPACT}) at a
 * level above 0. Level-0 flush output and files whose source is unknown are never indexed; a file keeps its
 * source when it is only moved to another level, so an upgraded append file stays ineligible.
 */
public final class SourcePolicy {

    private SourcePolicy() {}

    /** Whether {@code file} is an eligible archive source. */
    public static boolean isSource(DataFileMeta file) {
        return isSource(file.fileSource(), file.level());
    }

    /** The same rule on raw values. */
    public static boolean isSource(Optional<FileSource> source, int level) {
        return source.isPresent() && source.get() == FileSource.COMPACT && level > 0;
    }
}
