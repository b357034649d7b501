package dev.strata.index.archive;

import dev.strata.index.options.AnalyzerSettings;
import dev.strata.index.source.SourceFile;
import dev.strata.index.source.SourceMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.OutputStreamIndexOutput;
import org.apache.lucene.util.BytesRef;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.index.GlobalIndexMeta;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.utils.SerializationUtils;

/**
 * Builds an archive with Lucene: one document per non-null text, with its archive row id (source
 * offset + row position) and primary key in doc-values fields; null texts take a row id and no
 * document. The index is built locally on one thread and merged to one segment (merges only join
 * neighbouring segments, so document order is row-id order), then packed ({@link ArchiveFormat}).
 */
public final class LuceneArchiveBuilder implements ArchiveBuilder {

    private final ArchiveFiles files;
    private final TextReader.Factory readers;
    private final int textFieldId;
    private final AnalyzerSettings analyzer;
    private final java.nio.file.Path localTempRoot;
    private final double ramBufferMb;

    private static final int WRITE_BUFFER = 1 << 16;

    public LuceneArchiveBuilder(
            ArchiveFiles files,
            TextReader.Factory readers,
            int textFieldId,
            AnalyzerSettings analyzer,
            java.nio.file.Path localTempRoot,
            double ramBufferMb) {
        this.files = files;
        this.readers = readers;
        this.textFieldId = textFieldId;
        this.analyzer = analyzer;
        this.localTempRoot =
                localTempRoot == null
                        ? Paths.get(System.getProperty("java.io.tmpdir"))
                        : localTempRoot;
        this.ramBufferMb = ramBufferMb;
    }

    @Override
    public IndexFileMeta build(List<DataFileMeta> sources) throws IOException {
        List<SourceFile> sourceFiles = checkSources(sources);
        SourceMeta sourceMeta = new SourceMeta(sources.get(0).level(), sourceFiles);
        long total = sourceMeta.totalRowCount();
        java.nio.file.Path temp = Files.createTempDirectory(localTempRoot, "strata-fulltext-");
        Path archivePath = null;
        try {
            long docs;
            try (Directory dir = new ScratchDirectory(FSDirectory.open(temp))) {
                docs = index(sources, dir);
                ArchiveHeader header =
                        new ArchiveHeader(textFieldId, sourceMeta, analyzer, total, docs);
                archivePath = files.newPath();
                PositionOutputStream stream = files.fileIO().newOutputStream(archivePath, false);
                // Closing the Lucene output closes the stream.
                try (IndexOutput out =
                        new OutputStreamIndexOutput(
                                "archive(" + archivePath + ")",
                                archivePath.getName(),
                                stream,
                                WRITE_BUFFER)) {
                    ArchiveFormat.write(header, dir, out);
                }
            }
            long size = files.fileIO().getFileSize(archivePath);
            return new IndexFileMeta(
                    ArchiveFiles.INDEX_TYPE,
                    archivePath.getName(),
                    size,
                    total,
                    (GlobalIndexMeta) null,
                    files.isExternal() ? archivePath.toString() : null);
        } catch (IOException | RuntimeException | Error e) {
            if (archivePath != null) {
                try {
                    files.fileIO().delete(archivePath, false);
                } catch (IOException | RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
            }
            throw e;
        } finally {
            deleteRecursively(temp);
        }
    }

    private static List<SourceFile> checkSources(List<DataFileMeta> sources) {
        if (sources == null || sources.isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot build a full-text archive: no source files.");
        }
        int level = sources.get(0).level();
        if (level <= 0) {
            throw new IllegalArgumentException(
                    "Cannot build a full-text archive: primary-key index data level must be positive, but was "
                            + level
                            + ".");
        }
        List<SourceFile> result = new ArrayList<>(sources.size());
        long total = 0;
        for (DataFileMeta file : sources) {
            if (file.level() != level) {
                throw new IllegalArgumentException(
                        "Cannot build a full-text archive: cannot mix data levels "
                                + level
                                + " and "
                                + file.level()
                                + ".");
            }
            if (file.rowCount() <= 0) {
                throw new IllegalArgumentException(
                        "Cannot build a full-text archive: full-text source file must contain rows ("
                                + file.fileName()
                                + ").");
            }
            total = Math.addExact(total, file.rowCount());
            result.add(new SourceFile(file.fileName(), file.rowCount()));
        }
        return result;
    }

    private long index(List<DataFileMeta> sources, Directory dir) throws IOException {
        Analyzer luceneAnalyzer = analyzer.newAnalyzer();
        IndexWriterConfig config = new IndexWriterConfig(luceneAnalyzer);
        config.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
        config.setRAMBufferSizeMB(ramBufferMb);
        config.setUseCompoundFile(false);
        LogByteSizeMergePolicy merges = new LogByteSizeMergePolicy();
        merges.setNoCFSRatio(0.0);
        config.setMergePolicy(merges);
        config.setCommitOnClose(false);
        long docs = 0;
        long nulls = 0;
        long offset = 0;
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            Document doc = new Document();
            Field text = new TextField(ArchiveFormat.TEXT_FIELD, "", Field.Store.NO);
            NumericDocValuesField rowId = new NumericDocValuesField(ArchiveFormat.ROW_ID_FIELD, 0L);
            doc.add(text);
            doc.add(rowId);
            BinaryDocValuesField key =
                    new BinaryDocValuesField(ArchiveFormat.KEY_FIELD, new BytesRef());
            doc.add(key);
            for (DataFileMeta source : sources) {
                try (TextReader reader = readers.open(source)) {
                    if (reader.rowCount() != source.rowCount()) {
                        throw new IOException(
                                "Text row count "
                                        + reader.rowCount()
                                        + " does not match source file "
                                        + source.fileName()
                                        + " row count "
                                        + source.rowCount()
                                        + ".");
                    }
                    for (long p = 0; p < source.rowCount(); p++) {
                        String value = reader.readNextText();
                        if (value == null) {
                            nulls++;
                            continue;
                        }
                        text.setStringValue(value);
                        rowId.setLongValue(offset + p);
                        BinaryRow k = reader.key();
                        if (k == null) {
                            throw new IOException(
                                    "Cannot build a full-text archive of data file "
                                            + source.fileName()
                                            + ": its reader returned no primary key for row "
                                            + p
                                            + ".");
                        }
                        key.setBytesValue(SerializationUtils.serializeBinaryRow(k));
                        writer.addDocument(doc);
                        docs++;
                    }
                }
                offset += source.rowCount();
            }
            writer.forceMerge(1);
            writer.commit();
        } finally {
            luceneAnalyzer.close();
        }
        if (docs + nulls != offset) {
            throw new IOException(
                    "Full-text archive row count "
                            + (docs + nulls)
                            + " does not match source row count "
                            + offset
                            + ".");
        }
        return docs;
    }

    /** Local build dir, read once and deleted: only the archive must be durable (no fsync). */
    private static final class ScratchDirectory extends FilterDirectory {

        ScratchDirectory(Directory in) {
            super(in);
        }

        @Override
        public void sync(Collection<String> names) {}

        @Override
        public void syncMetaData() {}
    }

    private static void deleteRecursively(java.nio.file.Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<java.nio.file.Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(
                            p -> {
                                try {
                                    Files.deleteIfExists(p);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
        } catch (IOException | UncheckedIOException e) {
            // Local scratch space only; the archive itself is already written or deleted.
        }
    }
}
