package dev.strata.shredding.parquet;

import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.ArrowSchemaFooter;
import dev.strata.shredding.layout.GroupPlacement;
import dev.strata.shredding.layout.PaimonShreddingKeys;
import dev.strata.shredding.layout.ShreddingFooter;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.codec.ZstandardCodec;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;

/**
 * Writes Paimon rows as standard Parquet with the shared-shredding layout for the configured MAP
 * columns and plain Parquet for the others. The footer holds per shredded column Strata's entry
 * ({@link ShreddingFooter}) and the {@code ARROW:schema} entry with {@link PaimonShreddingKeys}
 * ({@link ArrowSchemaFooter}) by which Paimon's own reader opens the file; its key dictionary is
 * compressed with the file's codec (none, lz4 or zstd). Writes go through parquet's public write
 * path ({@link ParquetFileWriter}, per row group a {@link ColumnChunkPageWriteStore} and {@link
 * ColumnWriteStore}) with explicit levels per leaf; row groups are cut as parquet-hadoop cuts them.
 */
public final class ShreddedParquetWriter implements Closeable {

    public static final class ColumnSpec {
        final int k;
        final PlacementPolicy policy;
        final int maxSegments;

        public ColumnSpec(int k, PlacementPolicy policy) {
            this(k, policy, GroupPlacement.DEFAULT_MAX_SEGMENTS);
        }

        /** {@code maxSegments}: per column and row group; beyond it, the column is fragmented. */
        public ColumnSpec(int k, PlacementPolicy policy, int maxSegments) {
            this.k = k;
            this.policy = policy;
            this.maxSegments = maxSegments;
        }
    }

    /**
     * What the dictionaries of one file's columns may hold together while a row group is written:
     * each grows to its page size before it falls back, and a map of K columns would hold K times
     * parquet's 1 MB at once. Files of up to 64 columns keep parquet's default.
     */
    static final int DICTIONARY_BUDGET_BYTES = 64 << 20;

    /** The smallest dictionary page a column gets however many columns the file has. */
    static final int MIN_DICTIONARY_PAGE_BYTES = 64 << 10;

    static int dictionaryPageBytes(MessageType schema) {
        int columns = Math.max(1, schema.getColumns().size());
        return Math.max(
                MIN_DICTIONARY_PAGE_BYTES,
                Math.min(
                        ParquetProperties.DEFAULT_DICTIONARY_PAGE_SIZE,
                        DICTIONARY_BUDGET_BYTES / columns));
    }

    public static final class Settings {
        String compression = "zstd";
        long rowGroupBytes = 128L * 1024 * 1024;
        int rowGroupRowLimit = Integer.MAX_VALUE;
        int pageBytes = 1024 * 1024;
        int pageRowLimit = 20_000;
        int zstdLevel = 1;
        boolean byteStreamSplit = true;

        public Settings compression(String codec) {
            this.compression = codec;
            return this;
        }

        public Settings rowGroupBytes(long bytes) {
            this.rowGroupBytes = bytes;
            return this;
        }

        public Settings rowGroupRowLimit(int rows) {
            this.rowGroupRowLimit = rows;
            return this;
        }

        /** Paimon's {@code file.compression.zstd-level} (default 1; parquet-hadoop's is 3). */
        public Settings zstdLevel(int level) {
            this.zstdLevel = level;
            return this;
        }

        /** BYTE_STREAM_SPLIT, not PLAIN, past the dictionary: one key's exponent bytes repeat. */
        public Settings byteStreamSplit(boolean enabled) {
            this.byteStreamSplit = enabled;
            return this;
        }

        public Settings pageRowLimit(int rows) {
            this.pageRowLimit = rows;
            return this;
        }
    }

