package dev.strata.index;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeader;
import dev.strata.index.archive.ArchiveHeaders;
import dev.strata.index.archive.DataFileTextReader;
import dev.strata.index.archive.HeaderLookup;
import dev.strata.index.archive.LuceneArchiveBuilder;
import dev.strata.index.maintain.BucketIndexState;
import dev.strata.index.maintain.BucketMaintainer;
import dev.strata.index.options.FullTextDefinition;
import java.util.concurrent.ExecutorService;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;

/**
 * Creates bucket maintainers of one table, sharing a header cache. An archive built with other
 * analyzer settings than the table's is stale, so the next blocking commit rebuilds it.
 */
final class Maintainers {

    static final double RAM_BUFFER_MB = 128;

    final FileStoreTable table;
    final FullTextDefinition definition;
    final ArchiveHeaders headers;
    final java.nio.file.Path localTempDir;

    Maintainers(FileStoreTable table, boolean verifyContent, java.nio.file.Path localTempDir) {
        this(table, new ArchiveHeaders(verifyContent), localTempDir);
    }

    Maintainers(FileStoreTable table, ArchiveHeaders headers, java.nio.file.Path localTempDir) {
        this.table = table;
        this.definition = PkFullTextIndex.definition(table);
        this.headers = headers;
        this.localTempDir = localTempDir;
    }

    BucketFiles bucketFiles(Snapshot snapshot, BinaryRow partition, int bucket) {
        return snapshot == null
                ? BucketFiles.empty(table)
                : BucketFiles.read(table, snapshot, partition, bucket);
    }

    /**
     * {@code headers} failing for an archive built with other analyzer settings than the table's,
     * which {@link BucketIndexState#fromActiveDataFiles} therefore classifies as stale.
     * Maintenance, rebuilds and searches all classify through here, so what a rebuild replaces is
     * what searches index at query time.
     */
    HeaderLookup ofCurrentDefinition(HeaderLookup headers) {
        return archive -> {
            ArchiveHeader header = headers.header(archive);
            if (!header.analyzer().equals(definition.analyzer())) {
                throw new IllegalStateException(
                        "Full-text archive "
                                + archive.fileName()
                                + " was built with analyzer "
                                + header.analyzer()
                                + ", but the table now configures "
                                + definition.analyzer()
                                + ".");
            }
            return header;
        };
    }

    BucketMaintainer restore(
            BucketFiles restored, BinaryRow partition, int bucket, ExecutorService executor) {
        ArchiveFiles files = ArchiveFiles.of(table, partition, bucket);
        LuceneArchiveBuilder builder =
                new LuceneArchiveBuilder(
                        files,
                        DataFileTextReader.factory(table, partition, bucket, definition.field()),
                        definition.fieldId(),
                        definition.analyzer(),
                        localTempDir,
                        RAM_BUFFER_MB);
        return new BucketMaintainer(
                definition.fieldId(),
                files,
                builder,
                ofCurrentDefinition(archive -> headers.header(files, archive)),
                restored.dataFiles,
                restored.archives,
                executor);
    }
}
