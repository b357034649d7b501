package dev.strata.index;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeaders;
import dev.strata.index.archive.DataFileTextReader;
import dev.strata.index.archive.LuceneArchiveBuilder;
import dev.strata.index.maintain.BucketMaintainer;
import dev.strata.index.options.FullTextDefinition;

import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;

import java.util.concurrent.ExecutorService;

/** Creates bucket maintainers of one table, restored from one snapshot, sharing a header cache. */
final class Maintainers {

    static final double RAM_BUFFER_MB = 128;

    final FileStoreTable table;
    final FullTextDefinition definition;
    final ArchiveHeaders headers;
    final java.nio.file.Path localTempDir;

    Maintainers(FileStoreTable table, boolean verifyContent, java.nio.file.Path localTempDir) {
        this.table = table;
        this.definition = PkFullTextIndex.definition(table);
        this.headers = new ArchiveHeaders(verifyContent);
        this.localTempDir = localTempDir;
    }

    BucketFiles bucketFiles(Snapshot snapshot, BinaryRow partition, int bucket) {
        return snapshot == null ? BucketFiles.empty(table) : BucketFiles.read(table, snapshot, partition, bucket);
    }

    BucketMaintainer restore(BucketFiles restored, BinaryRow partition, int bucket, ExecutorService executor) {
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
                archive -> headers.header(files, archive),
                restored.dataFiles,
                restored.archives,
                executor);
    }
}