    private final String path;
    private final MessageType schema;
    private final ParquetProperties props;
    private final ParquetFileWriter file;
    private final CodecFactory codecs;
    private final CompressionCodecFactory.BytesInputCompressor compressor;
    private final long rowGroupBytes;
    private final List<ShreddedMapWriter> mapWriters = new ArrayList<>();
    private final ShreddedMapWriter[] shreddedWriters;
    private final ValueWriters.Node[] plainWriters;
    private final RowType physicalRowType;
    private final String dictionaryCodec;
    private ColumnChunkPageWriteStore pageStore;
    private ColumnWriteStore columns;
    private int rowGroupOrdinal;
    private long rowsInGroup;
    private long nextSizeCheck;
    private long nextRowGroupBytes;
    private long lastRowGroupEnd;
    private boolean failed;
    private Map<String, Integer> widths;

    /**
     * Rows the map writers hold back before their records end, written at each multiple of it in
     * the row group (and before a row-group check); 0: none holds rows.
     */
    private final int batchRows;

    /** Rows written whose records are not ended yet: their map values are held back. */
    private int heldRows;

    public ShreddedParquetWriter(
            PaimonFiles.StreamOutputFile out,
            RowType rowType,
            Map<String, ColumnSpec> shredded,
            Settings settings)
            throws IOException {
        this.path = out.getPath();
        Map<String, Integer> ks = new HashMap<>();
        shredded.forEach((name, spec) -> ks.put(name, spec.k));
        this.schema = ParquetSchemas.messageType(rowType, ks);
        this.physicalRowType = PaimonShreddingKeys.physicalRowType(rowType, ks);
        String codec = null;
        for (String column : shredded.keySet()) {
            codec =
                    PaimonShreddingKeys.dictionaryCodec(
                            settings.compression, column, out.getPath());
        }
        this.dictionaryCodec = codec;
        int n = rowType.getFieldCount();
        shreddedWriters = new ShreddedMapWriter[n];
        plainWriters = new ValueWriters.Node[n];
        for (int i = 0; i < n; i++) {
            DataField f = rowType.getFields().get(i);
            ColumnSpec spec = shredded.get(f.name());
            if (spec != null) {
                ShreddedMapWriter w =
                        new ShreddedMapWriter(
                                f.name(),
                                ((MapType) f.type()).getValueType(),
                                spec.k,
                                spec.policy,
                                spec.maxSegments,
                                schema.getType(i).asGroupType());
                shreddedWriters[i] = w;
                mapWriters.add(w);
            } else {
                plainWriters[i] = ValueWriters.of(f.type(), schema.getType(i), List.of(), 0, 0);
            }
        }
        int batch = Integer.MAX_VALUE;
        for (ShreddedMapWriter w : mapWriters) {
            if (w.holdsRows()) {
                batch = Math.min(batch, w.maxHeldRows);
            }
        }
        // A divisor of the page row limit: pages cut at the limit end at a batch's last row, so
        // they hold exactly as many rows as when every record ended at once.
        while (batch != Integer.MAX_VALUE && settings.pageRowLimit % batch != 0) {
            batch--;
        }
        this.batchRows = batch == Integer.MAX_VALUE ? 0 : batch;
        this.props =
                ParquetProperties.builder()
                        .withPageSize(settings.pageBytes)
                        .withDictionaryPageSize(dictionaryPageBytes(schema))
                        .withDictionaryEncoding(true)
                        .withByteStreamSplitEncoding(settings.byteStreamSplit)
                        .withPageRowCountLimit(settings.pageRowLimit)
                        .withRowGroupRowCountLimit(settings.rowGroupRowLimit)
                        // Readers detect a damaged page by its CRC32 (PageChecksums).
                        .withPageWriteChecksumEnabled(true)
                        .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                        // A cheaper dictionary lookup for DOUBLE columns (same bytes).
                        .withValuesWriterFactory(new DoubleDictionaryWriter.Factory())
                        .build();
        this.rowGroupBytes = settings.rowGroupBytes;
        this.nextRowGroupBytes = rowGroupBytes;
        Configuration conf = new Configuration(false);
        conf.setInt(ZstandardCodec.PARQUET_COMPRESS_ZSTD_LEVEL, settings.zstdLevel);
        this.codecs = new CodecFactory(conf, props.getPageSizeThreshold());
        CompressionCodecName codecName = codec(settings.compression);
        this.compressor =
                codecName == CompressionCodecName.ZSTD
                        ? new ZstdPageCompressor(settings.zstdLevel)
                        : codecs.getCompressor(codecName);
        this.file =
                new ParquetFileWriter(
                        out,
                        schema,
                        ParquetFileWriter.Mode.CREATE,
                        rowGroupBytes,
                        ParquetWriter.MAX_PADDING_SIZE_DEFAULT,
                        null,
                        props);
        file.start();
        openRowGroup();
    }

