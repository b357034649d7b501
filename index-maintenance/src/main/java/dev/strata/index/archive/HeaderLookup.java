package dev.strata.index.archive;

import java.io.IOException;
import org.apache.paimon.index.IndexFileMeta;

/** Finds the header of a recorded archive (usually through a cached {@code ArchiveHeaders}). */
@FunctionalInterface
public interface HeaderLookup {
    ArchiveHeader header(IndexFileMeta archive) throws IOException;
}
