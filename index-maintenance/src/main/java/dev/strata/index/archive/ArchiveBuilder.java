package dev.strata.index.archive;

import java.io.IOException;
import java.util.List;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;

/** Builds one archive over the complete, name-ordered files of one data level. */
public interface ArchiveBuilder {

    /**
     * Builds and writes the archive over {@code sources} (one level above 0, name order, each with
     * rows) and returns its manifest record; on failure no file is left behind.
     */
    IndexFileMeta build(List<DataFileMeta> sources) throws IOException;
}
