package dev.strata.shredding.format;

import com.github.luben.zstd.Zstd;
import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.testing.maps.GeneratedMap;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.table.FileStoreTable;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.KeyValue;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Where the bytes of a shredded table and of the same rows in Paimon's default MAP layout go: per
 * data file, every column chunk split into dictionary page, data pages (page headers, repetition
 * and definition levels, values) and column / offset index, plus the footer split into its
 * key/value entries, chunk statistics and the rest. Read through parquet-mr's public footer API and
 * parquet-format's page-header reader; nothing of Strata's reader is used, so the numbers hold for
 * any file.
 *
 * <p>Levels and values share one compressed page body; their compressed shares are estimated by
 * compressing the level bytes alone (zstd level 1) and giving the rest of the body to the values.
 *
 * <p>A main class, not a test: {@code bash benchmarks/target/run ...ShreddedBytesBreakdown [rows]
 * [width] [decimals]} (defaults 200 000 x 30, 2 decimals, two buckets so two files). Pass {@code
 * -Dstrata.breakdown.chunks=true} to print every chunk, {@code -Dstrata.breakdown.dir=<dir>} to
 * keep the tables there, {@code -Dstrata.breakdown.warmups=N} to write the shredded table N times
 * first (timed) so the measured writes run warm, {@code -Dstrata.breakdown.reads=N} to read the
 * shredded table back N times through Paimon's table read (timed). It fails when the shredded table
 * takes more bytes than the default layout ({@code -Dstrata.breakdown.check=false} to only print).
 */
public final class ShreddedBytesBreakdown {

    /** Bytes of one column chunk, by component. */
    static final class Chunk {
        String path;
        String group;
        long values;
        long total;
        long dictHeader;
        long dictBody;
        int dataPages;
        long dataHeader;
        long dataHeaderStats;
        long dataBody;
        long levelsRaw;
        long levelsZstd;
        long valuesRaw;
        long columnIndex;
        long offsetIndex;
        String encodings;

        void add(Chunk o) {
            values += o.values;
            total += o.total;
            dictHeader += o.dictHeader;
            dictBody += o.dictBody;
            dataPages += o.dataPages;
            dataHeader += o.dataHeader;
            dataHeaderStats += o.dataHeaderStats;
            dataBody += o.dataBody;
            levelsRaw += o.levelsRaw;
            levelsZstd += o.levelsZstd;
            valuesRaw += o.valuesRaw;
            columnIndex += o.columnIndex;
            offsetIndex += o.offsetIndex;
        }
    }

    /** Bytes of one file's footer, by component. */
    static final class Footer {
        long total;
        final Map<String, Long> keyValues = new TreeMap<>();
        long chunkStatistics;
        long sizeStatistics;
        long chunkMetaRest;
        long schema;

        void add(Footer o) {
            total += o.total;
            o.keyValues.forEach((k, v) -> keyValues.merge(k, v, Long::sum));
            chunkStatistics += o.chunkStatistics;
            sizeStatistics += o.sizeStatistics;
            chunkMetaRest += o.chunkMetaRest;
            schema += o.schema;
        }
    }

    /** One data file: its size, rows, chunks and footer. */
    static final class FileBytes {
        String name;
        long size;
        long rows;
        final List<Chunk> chunks = new ArrayList<>();
        Footer footer;
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private ShreddedBytesBreakdown() {}

    /** Chunk and footer bytes of one Parquet file. */
    static FileBytes measure(FileIO fileIO, Path path) throws IOException {
        long size = fileIO.getFileSize(path);
        FileBytes out = new FileBytes();
        out.name = path.getName();
        out.size = size;
        CodecFactory codecs = new CodecFactory(new Configuration(false), 0);
        try (ParquetFileReader reader =
                        ParquetFileReader.open(
                                PaimonFiles.inputFile(fileIO, path, size),
                                PaimonFiles.readOptions(false));
                SeekableInputStream in = PaimonFiles.inputFile(fileIO, path, size).newStream()) {
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                out.rows += block.getRowCount();
                for (ColumnChunkMetaData c : block.getColumns()) {
                    ColumnDescriptor d =
                            reader.getFooter()
                                    .getFileMetaData()
                                    .getSchema()
                                    .getColumnDescription(c.getPath().toArray());
                    out.chunks.add(chunk(in, c, d, codecs));
                }
            }
            out.footer = footer(in, size);
        } finally {
            codecs.release();
        }
        return out;
    }

