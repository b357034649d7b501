package dev.strata.index.bench;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveFormat;
import dev.strata.index.archive.ArchiveHeaders;
import dev.strata.index.archive.LuceneArchiveBuilder;
import dev.strata.index.archive.TextReader;
import dev.strata.index.fixtures.Files;
import dev.strata.index.options.AnalyzerSettings;
import dev.strata.index.search.BucketSearcher;
import dev.strata.index.search.SearchQuery;
import dev.strata.testing.TempDirs;
import dev.strata.testing.text.TextCorpus;
import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryRowWriter;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.index.IndexPathFactory;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.utils.SerializationUtils;

/**
 * Archive build throughput and size against a raw Lucene {@link IndexWriter} over the same texts on
 * one thread, and top-10 search latency on the archive (a printed report, not a test).
 *
 * <p>System properties: {@code strata.bench.docs} (default 1,000,000), {@code strata.bench.bytes}
 * (text length, default 200), {@code strata.bench.queries} (default 300), {@code strata.bench.dir}
 * (scratch directory, default java.io.tmpdir).
 */
public final class ArchiveBenchmark {

    private ArchiveBenchmark() {}

    public static void main(String[] args) throws Exception {
        int docs = Integer.getInteger("strata.bench.docs", 1_000_000);
        int bytes = Integer.getInteger("strata.bench.bytes", 200);
        int queries = Integer.getInteger("strata.bench.queries", 300);
        java.nio.file.Path scratch =
                java.nio.file.Files.createTempDirectory(
                        Paths.get(
                                System.getProperty(
                                        "strata.bench.dir", System.getProperty("java.io.tmpdir"))),
                        "strata-bench-");
        TextCorpus corpus = new TextCorpus(50_000);
        Random random = new Random(7);
        String[] texts = new String[docs];
        long textBytes = 0;
        for (int i = 0; i < docs; i++) {
            texts[i] = corpus.documentOfSize(random, bytes);
            textBytes += texts[i].length();
        }
        System.out.printf(
                "docs=%d rounds=%d avgTextBytes=%.1f scratch=%s%n",
                docs,
                Integer.getInteger("strata.bench.rounds", 2),
                textBytes / (double) docs,
                scratch);

        // Warm-up of both paths on a small slice (JIT), then the measured runs.
        String[] warm = Arrays.copyOf(texts, Math.min(docs, 50_000));
        raw(warm, scratch.resolve("raw-warm"));
        archive(warm, scratch.resolve("archive-warm"));

        // Alternate the two paths and keep each one's best round (the machine is shared and noisy).
        int rounds = Integer.getInteger("strata.bench.rounds", 2);
        double rawSeconds = Double.MAX_VALUE;
        double archiveSeconds = Double.MAX_VALUE;
        long rawSize = 0;
        Built built = null;
        for (int round = 0; round < rounds; round++) {
            long t0 = System.nanoTime();
            rawSize = raw(texts, scratch.resolve("raw-" + round));
            rawSeconds = Math.min(rawSeconds, (System.nanoTime() - t0) / 1e9);
            TempDirs.delete(scratch.resolve("raw-" + round));
            long t1 = System.nanoTime();
            built = archive(texts, scratch.resolve("archive-" + round));
            archiveSeconds = Math.min(archiveSeconds, (System.nanoTime() - t1) / 1e9);
        }
        System.out.printf(
                "raw IndexWriter : %.2f s, %.0f docs/s, index %.1f MiB%n",
                rawSeconds, docs / rawSeconds, rawSize / 1048576.0);
        System.out.printf(
                "archive build   : %.2f s, %.0f docs/s, archive %.1f MiB%n",
                archiveSeconds, docs / archiveSeconds, built.meta.fileSize() / 1048576.0);
        System.out.printf(
                "throughput ratio archive/raw = %.2fx (goal >= 0.8x); size ratio archive/raw = %.2f%n",
                rawSeconds / archiveSeconds, built.meta.fileSize() / (double) rawSize);

        // Search: top-10 on the archive, one bucket, query terms drawn from the corpus (common and
        // rare).
        ArchiveHeaders headers = new ArchiveHeaders(false);
        List<IndexFileMeta> archives = Collections.singletonList(built.meta);
        List<DataFileMeta> active = Collections.singletonList(built.source);
        long[] latencies = new long[queries];
        Random qr = new Random(11);
        for (int warmup = 0; warmup < 20; warmup++) {
            BucketSearcher.search(
                    BinaryRow.EMPTY_ROW,
                    0,
                    headers.forStatement(built.files),
                    archives,
                    active,
                    Collections.emptyMap(),
                    null,
                    new SearchQuery(corpus.word(qr), "bench", "text"),
                    10,
                    null);
        }
        for (int q = 0; q < queries; q++) {
            String query =
                    q % 3 == 0
                            ? corpus.rareWord(qr)
                            : q % 3 == 1
                                    ? corpus.word(qr)
                                    : corpus.word(qr) + " AND " + corpus.word(qr);
            long s = System.nanoTime();
            BucketSearcher.search(
                    BinaryRow.EMPTY_ROW,
                    0,
                    headers.forStatement(built.files),
                    archives,
                    active,
                    Collections.emptyMap(),
                    null,
                    new SearchQuery(query, "bench", "text"),
                    10,
                    null);
            latencies[q] = System.nanoTime() - s;
        }
        Arrays.sort(latencies);
        System.out.printf(
                "search top-10 per bucket (%d queries, archive opened per search): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms%n",
                queries,
                latencies[queries / 2] / 1e6,
                latencies[queries * 9 / 10] / 1e6,
                latencies[Math.min(queries - 1, queries * 99 / 100)] / 1e6);
        TempDirs.delete(scratch);
    }

