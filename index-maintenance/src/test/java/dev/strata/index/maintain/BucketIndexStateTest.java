package dev.strata.index.maintain;

import static dev.strata.index.fixtures.Files.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeader;
import dev.strata.index.archive.HeaderLookup;
import dev.strata.index.options.AnalyzerSettings;
import dev.strata.index.source.SourceFile;
import dev.strata.index.source.SourceMeta;
import dev.strata.shredding.io.DamagedFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.index.GlobalIndexMeta;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.manifest.FileSource;
import org.junit.jupiter.api.Test;

class BucketIndexStateTest {

    private final Map<String, ArchiveHeader> headers = new HashMap<>();
    private final HeaderLookup lookup =
            a -> {
                ArchiveHeader h = headers.get(a.fileName());
                if (h == null) {
                    throw new DamagedFileException(
                            a.fileName(), "wrong magic", "0x53544654", "0x0");
                }
                return h;
            };

    /**
     * An archive entry at {@code level} for field {@code field} over {@code sources} (name, rows,
     * name, rows...).
     */
    private IndexFileMeta arch(String name, int level, int field, Object... sources) {
        List<SourceFile> files = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < sources.length; i += 2) {
            long rows = ((Number) sources[i + 1]).longValue();
            files.add(new SourceFile((String) sources[i], rows));
            total += rows;
        }
        headers.put(
                name,
                new ArchiveHeader(
                        field,
                        new SourceMeta(level, files),
                        AnalyzerSettings.defaults(),
                        total,
                        total));
        return new IndexFileMeta(
                ArchiveFiles.INDEX_TYPE, name, 100, total, (GlobalIndexMeta) null, null);
    }

    @Test
    void otherFieldArchivesAreStaleAndOwnFieldArchivesCurrent() throws Exception {
        IndexFileMeta first = arch("p-1", 1, 7, "data", 1);
        IndexFileMeta second = arch("p-2", 1, 7, "other-data", 1);
        IndexFileMeta foreign = arch("p-3", 1, 8, "data", 1);
        BucketIndexState state =
                BucketIndexState.strict(7, Arrays.asList(first, second, foreign), lookup);
        assertThat(state.currentPayloads()).containsExactly(first, second);
        assertThat(state.stalePayloads()).containsExactly(foreign);
        assertThat(state.payloadBySourceFile()).containsEntry("data", first);
    }

    @Test
    void strictFormRejectsFileCoveredTwice() {
        IndexFileMeta a = arch("p-a", 1, 7, "data", 1);
        IndexFileMeta b = arch("p-b", 1, 7, "data", 1);
        assertThatThrownBy(() -> BucketIndexState.strict(7, Arrays.asList(a, b), lookup))
                .hasMessageContaining("data")
                .hasMessageContaining("covered by both full-text archives");
    }

    @Test
    void multiSourceArchiveMapsEverySource() throws Exception {
        IndexFileMeta a = arch("p", 1, 7, "data-1", 2, "data-2", 3);
        BucketIndexState state = BucketIndexState.strict(7, Arrays.asList(a), lookup);
        assertThat(state.payloadBySourceFile())
                .containsEntry("data-1", a)
                .containsEntry("data-2", a);
    }

    @Test
    void strictFormRejectsRowCountMismatch() {
        IndexFileMeta a = arch("p", 1, 7, "data-1", 2);
        IndexFileMeta lying =
                new IndexFileMeta(
                        ArchiveFiles.INDEX_TYPE, "p", 100, 5, (GlobalIndexMeta) null, null);
        assertThatThrownBy(() -> BucketIndexState.strict(7, Arrays.asList(lying), lookup))
                .hasMessageContaining("row metadata does not match its source files");
        assertThat(a.rowCount()).isEqualTo(2);
    }

    @Test
    void lenientFormKeepsOnlyArchivesMatchingTheirWholeLevel() {
        IndexFileMeta exact = arch("exact", 1, 7, "a", 2);
        IndexFileMeta partial = arch("partial", 2, 7, "b", 2);
        IndexFileMeta wrongRows = arch("wrong-rows", 3, 7, "d", 9);
        IndexFileMeta unreadable =
                new IndexFileMeta(
                        ArchiveFiles.INDEX_TYPE,
                        "unreadable",
                        100,
                        1,
                        (GlobalIndexMeta) null,
                        null);
        IndexFileMeta otherType =
                new IndexFileMeta("DELETION_VECTORS", "dv", 100, 1, (GlobalIndexMeta) null, null);
        BucketIndexState state =
                BucketIndexState.fromActiveDataFiles(
                        7,
                        Arrays.asList(
                                file("a", 2, 1),
                                file("b", 2, 2),
                                file("c", 4, 2),
                                file("d", 1, 3),
                                file("zero", 5, 0, FileSource.APPEND)),
                        Arrays.asList(exact, partial, wrongRows, unreadable, otherType),
                        lookup);
        assertThat(state.currentPayloads()).containsExactly(exact);
        assertThat(state.stalePayloads()).containsExactly(partial, wrongRows, unreadable);
        assertThat(state.payloadBySourceFile()).containsOnlyKeys("a");
    }

    @Test
    void lenientFormMarksBothCandidatesForOneLevelStale() {
        IndexFileMeta one = arch("one", 1, 7, "a", 2);
        IndexFileMeta two = arch("two", 1, 7, "a", 2);
        IndexFileMeta foreign = arch("foreign", 1, 8, "a", 2);
        BucketIndexState state =
                BucketIndexState.fromActiveDataFiles(
                        7,
                        Arrays.asList(file("a", 2, 1)),
                        Arrays.asList(one, foreign, two),
                        lookup);
        assertThat(state.currentPayloads()).isEmpty();
        assertThat(state.stalePayloads()).containsExactly(foreign, one, two);
    }

    @Test
    void appendFilesMovedUpAreSourcesButLevelZeroIsNot() {
        IndexFileMeta a = arch("a-arch", 4, 7, "moved", 3);
        BucketIndexState state =
                BucketIndexState.fromActiveDataFiles(
                        7,
                        Arrays.asList(file("moved", 3, 4, FileSource.APPEND)),
                        Arrays.asList(a),
                        lookup);
        assertThat(state.stalePayloads()).isEmpty();
        assertThat(
                        dev.strata.index.source.SourcePolicy.isSource(
                                java.util.Optional.of(FileSource.APPEND), 0))
                .isFalse();
        assertThat(
                        dev.strata.index.source.SourcePolicy.isSource(
                                java.util.Optional.of(FileSource.COMPACT), 0))
                .isFalse();
    }
}
