package dev.strata.shredding.layout;

import dev.strata.shredding.io.DamagedFileException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The per-column shredding metadata stored in the Parquet footer's key/value metadata, one entry
 * per shredded column: key {@code strata.shredding.<column name>}, value the standard Base64 text
 * of a {@code Blob}. It holds what Paimon's layout keys ({@link PaimonShreddingKeys}, in the {@link
 * ArrowSchemaFooter} entry every Paimon engine reads) do not: the value kind, per-row-group zone
 * statistics and per-row-group placements. It does not repeat D, S and O: a reader takes them from
 * Paimon's keys of the same file ({@link #decode(Map, String, String)}), which must agree on K, W
 * and the number of keys. Grammar (integers big-endian; VInt/VLong are unsigned LEB128 varints;
 * ZLong is a zig-zag VLong):
 *
 * <pre>
 * Blob        --&gt; Magic, Version, RawLength, Deflated, Checksum
 * Magic       --&gt; the 4 bytes "SSMF"
 * Version     --&gt; byte, = 3 (an intact entry of another version is ignored, see below)
 * RawLength   --&gt; VInt, byte length of Payload before compression
 * Deflated    --&gt; CompressedLength:VInt, zlib-deflate(Payload) bytes
 * Checksum    --&gt; int32, CRC32 of every preceding byte of the Blob
 * Payload     --&gt; K:VInt, W:VInt, ValueKind:byte, DictSize:VInt, GroupCount:VInt, Group^GroupCount
 *                 (K, W and DictSize, the number of keys, must equal Paimon's num-columns,
 *                 max-row-width and dictionary size)
 * Group       --&gt; RowCount:VLong, Truncated:byte, EntryCount:VInt, Entry^EntryCount, Placement
 * Entry       --&gt; IdDelta:VInt (ids ascending, each the difference to the previous id, the first as is),
 *                 Present:VInt, Nulls:VInt, NaNs:VInt, Flags:byte,
 *                 [Min:Value if Flags&amp;1], [Max:Value if Flags&amp;2]
 * Placement   --&gt; Recorded:byte (0 | 1 | 2), [IdCount:VInt, &lt;IdDelta:VInt, ColCount:VInt,
 *                 ColDelta:VInt^ColCount&gt;^IdCount, OverflowCount:VInt, OverflowIdDelta:VInt^OverflowCount,
 *                 Segments] (only when Recorded = 1; S_g per id and O_g of the row group,
 *                 {@link GroupPlacement}; ids, columns and overflow ids ascending, each stored as the
 *                 difference to the previous one of its list, the first as is); Recorded = 2:
 *                 S_g and O_g are the file's S and O (every id with a non-empty S), followed by Segments
 *                 only (a file of one row group would otherwise repeat Paimon's field-columns)
 * Segments    --&gt; HasSegments:byte (0 | 1), [ColumnSegments^K]   (only when HasSegments = 1)
 * ColumnSegments --&gt; Fragmented:byte (0 | 1), [Count:VInt, &lt;Gap:VInt, Length:VInt, Owner:VInt&gt;^Count]
 *                 (only when Fragmented = 0; column c = 0..K-1 in order; a segment starts Gap rows after
 *                 the previous one ended (the first: after row 0), holds Length &gt;= 1 rows and its only
 *                 id is Owner)
 * Value       --&gt; LONG: ZLong | DOUBLE: IEEE-754 int64 bits | BYTES: Length:VInt, bytes
 *                 | DECIMAL: Scale:VInt, Length:VInt, unscaled two's-complement bytes
 * </pre>
 *
 * <p>ValueKind codes are those of {@link ValueKind}. Bounds: at most {@value #MAX_ZONE_KEYS}
 * entries per row group and column (further keys set Truncated: keys not listed may be present);
 * BYTES bounds of at most {@value #MAX_BOUND_BYTES} bytes (a longer minimum is cut to its prefix, a
 * longer maximum dropped), so zones add at most about 1024 &times; (8 + 2 &times; 65) bytes per row
 * group before compression; a placement only for at most {@value #MAX_PLACEMENT_IDS} ids and within
 * {@value #PLACEMENT_BYTES_PER_ROW} bytes per row of its group (at least {@value
 * #MIN_PLACEMENT_BUDGET}), else without its Segments if that fits. Paimon ignores this entry;
 * Strata reads files without it from Paimon's keys alone, and treats an intact entry (magic and
 * checksum hold) of a version other than {@value #VERSION} as none. Only bytes that break the
 * magic, the checksum or the grammar make the file damaged.
 */
public final class ShreddingFooter {

    public static final String KEY_PREFIX = "strata.shredding.";
    public static final int VERSION = 3;

    /** Beyond this many ids a group records no placement (Recorded = 0): readers use S and O. */
    public static final int MAX_PLACEMENT_IDS = 1 << 16;

    /** Placement bytes per row of a group; a larger placement drops its segments, else itself. */
    public static final int PLACEMENT_BYTES_PER_ROW = 2;

    static final int MIN_PLACEMENT_BUDGET = 4096;
    public static final int MAX_ZONE_KEYS = 1024;
    public static final int MAX_BOUND_BYTES = 64;
    private static final byte[] MAGIC = {'S', 'S', 'M', 'F'};

    private ShreddingFooter() {}

    public static String footerKey(String column) {
        return KEY_PREFIX + column;
    }

    static byte[] lowerBound(byte[] min) {
        return min.length <= MAX_BOUND_BYTES ? min : Arrays.copyOf(min, MAX_BOUND_BYTES);
    }

    static byte[] upperBound(byte[] max) {
        return max.length <= MAX_BOUND_BYTES ? max : null;
    }

    /** Encodes the metadata as the Base64 text of a Blob. */
    public static String encode(ShreddedColumnMeta meta) {
        try {
            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(raw);
            writeVInt(out, meta.numColumns());
            writeVInt(out, meta.maxRowWidth());
            out.writeByte(meta.valueKind().code());
            writeVInt(out, meta.keys().size());
            writeVInt(out, meta.zones().size());
            int g = 0;
            for (KeyZones z : meta.zones()) {
                writeVLong(out, z.rowCount());
                out.writeByte(z.truncated() ? 1 : 0);
                writeVInt(out, z.size());
                int prevId = 0;
                for (int i = 0; i < z.size(); i++) {
                    writeVInt(out, z.idAt(i) - prevId);
                    prevId = z.idAt(i);
                    writeVInt(out, z.presentAt(i));
                    writeVInt(out, z.nullsAt(i));
                    writeVInt(out, z.nansAt(i));
                    Object mi = z.minAt(i);
                    Object ma = z.maxAt(i);
                    out.writeByte((mi != null ? 1 : 0) | (ma != null ? 2 : 0));
                    if (mi != null) {
                        writeValue(out, meta.valueKind(), mi);
                    }
                    if (ma != null) {
                        writeValue(out, meta.valueKind(), ma);
                    }
                }
                GroupPlacement placement = meta.placement(g);
                long budget =
                        Math.max(MIN_PLACEMENT_BUDGET, z.rowCount() * PLACEMENT_BYTES_PER_ROW);
                if (placement != null && sameAsFile(placement, meta)) {
                    // S_g and O_g are the file's S and O: only the segments.
                    out.writeByte(2);
                    writeSegments(out, placement, budget);
                } else {
                    writePlacement(out, placement, budget);
                }
                g++;
            }
            out.flush();
            byte[] payload = raw.toByteArray();
            Deflater deflater = new Deflater(Deflater.BEST_SPEED);
            byte[] compressed;
            try {
                deflater.setInput(payload);
                deflater.finish();
                ByteArrayOutputStream c =
                        new ByteArrayOutputStream(Math.max(64, payload.length / 2));
                byte[] buf = new byte[8192];
                while (!deflater.finished()) {
                    int n = deflater.deflate(buf);
                    c.write(buf, 0, n);
                }
                compressed = c.toByteArray();
            } finally {
                deflater.end();
            }
            ByteArrayOutputStream blob = new ByteArrayOutputStream(compressed.length + 32);
            DataOutputStream b = new DataOutputStream(blob);
            b.write(MAGIC);
            b.writeByte(VERSION);
            writeVInt(b, payload.length);
            writeBytes(b, compressed);
            b.flush();
            CRC32 crc = new CRC32();
            crc.update(blob.toByteArray());
            b.writeInt((int) crc.getValue());
            b.flush();
            return Base64.getEncoder().encodeToString(blob.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code column}'s metadata, or null without a Strata entry of this version. */
    public static ShreddedColumnMeta decode(
            Map<String, String> keyValueMetadata, String column, String file) {
        String text = keyValueMetadata.get(footerKey(column));
        if (text == null) {
            return null;
        }
        return decode(
                text,
                () ->
                        paimonLayout(
                                ArrowSchemaFooter.decode(
                                                keyValueMetadata.get(ArrowSchemaFooter.KEY))
                                        .get(column),
                                column,
                                file),
                column,
                file);
    }

    static UncheckedIOException damaged(String column, String file, String why, Throwable cause) {
        return new DamagedFileException(
                        file, "shredding metadata of column '" + column + "': " + why, cause)
                .unchecked();
    }

    /** D, S, O, K and W from {@code column}'s Paimon layout keys ({@code keys}; null: none). */
    public static ShreddedColumnMeta paimonLayout(
            Map<String, String> keys, String column, String file) {
        if (!PaimonShreddingKeys.isShredded(keys)) {
            throw damaged(
                    column,
                    file,
                    "Strata's footer entry takes the keys from Paimon's "
                            + ArrowSchemaFooter.KEY
                            + " entry, which has no shared-shredding keys for the column",
                    null);
        }
        return PaimonShreddingKeys.decode(keys, ValueKind.NONE, column, file);
    }

    /**
     * Decodes a Blob's Base64 text, taking D, S and O from {@code paimonLayout} (called at most
     * once), whose K, W and dictionary size must match; null for an intact Blob of another version.
     * Damage is an unchecked {@link DamagedFileException} naming the column and the file.
     */
    public static ShreddedColumnMeta decode(
            String text, Supplier<ShreddedColumnMeta> paimonLayout, String column, String file) {
        byte[] blob;
        try {
            blob = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw damaged(
                    column, file, "the footer value is not Base64 (" + e.getMessage() + ")", e);
        }
        if (blob.length < MAGIC.length + 1 + 4 || !Arrays.equals(Arrays.copyOf(blob, 4), MAGIC)) {
            throw damaged(column, file, "expected magic SSMF, found " + describeMagic(blob), null);
        }
        CRC32 crc = new CRC32();
        crc.update(blob, 0, blob.length - 4);
        int expected =
                ((blob[blob.length - 4] & 0xFF) << 24)
                        | ((blob[blob.length - 3] & 0xFF) << 16)
                        | ((blob[blob.length - 2] & 0xFF) << 8)
                        | (blob[blob.length - 1] & 0xFF);
        int actual = (int) crc.getValue();
        if (expected != actual) {
            throw damaged(
                    column,
                    file,
                    String.format("checksum failed: expected %08x, found %08x", expected, actual),
                    null);
        }
        if (blob[4] != VERSION) {
            // An intact entry of an unknown version: the file stays readable from Paimon's keys.
            return null;
        }
        // D, S and O come from Paimon's entry; a problem there is reported as is.
        ShreddedColumnMeta layout = paimonLayout.get();
        try {
            Cursor in = new Cursor(blob, 5, blob.length - 4);
            int rawLength = readVInt(in);
            byte[] compressed = readBytes(in);
            Inflater inflater = new Inflater();
            byte[] payload = new byte[rawLength];
            try {
                inflater.setInput(compressed);
                int n = inflater.inflate(payload);
                if (n != rawLength || !inflater.finished()) {
                    throw new IOException("payload length " + n + " does not match " + rawLength);
                }
            } finally {
                inflater.end();
            }
            Cursor p = new Cursor(payload, 0, payload.length);
            int k = readVInt(p);
            int w = readVInt(p);
            ValueKind kind = ValueKind.fromCode(p.readByte());
            int dictSize = readVInt(p);
            if (layout.numColumns() != k
                    || layout.maxRowWidth() != w
                    || layout.keys().size() != dictSize) {
                throw new IOException(
                        "Strata's entry records K="
                                + k
                                + ", W="
                                + w
                                + " and "
                                + dictSize
                                + " keys, Paimon's keys K="
                                + layout.numColumns()
                                + ", W="
                                + layout.maxRowWidth()
                                + " and "
                                + layout.keys().size()
                                + " keys");
            }
            int groups = readVInt(p);
            List<KeyZones> zones = new ArrayList<>(groups);
            List<GroupPlacement> placements = new ArrayList<>(groups);
            for (int g = 0; g < groups; g++) {
                long rows = readVLong(p);
                boolean truncated = p.readByte() != 0;
                int n = readVInt(p);
                int[] ids = new int[n];
                int[] pr = new int[n];
                int[] nu = new int[n];
                int[] na = new int[n];
                Object[] mi = new Object[n];
                Object[] ma = new Object[n];
                if (n > dictSize) {
                    throw new IOException(
                            "row group "
                                    + g
                                    + " lists "
                                    + n
                                    + " zone entries for "
                                    + dictSize
                                    + " keys");
                }
                int prevId = 0;
                for (int i = 0; i < n; i++) {
                    ids[i] = prevId + readVInt(p);
                    if ((i > 0 && ids[i] <= prevId) || ids[i] >= dictSize) {
                        throw new IOException(
                                "zone id "
                                        + ids[i]
                                        + " of row group "
                                        + g
                                        + " is not ascending below "
                                        + dictSize);
                    }
                    prevId = ids[i];
                    pr[i] = readVInt(p);
                    nu[i] = readVInt(p);
                    na[i] = readVInt(p);
                    int flags = p.readByte();
                    if ((flags & 1) != 0) {
                        mi[i] = readValue(p, kind);
                    }
                    if ((flags & 2) != 0) {
                        ma[i] = readValue(p, kind);
                    }
                }
                zones.add(new KeyZones(rows, truncated, ids, pr, nu, na, mi, ma));
                placements.add(readPlacement(p, k, g, layout));
            }
            if (p.available() != 0) {
                throw new IOException(p.available() + " trailing bytes");
            }
            return layout.withZones(kind, zones, placements);
        } catch (IOException | DataFormatException | RuntimeException e) {
            if (e instanceof UncheckedIOException && DamagedFileException.in(e).isPresent()) {
                throw (UncheckedIOException) e;
            }
            throw damaged(column, file, "malformed payload (" + e + ")", e);
        }
    }

    /** Writes a group's placement, or Recorded = 0 if none or over {@code budget} bytes. */
    private static void writePlacement(
            DataOutputStream target, GroupPlacement placement, long budget) throws IOException {
        if (placement == null) {
            target.writeByte(0);
            return;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(1);
        int[] ids = placement.ids();
        writeVInt(out, ids.length);
        int prev = 0;
        for (int id : ids) {
            writeVInt(out, id - prev);
            prev = id;
            int[] cols = placement.columnsOf(id);
            writeVInt(out, cols.length);
            int pc = 0;
            for (int c : cols) {
                writeVInt(out, c - pc);
                pc = c;
            }
        }
        int[] ov = placement.overflowIds();
        writeVInt(out, ov.length);
        prev = 0;
        for (int id : ov) {
            writeVInt(out, id - prev);
            prev = id;
        }
        encodeSegments(out, placement);
        out.flush();
        if (bytes.size() <= budget) {
            bytes.writeTo(target);
        } else if (placement.hasSegments()) {
            // Without segments it still says which columns a key owns for the whole group.
            writePlacement(
                    target,
                    new GroupPlacement(placement.numColumns(), ids, columnsOf(placement, ids), ov),
                    budget);
        } else {
            target.writeByte(0);
        }
    }

    private static void encodeSegments(DataOutputStream out, GroupPlacement placement)
            throws IOException {
        out.writeByte(placement.hasSegments() ? 1 : 0);
        if (placement.hasSegments()) {
            for (int c = 0; c < placement.numColumns(); c++) {
                int[] seg = placement.segmentsOf(c);
                out.writeByte(seg == null ? 1 : 0);
                if (seg == null) {
                    continue;
                }
                writeVInt(out, seg.length / 3);
                int end = 0;
                for (int i = 0; i < seg.length; i += 3) {
                    writeVInt(out, seg[i] - end);
                    writeVInt(out, seg[i + 1]);
                    writeVInt(out, seg[i + 2]);
                    end = seg[i] + seg[i + 1];
                }
            }
        }
    }

    /** Segments within {@code budget} bytes, else HasSegments = 0. */
    private static void writeSegments(
            DataOutputStream target, GroupPlacement placement, long budget) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        encodeSegments(out, placement);
        out.flush();
        if (bytes.size() <= budget) {
            bytes.writeTo(target);
        } else {
            target.writeByte(0);
        }
    }

    /** Whether S_g and O_g are the file's S and O: ids exactly those with a non-empty S. */
    private static boolean sameAsFile(GroupPlacement placement, ShreddedColumnMeta meta) {
        if (placement.numColumns() != meta.numColumns()
                || !Arrays.equals(placement.overflowIds(), meta.overflowSet().stream().toArray())) {
            return false;
        }
        int[] ids = placement.ids();
        int i = 0;
        for (int id = 0; id < meta.keys().size(); id++) {
            int[] cols = meta.columnsOf(id);
            if (cols.length == 0) {
                continue;
            }
            if (i >= ids.length || ids[i] != id || !Arrays.equals(placement.columnsOf(id), cols)) {
                return false;
            }
            i++;
        }
        return i == ids.length;
    }

    private static int[][] columnsOf(GroupPlacement placement, int[] ids) {
        int[][] cols = new int[ids.length][];
        for (int i = 0; i < ids.length; i++) {
            cols[i] = placement.columnsOf(ids[i]);
        }
        return cols;
    }

    /** {@code file}: the file-level layout a placement may refer to (Recorded = 2). */
    private static GroupPlacement readPlacement(
            Cursor in, int k, int group, ShreddedColumnMeta file) throws IOException {
        int recorded = in.readByte();
        if (recorded == 0) {
            return null;
        }
        if (recorded == 2) {
            GroupPlacement f = file.filePlacement();
            return placement(
                    k,
                    f.ids(),
                    columnsOf(f, f.ids()),
                    f.overflowIds(),
                    readSegments(in, k, group),
                    group);
        }
        if (recorded != 1) {
            throw new IOException(
                    "placement flag " + recorded + " of row group " + group + " is not 0, 1 or 2");
        }
        int n = readVInt(in);
        if (n > MAX_PLACEMENT_IDS) {
            throw new IOException(
                    "row group "
                            + group
                            + " lists "
                            + n
                            + " placement ids, more than "
                            + MAX_PLACEMENT_IDS);
        }
        int[] ids = new int[n];
        int[][] cols = new int[n][];
        int id = 0;
        for (int i = 0; i < n; i++) {
            id += readVInt(in);
            ids[i] = id;
            int m = readVInt(in);
            if (m > k) {
                throw new IOException(
                        "id " + id + " of row group " + group + " lists " + m + " columns, K=" + k);
            }
            cols[i] = new int[m];
            int c = 0;
            for (int j = 0; j < m; j++) {
                c += readVInt(in);
                cols[i][j] = c;
            }
        }
        int o = readVInt(in);
        if (o > MAX_PLACEMENT_IDS) {
            throw new IOException("row group " + group + " lists " + o + " overflow ids");
        }
        int[] ov = new int[o];
        id = 0;
        for (int i = 0; i < o; i++) {
            id += readVInt(in);
            ov[i] = id;
        }
        return placement(k, ids, cols, ov, readSegments(in, k, group), group);
    }

    private static GroupPlacement placement(
            int k, int[] ids, int[][] cols, int[] ov, int[][] segments, int group)
            throws IOException {
        try {
            return new GroupPlacement(k, ids, cols, ov, segments);
        } catch (IllegalArgumentException e) {
            throw new IOException("row group " + group + ": " + e.getMessage(), e);
        }
    }

    private static int[][] readSegments(Cursor in, int k, int group) throws IOException {
        int[][] segments = null;
        int has = in.readByte();
        if (has != 0 && has != 1) {
            throw new IOException(
                    "segment flag " + has + " of row group " + group + " is neither 0 nor 1");
        }
        if (has == 1) {
            segments = new int[k][];
            for (int c = 0; c < k; c++) {
                int fragmented = in.readByte();
                if (fragmented == 1) {
                    continue;
                }
                if (fragmented != 0) {
                    throw new IOException(
                            "fragment flag "
                                    + fragmented
                                    + " of column "
                                    + c
                                    + " in row group "
                                    + group);
                }
                int count = readVInt(in);
                if (count > in.available()) {
                    throw new EOFException(
                            count
                                    + " segments of column "
                                    + c
                                    + " in row group "
                                    + group
                                    + " exceed the remaining "
                                    + in.available()
                                    + " bytes");
                }
                int[] seg = new int[3 * count];
                long end = 0;
                for (int i = 0; i < seg.length; i += 3) {
                    long start = end + readVInt(in);
                    int length = readVInt(in);
                    if (start + length > Integer.MAX_VALUE) {
                        throw new IOException(
                                "segment of column "
                                        + c
                                        + " in row group "
                                        + group
                                        + " ends past 2^31");
                    }
                    seg[i] = (int) start;
                    seg[i + 1] = length;
                    seg[i + 2] = readVInt(in);
                    end = start + length;
                }
                segments[c] = seg;
            }
        }
        return segments;
    }

    private static String describeMagic(byte[] blob) {
        return blob.length < 4
                ? blob.length + " bytes"
                : new String(blob, 0, 4, StandardCharsets.ISO_8859_1);
    }

    private static void writeValue(DataOutputStream out, ValueKind kind, Object v)
            throws IOException {
        switch (kind) {
            case LONG:
                {
                    long x = (Long) v;
                    writeVLong(out, (x << 1) ^ (x >> 63));
                    break;
                }
            case DOUBLE:
                out.writeLong(Double.doubleToRawLongBits((Double) v));
                break;
            case BYTES:
                writeBytes(out, (byte[]) v);
                break;
            case DECIMAL:
                {
                    BigDecimal d = (BigDecimal) v;
                    writeVInt(out, d.scale());
                    writeBytes(out, d.unscaledValue().toByteArray());
                    break;
                }
            default:
                throw new IOException("no values for kind " + kind);
        }
    }

    private static Object readValue(Cursor in, ValueKind kind) throws IOException {
        switch (kind) {
            case LONG:
                {
                    long z = readVLong(in);
                    return (z >>> 1) ^ -(z & 1);
                }
            case DOUBLE:
                return Double.longBitsToDouble(in.readLong());
            case BYTES:
                return readBytes(in);
            case DECIMAL:
                {
                    int scale = readVInt(in);
                    return new BigDecimal(new BigInteger(readBytes(in)), scale);
                }
            default:
                throw new IOException("no values for kind " + kind);
        }
    }

    static void writeVInt(DataOutputStream out, int v) throws IOException {
        writeVLong(out, v & 0xFFFFFFFFL);
    }

    static void writeVLong(DataOutputStream out, long v) throws IOException {
        while ((v & ~0x7FL) != 0) {
            out.writeByte((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    static int readVInt(Cursor in) throws IOException {
        long v = readVLong(in);
        if (v > Integer.MAX_VALUE) {
            throw new IOException("varint out of range: " + v);
        }
        return (int) v;
    }

    static long readVLong(Cursor in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("truncated varint");
            }
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("varint too long");
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        writeVInt(out, b.length);
        out.write(b);
    }

    private static byte[] readBytes(Cursor in) throws IOException {
        int n = readVInt(in);
        if (n > in.available()) {
            throw new EOFException(
                    "length " + n + " exceeds the remaining " + in.available() + " bytes");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    /** A byte range without ByteArrayInputStream's locking: a footer is many varints. */
    static final class Cursor {
        private final byte[] buf;
        private int pos;
        private final int end;

        Cursor(byte[] buf, int from, int end) {
            this.buf = buf;
            this.pos = from;
            this.end = end;
        }

        /** The next byte (0..255), or -1 at the end. */
        int read() {
            return pos < end ? buf[pos++] & 0xFF : -1;
        }

        byte readByte() throws IOException {
            if (pos >= end) {
                throw new EOFException("truncated at byte " + pos);
            }
            return buf[pos++];
        }

        long readLong() throws IOException {
            if (end - pos < 8) {
                throw new EOFException("truncated int64 at byte " + pos);
            }
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (buf[pos++] & 0xFF);
            }
            return v;
        }

        void readFully(byte[] b) throws IOException {
            if (end - pos < b.length) {
                throw new EOFException("truncated at byte " + pos);
            }
            System.arraycopy(buf, pos, b, 0, b.length);
            pos += b.length;
        }

        int available() {
            return end - pos;
        }
    }
}