    private static long raw(String[] texts, java.nio.file.Path dir) throws IOException {
        Analyzer analyzer = AnalyzerSettings.defaults().newAnalyzer();
        IndexWriterConfig config = new IndexWriterConfig(analyzer);
        config.setRAMBufferSizeMB(128);
        try (FSDirectory d = FSDirectory.open(dir);
                IndexWriter w = new IndexWriter(d, config)) {
            Document doc = new Document();
            Field text = new TextField(ArchiveFormat.TEXT_FIELD, "", Field.Store.NO);
            NumericDocValuesField rowId = new NumericDocValuesField(ArchiveFormat.ROW_ID_FIELD, 0);
            BinaryDocValuesField key =
                    new BinaryDocValuesField(ArchiveFormat.KEY_FIELD, new BytesRef());
            doc.add(text);
            doc.add(rowId);
            doc.add(key);
            for (int i = 0; i < texts.length; i++) {
                text.setStringValue(texts[i]);
                rowId.setLongValue(i);
                key.setBytesValue(SerializationUtils.serializeBinaryRow(key(i)));
                w.addDocument(doc);
            }
            w.commit();
        }
        long size = 0;
        try (Stream<java.nio.file.Path> files =
                java.nio.file.Files.list(dir)
                        .filter(p -> !p.getFileName().toString().equals("write.lock"))) {
            for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) files::iterator) {
                size += java.nio.file.Files.size(p);
            }
        }
        return size;
    }

    /** The primary key of row {@code i}, as both indexes store it. */
    private static BinaryRow key(long i) {
        BinaryRow row = new BinaryRow(1);
        BinaryRowWriter writer = new BinaryRowWriter(row);
        writer.writeLong(0, i);
        writer.complete();
        return row;
    }

    static final class Built {
        final IndexFileMeta meta;
        final DataFileMeta source;
        final ArchiveFiles files;

        Built(IndexFileMeta meta, DataFileMeta source, ArchiveFiles files) {
            this.meta = meta;
            this.source = source;
            this.files = files;
        }
    }

    private static Built archive(String[] texts, java.nio.file.Path dir) throws IOException {
        java.nio.file.Files.createDirectories(dir);
        Path root = new Path(dir.toUri().toString());
        String uuid = UUID.randomUUID().toString();
        AtomicInteger counter = new AtomicInteger();
        IndexPathFactory paths =
                new IndexPathFactory() {
                    @Override
                    public Path toPath(String fileName) {
                        return new Path(root, fileName);
                    }

                    @Override
                    public Path newPath() {
                        return new Path(root, "index-" + uuid + "-" + counter.getAndIncrement());
                    }

                    @Override
                    public boolean isExternalPath() {
                        return false;
                    }
                };
        ArchiveFiles files = new ArchiveFiles(LocalFileIO.create(), paths);
        DataFileMeta source = Files.file("data-bench-0.parquet", texts.length, 5);
        TextReader.Factory readers =
                file ->
                        new TextReader() {
                            int next;

                            @Override
                            public long rowCount() {
                                return texts.length;
                            }

                            @Override
                            public String readNextText() {
                                return texts[next++];
                            }

                            @Override
                            public BinaryRow key() {
                                return ArchiveBenchmark.key(next - 1);
                            }

                            @Override
                            public void close() {}
                        };
        LuceneArchiveBuilder builder =
                new LuceneArchiveBuilder(files, readers, 1, AnalyzerSettings.defaults(), dir, 128);
        IndexFileMeta meta = builder.build(new ArrayList<>(Collections.singletonList(source)));
        return new Built(meta, source, files);
    }
}
