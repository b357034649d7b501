package dev.strata.index.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.PkFullTextWriteHook;
import dev.strata.index.fixtures.PkTable;
import dev.strata.shredding.io.DamagedFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.index.IndexFileMeta;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenArchivesTest {

    @TempDir Path dir;

    private ArchiveFiles files;
    private IndexFileMeta archive;
    private Path local;

    @BeforeEach
    void buildOneArchive() throws Exception {
        PkTable t = PkTable.create(dir, PkTable.defaultOptions());
        t.write(
                Arrays.asList(
                        PkTable.row(1, "lake format"), PkTable.row(2, "paimon full text search")),
                null);
        try (PkFullTextWriteHook hook =
                PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
            t.compact(hook);
        }
        archive = t.archives().get(0);
        files = ArchiveFiles.of(t.table(), BinaryRow.EMPTY_ROW, 0);
        local = Paths.get(files.path(archive).toUri().getPath());
    }

    @Test
    void aSecondSearchReusesTheOpenArchive() throws Exception {
        OpenArchives cache = new OpenArchives(4);
        ArchiveReader first;
        try (OpenArchives.Lease lease = cache.acquire(files, archive)) {
            first = lease.reader();
            assertThat(first.indexReader().numDocs()).isEqualTo(2);
        }
        try (OpenArchives.Lease lease = cache.acquire(files, archive)) {
            assertThat(lease.reader()).isSameAs(first);
        }
        assertThat(cache.size()).isEqualTo(1);
        cache.clear();
        assertThat(cache.size()).isZero();
        assertThat(first.indexReader().getRefCount()).as("closed on clear").isZero();
    }

    @Test
    void anEvictedArchiveClosesOnlyAfterItsLastLease() throws Exception {
        OpenArchives cache = new OpenArchives(0);
        OpenArchives.Lease lease = cache.acquire(files, archive);
        ArchiveReader reader = lease.reader();
        assertThat(cache.size()).isZero();
        assertThat(reader.indexReader().getRefCount()).isEqualTo(1);
        lease.close();
        assertThat(reader.indexReader().getRefCount()).as("closed with its last lease").isZero();
        assertThatThrownBy(lease::reader)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lease");
    }

    @Test
    void aFileRewrittenInPlaceIsOpenedAndCheckedAgain() throws Exception {
        OpenArchives cache = new OpenArchives(4);
        try (OpenArchives.Lease lease = cache.acquire(files, archive)) {
            assertThat(lease.reader().indexReader().numDocs()).isEqualTo(2);
        }
        // Damaged in the commit file, which Lucene checks entirely when it opens the index.
        long[] commit = PackedFiles.find(files, archive, "segments_");
        byte[] bytes = Files.readAllBytes(local);
        bytes[(int) (commit[0] + commit[1] / 2)] ^= 0x10;
        FileTime before = Files.getLastModifiedTime(local);
        Files.write(local, bytes);
        Files.setLastModifiedTime(local, FileTime.fromMillis(before.toMillis() + 2000));
        assertThatThrownBy(() -> cache.acquire(files, archive))
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining("checksum");
        cache.clear();
    }

    @Test
    void anArchiveDroppedWhileInUseIsClosedWithItsLastLeaseAndNotBefore() throws Exception {
        PkTable other = PkTable.create(dir.resolve("other"), PkTable.defaultOptions());
        other.write(Arrays.asList(PkTable.row(7, "another archive")), null);
        try (PkFullTextWriteHook hook =
                PkFullTextWriteHook.create(other.table(), other.latestSnapshotId(), null)) {
            other.compact(hook);
        }
        ArchiveFiles otherFiles = ArchiveFiles.of(other.table(), BinaryRow.EMPTY_ROW, 0);
        IndexFileMeta otherArchive = other.archives().get(0);

        OpenArchives cache = new OpenArchives(1);
        OpenArchives.Lease held = cache.acquire(files, archive);
        ArchiveReader leased = held.reader();
        ArchiveReader second;
        try (OpenArchives.Lease lease = cache.acquire(otherFiles, otherArchive)) {
            second = lease.reader();
        }
        assertThat(cache.size()).as("one archive kept").isEqualTo(1);
        // Whichever of the two the cache dropped, the leased one is still open.
        assertThat(leased.indexReader().getRefCount()).isEqualTo(1);
        cache.clear();
        assertThat(second.indexReader().getRefCount()).as("unused: closed when dropped").isZero();
        assertThat(leased.indexReader().getRefCount()).as("dropped but leased").isEqualTo(1);
        assertThat(leased.indexReader().numDocs()).isEqualTo(2);
        // The same archive asked for again is opened afresh, not taken from under the lease.
        try (OpenArchives.Lease again = cache.acquire(files, archive)) {
            assertThat(again.reader()).isNotSameAs(leased);
            assertThat(again.reader().indexReader().numDocs()).isEqualTo(2);
        }
        held.close();
        held.close();
        assertThat(leased.indexReader().getRefCount()).as("closed with its last lease").isZero();
        cache.clear();
        assertThat(cache.size()).isZero();
    }

    @Test
    void aNegativeCapacityIsRefused() {
        assertThatThrownBy(() -> new OpenArchives(-1))
                .hasMessageContaining("capacity must be >= 0, found -1");
    }
}
