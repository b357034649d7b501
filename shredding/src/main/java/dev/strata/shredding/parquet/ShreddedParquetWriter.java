package dev.strata.shredding.parquet;

import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.ArrowSchemaFooter;
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
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes Paimon rows as standard Parquet with the shared-shredding layout for the configured MAP
 * columns; every other column is stored as plain Parquet.
 *
 * <p><b>Footer metadata.</b> For every shredded column the footer key/value metadata holds the entry
 * {@code strata.shredding.<column>} = Base64(Blob), version {@value ShreddingFooter#VERSION}, CRC32
 * checksummed:
 *
 * <pre>
 * Blob     --&gt; Magic "SSMF", Version:byte(2), RawLength:VInt, CompressedLength:VInt, Deflate(Payload), CRC32:int32
 * Payload  --&gt; K, W, ValueKind, DictSize, Key^DictSize, S(id)^DictSize, O, GroupCount, Group^GroupCount
 * Group    --&gt; RowCount, Truncated, EntryCount, &lt;Id, Present, Nulls, NaNs, Flags, [Min], [Max]&gt;^EntryCount,
 *              Placement (S_g per id and O_g of the row group, or "not recorded")
 * </pre>
 *
 * The full byte grammar and the zone-statistics size bound are in {@link ShreddingFooter}.
 *
 * <p>The footer also holds the entry every Paimon engine reads ({@link ArrowSchemaFooter}: key
 * {@code ARROW:schema}, the file's physical row type with {@link PaimonShreddingKeys} on each shredded
 * column), so Paimon's own Parquet reader opens the file as a shared-shredding file; the key dictionary
 * there is compressed with the file's codec, which must be none, lz4 or zstd. The footer holds one zone Group per row
 * group; the writer notices a row-group flush by the output position moving (parquet-hadoop buffers
 * pages in memory until a row group is complete).
 */
public final class ShreddedParquetWriter implements Closeable {

    private static final Configuration HADOOP_CONF = new Configuration(false);

    /**
     * Whether the K elements of {@code __field_mapping} after the first go straight to the column writer (same
     * values and levels, same bytes) instead of through the record consumer's per-element group calls, which
     * measured as the largest single cost of a shredded write at K = 256. System property
     * {@code strata.shredding.direct-mapping=false} turns it off; it is also off whenever the record consumer is
     * not parquet-mr's plain column-IO consumer (for example a validating one).
     */
    static volatile boolean DIRECT_MAPPING =
            !"false".equalsIgnoreCase(System.getProperty("strata.shredding.direct-mapping", "true"));

    private static final String COLUMN_IO_CONSUMER = "org.apache.parquet.io.MessageColumnIO$MessageColumnIORecordConsumer";
    private static final java.lang.reflect.Field COLUMNS_FIELD = columnsField();

    private static java.lang.reflect.Field columnsField() {
        try {
            java.lang.reflect.Field f = Class.forName(COLUMN_IO_CONSUMER, false, RecordConsumer.class.getClassLoader())
                    .getDeclaredField("columns");
            if (!ColumnWriteStore.class.isAssignableFrom(f.getType())) {
                return null;
            }
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    private static final java.lang.reflect.Field FIELDS_WRITTEN_FIELD = consumerField("fieldsWritten");
    private static final java.lang.reflect.Field VISITED_FIELD = markerField();

    private static java.lang.reflect.Field consumerField(String name) {
        try {
            java.lang.reflect.Field f = Class.forName(COLUMN_IO_CONSUMER, false, RecordConsumer.class.getClassLoader())
                    .getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    private static java.lang.reflect.Field markerField() {
        try {
            java.lang.reflect.Field f = Class.forName(COLUMN_IO_CONSUMER + "$FieldsMarker", false,
                    RecordConsumer.class.getClassLoader()).getDeclaredField("visitedIndexes");
            if (f.getType() != java.util.BitSet.class) {
                return null;
            }
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * The "fields written" bit set the record consumer keeps for groups at {@code level} (1 = a top-level
     * struct), or null when it cannot be reached. Setting a field's bit tells the consumer the field was written,
     * so it writes no NULL for it when the group ends.
     */
    static java.util.BitSet fieldsWrittenMarker(RecordConsumer rc, int level) {
        if (FIELDS_WRITTEN_FIELD == null || VISITED_FIELD == null || rc == null
                || FIELDS_WRITTEN_FIELD.getDeclaringClass() != rc.getClass()) {
            return null;
        }
        try {
            Object[] markers = (Object[]) FIELDS_WRITTEN_FIELD.get(rc);
            if (markers == null || markers.length <= level || markers[level] == null
                    || VISITED_FIELD.getDeclaringClass() != markers[level].getClass()) {
                return null;
            }
            return (java.util.BitSet) VISITED_FIELD.get(markers[level]);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Whether this parquet-mr lets the mapping elements bypass the record consumer (tests). */
    static boolean directMappingAvailable() {
        return COLUMNS_FIELD != null && FIELDS_WRITTEN_FIELD != null && VISITED_FIELD != null;
    }

    /** The column store behind parquet-mr's record consumer, or null when it cannot be reached. */
    static ColumnWriteStore columnStoreOf(RecordConsumer rc) {
        java.lang.reflect.Field f = COLUMNS_FIELD;
        if (f == null || rc == null || !rc.getClass().getName().equals(COLUMN_IO_CONSUMER)
                || f.getDeclaringClass() != rc.getClass()) {
            return null;
        }
        try {
            return (ColumnWriteStore) f.get(rc);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Layout settings of one shredded column in one file. */
    public static final class ColumnSpec {
        final int k;
        final PlacementPolicy policy;

        public ColumnSpec(int k, PlacementPolicy policy) {
            this.k = k;
            this.policy = policy;
        }
    }

    /** Physical Parquet settings. */
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

        /** zstd level (Paimon's {@code file.compression.zstd-level}, default 1; parquet-hadoop's own default is 3). */
        public Settings zstdLevel(int level) {
            this.zstdLevel = level;
            return this;
        }

        /**
         * Whether FLOAT/DOUBLE pages that outgrow their dictionary fall back to BYTE_STREAM_SPLIT instead of
         * PLAIN. A shared column mostly holds one key's values, whose sign/exponent bytes repeat, so the
         * split streams compress much better (benchmark: about 16 % fewer bytes) for about the same CPU
         * time. Default true.
         */
        public Settings byteStreamSplit(boolean enabled) {
            this.byteStreamSplit = enabled;
            return this;
        }

        public Settings pageRowLimit(int rows) {
            this.pageRowLimit = rows;
            return this;
        }
    }

    private final PaimonFiles.StreamOutputFile out;
    private final ParquetWriter<InternalRow> writer;
    private final List<ShreddedMapWriter> mapWriters = new ArrayList<>();
    private long lastPosition;
    private long rowsInGroup;
    private Map<String, Integer> widths;
    private final RowType physicalRowType;
    private final String dictionaryCodec;

    public ShreddedParquetWriter(PaimonFiles.StreamOutputFile out, RowType rowType, Map<String, ColumnSpec> shredded,
            Settings settings) throws IOException {
        this.out = out;
        Map<String, Integer> ks = new HashMap<>();
        shredded.forEach((name, spec) -> ks.put(name, spec.k));
        MessageType schema = ParquetSchemas.messageType(rowType, ks);
        this.physicalRowType = PaimonShreddingKeys.physicalRowType(rowType, ks);
        String codec = null;
        for (String column : shredded.keySet()) {
            codec = PaimonShreddingKeys.dictionaryCodec(settings.compression, column, out.getPath());
        }
        this.dictionaryCodec = codec;
        RowWriteSupport support = new RowWriteSupport(rowType, shredded, schema);
        Builder builder = new Builder(out, support);
        this.writer = builder
                .withConf(HADOOP_CONF)
                .withCompressionCodec(codec(settings.compression))
                .withRowGroupSize(settings.rowGroupBytes)
                .withRowGroupRowCountLimit(settings.rowGroupRowLimit)
                .withPageSize(settings.pageBytes)
                .withPageRowCountLimit(settings.pageRowLimit)
                .withDictionaryEncoding(true)
                .withByteStreamSplitEncoding(settings.byteStreamSplit)
                // Every page carries the CRC32 of its stored bytes, so readers detect a damaged page
                // (PageChecksums). parquet-mr's default is on; stated here so no configuration turns it off.
                .withPageWriteChecksumEnabled(true)
                .config("parquet.compression.codec.zstd.level", Integer.toString(settings.zstdLevel))
                .build();
        this.lastPosition = out.position();
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
                throw new IllegalArgumentException("Cannot write a shredded Parquet file: compression '" + compression
                        + "' is not supported. Use one of none, zstd, lz4, snappy, gzip.");
        }
    }

    public void write(InternalRow row) throws IOException {
        writer.write(row);
        rowsInGroup++;
        long pos = out.position();
        if (pos != lastPosition) {
            sealGroup();
            lastPosition = pos;
        }
    }

    private void sealGroup() {
        for (ShreddedMapWriter w : mapWriters) {
            w.sealRowGroup(rowsInGroup);
        }
        rowsInGroup = 0;
    }

    /** Bytes written plus bytes buffered for the open row group. */
    public long dataSize() {
        return writer.getDataSize();
    }

    /** Closes the Parquet writer (not Paimon's stream). */
    @Override
    public void close() throws IOException {
        if (widths != null) {
            return;
        }
        writer.close();
        Map<String, Integer> w = new LinkedHashMap<>();
        for (ShreddedMapWriter m : mapWriters) {
            w.put(m.column(), m.maxRowWidth());
        }
        widths = w;
    }

    /** W per shredded column; valid after a successful {@link #close()}. */
    public Map<String, Integer> maxRowWidths() {
        if (widths == null) {
            throw new IllegalStateException("Cannot report max row widths before the file is closed.");
        }
        return widths;
    }

    private static final class Builder extends ParquetWriter.Builder<InternalRow, Builder> {
        private final WriteSupport<InternalRow> support;

        Builder(OutputFile file, WriteSupport<InternalRow> support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<InternalRow> getWriteSupport(Configuration conf) {
            return support;
        }
    }

    private final class RowWriteSupport extends WriteSupport<InternalRow> {
        private final MessageType schema;
        private final String[] names;
        private final InternalRow.FieldGetter[] getters;
        private final ValueWriters.ValueWriter[] writers;
        private final ShreddedMapWriter[] shreddedWriters;
        private RecordConsumer rc;

        RowWriteSupport(RowType rowType, Map<String, ColumnSpec> shredded, MessageType schema) {
            this.schema = schema;
            int n = rowType.getFieldCount();
            names = new String[n];
            getters = new InternalRow.FieldGetter[n];
            writers = new ValueWriters.ValueWriter[n];
            shreddedWriters = new ShreddedMapWriter[n];
            for (int i = 0; i < n; i++) {
                DataField f = rowType.getFields().get(i);
                names[i] = f.name();
                getters[i] = InternalRow.createFieldGetter(f.type(), i);
                ColumnSpec spec = shredded.get(f.name());
                if (spec != null) {
                    ShreddedMapWriter w = new ShreddedMapWriter(f.name(), ((MapType) f.type()).getValueType(), spec.k,
                            spec.policy);
                    shreddedWriters[i] = w;
                    mapWriters.add(w);
                } else {
                    writers[i] = ValueWriters.of(f.type());
                }
            }
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(schema, new HashMap<>());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.rc = recordConsumer;
            ColumnWriteStore store = DIRECT_MAPPING ? columnStoreOf(recordConsumer) : null;
            java.util.BitSet topLevelMarker = store == null ? null : fieldsWrittenMarker(recordConsumer, 1);
            for (ShreddedMapWriter w : mapWriters) {
                w.bindMappingWriter(store, schema, topLevelMarker);
            }
        }

        @Override
        public void write(InternalRow row) {
            rc.startMessage();
            for (int i = 0; i < names.length; i++) {
                Object v = getters[i].getFieldOrNull(row);
                if (v == null) {
                    continue;
                }
                rc.startField(names[i], i);
                if (shreddedWriters[i] != null) {
                    shreddedWriters[i].write(rc, (InternalMap) v, rowsInGroup);
                } else {
                    writers[i].write(rc, v);
                }
                rc.endField(names[i], i);
            }
            rc.endMessage();
        }

        @Override
        public FinalizedWriteContext finalizeWrite() {
            if (rowsInGroup > 0) {
                sealGroup();
            }
            Map<String, String> extra = new HashMap<>();
            Map<String, Map<String, String>> paimonKeys = new LinkedHashMap<>();
            for (ShreddedMapWriter w : mapWriters) {
                extra.put(ShreddingFooter.footerKey(w.column()), ShreddingFooter.encode(w.meta()));
                paimonKeys.put(w.column(), PaimonShreddingKeys.encode(w.meta(), dictionaryCodec));
            }
            if (!paimonKeys.isEmpty()) {
                extra.put(ArrowSchemaFooter.KEY, ArrowSchemaFooter.encode(physicalRowType, paimonKeys));
            }
            return new FinalizedWriteContext(extra);
        }
    }
}
