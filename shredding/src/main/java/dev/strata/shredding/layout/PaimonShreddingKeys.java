package dev.strata.shredding.layout;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.strata.shredding.io.DamagedFileException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.paimon.compression.BlockCompressionFactory;
import org.apache.paimon.compression.BlockCompressor;
import org.apache.paimon.compression.BlockDecompressor;
import org.apache.paimon.compression.CompressOptions;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.IntType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.JsonSerdeUtil;

/**
 * The per-column layout keys of Paimon's shared-shredding MAP layout, stored as the custom metadata
 * of the column's top-level field in the {@link ArrowSchemaFooter} entry. All values are strings,
 * stored in this order:
 *
 * <pre>
 * paimon.map.storage-layout                          "shared-shredding" (the marker)
 * paimon.map.shared-shredding.version                "1"
 * paimon.map.shared-shredding.field-dict-compression "none" | "lz4" | "zstd" (the file's compression;
 *                                                    absent means zstd)
 * paimon.map.shared-shredding.field-dict-original-size  decimal byte length of the dictionary JSON
 * paimon.map.shared-shredding.field-dict             Latin1(Compress(UTF-8(dictionary JSON)))
 * paimon.map.shared-shredding.field-columns          JSON object id → ascending column list, ids ascending,
 *                                                    for example {"0":[0],"1":[1,2]}  (S)
 * paimon.map.shared-shredding.overflow-set           ascending JSON array of ids, for example [4]  (O)
 * paimon.map.shared-shredding.num-columns            K, decimal
 * paimon.map.shared-shredding.max-row-width          W, decimal
 * </pre>
 *
 * The dictionary JSON is a compact object key → id sorted by key in Java {@code String} order
 * (UTF-16 code units), for example {@code {"cpu":0,"disk":2}}, written by Paimon's JSON mapper
 * (quotes, backslashes and control characters escaped, other characters raw UTF-8). Compress is:
 * none = the bytes themselves; zstd = one zstd frame at level 1; lz4 = int32 LE compressed length,
 * int32 LE original length, then one raw LZ4 block (Paimon's block compressors, which this class
 * uses). Latin1 maps each compressed byte to the char of the same value (0x00-0xFF), so bytes of
 * 0x80 and more take two bytes once the Arrow metadata stores the string as UTF-8; a reader takes
 * the low byte of each char.
 *
 * <p>Paimon ignores keys it does not know, so Strata's own richer metadata stays in its own footer
 * entry ({@link ShreddingFooter}). Paimon 1.4 defines none of these keys, hence the literals.
 */
public final class PaimonShreddingKeys {

    public static final String STORAGE_LAYOUT = "paimon.map.storage-layout";
    public static final String SHARED_SHREDDING = "shared-shredding";
    private static final String PREFIX = "paimon.map.shared-shredding.";
    public static final String VERSION = PREFIX + "version";
    public static final String FIELD_DICT_COMPRESSION = PREFIX + "field-dict-compression";
    public static final String FIELD_DICT_ORIGINAL_SIZE = PREFIX + "field-dict-original-size";
    public static final String FIELD_DICT = PREFIX + "field-dict";
    public static final String FIELD_COLUMNS = PREFIX + "field-columns";
    public static final String OVERFLOW_SET = PREFIX + "overflow-set";
    public static final String NUM_COLUMNS = PREFIX + "num-columns";
    public static final String MAX_ROW_WIDTH = PREFIX + "max-row-width";
    static final int CURRENT_VERSION = 1;

