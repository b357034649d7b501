package dev.strata.index;

import dev.strata.index.archive.ArchiveBuilder;
import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeaders;
import dev.strata.index.archive.DataFileTextReader;
import dev.strata.index.archive.HeaderLookup;
import dev.strata.index.archive.LuceneArchiveBuilder;
import dev.strata.index.maintain.BucketMaintainer;
import dev.strata.index.options.FullTextDefinition;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.FileStoreTable;

/** Real maintainer parts for bucket 0 of a non-partitioned test table. */
public final class TestMaintainers {

    private TestMaintainers() {}

    public static FullTextDefinition definition(FileStoreTable table) {
        return PkFullTextIndex.definition(table);
    }

    public static ArchiveFiles files(FileStoreTable table) {
        return ArchiveFiles.of(table, BinaryRow.EMPTY_ROW, 0);
    }

    public static LuceneArchiveBuilder builder(FileStoreTable table) {
        FullTextDefinition def = definition(table);
        return new LuceneArchiveBuilder(
                files(table),
                DataFileTextReader.factory(table, BinaryRow.EMPTY_ROW, 0, def.field()),
                def.fieldId(),
                def.analyzer(),
                null,
                16);
    }

    public static HeaderLookup headers(FileStoreTable table) {
        ArchiveHeaders cache = new ArchiveHeaders(false);
        ArchiveFiles files = files(table);
        return a -> cache.header(files, a);
    }

    /** The data files of bucket 0 in a snapshot. */
    public static List<DataFileMeta> dataFiles(FileStoreTable table, long snapshotId) {
        return BucketFiles.read(
                        table, table.snapshotManager().snapshot(snapshotId), BinaryRow.EMPTY_ROW, 0)
                .dataFiles;
    }

    /** The archive entries of bucket 0 in a snapshot. */
    public static List<IndexFileMeta> archives(FileStoreTable table, long snapshotId) {
        return BucketFiles.read(
                        table, table.snapshotManager().snapshot(snapshotId), BinaryRow.EMPTY_ROW, 0)
                .archives;
    }

    /** A maintainer restored from a snapshot (null: empty), building with {@code builder}. */
    public static BucketMaintainer restore(
            FileStoreTable table,
            Long snapshotId,
            ArchiveBuilder builder,
            ExecutorService executor) {
        Snapshot snapshot =
                snapshotId == null ? null : table.snapshotManager().snapshot(snapshotId);
        BucketFiles restored =
                snapshot == null
                        ? BucketFiles.empty(table)
                        : BucketFiles.read(table, snapshot, BinaryRow.EMPTY_ROW, 0);
        return restore(table, restored.dataFiles, restored.archives, builder, executor);
    }

    public static BucketMaintainer restore(
            FileStoreTable table,
            Collection<DataFileMeta> dataFiles,
            Collection<IndexFileMeta> archives,
            ArchiveBuilder builder,
            ExecutorService executor) {
        return new BucketMaintainer(
                definition(table).fieldId(),
                files(table),
                builder,
                headers(table),
                dataFiles,
                archives,
                executor);
    }
}