    private static Chunk chunk(
            SeekableInputStream in, ColumnChunkMetaData c, ColumnDescriptor d, CodecFactory codecs)
            throws IOException {
        Chunk k = new Chunk();
        k.path = c.getPath().toDotString();
        k.group = k.path.replaceAll("__col_\\d+", "__col_*");
        k.values = c.getValueCount();
        k.total = c.getTotalSize();
        k.encodings = String.valueOf(c.getEncodings());
        byte[] bytes = new byte[(int) c.getTotalSize()];
        in.seek(c.getStartingPos());
        in.readFully(bytes);
        CountingInput pages = new CountingInput(bytes);
        CodecFactory.BytesInputDecompressor decompressor = codecs.getDecompressor(c.getCodec());
        while (pages.position() < bytes.length) {
            long start = pages.position();
            PageHeader h = Util.readPageHeader(pages);
            long headerBytes = pages.position() - start;
            byte[] body = pages.take(h.getCompressed_page_size());
            if (h.getType() == PageType.DICTIONARY_PAGE) {
                k.dictHeader += headerBytes;
                k.dictBody += body.length;
                continue;
            }
            k.dataPages++;
            k.dataHeader += headerBytes;
            k.dataHeaderStats += headerBytes - sizeWithoutStatistics(h);
            k.dataBody += body.length;
            int levelBytes;
            int valueBytes;
            if (h.getType() == PageType.DATA_PAGE) {
                byte[] raw =
                        decompressor
                                .decompress(BytesInput.from(body), h.getUncompressed_page_size())
                                .toByteArray();
                ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
                int pos = 0;
                if (d.getMaxRepetitionLevel() > 0) {
                    pos += 4 + b.getInt(pos);
                }
                if (d.getMaxDefinitionLevel() > 0) {
                    pos += 4 + b.getInt(pos);
                }
                levelBytes = pos;
                valueBytes = raw.length - pos;
                k.levelsZstd += Zstd.compress(java.util.Arrays.copyOf(raw, pos), 1).length;
            } else {
                levelBytes =
                        h.getData_page_header_v2().getRepetition_levels_byte_length()
                                + h.getData_page_header_v2().getDefinition_levels_byte_length();
                valueBytes = h.getUncompressed_page_size() - levelBytes;
                k.levelsZstd += levelBytes;
            }
            k.levelsRaw += levelBytes;
            k.valuesRaw += valueBytes;
        }
        if (c.getColumnIndexReference() != null) {
            k.columnIndex = c.getColumnIndexReference().getLength();
        }
        if (c.getOffsetIndexReference() != null) {
            k.offsetIndex = c.getOffsetIndexReference().getLength();
        }
        return k;
    }

    private static long sizeWithoutStatistics(PageHeader h) throws IOException {
        PageHeader copy = h.deepCopy();
        if (copy.isSetData_page_header()) {
            copy.getData_page_header().unsetStatistics();
        }
        if (copy.isSetData_page_header_v2()) {
            copy.getData_page_header_v2().unsetStatistics();
        }
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        Util.writePageHeader(copy, o);
        return o.size();
    }

    private static Footer footer(SeekableInputStream in, long fileSize) throws IOException {
        byte[] tail = new byte[8];
        in.seek(fileSize - 8);
        in.readFully(tail);
        int length = ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        byte[] bytes = new byte[length];
        in.seek(fileSize - 8 - length);
        in.readFully(bytes);
        FileMetaData meta = Util.readFileMetaData(new ByteArrayInputStream(bytes));
        Footer f = new Footer();
        f.total = length + 8L;
        long whole = size(meta);
        FileMetaData noKv = meta.deepCopy();
        noKv.unsetKey_value_metadata();
        if (meta.isSetKey_value_metadata()) {
            for (KeyValue kv : meta.getKey_value_metadata()) {
                FileMetaData one = noKv.deepCopy();
                one.addToKey_value_metadata(kv);
                f.keyValues.merge(kv.getKey(), size(one) - size(noKv), Long::sum);
            }
        }
        FileMetaData noStats = noKv.deepCopy();
        for (RowGroup g : noStats.getRow_groups()) {
            for (ColumnChunk c : g.getColumns()) {
                c.getMeta_data().unsetStatistics();
            }
        }
        f.chunkStatistics = size(noKv) - size(noStats);
        FileMetaData noSizeStats = noStats.deepCopy();
        for (RowGroup g : noSizeStats.getRow_groups()) {
            for (ColumnChunk c : g.getColumns()) {
                c.getMeta_data().unsetSize_statistics();
            }
        }
        f.sizeStatistics = size(noStats) - size(noSizeStats);
        FileMetaData noGroups = noSizeStats.deepCopy();
        noGroups.setRow_groups(new ArrayList<>());
        f.chunkMetaRest = size(noSizeStats) - size(noGroups);
        FileMetaData noSchema = noGroups.deepCopy();
        noSchema.setSchema(new ArrayList<>());
        f.schema = size(noGroups) - size(noSchema);
        if (whole != length) {
            throw new IllegalStateException(
                    "Cannot measure the footer: re-serialised " + whole + " bytes, file " + length);
        }
        return f;
    }

