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
import java.io.IOException;
import java.io.RandomAccessFile;
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
import org.apache.lucene.codecs.CodecUtil;
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

    /** Opening the archive fails with the damaged-file error naming it. */
    private DamagedFileException openFails() {
        Throwable thrown = null;
        try (ArchiveReader ignored = ArchiveReader.open(files, archive)) {
            // not expected
        } catch (Throwable e) {
            thrown = e;
        }
        assertThat(thrown).isInstanceOf(DamagedFileException.class);
        assertThat(thrown.getMessage()).contains(local.getFileName().toString());
        DamagedFileException damaged = (DamagedFileException) thrown;
        assertThat(damaged.file()).endsWith(local.getFileName().toString());
        return damaged;
    }

    private long[] packed(String part) throws Exception {
        return PackedFiles.find(files, archive, part);
    }

    /**
     * The last byte of the postings before their footer: Lucene checks that file's header and
     * footer when it opens the index, not its body.
     */
    private long postingsBodyByte() throws Exception {
        long[] postings = packed(".doc");
        return postings[0] + postings[1] - CodecUtil.footerLength() - 1;
    }

    /** The offset of the archive's version, right after Lucene's magic and the codec name. */
    private static int versionOffset() {
        return 4 + 1 + ArchiveFormat.CODEC.length();
    }

    private static void flip(Path file, long at, int mask) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ mask);
        }
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
    void aFlippedByteInAPackedFileFailsTheFullCheckNotTheOpenAndARebuildReplacesIt()
            throws Exception {
        flip(local, postingsBodyByte(), 0x10);
        // Opening reads the head, the footer and what Lucene checks at open, not the whole file.
        assertThat(new ArchiveHeaders(false).header(files, archive)).isNotNull();
        try (ArchiveReader reader = ArchiveReader.open(files, archive)) {
            assertThat(reader.indexReader().numDocs()).isEqualTo(3);
        }
        assertThatThrownBy(() -> new ArchiveHeaders(true).verify(files, archive))
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining("checksum failed")
                .hasMessageContaining(local.toString())
                .hasMessageContaining("rebuild_pk_fulltext");
        assertThat(classify(true).stalePayloads()).containsExactly(archive);
        // A rebuild checks whole files: it retires the damaged archive and builds its level again.
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
    void aDamagedFileLuceneChecksAtOpenFailsTheSearch() throws Exception {
        long[] commit = packed("segments_");
        flip(local, commit[0] + commit[1] / 2, 0x10);
        assertThat(openFails().getMessage()).contains("unreadable Lucene index");
        assertThatThrownBy(
                        () ->
                                PkFullTextSearcher.create(t.table())
                                        .search(
                                                t.latestSnapshotId(),
                                                BinaryRow.EMPTY_ROW,
                                                0,
                                                "paimon",
                                                3))
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining(local.toString());
    }

    @Test
    void aFailedSearchIsDiagnosedByTheFullCheck() throws Exception {
        IOException failure = new IOException("decoding failed");
        assertThat(ArchiveReader.diagnose(files, archive, failure)).isSameAs(failure);
        flip(local, postingsBodyByte(), 0x10);
        IOException diagnosed = ArchiveReader.diagnose(files, archive, failure);
        assertThat(diagnosed)
                .isInstanceOf(DamagedFileException.class)
                .hasCause(failure)
                .hasMessageContaining("checksum failed")
                .hasMessageContaining(local.toString());
        // A query Lucene refused says nothing about the file.
        IllegalArgumentException badQuery = new IllegalArgumentException("bad query");
        assertThatThrownBy(() -> ArchiveReader.diagnose(files, archive, badQuery))
                .isSameAs(badQuery);
    }

    @Test
    void everyFlippedByteIsDetectedByTheFullCheckAndInTheHeadAtOpen() throws Exception {
        long headLength = PackedFiles.head(files, archive).files().values().iterator().next()[0];
        long length = Files.size(local);
        for (long at = 0; at < length; at++) {
            flip(local, at, 0x01);
            long position = at;
            assertThatThrownBy(() -> new ArchiveHeaders(true).verify(files, archive))
                    .as("byte %s of %s", position, length)
                    .isInstanceOf(DamagedFileException.class)
                    .hasMessageContaining(local.toString());
            if (at < headLength) {
                assertThatThrownBy(() -> new ArchiveHeaders(false).header(files, archive))
                        .as("head byte %s", position)
                        .isInstanceOf(DamagedFileException.class);
            }
            flip(local, at, 0x01);
        }
        assertThat(new ArchiveHeaders(true).verify(files, archive)).isNotNull();
    }

    @Test
    void flippedHeadByteFailsTheHeadChecksumAndTheWriterReplacesTheArchive() throws Exception {
        // A byte of the metadata, after the codec header and the head length.
        flip(local, CodecUtil.indexHeaderLength(ArchiveFormat.CODEC, "") + 8 + 2, 0x01);
        assertThat(openFails().getMessage()).contains("head checksum failed");
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
        DamagedFileException damaged = openFails();
        assertThat(damaged.getMessage()).contains("file size recorded in the index manifest");
        assertThat(damaged.expected()).contains(String.valueOf(bytes.length));
        assertThat(damaged.found()).contains(String.valueOf(bytes.length - 7));
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
        ByteBuffer.wrap(bytes).putInt(versionOffset(), 99);
        rewrite(bytes);
        DamagedFileException damaged = openFails();
        assertThat(damaged.getMessage())
                .contains("unsupported full-text archive version")
                .contains("expected 0..0, found 99")
                .contains("rebuild_pk_fulltext");
        assertThat(classify(false).stalePayloads()).containsExactly(archive);
    }

    @Test
    void wrongCodecNameOrMagicIsRejected() throws Exception {
        byte[] intact = Files.readAllBytes(local);
        byte[] bytes = intact.clone();
        bytes[5] = (byte) 'X';
        rewrite(bytes);
        assertThat(openFails().getMessage())
                .contains("not a full-text archive of the current format")
                .contains("codec mismatch");
        assertThat(classify(false).stalePayloads()).containsExactly(archive);
        bytes = intact.clone();
        ByteBuffer.wrap(bytes).putInt(0, 0x12345678);
        rewrite(bytes);
        assertThat(openFails().getMessage())
                .contains("not a full-text archive of the current format")
                .contains("codec header mismatch");
    }

    @Test
    void anArchiveOfThePreviousContainerIsReportedAndRebuilt() throws Exception {
        // The container written before archives used Lucene's CodecUtil started with magic "STFT"
        // and its version (2: with stored keys).
        byte[] bytes = Files.readAllBytes(local);
        ByteBuffer.wrap(bytes).putInt(0, 0x53544654).putInt(4, 2);
        rewrite(bytes);
        assertThat(openFails().getMessage())
                .contains("not a full-text archive of the current format")
                .contains("CALL <catalog>.sys.rebuild_pk_fulltext(table => '<database>.<table>')");
        assertThat(
                        PkFullTextSearcher.create(t.table())
                                .currentArchives(t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0))
                .isEmpty();
        PkFullTextRebuild.Result result =
                PkFullTextRebuild.run(
                        t.table(), t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, false, null);
        t.commit(result.messages());
        // Its level cannot be read from it: it is reported retired at level -1.
        assertThat(result.report())
                .extracting(LevelReport::action)
                .containsExactly("built", "retired");
        assertThat(result.report().get(1).level()).isEqualTo(-1);
        assertThat(t.archives()).hasSize(1).doesNotContain(archive);
        assertThat(
                        PkFullTextSearcher.create(t.table())
                                .search(t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, "paimon", 3)
                                .hits())
                .hasSize(2);
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
        assertThat(
                        PkFullTextSearcher.create(t.table())
                                .search(t.latestSnapshotId(), BinaryRow.EMPTY_ROW, 0, "paimon", 3)
                                .hits())
                .hasSize(2);
        long[] commit = packed("segments_");
        FileStoreTable copy = copyOfTable("docs_restored");
        ArchiveFiles copyFiles = ArchiveFiles.of(copy, BinaryRow.EMPTY_ROW, 0);
        Path copyLocal = Paths.get(copyFiles.path(archive).toUri().getPath());
        assertThat(copyLocal.getFileName()).isEqualTo(local.getFileName());
        FileTime time = Files.getLastModifiedTime(local);
        // Damaged where Lucene looks when it opens the index.
        flip(copyLocal, commit[0] + commit[1] / 2, 0x10);
        Files.setLastModifiedTime(copyLocal, time);
        assertThatThrownBy(() -> headers.verify(copyFiles, archive))
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining("checksum failed")
                .hasMessageContaining(copyLocal.toString());
        assertThatThrownBy(() -> ArchiveReader.open(copyFiles, archive).close())
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining(copyLocal.toString());
        // The original stays verified and searchable; the copy is not served from the archive
        // this JVM already opened under the same name.
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
