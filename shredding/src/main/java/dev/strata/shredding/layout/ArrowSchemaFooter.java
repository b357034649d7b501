package dev.strata.shredding.layout;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flatbuf.Field;
import org.apache.arrow.flatbuf.KeyValue;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.Schema;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;

/**
 * The Parquet footer key-value entry through which Apache Paimon (2.0 and later, and every engine
 * implementing its shared-shredding MAP layout) finds the layout of a file's MAP columns:
 *
 * <pre>
 * key    "ARROW:schema"
 * value  Base64(Message)                     standard Base64 alphabet, with padding
 * Message --&gt; Continuation:int32 LE = -1, Length:int32 LE, FlatBuffer, zero bytes up to Length
 *             (Length = FlatBuffer size rounded up to a multiple of 8)
 * FlatBuffer  an Arrow IPC {@code Message} table: version V5 (4), header type Schema (1), header a
 *             {@code Schema} table, body length 0
 * Schema  --&gt; endianness Little (the default, not stored), fields: one Field per column of the file's
 *             physical row type, in file order
 * Field   --&gt; name, nullable, type (Int 8/16/32/64 signed, FloatingPoint single/double, Utf8, Binary,
 *             Bool, Decimal precision/scale/128, Date day, Time ms/32, Timestamp s|ms|us|ns with
 *             time zone "UTC" for local-zoned timestamps, List, Struct, Map keysSorted=false),
 *             children, custom_metadata
 * </pre>
 *
 * Children: a list has one child {@code $data$} (the element); a map one non-null struct child
 * {@code entries} with children {@code key} (non-null) and {@code value}; a row its fields. Every
 * field carries {@code PARQUET:field_id}: a top-level or row field its Paimon field id, a list
 * element {@link SpecialFields#getArrayElementFieldId}, a map key / value {@link
 * SpecialFields#getMapKeyFieldId} / {@link SpecialFields#getMapValueFieldId} of the enclosing
 * field's id and depth ({@code entries} repeats the map's own id; depth counts from 0 at a column
 * or row field and grows by one per list/map level). The custom metadata of a top-level field is
 * the caller's key-value pairs (for a shredded map the {@link PaimonShreddingKeys}) followed by
 * {@code PARQUET:field_id}; nested fields carry only their id.
 *
 * <p>The bytes are those Paimon 2.0.0 writes for the same row type and metadata: the FlatBuffer is
 * built with the same builder calls in the same order (strings, type table, children, metadata,
 * then the field table; table slots added in slot order; default values omitted), which tests check
 * byte for byte against files Paimon 2.0.0 wrote. Paimon 1.4 defines neither the key nor this
 * conversion, hence the literal constants.
 *
 * <p>Reading follows Paimon's reader: a value that is not Base64 is taken as its UTF-8 bytes, the
 * continuation prefix is optional, and anything that is not a Schema message gives no metadata (the
 * file is then read as if it had none), never an error.
 */
public final class ArrowSchemaFooter {

    public static final String KEY = "ARROW:schema";

    /** The custom-metadata key carrying a field's Parquet field id. */
    public static final String FIELD_ID_KEY = "PARQUET:field_id";

    private static final String LIST_ELEMENT = "$data$";
    private static final String MAP_ENTRIES = "entries";

    private static final short METADATA_V5 = 4;
    private static final byte HEADER_SCHEMA = 1;
    private static final byte TYPE_INT = 2;
    private static final byte TYPE_FLOATING_POINT = 3;
    private static final byte TYPE_BINARY = 4;
    private static final byte TYPE_UTF8 = 5;
    private static final byte TYPE_BOOL = 6;
    private static final byte TYPE_DECIMAL = 7;
    private static final byte TYPE_DATE = 8;
    private static final byte TYPE_TIME = 9;
    private static final byte TYPE_TIMESTAMP = 10;
    private static final byte TYPE_LIST = 12;
    private static final byte TYPE_STRUCT = 13;
    private static final byte TYPE_MAP = 17;

    private ArrowSchemaFooter() {}

    /** The footer value for row type {@code physical} with its top-level fields' metadata. */
    public static String encode(RowType physical, Map<String, Map<String, String>> metadata) {
        FlatBufferBuilder b = new FlatBufferBuilder();
        List<ArrowField> fields = new ArrayList<>();
        for (DataField f : physical.getFields()) {
            ArrowField a = field(f.name(), f.id(), f.type(), 0);
            Map<String, String> extra = metadata.get(f.name());
            if (extra != null && !extra.isEmpty()) {
                Map<String, String> m = new LinkedHashMap<>(extra);
                m.putAll(a.metadata);
                a = new ArrowField(a.name, a.nullable, a.type, a.children, m);
            }
            fields.add(a);
        }
        int[] offsets = new int[fields.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = build(b, fields.get(i));
        }
        int vector = tables(b, offsets);
        b.startTable(4);
        b.addShort(0, (short) 0, 0);
        b.addOffset(1, vector, 0);
        int schema = b.endTable();
        b.startTable(5);
        b.addShort(0, METADATA_V5, 0);
        b.addByte(1, HEADER_SCHEMA, 0);
        b.addOffset(2, schema, 0);
        b.addLong(3, 0L, 0L);
        b.finish(b.endTable());
        byte[] flat = b.sizedByteArray();
        int padded = (flat.length + 7) / 8 * 8;
        ByteBuffer out = ByteBuffer.allocate(8 + padded).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(-1);
        out.putInt(padded);
        out.put(flat);
        return Base64.getEncoder().encodeToString(out.array());
    }

