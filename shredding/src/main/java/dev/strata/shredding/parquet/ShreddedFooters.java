package dev.strata.shredding.parquet;

import dev.strata.shredding.cache.BoundedCache;
import dev.strata.shredding.cache.CacheSettings;
import dev.strata.shredding.layout.ArrowSchemaFooter;
import dev.strata.shredding.layout.PaimonShreddingKeys;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.layout.ValueKind;
import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Opens data files for reading together with their decoded shredding footers ({@link
 * ShreddingFooter}), and keeps the footers of recently opened files per JVM, so a repeated scan
 * neither re-reads nor re-decodes them. Keyed by path and length (Paimon data files are immutable
 * and uniquely named); an entry holds the parsed Parquet footer without the shredding entries, and
 * their decoded metadata, immutable and shared by readers. At most {@link #DEFAULT_CAPACITY} files,
 * or as the engine's {@link CacheSettings} say (0: off); failed decodes are not cached.
 */
public final class ShreddedFooters {

    /** Files whose footers are kept when the engine does not say otherwise. */
    public static final int DEFAULT_CAPACITY = 256;

    private static final int CAPACITY = capacity();
    private static final BoundedCache<String, Footer> CACHE = BoundedCache.of(CAPACITY);

    private static int capacity() {
        Integer configured = CacheSettings.load().footerCacheFiles();
        return configured == null ? DEFAULT_CAPACITY : Math.max(0, configured);
    }

    private ShreddedFooters() {}

    /** An open file and the decoded shredding metadata of its shredded columns, by column name. */
    public static final class Opened {
        public final ParquetFileReader reader;
        public final Map<String, ShreddedColumnMeta> metas;

        Opened(ParquetFileReader reader, Map<String, ShreddedColumnMeta> metas) {
            this.reader = reader;
            this.metas = metas;
        }
    }

    private static final class Footer {
        final ParquetMetadata parquet;
        final Map<String, ShreddedColumnMeta> metas;

        Footer(ParquetMetadata parquet, Map<String, ShreddedColumnMeta> metas) {
            this.parquet = parquet;
            this.metas = metas;
        }
    }

    /** The value domain from the Parquet type of {@code __overflow}'s value. */
    static ValueKind valueKind(org.apache.parquet.schema.GroupType physical) {
        if (!physical.containsField(ParquetSchemas.OVERFLOW)) {
            return ValueKind.NONE;
        }
        Type kvs = physical.getType(ParquetSchemas.OVERFLOW).asGroupType().getType(0);
        Type value = kvs.asGroupType().getFieldCount() > 1 ? kvs.asGroupType().getType(1) : null;
        if (value == null || !value.isPrimitive()) {
            return ValueKind.NONE;
        }
        org.apache.parquet.schema.LogicalTypeAnnotation a = value.getLogicalTypeAnnotation();
        switch (value.asPrimitiveType().getPrimitiveTypeName()) {
            case BOOLEAN:
                return ValueKind.LONG;
            case INT32:
            case INT64:
                if (a
                        instanceof
                        org.apache.parquet.schema.LogicalTypeAnnotation
                                .DecimalLogicalTypeAnnotation) {
                    return ValueKind.DECIMAL;
                }
                if (a
                                instanceof
                                org.apache.parquet.schema.LogicalTypeAnnotation
                                        .TimestampLogicalTypeAnnotation
                        && ((org.apache.parquet.schema.LogicalTypeAnnotation
                                                        .TimestampLogicalTypeAnnotation)
                                                a)
                                        .getUnit()
                                == org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit.NANOS) {
                    return ValueKind.NONE;
                }
                return ValueKind.LONG;
            case FLOAT:
            case DOUBLE:
                return ValueKind.DOUBLE;
            case BINARY:
                return a
                                instanceof
                                org.apache.parquet.schema.LogicalTypeAnnotation
                                        .DecimalLogicalTypeAnnotation
                        ? ValueKind.DECIMAL
                        : ValueKind.BYTES;
            case FIXED_LEN_BYTE_ARRAY:
                return a
                                instanceof
                                org.apache.parquet.schema.LogicalTypeAnnotation
                                        .DecimalLogicalTypeAnnotation
                        ? ValueKind.DECIMAL
                        : ValueKind.BYTES;
            default:
                return ValueKind.NONE;
        }
    }

    /** Paimon's layout keys of the file's columns, decoded on first use into {@code holder[0]}. */
    private static Map<String, Map<String, String>> paimonKeys(
            Map<String, Map<String, String>>[] holder, Map<String, String> kv) {
        if (holder[0] == null) {
            holder[0] = ArrowSchemaFooter.decode(kv.get(ArrowSchemaFooter.KEY));
        }
        return holder[0];
    }

    /** The metadata of the footer's shredded columns, by name, decoded as {@link #open} does. */
    public static Map<String, ShreddedColumnMeta> decode(ParquetMetadata footer, String file) {
        return decode(footer, file, new HashMap<>());
    }

    /** {@link #decode(ParquetMetadata, String)}, removing the decoded entries from {@code rest}. */
    private static Map<String, ShreddedColumnMeta> decode(
            ParquetMetadata footer, String file, Map<String, String> rest) {
        MessageType schema = footer.getFileMetaData().getSchema();
        Map<String, String> kv = footer.getFileMetaData().getKeyValueMetaData();
        Map<String, ShreddedColumnMeta> metas = new HashMap<>();
        Map<String, Map<String, String>>[] paimonKeys = new Map[1];
        for (Type t : schema.getFields()) {
            if (!ParquetSchemas.looksShredded(t)) {
                continue;
            }
            String name = t.getName();
            String text = kv.get(ShreddingFooter.footerKey(name));
            ShreddedColumnMeta meta =
                    text == null
                            ? null
                            : ShreddingFooter.decode(
                                    text,
                                    () ->
                                            ShreddingFooter.paimonLayout(
                                                    paimonKeys(paimonKeys, kv).get(name),
                                                    name,
                                                    file),
                                    name,
                                    file);
            if (text != null) {
                rest.remove(ShreddingFooter.footerKey(name));
            }
            if (meta == null) {
                // No Strata entry, or one of another version: Paimon's keys alone.
                Map<String, String> keys = paimonKeys(paimonKeys, kv).get(name);
                if (PaimonShreddingKeys.isShredded(keys)) {
                    meta = PaimonShreddingKeys.decode(keys, valueKind(t.asGroupType()), name, file);
                }
            }
            if (meta != null) {
                metas.put(name, meta);
            }
        }
        if (paimonKeys[0] != null) {
            // Kept decoded: the cached footer need not hold the large Base64 text too.
            rest.remove(ArrowSchemaFooter.KEY);
        }
        return Collections.unmodifiableMap(metas);
    }

    /**
     * Opens {@code input}, verifying page checksums when {@code verifyPages}, with the metadata of
     * its shredded-looking columns: from Strata's entry in a version Strata reads, else from
     * Paimon's layout keys (no zones). A column with neither is the caller's to report.
     */
    public static Opened open(InputFile input, String file, boolean verifyPages)
            throws IOException {
        String key = file + "|" + input.getLength();
        Footer cached = CACHE.get(key);
        if (cached != null) {
            SeekableInputStream in = input.newStream();
            try {
                return new Opened(
                        new ParquetFileReader(
                                input, cached.parquet, PaimonFiles.readOptions(verifyPages), in),
                        cached.metas);
            } catch (IOException | RuntimeException e) {
                in.close();
                throw e;
            }
        }
        ParquetFileReader reader =
                ParquetFileReader.open(input, PaimonFiles.readOptions(verifyPages));
        try {
            ParquetMetadata footer = reader.getFooter();
            MessageType schema = footer.getFileMetaData().getSchema();
            Map<String, String> rest =
                    new HashMap<>(footer.getFileMetaData().getKeyValueMetaData());
            Map<String, ShreddedColumnMeta> shared = decode(footer, file, rest);
            if (CAPACITY > 0) {
                FileMetaData fm =
                        new FileMetaData(schema, rest, footer.getFileMetaData().getCreatedBy());
                Footer entry = new Footer(new ParquetMetadata(fm, footer.getBlocks()), shared);
                CACHE.put(key, entry);
            }
            return new Opened(reader, shared);
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
    }
}