    /** Before the first row: the file's first rows, for placement policies that plan. */
    public void plan(List<InternalRow> rows) {
        for (int i = 0; i < shreddedWriters.length; i++) {
            if (shreddedWriters[i] == null) {
                continue;
            }
            List<InternalMap> maps = new ArrayList<>(rows.size());
            for (InternalRow r : rows) {
                if (!r.isNullAt(i)) {
                    maps.add(r.getMap(i));
                }
            }
            shreddedWriters[i].plan(maps);
        }
    }

    private void openRowGroup() {
        pageStore =
                new ColumnChunkPageWriteStore(
                        compressor,
                        schema,
                        props.getAllocator(),
                        props.getColumnIndexTruncateLength(),
                        props.getPageWriteChecksumEnabled(),
                        null,
                        rowGroupOrdinal);
        // DOUBLE chunks get their best dictionary order (DictionaryOrderPages).
        columns =
                props.newColumnWriteStore(
                        schema, new DictionaryOrderPages(pageStore, compressor), pageStore);
        for (int i = 0; i < plainWriters.length; i++) {
            if (plainWriters[i] != null) {
                plainWriters[i].bind(columns, schema);
            } else {
                shreddedWriters[i].bind(columns, schema);
            }
        }
        rowsInGroup = 0;
        // As parquet-hadoop: a new group's first size check comes after the minimum interval.
        nextSizeCheck = props.getMinRowCountForPageSizeCheck();
    }

    static CompressionCodecName codec(String compression) {
        String c = compression == null ? "none" : compression.trim().toLowerCase(Locale.ROOT);
        switch (c) {
            case "":
            case "none":
            case "uncompressed":
                return CompressionCodecName.UNCOMPRESSED;
            case "zstd":
                return CompressionCodecName.ZSTD;
            case "lz4":
                return CompressionCodecName.LZ4_RAW;
            case "snappy":
                return CompressionCodecName.SNAPPY;
            case "gzip":
                return CompressionCodecName.GZIP;
            default:
                throw new IllegalArgumentException(
                        "Cannot write a shredded Parquet file: compression '"
                                + compression
                                + "' is not supported. Use one of none, zstd, lz4, snappy, gzip.");
        }
    }

    public void write(InternalRow row) throws IOException {
        if (failed) {
            throw new IOException(
                    "Cannot write to shredded Parquet file "
                            + path
                            + ": an earlier write failed."
                            + " Discard the file.");
        }
        try {
            for (int i = 0; i < plainWriters.length; i++) {
                ShreddedMapWriter m = shreddedWriters[i];
                if (row.isNullAt(i)) {
                    if (m != null) {
                        m.writeNull();
                    } else {
                        plainWriters[i].writeNull(0, 0);
                    }
                } else if (m != null) {
                    m.write(row.getMap(i), rowsInGroup);
                } else {
                    plainWriters[i].write(row, i, 0);
                }
            }
            rowsInGroup++;
            if (batchRows == 0) {
                columns.endRecord();
                checkRowGroupFull();
            } else {
                heldRows++;
                if (rowsInGroup % batchRows == 0
                        || rowsInGroup >= props.getRowGroupRowCountLimit()
                        || rowsInGroup >= nextSizeCheck) {
                    writeHeld();
                    checkRowGroupFull();
                }
            }
        } catch (RuntimeException | IOException e) {
            failed = true;
            throw e;
        }
    }

