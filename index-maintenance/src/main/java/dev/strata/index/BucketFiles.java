package dev.strata.index;

import dev.strata.index.archive.ArchiveFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;

/** The data files, archives and deletion-vector index files of one bucket in one snapshot. */
final class BucketFiles {

    final List<DataFileMeta> dataFiles;
    final List<IndexFileMeta> archives;
    final List<IndexFileMeta> deletionVectorFiles;
    final Integer totalBuckets;

    private BucketFiles(
            List<DataFileMeta> dataFiles,
            List<IndexFileMeta> archives,
            List<IndexFileMeta> dvFiles,
            Integer totalBuckets) {
        this.dataFiles = dataFiles;
        this.archives = archives;
        this.deletionVectorFiles = dvFiles;
        this.totalBuckets = totalBuckets;
    }

    static BucketFiles empty(FileStoreTable table) {
        int buckets = table.schema().numBuckets();
        return new BucketFiles(
                Collections.emptyList(),
                Collections.emptyList(),
                Collections.emptyList(),
                buckets > 0 ? buckets : null);
    }

    static BucketFiles read(
            FileStoreTable table, Snapshot snapshot, BinaryRow partition, int bucket) {
        List<ManifestEntry> entries =
                table.store()
                        .newScan()
                        .withSnapshot(snapshot)
                        .withPartitionBucket(partition, bucket)
                        .plan()
                        .files();
        List<DataFileMeta> files = new ArrayList<>(entries.size());
        Integer totalBuckets = null;
        for (ManifestEntry entry : entries) {
            files.add(entry.file());
            totalBuckets = entry.totalBuckets();
        }
        if (totalBuckets == null) {
            int buckets = table.schema().numBuckets();
            totalBuckets = buckets > 0 ? buckets : null;
        }
        IndexFileHandler handler = table.store().newIndexFileHandler();
        List<IndexFileMeta> archives =
                handler.scan(snapshot, ArchiveFiles.INDEX_TYPE, partition, bucket);
        List<IndexFileMeta> dvs =
                handler.scan(
                        snapshot,
                        DeletionVectorsIndexFile.DELETION_VECTORS_INDEX,
                        partition,
                        bucket);
        return new BucketFiles(files, archives, dvs, totalBuckets);
    }

    /** The deletion vectors by data file name, read after their checksums are verified. */
    Map<String, DeletionVector> deletionVectors(
            FileStoreTable table, BinaryRow partition, int bucket) throws IOException {
        if (deletionVectorFiles.isEmpty()) {
            return Collections.emptyMap();
        }
        IndexFileHandler handler = table.store().newIndexFileHandler();
        DeletionVectorsIndexFile dvIndex = handler.dvIndex(partition, bucket);
        for (IndexFileMeta meta : deletionVectorFiles) {
            DeletionVectorChecksums.verify(table.fileIO(), dvIndex.path(meta), meta);
        }
        return handler.readAllDeletionVectors(partition, bucket, deletionVectorFiles);
    }
}
