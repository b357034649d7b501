package dev.strata.index.archive;

import java.io.IOException;
import java.util.List;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;

/** Builds one archive over the complete, name-ordered files of one data level. */
public interface ArchiveBuilder {

    /**
     * Builds and writes the archive, returning its manifest record. On failure no file is left
     * behind.
     *
     * @param sources the level's files in name order, all at the same level above 0, each with rows
     */
    IndexFileMeta build(List<DataFileMeta> sources) throws IOException;
}