    /** Writes the rows the map writers held back and ends their records. */
    private void writeHeld() {
        for (ShreddedMapWriter w : mapWriters) {
            w.writeHeld();
        }
        for (; heldRows > 0; heldRows--) {
            columns.endRecord();
        }
    }

    /** parquet-hadoop's row-group cut: at the row limit or a buffered size near the target. */
    private void checkRowGroupFull() throws IOException {
        if (rowsInGroup >= props.getRowGroupRowCountLimit()) {
            flushRowGroup();
            openRowGroup();
            return;
        }
        if (rowsInGroup < nextSizeCheck) {
            return;
        }
        long size = columns.getBufferedSize();
        long rowSize = size / rowsInGroup;
        if (size > nextRowGroupBytes - 2 * rowSize) {
            flushRowGroup();
            openRowGroup();
        } else {
            nextSizeCheck =
                    Math.min(
                            Math.max(
                                    props.getMinRowCountForPageSizeCheck(),
                                    (rowsInGroup + (long) (nextRowGroupBytes / ((float) rowSize)))
                                            / 2),
                            rowsInGroup + props.getMaxRowCountForPageSizeCheck());
        }
    }

    private void flushRowGroup() throws IOException {
        try {
            if (rowsInGroup > 0) {
                rowGroupOrdinal++;
                file.startBlock(rowsInGroup);
                columns.flush();
                pageStore.flushToFileWriter(file);
                file.endBlock();
                nextRowGroupBytes = Math.min(file.getNextRowGroupSize(), rowGroupBytes);
                for (ShreddedMapWriter w : mapWriters) {
                    w.sealRowGroup(rowsInGroup);
                }
                lastRowGroupEnd = file.getPos();
            }
        } finally {
            columns.close();
            pageStore.close();
        }
    }

    /**
     * Bytes written plus bytes buffered for the open row group (values of held rows, at most one
     * batch, not yet counted).
     */
    public long dataSize() {
        return lastRowGroupEnd + (widths == null ? columns.getBufferedSize() : 0);
    }

    /** Closes the Parquet writer (not Paimon's stream). */
    @Override
    public void close() throws IOException {
        if (widths != null) {
            return;
        }
        try {
            if (failed) {
                throw new IOException(
                        "Cannot close shredded Parquet file "
                                + path
                                + ": an earlier write failed."
                                + " Discard the file.");
            }
            writeHeld();
            flushRowGroup();
            Map<String, String> extra = new HashMap<>();
            Map<String, Map<String, String>> paimonKeys = new LinkedHashMap<>();
            for (ShreddedMapWriter w : mapWriters) {
                extra.put(ShreddingFooter.footerKey(w.column()), ShreddingFooter.encode(w.meta()));
                paimonKeys.put(w.column(), PaimonShreddingKeys.encode(w.meta(), dictionaryCodec));
            }
            if (!paimonKeys.isEmpty()) {
                extra.put(
                        ArrowSchemaFooter.KEY,
                        ArrowSchemaFooter.encode(physicalRowType, paimonKeys));
            }
            file.end(extra);
        } finally {
            codecs.release();
        }
        Map<String, Integer> w = new LinkedHashMap<>();
        for (ShreddedMapWriter m : mapWriters) {
            w.put(m.column(), m.maxRowWidth());
        }
        widths = w;
    }

    /** W per shredded column; valid after a successful {@link #close()}. */
    public Map<String, Integer> maxRowWidths() {
        if (widths == null) {
            throw new IllegalStateException(
                    "Cannot report max row widths before the file is closed.");
        }
        return widths;
    }
}
