package dev.strata.index;

import dev.strata.shredding.cache.BoundedCache;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.manifest.BucketEntry;
import org.apache.paimon.table.FileStoreTable;

/**
 * The files and deletion vectors of (partition, bucket)s in snapshots, remembered per JVM so
 * repeated queries and row reads skip the manifest scan (a snapshot never changes). Keyed by the
 * table's location and the snapshot's id, commit time and manifest lists, unique per snapshot even
 * when a table is re-created at the same path.
 */
final class SnapshotBuckets {

    private static final int CAPACITY = 512;
    private static final SnapshotBuckets SHARED = new SnapshotBuckets();

    private final BoundedCache<Key, Cached> entries = BoundedCache.of(CAPACITY);

    /** The (partition, bucket)s of recent snapshots, with their file and row counts. */
    private final BoundedCache<Key, List<BucketEntry>> bucketEntries =
            BoundedCache.of(ENTRIES_CAPACITY);

    private static final int ENTRIES_CAPACITY = 32;

    /** Deletion-vector files whose checksums were verified (immutable: once per JVM is enough). */
    private final BoundedCache<String, Boolean> verifiedDeletionFiles =
            BoundedCache.of(VERIFIED_CAPACITY);

    private static final int VERIFIED_CAPACITY = 16_384;

    static SnapshotBuckets shared() {
        return SHARED;
    }

    /**
     * Snapshot {@code id} of {@code table}, also after it expired while a tag still holds it: a tag
     * keeps its snapshot's files, and a read of the tag plans splits with that snapshot's id.
     */
    static Snapshot snapshot(FileStoreTable table, long id) {
        try {
            return table.snapshotManager().tryGetSnapshot(id);
        } catch (FileNotFoundException e) {
            for (Snapshot tagged : table.tagManager().taggedSnapshots()) {
                if (tagged.id() == id) {
                    return tagged;
                }
            }
            throw new IllegalStateException(
                    "Cannot read snapshot "
                            + id
                            + " of table "
                            + table.fullName()
                            + ": it expired and no tag holds it. Query a snapshot of the table's"
                            + " $snapshots or a tag of its $tags system table.",
                    e);
        }
    }

    /** Every (partition, bucket) of the snapshot with its file and row counts (read-only). */
    List<BucketEntry> bucketEntries(FileStoreTable table, Snapshot snapshot) {
        Key key = new Key(table.location().toString(), snapshot, BinaryRow.EMPTY_ROW, 0);
        List<BucketEntry> c = bucketEntries.get(key);
        if (c != null) {
            return c;
        }
        List<BucketEntry> read =
                List.copyOf(table.store().newScan().withSnapshot(snapshot).readBucketEntries());
        return bucketEntries.putIfAbsent(key, read);
    }

    boolean deletionFileVerified(String path) {
        return verifiedDeletionFiles.get(path) != null;
    }

    void rememberDeletionFileVerified(String path) {
        verifiedDeletionFiles.put(path, Boolean.TRUE);
    }

    BucketFiles files(FileStoreTable table, Snapshot snapshot, BinaryRow partition, int bucket) {
        return cached(table, snapshot, partition, bucket).files;
    }

    Map<String, DeletionVector> deletionVectors(
            FileStoreTable table, Snapshot snapshot, BinaryRow partition, int bucket)
            throws IOException {
        Cached c = cached(table, snapshot, partition, bucket);
        Map<String, DeletionVector> dvs = c.deletionVectors;
        if (dvs == null) {
            dvs = c.files.deletionVectors(table, partition, bucket);
            c.deletionVectors = dvs;
        }
        return dvs;
    }

    private Cached cached(
            FileStoreTable table, Snapshot snapshot, BinaryRow partition, int bucket) {
        Key key = new Key(table.location().toString(), snapshot, partition, bucket);
        Cached c = entries.get(key);
        if (c != null) {
            return c;
        }
        return entries.putIfAbsent(
                key, new Cached(BucketFiles.read(table, snapshot, partition, bucket)));
    }

    private static final class Cached {
        final BucketFiles files;
        volatile Map<String, DeletionVector> deletionVectors;

        Cached(BucketFiles files) {
            this.files = files;
        }
    }

    private static final class Key {
        final String location;
        final long snapshotId;
        final long timeMillis;
        final String manifests;
        final byte[] partition;
        final int bucket;

        Key(String location, Snapshot snapshot, BinaryRow partition, int bucket) {
            this.location = location;
            this.snapshotId = snapshot.id();
            this.timeMillis = snapshot.timeMillis();
            this.manifests =
                    snapshot.baseManifestList()
                            + "/"
                            + snapshot.deltaManifestList()
                            + "/"
                            + snapshot.indexManifest();
            this.partition = partition.toBytes();
            this.bucket = bucket;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return snapshotId == k.snapshotId
                    && timeMillis == k.timeMillis
                    && bucket == k.bucket
                    && location.equals(k.location)
                    && manifests.equals(k.manifests)
                    && Arrays.equals(partition, k.partition);
        }

        @Override
        public int hashCode() {
            return Objects.hash(location, snapshotId, bucket, Arrays.hashCode(partition));
        }
    }
}