    /** No field-name interning or canonicalizing: a dictionary's keys are each seen once. */
    private static final JsonFactory JSON =
            new JsonFactory()
                    .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                    .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES);

    private PaimonShreddingKeys() {}

    /** none, lz4 or zstd for {@code compression} (null: none); throws for any other codec. */
    public static String dictionaryCodec(String compression, String column, String file) {
        String c = compression == null ? "none" : compression.trim().toLowerCase(Locale.ROOT);
        switch (c) {
            case "none":
            case "lz4":
            case "zstd":
                return c;
            default:
                throw new IllegalArgumentException(
                        "Cannot write the shared-shredding key dictionary of column '"
                                + column
                                + "' in file "
                                + file
                                + ": file compression '"
                                + compression
                                + "' cannot compress it; Paimon's"
                                + " layout allows none, lz4 or zstd. Set 'file.compression' to one of them.");
        }
    }

    /** The keys for one column, in storage order; {@code codec} from {@link #dictionaryCodec}. */
    public static Map<String, String> encode(ShreddedColumnMeta meta, String codec) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(STORAGE_LAYOUT, SHARED_SHREDDING);
        out.put(VERSION, String.valueOf(CURRENT_VERSION));
        out.put(FIELD_DICT_COMPRESSION, codec);
        Map<String, Integer> dict = new TreeMap<>();
        List<String> keys = meta.keys();
        for (int id = 0; id < keys.size(); id++) {
            dict.put(keys.get(id), id);
        }
        byte[] json = json(dict).getBytes(StandardCharsets.UTF_8);
        out.put(FIELD_DICT_ORIGINAL_SIZE, String.valueOf(json.length));
        out.put(FIELD_DICT, new String(compress(json, codec), StandardCharsets.ISO_8859_1));
        Map<Integer, List<Integer>> columns = new TreeMap<>();
        for (int id = 0; id < keys.size(); id++) {
            int[] cols = meta.columnsOf(id).clone();
            if (cols.length > 0) {
                Arrays.sort(cols);
                List<Integer> l = new ArrayList<>(cols.length);
                for (int c : cols) {
                    l.add(c);
                }
                columns.put(id, l);
            }
        }
        out.put(FIELD_COLUMNS, json(columns));
        TreeSet<Integer> overflow = new TreeSet<>();
        BitSet o = meta.overflowSet();
        for (int id = o.nextSetBit(0); id >= 0; id = o.nextSetBit(id + 1)) {
            overflow.add(id);
        }
        out.put(OVERFLOW_SET, json(overflow));
        out.put(NUM_COLUMNS, String.valueOf(meta.numColumns()));
        out.put(MAX_ROW_WIDTH, String.valueOf(meta.maxRowWidth()));
        return out;
    }

    public static boolean isShredded(Map<String, String> metadata) {
        return metadata != null && SHARED_SHREDDING.equals(metadata.get(STORAGE_LAYOUT));
    }

    /** The layout from Paimon's keys alone (no zones or placements); damage is unchecked. */
    public static ShreddedColumnMeta decode(
            Map<String, String> metadata, ValueKind kind, String column, String file) {
        String where = "column '" + column + "' of file " + file;
        if (!isShredded(metadata)) {
            throw ShreddingFooter.damaged(
                    column, file, STORAGE_LAYOUT + " is not '" + SHARED_SHREDDING + "'", null);
        }
        int version = integer(metadata, VERSION, column, file);
        if (version != CURRENT_VERSION) {
            throw new IllegalStateException(
                    "Cannot read shredding metadata of "
                            + where
                            + ": "
                            + VERSION
                            + " is "
                            + version
                            + ", expected "
                            + CURRENT_VERSION
                            + ". Upgrade Strata to read this file.");
        }
        int originalSize = integer(metadata, FIELD_DICT_ORIGINAL_SIZE, column, file);
        String codec =
                metadata.getOrDefault(FIELD_DICT_COMPRESSION, "zstd")
                        .trim()
                        .toLowerCase(Locale.ROOT);
        if (!codec.equals("none") && !codec.equals("lz4") && !codec.equals("zstd")) {
            throw ShreddingFooter.damaged(
                    column,
                    file,
                    FIELD_DICT_COMPRESSION + " is '" + codec + "', expected none, lz4 or zstd",
                    null);
        }
        int k = integer(metadata, NUM_COLUMNS, column, file);
        int w = integer(metadata, MAX_ROW_WIDTH, column, file);
        if (k < 0 || w < 0 || originalSize < 0) {
            throw ShreddingFooter.damaged(
                    column,
                    file,
                    "negative "
                            + NUM_COLUMNS
                            + ", "
                            + MAX_ROW_WIDTH
                            + " or "
                            + FIELD_DICT_ORIGINAL_SIZE,
                    null);
        }
        try {
            byte[] packed =
                    required(metadata, FIELD_DICT, column, file)
                            .getBytes(StandardCharsets.ISO_8859_1);
            byte[] json = decompress(packed, originalSize, codec);
            String[] keys = parseDictionary(json);
            int[][] columns =
                    parseFieldColumns(
                            required(metadata, FIELD_COLUMNS, column, file), keys.length, k);
            BitSet overflow =
                    parseOverflowSet(required(metadata, OVERFLOW_SET, column, file), keys.length);
            return ShreddedColumnMeta.withoutZones(
                    k, w, kind, Arrays.asList(keys), columns, overflow);
        } catch (RuntimeException e) {
            if (e instanceof UncheckedIOException && DamagedFileException.in(e).isPresent()) {
                throw e;
            }
            throw ShreddingFooter.damaged(column, file, "malformed value (" + e + ")", e);
        }
    }

    /** The dictionary JSON (key → id, ids 0..n-1 once each) as the key of each id. */
    static String[] parseDictionary(byte[] json) {
        String[] fast = CompactJson.dictionary(json);
        if (fast != null) {
            return fast;
        }
        try (JsonParser p = JSON.createParser(json)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, "the dictionary");
            List<String> names = new ArrayList<>();
            int[] ids = new int[64];
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                names.add(p.getCurrentName());
                expect(p.nextToken(), JsonToken.VALUE_NUMBER_INT, "a dictionary id");
                if (names.size() > ids.length) {
                    ids = Arrays.copyOf(ids, ids.length * 2);
                }
                ids[names.size() - 1] = p.getIntValue();
            }
            expect(t, JsonToken.END_OBJECT, "the end of the dictionary");
            String[] keys = new String[names.size()];
            for (int i = 0; i < keys.length; i++) {
                int id = ids[i];
                if (id < 0 || id >= keys.length || keys[id] != null) {
                    throw new IllegalArgumentException(
                            "dictionary ids are not 0.." + (keys.length - 1) + " (id " + id + ")");
                }
                keys[id] = names.get(i);
            }
            return keys;
        } catch (IOException e) {
            throw new IllegalArgumentException("the dictionary is not JSON: " + e.getMessage(), e);
        }
    }

    /** {@code field-columns}: sorted S by id for ids 0..dictSize-1 (ids not named get none). */
    static int[][] parseFieldColumns(String json, int dictSize, int k) {
        int[][] fast = CompactJson.fieldColumns(json, dictSize, k);
        if (fast != null) {
            return fast;
        }
        int[][] columns = new int[dictSize][];
        Arrays.fill(columns, new int[0]);
        try (JsonParser p = JSON.createParser(json)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, "field-columns");
            JsonToken t;
            int[] buf = new int[16];
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                int id = Integer.parseInt(p.getCurrentName());
                if (id < 0 || id >= dictSize) {
                    throw new IllegalArgumentException(
                            "field-columns names id " + id + " outside the dictionary");
                }
                expect(p.nextToken(), JsonToken.START_ARRAY, "the columns of id " + id);
                int n = 0;
                while ((t = p.nextToken()) == JsonToken.VALUE_NUMBER_INT) {
                    int c = p.getIntValue();
                    if (c < 0 || c >= k) {
                        throw new IllegalArgumentException(
                                "column " + c + " of id " + id + " is outside 0.." + (k - 1));
                    }
                    if (n == buf.length) {
                        buf = Arrays.copyOf(buf, n * 2);
                    }
                    buf[n++] = c;
                }
                expect(t, JsonToken.END_ARRAY, "the end of the columns of id " + id);
                int[] c = Arrays.copyOf(buf, n);
                Arrays.sort(c);
                columns[id] = c;
            }
            expect(t, JsonToken.END_OBJECT, "the end of field-columns");
            return columns;
        } catch (IOException e) {
            throw new IllegalArgumentException("field-columns is not JSON: " + e.getMessage(), e);
        }
    }

    /** {@code overflow-set}: O. */
    static BitSet parseOverflowSet(String json, int dictSize) {
        BitSet overflow = new BitSet();
        try (JsonParser p = JSON.createParser(json)) {
            expect(p.nextToken(), JsonToken.START_ARRAY, "overflow-set");
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.VALUE_NUMBER_INT) {
                int id = p.getIntValue();
                if (id < 0 || id >= dictSize) {
                    throw new IllegalArgumentException(
                            "overflow-set names id " + id + " outside the dictionary");
                }
                overflow.set(id);
            }
            expect(t, JsonToken.END_ARRAY, "the end of overflow-set");
            return overflow;
        } catch (IOException e) {
            throw new IllegalArgumentException("overflow-set is not JSON: " + e.getMessage(), e);
        }
    }

    private static void expect(JsonToken found, JsonToken expected, String what) {
        if (found != expected) {
            throw new IllegalArgumentException(
                    "expected " + expected + " for " + what + ", found " + found);
        }
    }

    /**
     * The row type a file stores for {@code logical} when the columns of {@code numColumns} (name →
     * K) are shredded: each such {@code MAP<STRING, T>} becomes, with the same name, id and
     * nullability, {@code ROW<__field_mapping ARRAY<INT> (id 0), __col_0..K-1 T (ids 1..K),
     * __overflow MAP<INT, T> (id K+1)>}.
     */
    public static RowType physicalRowType(RowType logical, Map<String, Integer> numColumns) {
        List<DataField> fields = new ArrayList<>();
        for (DataField f : logical.getFields()) {
            Integer k = numColumns.get(f.name());
            if (k == null) {
                fields.add(f);
                continue;
            }
            DataType value = ((MapType) f.type()).getValueType();
            List<DataField> inner = new ArrayList<>();
            inner.add(new DataField(0, "__field_mapping", new ArrayType(new IntType())));
            for (int c = 0; c < k; c++) {
                inner.add(new DataField(c + 1, "__col_" + c, value));
            }
            inner.add(new DataField(k + 1, "__overflow", new MapType(new IntType(), value)));
            fields.add(f.newType(new RowType(f.type().isNullable(), inner)));
        }
        return new RowType(logical.isNullable(), fields);
    }

    private static String json(Object o) {
        try {
            return JsonSerdeUtil.writeValueAsString(o);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Cannot serialize shared-shredding metadata " + o + ": " + e, e);
        }
    }

    private static byte[] compress(byte[] input, String codec) {
        if (codec.equals("none")) {
            return input;
        }
        BlockCompressor compressor =
                BlockCompressionFactory.create(new CompressOptions(codec, 1)).getCompressor();
        byte[] out = new byte[compressor.getMaxCompressedSize(input.length)];
        int n = compressor.compress(input, 0, input.length, out, 0);
        return Arrays.copyOf(out, n);
    }

    private static byte[] decompress(byte[] input, int originalSize, String codec) {
        if (codec.equals("none")) {
            return input;
        }
        BlockDecompressor d =
                BlockCompressionFactory.create(new CompressOptions(codec, 1)).getDecompressor();
        byte[] out = new byte[originalSize];
        int n = d.decompress(input, 0, input.length, out, 0);
        if (n != originalSize) {
            throw new IllegalArgumentException(
                    "the dictionary decompressed to "
                            + n
                            + " bytes, "
                            + FIELD_DICT_ORIGINAL_SIZE
                            + " says "
                            + originalSize);
        }
        return out;
    }

    private static String required(
            Map<String, String> metadata, String key, String column, String file) {
        String v = metadata.get(key);
        if (v == null) {
            throw ShreddingFooter.damaged(column, file, "key " + key + " is missing", null);
        }
        return v;
    }

    private static int integer(
            Map<String, String> metadata, String key, String column, String file) {
        String v = required(metadata, key, column, file);
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw ShreddingFooter.damaged(
                    column, file, "key " + key + " is '" + v + "', expected an integer", e);
        }
    }
}