    private static long size(FileMetaData meta) throws IOException {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        Util.writeFileMetaData(meta, o);
        return o.size();
    }

    /** A byte array read as a stream whose position is known. */
    private static final class CountingInput extends ByteArrayInputStream {
        CountingInput(byte[] bytes) {
            super(bytes);
        }

        long position() {
            return pos;
        }

        byte[] take(int n) throws IOException {
            byte[] b = readNBytes(n);
            if (b.length != n) {
                throw new IOException("Cannot read a page body: " + n + " bytes expected");
            }
            return b;
        }
    }

    /** Every data file of the table's current snapshot. */
    static List<FileBytes> measure(FileStoreTable table) throws IOException {
        List<FileBytes> out = new ArrayList<>();
        for (Path p : PaimonTables.dataFiles(table, "parquet")) {
            out.add(measure(table.fileIO(), p));
        }
        return out;
    }

    /** Per-component totals of a table: chunk groups and footer parts, label → bytes. */
    static Map<String, Long> components(List<FileBytes> files) {
        Map<String, Long> out = new LinkedHashMap<>();
        Map<String, Chunk> groups = new TreeMap<>();
        Footer footer = new Footer();
        long fileBytes = 0;
        long magic = 0;
        for (FileBytes f : files) {
            fileBytes += f.size;
            magic += 4;
            for (Chunk c : f.chunks) {
                groups.computeIfAbsent(
                                c.group,
                                g -> {
                                    Chunk n = new Chunk();
                                    n.group = g;
                                    return n;
                                })
                        .add(c);
            }
            footer.add(f.footer);
        }
        for (Chunk c : groups.values()) {
            out.put(c.group + " dictionary page headers", c.dictHeader);
            out.put(c.group + " dictionary pages", c.dictBody);
            out.put(c.group + " data page headers (w/o stats)", c.dataHeader - c.dataHeaderStats);
            out.put(c.group + " data page header statistics", c.dataHeaderStats);
            out.put(c.group + " levels (est. zstd)", Math.min(c.levelsZstd, c.dataBody));
            out.put(
                    c.group + " values (page body - levels)",
                    c.dataBody - Math.min(c.levelsZstd, c.dataBody));
            out.put(c.group + " column index", c.columnIndex);
            out.put(c.group + " offset index", c.offsetIndex);
        }
        footer.keyValues.forEach((k, v) -> out.put("footer key/value " + k, v));
        out.put("footer chunk statistics", footer.chunkStatistics);
        out.put("footer size statistics", footer.sizeStatistics);
        out.put("footer other chunk metadata", footer.chunkMetaRest);
        out.put("footer schema", footer.schema);
        long listed = out.values().stream().mapToLong(Long::longValue).sum();
        out.put("footer rest + length + magic", fileBytes - listed - magic);
        out.put("file magic", magic);
        out.put("TOTAL", fileBytes);
        return out;
    }

