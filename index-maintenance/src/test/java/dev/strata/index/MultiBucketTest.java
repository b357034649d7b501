package dev.strata.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.index.search.SearchHit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableWriteImpl;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partitioned table with several buckets: every bucket's archive lands in one compaction commit.
 */
class MultiBucketTest {

    @TempDir Path dir;

    private FileStoreTable createTable(boolean indexInBucketDir) throws Exception {
        Options options = new Options();
        options.set("warehouse", dir.resolve("wh").toString());
        Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
        catalog.createDatabase("db", true);
        Schema.Builder schema =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("dt", DataTypes.STRING().notNull())
                        .column("body", DataTypes.STRING())
                        .partitionKeys("dt")
                        .primaryKey("id", "dt")
                        .option("bucket", "3")
                        .option("deletion-vectors.enabled", "true")
                        .option("compaction.force-rewrite-all-files", "true")
                        .option("strata-full-text.index.columns", "body")
                        .option(
                                "fields.body.strata-full-text.index.options",
                                "{\"analyzer\":\"english\"}");
        if (indexInBucketDir) {
            schema.option("index-file-in-data-file-dir", "true");
        }
        catalog.createTable(Identifier.create("db", "kb"), schema.build(), false);
        return (FileStoreTable) catalog.getTable(Identifier.create("db", "kb"));
    }

    private static void commit(FileStoreTable table, List<CommitMessage> messages)
            throws Exception {
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(messages);
        }
    }

    private void writeAndCompact(FileStoreTable table) throws Exception {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (TableWriteImpl<?> write = (TableWriteImpl<?>) builder.newWrite()) {
            write.withIOManager(IOManager.create(dir.resolve("io").toString()));
            for (int i = 0; i < 60; i++) {
                String dt = i % 2 == 0 ? "2026-11-01" : "2026-11-02";
                write.write(
                        GenericRow.of(
                                (long) i,
                                BinaryString.fromString(dt),
                                BinaryString.fromString("the disks were failing in row " + i)));
            }
            commit(table, write.prepareCommit());
        }
        Set<BinaryRow> partitions = new LinkedHashSet<>();
        Set<String> pairs = new LinkedHashSet<>();
        List<ManifestEntry> entries = table.store().newScan().plan().files();
        try (TableWriteImpl<?> write = (TableWriteImpl<?>) builder.newWrite();
                PkFullTextWriteHook hook =
                        PkFullTextWriteHook.create(
                                table, table.snapshotManager().latestSnapshotId(), null)) {
            write.withIOManager(IOManager.create(dir.resolve("io").toString()));
            for (ManifestEntry e : entries) {
                if (pairs.add(e.partition().toString() + "/" + e.bucket())) {
                    partitions.add(e.partition());
                    write.compact(e.partition(), e.bucket(), true);
                }
            }
            commit(table, hook.prepareCommit(write.prepareCommit(), true));
        }
        assertThat(partitions).hasSize(2);
    }

    @Test
    void everyBucketOfEveryPartitionGetsItsArchiveInOneCommitAndIsSearchable() throws Exception {
        FileStoreTable table = createTable(false);
        writeAndCompact(table);
        long snapshot = table.snapshotManager().latestSnapshotId();
        List<ManifestEntry> entries = table.store().newScan().plan().files();
        Set<String> buckets = new LinkedHashSet<>();
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        List<SearchHit> all = new ArrayList<>();
        for (ManifestEntry e : entries) {
            if (!buckets.add(e.partition().getString(0) + "/" + e.bucket())) {
                continue;
            }
            List<IndexFileMeta> archives =
                    searcher.currentArchives(snapshot, e.partition(), e.bucket());
            assertThat(archives).as("archive of %s", buckets).hasSize(1);
            // english analyzer: "fail" matches "failing", the stop word "the" matches nothing.
            PkFullTextSearcher.BucketResult result =
                    searcher.search(snapshot, e.partition(), e.bucket(), "fail", 100);
            assertThat(result.unsearchableRows()).isZero();
            all.addAll(result.hits());
            assertThat(searcher.search(snapshot, e.partition(), e.bucket(), "the", 100).hits())
                    .isEmpty();
        }
        assertThat(buckets.size()).isGreaterThan(2);
        assertThat(BucketRef.list(table, snapshot, null)).hasSize(buckets.size());
        org.apache.paimon.predicate.Predicate first =
                new org.apache.paimon.predicate.PredicateBuilder(
                                table.schema().logicalPartitionType())
                        .equal(0, BinaryString.fromString("2026-11-01"));
        List<BucketRef> refs = BucketRef.list(table, snapshot, first);
        assertThat(refs)
                .isNotEmpty()
                .allSatisfy(
                        r ->
                                assertThat(r.partition().getString(0).toString())
                                        .isEqualTo("2026-11-01"));
        assertThat(all).hasSize(60);
        List<SearchHit> top = PkFullTextSearcher.topK(all, 5);
        assertThat(top).hasSize(5);
        for (int i = 1; i < top.size(); i++) {
            assertThat(SearchHit.RANKING.compare(top.get(i - 1), top.get(i))).isNegative();
        }
    }

    @Test
    void archivesCanLiveInTheBucketDirectory() throws Exception {
        FileStoreTable table = createTable(true);
        writeAndCompact(table);
        long snapshot = table.snapshotManager().latestSnapshotId();
        ManifestEntry e = table.store().newScan().plan().files().get(0);
        List<IndexFileMeta> archives =
                PkFullTextSearcher.create(table)
                        .currentArchives(snapshot, e.partition(), e.bucket());
        assertThat(archives).hasSize(1);
        org.apache.paimon.fs.Path path =
                dev.strata.index.archive.ArchiveFiles.of(table, e.partition(), e.bucket())
                        .path(archives.get(0));
        assertThat(path.getParent().getName()).isEqualTo("bucket-" + e.bucket());
        assertThat(
                        PkFullTextSearcher.create(table)
                                .search(snapshot, e.partition(), e.bucket(), "disk", 10)
                                .hits())
                .isNotEmpty();
    }
}
