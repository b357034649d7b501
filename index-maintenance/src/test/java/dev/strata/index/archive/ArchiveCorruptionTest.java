package dev.strata.index.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.LevelReport;
import dev.strata.index.PkFullTextRebuild;
import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.PkFullTextWriteHook;
import dev.strata.index.fixtures.PkTable;
import dev.strata.index.maintain.BucketIndexState;
import dev.strata.shredding.io.DamagedFileException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArchiveCorruptionTest {

    @TempDir Path dir;

    private PkTable t;
    private IndexFileMeta archive;
    private ArchiveFiles files;
    private Path local;

    @BeforeEach
    void buildOneArchive() throws Exception {
        t = PkTable.create(dir, PkTable.defaultOptions());
        t.write(
                Arrays.asList(
                        PkTable.row(1, "lake format"),
                        PkTable.row(2, "paimon full text search"),
                        PkTable.row(3, "apache paimon")),
                null);
        try (PkFullTextWriteHook hook =
                PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
            t.compact(hook);
        }
        archive = t.archives().get(0);
        files = ArchiveFiles.of(t.table(), BinaryRow.EMPTY_ROW, 0);
        local = Paths.get(files.path(archive).toUri().getPath());
    }

    private void rewrite(byte[] bytes) throws Exception {
        Files.write(local, bytes);
    }

    private DamagedFileException openFails() {
        Throwable thrown = null;
        try (ArchiveReader ignored = ArchiveReader.open(files, archive, new ArchiveHeaders(true))) {
            // not expected
        } catch (Throwable e) {
            thrown = e;
        }
        assertThat(thrown).isInstanceOf(DamagedFileException.class);
        assertThat(thrown.getMessage())
                .contains(local.getFileName().toString())
                .contains(": expected ")
                .contains(", found ");
        DamagedFileException damaged = (DamagedFileException) thrown;
        assertThat(damaged.file()).endsWith(local.getFileName().toString());
        assertThat(damaged.expected()).isPresent();
        assertThat(damaged.found()).isPresent();
        return damaged;
    }

    private BucketIndexState classify(boolean verifyContent) {
        ArchiveHeaders headers = new ArchiveHeaders(verifyContent);
        return BucketIndexState.fromActiveDataFiles(
                1, t.dataFiles(), t.archives(), a -> headers.header(files, a));
    }

    @Test
    void intactArchiveIsCurrent() {
        assertThat(classify(true).currentPayloads()).containsExactly(archive);
    }

    @Test
    void flippedByteInsideThePackedIndexFailsTheChecksum() throws Exception {
        byte[] bytes = Files.readAllBytes(local);
        bytes[bytes.length / 2] ^= 0x10;
        rewrite(bytes);
        assertThat(openFails().getMessage()).contains("checksum failed");
        assertThat(classify(true).stalePayloads()).containsExactly(archive);
        // Search reports the corruption instead of answering from a damaged index.
        assertThatThrownBy(
                        () ->
                                PkFullTextSearcher.create(t.table())
                                        .search(
                                                t.latestSnapshotId(),
                                                BinaryRow.EMPTY_ROW,
                                                0,
                                                "paimon",
                                                3))
                .isInstanceOf(DamagedFileException.class);
        // A rebuild retires the corrupt archive and builds a replacement for its level.
        PkFullTextRebuild.Result result =
                PkFullTextRebuild.run(
                        t.table(), t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, false, null);
        t.commit(result.messages());
        assertThat(t.archives()).hasSize(1).doesNotContain(archive);
        assertThat(result.report()).extracting(LevelReport::action).containsExactly("built");
        assertThat(
                        PkFullTextSearcher.create(t.table())
                                .search(t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, "paimon", 3)
                                .hits())
                .hasSize(2);
    }

    @Test
    void flippedHeaderByteFailsTheHeaderChecksumAndTheWriterReplacesTheArchive() throws Exception {
        byte[] bytes = Files.readAllBytes(local);
        bytes[20] ^= 0x01;
        rewrite(bytes);
        assertThat(openFails().getMessage()).contains("header checksum");
        assertThat(classify(false).stalePayloads()).containsExactly(archive);
        // The next compaction of a writer restored from this snapshot retires and rebuilds it.
        t.write(Collections.singletonList(PkTable.row(4, "fresh row")), null);
        try (PkFullTextWriteHook hook =
                PkFullTextWriteHook.create(t.table(), t.latestSnapshotId(), null)) {
            t.compact(hook);
        }
        List<IndexFileMeta> now = t.archives();
        assertThat(now).hasSize(1).doesNotContain(archive);
        assertThat(classify(true).currentPayloads()).isEqualTo(now);
    }

    @Test
    void truncatedArchiveIsRejected() throws Exception {
        byte[] bytes = Files.readAllBytes(local);
        rewrite(Arrays.copyOf(bytes, bytes.length - 7));
        assertThat(openFails().getMessage()).contains("file size recorded in the index manifest");
        assertThat(classify(false).stalePayloads()).containsExactly(archive);
    }

    @Test
    void truncationIsDetectedEvenWhenTheRecordedSizeMatches() throws Exception {
        byte[] bytes = Files.readAllBytes(local);
        byte[] cut = Arrays.copyOf(bytes, bytes.length - 7);
        rewrite(cut);
        IndexFileMeta lying =
                new IndexFileMeta(
                        archive.indexType(),
                        archive.fileName(),
                        cut.length,
                        archive.rowCount(),
                        (org.apache.paimon.index.GlobalIndexMeta) null,
                        null);
        assertThatThrownBy(() -> new ArchiveHeaders(false).header(files, lying))
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining("footer")
                .hasMessageContaining(local.getFileName().toString());
    }

    @Test
    void wrongVersionIsRejected() throws Exception {
        byte[] bytes = Files.readAllBytes(local);
        ByteBuffer.wrap(bytes).putInt(4, 99);
        rewrite(bytes);
        assertThat(openFails().getMessage())
                .contains("unsupported archive version")
                .contains("expected 1 or 2, found 99");
        assertThat(classify(false).stalePayloads()).containsExactly(archive);
    }

    @Test
    void wrongMagicIsRejected() throws Exception {
        byte[] bytes = Files.readAllBytes(local);
        ByteBuffer.wrap(bytes).putInt(0, 0x12345678);
        rewrite(bytes);
        assertThat(openFails().getMessage())
                .contains("wrong magic")
                .contains("expected 0x53544654, found 0x12345678");
        assertThat(classify(false).stalePayloads()).containsExactly(archive);
    }

    /** A copy of the table directory (a copied or restored table), opened as its own table. */
    private FileStoreTable copyOfTable(String name) throws Exception {
        Path source = Paths.get(t.table().location().toUri().getPath());
        Path target = source.resolveSibling(name);
        try (Stream<Path> all = Files.walk(source)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Files.copy(
                        p,
                        target.resolve(source.relativize(p).toString()),
                        StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return FileStoreTableFactory.create(
                t.table().fileIO(),
                new org.apache.paimon.fs.Path(target.toUri()),
                t.table().schema());
    }

    @Test
    void aDamagedCopyOfAVerifiedArchiveIsVerifiedAgain() throws Exception {
        ArchiveHeaders headers = new ArchiveHeaders(true);
        headers.verify(files, archive);
        FileStoreTable copy = copyOfTable("docs_restored");
        ArchiveFiles copyFiles = ArchiveFiles.of(copy, BinaryRow.EMPTY_ROW, 0);
        Path copyLocal = Paths.get(copyFiles.path(archive).toUri().getPath());
        assertThat(copyLocal.getFileName()).isEqualTo(local.getFileName());
        byte[] bytes = Files.readAllBytes(copyLocal);
        bytes[bytes.length / 2] ^= 0x10;
        FileTime time = Files.getLastModifiedTime(local);
        Files.write(copyLocal, bytes);
        Files.setLastModifiedTime(copyLocal, time);
        assertThatThrownBy(() -> headers.verify(copyFiles, archive))
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining("checksum failed")
                .hasMessageContaining(copyLocal.toString());
        assertThatThrownBy(() -> ArchiveReader.open(copyFiles, archive, headers).close())
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining(copyLocal.toString());
        // The original stays verified and searchable; the JVM's searches check the copy before
        // answering.
        assertThat(headers.verify(files, archive)).isNotNull();
        assertThat(
                        PkFullTextSearcher.create(t.table())
                                .search(t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, "paimon", 3)
                                .hits())
                .hasSize(2);
        assertThatThrownBy(
                        () ->
                                PkFullTextSearcher.create(copy)
                                        .search(
                                                t.latestSnapshotId(),
                                                BinaryRow.EMPTY_ROW,
                                                0,
                                                "paimon",
                                                3))
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining(copyLocal.toString());
    }

    @Test
    void anIntactCopyIsServedAndAnArchiveDamagedInPlaceIsVerifiedAgain() throws Exception {
        ArchiveHeaders headers = new ArchiveHeaders(true);
        ArchiveHeader original = headers.verify(files, archive);
        FileStoreTable copy = copyOfTable("docs_copy");
        assertThat(headers.verify(ArchiveFiles.of(copy, BinaryRow.EMPTY_ROW, 0), archive))
                .isEqualTo(original);
        // Restored in place from a damaged backup: same path, same length, same modification time.
        byte[] bytes = Files.readAllBytes(local);
        FileTime time = Files.getLastModifiedTime(local);
        ByteBuffer.wrap(bytes)
                .putLong(bytes.length - 8, ByteBuffer.wrap(bytes).getLong(bytes.length - 8) ^ 0x5a);
        rewrite(bytes);
        Files.setLastModifiedTime(local, time);
        assertThatThrownBy(() -> headers.verify(files, archive))
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining("checksum failed")
                .hasMessageContaining(local.toString());
    }
}
