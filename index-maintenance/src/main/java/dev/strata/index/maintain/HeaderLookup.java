package dev.strata.index.maintain;

import dev.strata.index.archive.ArchiveHeader;

import org.apache.paimon.index.IndexFileMeta;

import java.io.IOException;

/** Finds the header of a recorded archive (usually through a cache keyed by file name). */
@FunctionalInterface
public interface HeaderLookup {
    ArchiveHeader header(IndexFileMeta archive) throws IOException;
}
