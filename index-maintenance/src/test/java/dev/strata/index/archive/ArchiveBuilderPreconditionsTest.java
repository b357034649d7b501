package dev.strata.index.archive;

import static dev.strata.index.fixtures.Files.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.options.AnalyzerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryRowWriter;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.IndexPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArchiveBuilderPreconditionsTest {

    @TempDir Path dir;

    private LuceneArchiveBuilder builder(TextReader.Factory readers) {
        org.apache.paimon.fs.Path root = new org.apache.paimon.fs.Path(dir.toUri().toString());
        IndexPathFactory paths =
                new IndexPathFactory() {
                    int n;

                    @Override
                    public org.apache.paimon.fs.Path toPath(String name) {
                        return new org.apache.paimon.fs.Path(root, name);
                    }

                    @Override
                    public org.apache.paimon.fs.Path newPath() {
                        return new org.apache.paimon.fs.Path(root, "index-test-" + n++);
                    }

                    @Override
                    public boolean isExternalPath() {
                        return false;
                    }
                };
        return new LuceneArchiveBuilder(
                new ArchiveFiles(LocalFileIO.create(), paths),
                readers,
                7,
                AnalyzerSettings.defaults(),
                dir,
                16);
    }

    /** Texts of rows whose primary key is their position. */
    private static TextReader.Factory texts(String... values) {
        return f ->
                new TextReader() {
                    int next;

                    @Override
                    public long rowCount() {
                        return values.length;
                    }

                    @Override
                    public String readNextText() {
                        return values[next++];
                    }

                    @Override
                    public BinaryRow key() {
                        BinaryRow key = new BinaryRow(1);
                        BinaryRowWriter writer = new BinaryRowWriter(key);
                        writer.writeInt(0, next - 1);
                        writer.complete();
                        return key;
                    }

                    @Override
                    public void close() {}
                };
    }

    @Test
    void rejectsSourcesThatCannotFormOneLevel() throws Exception {
        LuceneArchiveBuilder b = builder(texts("x"));
        assertThatThrownBy(() -> b.build(Collections.emptyList()))
                .hasMessageContaining("no source files");
        assertThatThrownBy(() -> b.build(Collections.singletonList(file("zero", 1, 0))))
                .hasMessageContaining("data level must be positive");
        assertThatThrownBy(() -> b.build(Arrays.asList(file("a", 1, 1), file("b", 1, 2))))
                .hasMessageContaining("cannot mix data levels 1 and 2");
        assertThatThrownBy(() -> b.build(Collections.singletonList(file("empty", 0, 1))))
                .hasMessageContaining("must contain rows");
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertThat(left.filter(p -> p.getFileName().toString().startsWith("index-"))).isEmpty();
        }
    }

    @Test
    void rejectsReaderWhoseRowCountDiffersAndLeavesNoFile() throws Exception {
        LuceneArchiveBuilder b = builder(texts("one", "two"));
        assertThatThrownBy(() -> b.build(Collections.singletonList(file("data-1", 3, 1))))
                .hasMessageContaining(
                        "Text row count 2 does not match source file data-1 row count 3");
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertThat(left.filter(p -> p.getFileName().toString().startsWith("index-"))).isEmpty();
        }
    }

    @Test
    void aReaderThatReturnsNoKeyIsRefusedAndLeavesNoFile() throws Exception {
        TextReader.Factory texts = texts("one", "two");
        TextReader.Factory keyless =
                file -> {
                    TextReader withKeys = texts.open(file);
                    return new TextReader() {
                        @Override
                        public long rowCount() {
                            return withKeys.rowCount();
                        }

                        @Override
                        public String readNextText() throws java.io.IOException {
                            return withKeys.readNextText();
                        }

                        @Override
                        public BinaryRow key() {
                            return null;
                        }

                        @Override
                        public void close() {}
                    };
                };
        LuceneArchiveBuilder b = builder(keyless);
        assertThatThrownBy(() -> b.build(Collections.singletonList(file("data-1", 2, 1))))
                .hasMessageContaining(
                        "Cannot build a full-text archive of data file data-1: its reader returned"
                                + " no primary key for row 0.");
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertThat(left.filter(p -> p.getFileName().toString().startsWith("index-"))).isEmpty();
        }
    }

    @Test
    void nullTextsTakeRowIdsButProduceNoDocuments() throws Exception {
        LuceneArchiveBuilder b = builder(texts("first", null, "third"));
        org.apache.paimon.index.IndexFileMeta meta =
                b.build(Collections.singletonList(file("data-1", 3, 3)));
        assertThat(meta.rowCount()).isEqualTo(3);
        assertThat(meta.globalIndexMeta()).isNull();
        assertThat(meta.externalPath()).isNull();
        ArchiveHeader header =
                new ArchiveHeaders(true)
                        .header(
                                new ArchiveFiles(
                                        LocalFileIO.create(),
                                        new IndexPathFactory() {
                                            @Override
                                            public org.apache.paimon.fs.Path toPath(String name) {
                                                return new org.apache.paimon.fs.Path(
                                                        new org.apache.paimon.fs.Path(
                                                                dir.toUri().toString()),
                                                        name);
                                            }

                                            @Override
                                            public org.apache.paimon.fs.Path newPath() {
                                                throw new UnsupportedOperationException();
                                            }

                                            @Override
                                            public boolean isExternalPath() {
                                                return false;
                                            }
                                        }),
                                meta);
        assertThat(header.textFieldId()).isEqualTo(7);
        assertThat(header.rowCount()).isEqualTo(3);
        assertThat(header.docCount()).isEqualTo(2);
        assertThat(header.sourceMeta().dataLevel()).isEqualTo(3);
        assertThat(header.sourceMeta().sourceFile().toString()).isEqualTo("data-1:3");
        assertThat(header.analyzer()).isEqualTo(AnalyzerSettings.defaults());
    }
}
