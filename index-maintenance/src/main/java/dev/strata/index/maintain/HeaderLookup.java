package dev.strata.index.maintain;

import dev.strata.index.archive.ArchiveHeader;
import java.io.IOException;
import org.apache.paimon.index.IndexFileMeta;

/**
 * Finds the header of a recorded archive (usually through {@link
 * dev.strata.index.archive.ArchiveHeaders}, cached by path, length, time and footer checksum).
 */
@FunctionalInterface
public interface HeaderLookup {
    ArchiveHeader header(IndexFileMeta archive) throws IOException;
}