    /** Top-level fields' custom metadata by name; empty if {@code value} is no Arrow Schema. */
    public static Map<String, Map<String, String>> decode(String value) {
        if (value == null) {
            return Collections.emptyMap();
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            bytes = value.getBytes(StandardCharsets.UTF_8);
        }
        try {
            ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            if (buf.remaining() >= 8 && buf.getInt(0) == -1) {
                int length = buf.getInt(4);
                if (length < 0 || length > bytes.length - 8) {
                    return Collections.emptyMap();
                }
                buf = ByteBuffer.wrap(bytes, 8, length).slice().order(ByteOrder.LITTLE_ENDIAN);
            }
            Message message = Message.getRootAsMessage(buf);
            if (message.headerType() != MessageHeader.Schema) {
                return Collections.emptyMap();
            }
            Schema schema = (Schema) message.header(new Schema());
            if (schema == null) {
                return Collections.emptyMap();
            }
            Map<String, Map<String, String>> result = new LinkedHashMap<>();
            for (int i = 0; i < schema.fieldsLength(); i++) {
                Field f = schema.fields(i);
                if (f.customMetadataLength() == 0) {
                    continue;
                }
                Map<String, String> m = new LinkedHashMap<>();
                for (int j = 0; j < f.customMetadataLength(); j++) {
                    KeyValue kv = f.customMetadata(j);
                    m.put(kv.key(), kv.value());
                }
                result.put(f.name(), Collections.unmodifiableMap(m));
            }
            return Collections.unmodifiableMap(result);
        } catch (RuntimeException e) {
            return Collections.emptyMap();
        }
    }

    private static final class ArrowField {
        final String name;
        final boolean nullable;
        final ArrowType type;
        final List<ArrowField> children;
        final Map<String, String> metadata;

        ArrowField(
                String name,
                boolean nullable,
                ArrowType type,
                List<ArrowField> children,
                Map<String, String> metadata) {
            this.name = name;
            this.nullable = nullable;
            this.type = type;
            this.children = children;
            this.metadata = metadata;
        }

        ArrowField withId(int id) {
            return new ArrowField(name, nullable, type, children, idMetadata(id));
        }
    }

    private static final class ArrowType {
        final byte tag;
        int bitWidth;
        boolean signed;
        short precision;
        int decimalPrecision;
        int scale;
        short unit;
        String timezone;

        ArrowType(byte tag) {
            this.tag = tag;
        }
    }

    private static Map<String, String> idMetadata(int id) {
        return Collections.singletonMap(FIELD_ID_KEY, String.valueOf(id));
    }

    private static ArrowField field(String name, int id, DataType type, int depth) {
        List<ArrowField> children = Collections.emptyList();
        if (type instanceof ArrayType) {
            children =
                    Collections.singletonList(
                            field(LIST_ELEMENT, id, ((ArrayType) type).getElementType(), depth + 1)
                                    .withId(SpecialFields.getArrayElementFieldId(id, depth + 1)));
        } else if (type instanceof MapType) {
            MapType m = (MapType) type;
            ArrowField key =
                    field("key", id, m.getKeyType().notNull(), depth + 1)
                            .withId(SpecialFields.getMapKeyFieldId(id, depth + 1));
            ArrowField value =
                    field("value", id, m.getValueType(), depth + 1)
                            .withId(SpecialFields.getMapValueFieldId(id, depth + 1));
            children =
                    Collections.singletonList(
                            new ArrowField(
                                    MAP_ENTRIES,
                                    false,
                                    new ArrowType(TYPE_STRUCT),
                                    List.of(key, value),
                                    idMetadata(id)));
        } else if (type instanceof RowType) {
            List<ArrowField> c = new ArrayList<>();
            for (DataField f : ((RowType) type).getFields()) {
                c.add(field(f.name(), f.id(), f.type(), 0));
            }
            children = c;
        }
        return new ArrowField(
                name, type.isNullable(), arrowType(name, type), children, idMetadata(id));
    }

