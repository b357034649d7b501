package dev.strata.index;

import java.io.Serializable;
import org.apache.paimon.data.BinaryRow;

/**
 * What a rebuild did to one level of one bucket: {@code action} is {@code built}, {@code retired}
 * (removed, nothing built in its place) or {@code kept} (already current); counts describe that
 * archive. {@code level} is -1 for a retired archive whose header could not be read.
 */
public final class LevelReport implements Serializable {

    private static final long serialVersionUID = 1L;

    private final BinaryRow partition;
    private final int bucket;
    private final int level;
    private final String action;
    private final int sourceFiles;
    private final long rowsIndexed;
    private final long archiveBytes;

    LevelReport(
            BinaryRow partition,
            int bucket,
            int level,
            String action,
            int sourceFiles,
            long rowsIndexed,
            long archiveBytes) {
        this.partition = partition;
        this.bucket = bucket;
        this.level = level;
        this.action = action;
        this.sourceFiles = sourceFiles;
        this.rowsIndexed = rowsIndexed;
        this.archiveBytes = archiveBytes;
    }

    public BinaryRow partition() {
        return partition;
    }

    public int bucket() {
        return bucket;
    }

    public int level() {
        return level;
    }

    public String action() {
        return action;
    }

    public int sourceFiles() {
        return sourceFiles;
    }

    public long rowsIndexed() {
        return rowsIndexed;
    }

    public long archiveBytes() {
        return archiveBytes;
    }

    @Override
    public String toString() {
        return "LevelReport{bucket="
                + bucket
                + ", level="
                + level
                + ", action="
                + action
                + ", sourceFiles="
                + sourceFiles
                + ", rows="
                + rowsIndexed
                + ", bytes="
                + archiveBytes
                + "}";
    }
}