    static void print(String title, List<FileBytes> files, boolean chunks) {
        System.out.println("== " + title);
        for (FileBytes f : files) {
            System.out.printf(
                    "file %s: %d bytes, %d rows, footer %d bytes%n",
                    f.name, f.size, f.rows, f.footer.total);
            if (!chunks) {
                continue;
            }
            System.out.printf(
                    "  %-24s %8s %6s %6s %8s %4s %6s %6s %8s %8s %8s %6s %6s  %s%n",
                    "chunk",
                    "values",
                    "total",
                    "dict",
                    "data",
                    "pgs",
                    "hdr",
                    "hstat",
                    "levRaw",
                    "levZ",
                    "valRaw",
                    "colIx",
                    "offIx",
                    "encodings");
            for (Chunk c : f.chunks) {
                System.out.printf(
                        "  %-24s %8d %6d %6d %8d %4d %6d %6d %8d %8d %8d %6d %6d  %s%n",
                        c.path,
                        c.values,
                        c.total,
                        c.dictHeader + c.dictBody,
                        c.dataBody,
                        c.dataPages,
                        c.dataHeader,
                        c.dataHeaderStats,
                        c.levelsRaw,
                        c.levelsZstd,
                        c.valuesRaw,
                        c.columnIndex,
                        c.offsetIndex,
                        c.encodings);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int width = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int decimals = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        boolean chunks = Boolean.getBoolean("strata.breakdown.chunks");
        String keep = System.getProperty("strata.breakdown.dir");
        java.nio.file.Path dir =
                keep != null
                        ? Files.createDirectories(java.nio.file.Paths.get(keep))
                        : Files.createTempDirectory("strata-bytes");
        List<GeneratedMap> maps = ShreddedBytesTest.rows(rows, width, decimals);
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        try (PaimonTables tables = new PaimonTables(dir)) {
            FileStoreTable shredded =
                    tables.create(
                            "s",
                            PaimonTables.Kind.APPEND,
                            Map.of(ShreddingOptions.layoutKey("m"), "shared-shredding"),
                            Map.of());
            FileStoreTable plain =
                    tables.create(
                            "p",
                            PaimonTables.Kind.APPEND,
                            PaimonTables.layoutOptions(false, 0, null),
                            Map.of());
            for (int i = 0; i < Integer.getInteger("strata.breakdown.warmups", 0); i++) {
                FileStoreTable warm =
                        tables.create(
                                "w" + i,
                                PaimonTables.Kind.APPEND,
                                Map.of(ShreddingOptions.layoutKey("m"), "shared-shredding"),
                                Map.of());
                long t = System.nanoTime();
                long cpu = THREADS.getCurrentThreadCpuTime();
                tables.write(warm, ids, maps);
                System.out.printf(
                        "warm-up write %d: %d ms (CPU %d ms)%n",
                        i,
                        (System.nanoTime() - t) / 1_000_000,
                        (THREADS.getCurrentThreadCpuTime() - cpu) / 1_000_000);
            }
            long start = System.nanoTime();
            long cpu = THREADS.getCurrentThreadCpuTime();
            tables.write(shredded, ids, maps);
            long shreddedNanos = System.nanoTime() - start;
            long shreddedCpu = THREADS.getCurrentThreadCpuTime() - cpu;
            start = System.nanoTime();
            cpu = THREADS.getCurrentThreadCpuTime();
            tables.write(plain, ids, maps);
            long plainNanos = System.nanoTime() - start;
            long plainCpu = THREADS.getCurrentThreadCpuTime() - cpu;
            System.out.printf(
                    "write: shredded %d ms (CPU %d ms), default %d ms (CPU %d ms)%n",
                    shreddedNanos / 1_000_000,
                    shreddedCpu / 1_000_000,
                    plainNanos / 1_000_000,
                    plainCpu / 1_000_000);
            for (int i = 0; i < Integer.getInteger("strata.breakdown.reads", 0); i++) {
                long t = System.nanoTime();
                long c = THREADS.getCurrentThreadCpuTime();
                int n = PaimonTables.readAll(shredded).size();
                System.out.printf(
                        "read %d: %d rows, %d ms (CPU %d ms)%n",
                        i,
                        n,
                        (System.nanoTime() - t) / 1_000_000,
                        (THREADS.getCurrentThreadCpuTime() - c) / 1_000_000);
            }
            List<FileBytes> s = measure(shredded);
            List<FileBytes> p = measure(plain);
            print("shredded", s, chunks);
            print("default layout", p, chunks);
            Map<String, Long> sc = components(s);
            Map<String, Long> pc = components(p);
            System.out.printf("%n%-58s %10s %10s%n", "component", "shredded", "default");
            sc.forEach(
                    (k, v) -> {
                        if (!k.equals("TOTAL") && v != 0) {
                            System.out.printf("%-58s %10d %10s%n", k, v, "");
                        }
                    });
            pc.forEach(
                    (k, v) -> {
                        if (!k.equals("TOTAL") && v != 0) {
                            System.out.printf("%-58s %10s %10d%n", k, "", v);
                        }
                    });
            System.out.printf(
                    "%-58s %10d %10d  %.4fx%n",
                    "TOTAL",
                    sc.get("TOTAL"),
                    pc.get("TOTAL"),
                    sc.get("TOTAL") / (double) pc.get("TOTAL"));
            // The defaults are the small low-cardinality table, which must stay at most
            // Paimon's bytes (too large for a unit test; ShreddedBytesTest checks smaller tables).
            if (Boolean.parseBoolean(System.getProperty("strata.breakdown.check", "true"))
                    && sc.get("TOTAL") > pc.get("TOTAL")) {
                throw new AssertionError(
                        String.format(
                                "Shredded table of %d rows x %d keys (%d decimals) takes %d bytes,"
                                        + " more than Paimon's default layout (%d bytes).",
                                rows, width, decimals, sc.get("TOTAL"), pc.get("TOTAL")));
            }
        } finally {
            if (keep == null) {
                try (java.util.stream.Stream<java.nio.file.Path> all = Files.walk(dir)) {
                    all.sorted(java.util.Comparator.reverseOrder())
                            .map(java.nio.file.Path::toFile)
                            .forEach(java.io.File::delete);
                }
            }
        }
    }
}