    private static ArrowType arrowType(String name, DataType type) {
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return new ArrowType(TYPE_UTF8);
            case BOOLEAN:
                return new ArrowType(TYPE_BOOL);
            case BINARY:
            case VARBINARY:
                return new ArrowType(TYPE_BINARY);
            case DECIMAL:
                {
                    ArrowType t = new ArrowType(TYPE_DECIMAL);
                    t.decimalPrecision = ((DecimalType) type).getPrecision();
                    t.scale = ((DecimalType) type).getScale();
                    t.bitWidth = 128;
                    return t;
                }
            case TINYINT:
                return integer(8);
            case SMALLINT:
                return integer(16);
            case INTEGER:
                return integer(32);
            case BIGINT:
                return integer(64);
            case FLOAT:
                {
                    ArrowType t = new ArrowType(TYPE_FLOATING_POINT);
                    t.precision = 1;
                    return t;
                }
            case DOUBLE:
                {
                    ArrowType t = new ArrowType(TYPE_FLOATING_POINT);
                    t.precision = 2;
                    return t;
                }
            case DATE:
                return new ArrowType(TYPE_DATE);
            case TIME_WITHOUT_TIME_ZONE:
                {
                    ArrowType t = new ArrowType(TYPE_TIME);
                    t.unit = 1;
                    t.bitWidth = 32;
                    return t;
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                {
                    ArrowType t = new ArrowType(TYPE_TIMESTAMP);
                    t.unit = timeUnit(((TimestampType) type).getPrecision());
                    return t;
                }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                {
                    ArrowType t = new ArrowType(TYPE_TIMESTAMP);
                    t.unit = timeUnit(((LocalZonedTimestampType) type).getPrecision());
                    t.timezone = "UTC";
                    return t;
                }
            case ARRAY:
                return new ArrowType(TYPE_LIST);
            case MAP:
                return new ArrowType(TYPE_MAP);
            case ROW:
                return new ArrowType(TYPE_STRUCT);
            default:
                throw new UnsupportedOperationException(
                        "Cannot describe column '"
                                + name
                                + "' in the "
                                + KEY
                                + " footer entry: type "
                                + type
                                + " has no Arrow counterpart here. Supported: numbers, decimal,"
                                + " string, binary, boolean, date, time, timestamp, array, map and row.");
        }
    }

    private static ArrowType integer(int bits) {
        ArrowType t = new ArrowType(TYPE_INT);
        t.bitWidth = bits;
        t.signed = true;
        return t;
    }

    private static short timeUnit(int precision) {
        return precision == 0
                ? (short) 0
                : precision <= 3 ? (short) 1 : precision <= 6 ? (short) 2 : (short) 3;
    }

    private static int build(FlatBufferBuilder b, ArrowField f) {
        int name = b.createString(f.name);
        int type = buildType(b, f.type);
        int[] offsets = new int[f.children.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = build(b, f.children.get(i));
        }
        int children = tables(b, offsets);
        int[] kvs = new int[f.metadata.size()];
        int i = 0;
        for (Map.Entry<String, String> e : f.metadata.entrySet()) {
            int key = b.createString(e.getKey());
            int value = b.createString(e.getValue());
            b.startTable(2);
            b.addOffset(0, key, 0);
            b.addOffset(1, value, 0);
            kvs[i++] = b.endTable();
        }
        int metadata = tables(b, kvs);
        b.startTable(7);
        b.addOffset(0, name, 0);
        b.addBoolean(1, f.nullable, false);
        b.addByte(2, f.type.tag, 0);
        b.addOffset(3, type, 0);
        b.addOffset(5, children, 0);
        b.addOffset(6, metadata, 0);
        return b.endTable();
    }

    private static int buildType(FlatBufferBuilder b, ArrowType t) {
        switch (t.tag) {
            case TYPE_INT:
                b.startTable(2);
                b.addInt(0, t.bitWidth, 0);
                b.addBoolean(1, t.signed, false);
                return b.endTable();
            case TYPE_FLOATING_POINT:
                b.startTable(1);
                b.addShort(0, t.precision, 0);
                return b.endTable();
            case TYPE_DECIMAL:
                b.startTable(3);
                b.addInt(0, t.decimalPrecision, 0);
                b.addInt(1, t.scale, 0);
                b.addInt(2, t.bitWidth, 128);
                return b.endTable();
            case TYPE_DATE:
                b.startTable(1);
                b.addShort(0, (short) 0, 1);
                return b.endTable();
            case TYPE_TIME:
                b.startTable(2);
                b.addShort(0, t.unit, 1);
                b.addInt(1, t.bitWidth, 32);
                return b.endTable();
            case TYPE_TIMESTAMP:
                {
                    int tz = t.timezone == null ? 0 : b.createString(t.timezone);
                    b.startTable(2);
                    b.addShort(0, t.unit, 0);
                    if (tz != 0) {
                        b.addOffset(1, tz, 0);
                    }
                    return b.endTable();
                }
            case TYPE_MAP:
                b.startTable(1);
                b.addBoolean(0, false, false);
                return b.endTable();
            default:
                b.startTable(0);
                return b.endTable();
        }
    }

    private static int tables(FlatBufferBuilder b, int[] offsets) {
        b.startVector(4, offsets.length, 4);
        for (int i = offsets.length - 1; i >= 0; i--) {
            b.addOffset(offsets[i]);
        }
        return b.endVector();
    }
}
