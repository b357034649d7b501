import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;

/**
 * Apache Paimon 2.0.0 (paimon-bundle 2.0.0 only) reads table db.<table>, which Strata wrote, with its own
 * reader (full table, no projection, no filter) and compares every row with the rows Spark exported as JSON
 * from the statements' source (strata-writes.sql, strata-wide-writes.sql): same ids, and per map column the same key -> value set (NULL map, empty map,
 * NULL values; DOUBLE compared by Double.equals, so NaN equals NaN and -0.0 differs from 0.0; BIGINT as
 * long; STRING as string). Entry order is not compared. Columns: a BIGINT id, then maps of STRING to DOUBLE,
 * FLOAT, BIGINT, INT or STRING. Rows are held as a 128-bit digest of the canonical (sorted) map per id; the first
 * differing ids are then printed with both sides' values in full.
 * Usage: Paimon2ReadsStrataWrites <warehouse> <table> <directory of Spark's JSON files> [max ids to print]
 */
public class Paimon2ReadsStrataWrites {

    static final Object NULL_MAP = new Object() { public String toString() { return "NULL"; } };

    /** Canonical value: Double, Long, Integer or String; null for a NULL value. */
    static Object paimonValue(InternalArray values, int e, DataTypeRoot t) {
        if (values.isNullAt(e)) return null;
        switch (t) {
            case DOUBLE: return values.getDouble(e);
            case FLOAT: return values.getFloat(e);
            case BIGINT: return values.getLong(e);
            case INTEGER: return values.getInt(e);
            case VARCHAR: case CHAR: return values.getString(e).toString();
            default: throw new IllegalArgumentException("value type " + t);
        }
    }

    static Object sparkValue(JsonNode v, DataTypeRoot t) {
        if (v == null || v.isNull()) return null;
        switch (t) {
            case DOUBLE: return v.isTextual() ? Double.valueOf(v.asText()) : v.asDouble();
            case FLOAT: return v.isTextual() ? Float.valueOf(v.asText()) : (float) v.asDouble();
            case BIGINT: if (!v.canConvertToLong()) throw new IllegalStateException("not a long: " + v); return v.asLong();
            case INTEGER: return v.asInt();
            case VARCHAR: case CHAR: return v.textValue();
            default: throw new IllegalArgumentException("value type " + t);
        }
    }

    static TreeMap<String, Object> paimonMap(InternalMap m, DataTypeRoot t) {
        TreeMap<String, Object> out = new TreeMap<>();
        InternalArray keys = m.keyArray(), values = m.valueArray();
        for (int e = 0; e < m.size(); e++) {
            if (keys.isNullAt(e)) throw new IllegalStateException("NULL key");
            String k = keys.getString(e).toString();
            if (out.containsKey(k)) throw new IllegalStateException("duplicate key " + k);
            out.put(k, paimonValue(values, e, t));
        }
        return out;
    }

    static TreeMap<String, Object> sparkMap(JsonNode m, DataTypeRoot t) {
        if (m == null || m.isNull()) return null;
        TreeMap<String, Object> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), sparkValue(e.getValue(), t));
        }
        return out;
    }

    /** Counts over one side: rows, NULL maps, empty maps, entries, NULL values, NaN values. */
    static final class Stats {
        long rows, nullMaps, emptyMaps, entries, nullValues, nans, negZeros;
        void add(TreeMap<String, Object> m) {
            if (m == null) { nullMaps++; return; }
            if (m.isEmpty()) emptyMaps++;
            entries += m.size();
            for (Object v : m.values()) {
                if (v == null) nullValues++;
                else if (v instanceof Double && ((Double) v).isNaN()) nans++;
                else if (v instanceof Double && Double.doubleToRawLongBits((Double) v) == Long.MIN_VALUE) negZeros++;
            }
        }
        public String toString() {
            return "rows=" + rows + " nullMaps=" + nullMaps + " emptyMaps=" + emptyMaps + " entries=" + entries
                    + " nullValues=" + nullValues + " NaN=" + nans + " -0.0=" + negZeros;
        }
    }

    /** 128-bit digest of the canonical row (maps in key order). */
    static String digest(MessageDigest md, List<TreeMap<String, Object>> row) {
        md.reset();
        StringBuilder b = new StringBuilder();
        for (TreeMap<String, Object> m : row) {
            if (m == null) { b.append("\u0001N\u0002"); continue; }
            b.append("\u0001M").append(m.size()).append('\u0002');
            for (Map.Entry<String, Object> e : m.entrySet()) {
                b.append(e.getKey().length()).append(':').append(e.getKey()).append('=');
                Object v = e.getValue();
                if (v == null) b.append("null");
                else if (v instanceof Double) b.append('d').append(Long.toHexString(Double.doubleToLongBits((Double) v)));
                else if (v instanceof String) b.append('s').append(((String) v).length()).append(':').append(v);
                else b.append(v.getClass().getSimpleName().charAt(0)).append(v);
                b.append('\u0003');
            }
        }
        byte[] d = md.digest(b.toString().getBytes(StandardCharsets.UTF_8));
        StringBuilder h = new StringBuilder();
        for (int i = 0; i < 16; i++) h.append(String.format("%02x", d[i]));
        return h.toString();
    }

    static String show(List<TreeMap<String, Object>> row) {
        return row == null ? "(absent)" : row.toString();
    }

    /** Entry-level differences of two rows, for the report. */
    static String diff(List<String> names, List<TreeMap<String, Object>> paimon, List<TreeMap<String, Object>> spark) {
        if (paimon == null || spark == null) return "row absent on one side";
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < paimon.size(); c++) {
            TreeMap<String, Object> p = paimon.get(c), s = spark.get(c);
            String col = names.get(c + 1);
            if (p == null || s == null) {
                if (p != s) b.append(col).append(": Paimon ").append(p == null ? "NULL map" : "map of " + p.size()).append(", oracle ").append(s == null ? "NULL map" : "map of " + s.size()).append("; ");
                continue;
            }
            Set<String> keys = new java.util.TreeSet<>(p.keySet());
            keys.addAll(s.keySet());
            int shown = 0;
            for (String k : keys) {
                boolean inP = p.containsKey(k), inS = s.containsKey(k);
                Object pv = p.get(k), sv = s.get(k);
                if (inP != inS || (pv == null ? sv != null : !pv.equals(sv))) {
                    if (shown++ < 10) b.append(col).append("['").append(k).append("']: Paimon ").append(inP ? String.valueOf(pv) : "(no key)").append(", oracle ").append(inS ? String.valueOf(sv) : "(no key)").append("; ");
                }
            }
            if (shown > 10) b.append(col).append(": ").append(shown).append(" differing keys in all; ");
        }
        return b.toString();
    }

    public static void main(String[] args) throws Exception {
        int maxShow = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Options options = new Options();
        options.set("warehouse", args[0]);
        MessageDigest md = MessageDigest.getInstance("MD5");
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            Table table = catalog.getTable(Identifier.create("db", args[1]));
            RowType rt = table.rowType();
            List<String> names = rt.getFieldNames();
            System.out.println("db." + args[1] + " row type " + rt + ", options " + table.options());
            DataTypeRoot[] values = new DataTypeRoot[names.size()];
            for (int c = 1; c < names.size(); c++) values[c] = ((MapType) rt.getTypeAt(c)).getValueType().getTypeRoot();

            long t0 = System.currentTimeMillis();
            Map<Long, String> expected = new HashMap<>();
            Stats oracle = new Stats();
            ObjectMapper json = new ObjectMapper();
            List<Path> jsonFiles = new ArrayList<>();
            try (DirectoryStream<Path> files = Files.newDirectoryStream(Path.of(args[2]), "*.json")) {
                for (Path f : files) jsonFiles.add(f);
            }
            for (Path f : jsonFiles) {
                try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                    for (String line; (line = in.readLine()) != null; ) {
                        JsonNode o = json.readTree(line);
                        List<TreeMap<String, Object>> row = new ArrayList<>();
                        for (int c = 1; c < names.size(); c++) {
                            TreeMap<String, Object> m = sparkMap(o.get(names.get(c)), values[c]);
                            oracle.add(m);
                            row.add(m);
                        }
                        oracle.rows++;
                        if (expected.put(o.get("id").asLong(), digest(md, row)) != null) throw new IllegalStateException("duplicate id in oracle");
                    }
                }
            }
            System.out.println("oracle (" + jsonFiles.size() + " JSON files, " + (System.currentTimeMillis() - t0) + " ms): " + oracle);

            t0 = System.currentTimeMillis();
            ReadBuilder rb = table.newReadBuilder();
            long read = 0, wrong = 0;
            Stats paimon = new Stats();
            Set<Long> seen = new HashSet<>();
            TreeMap<Long, List<TreeMap<String, Object>>> shown = new TreeMap<>();
            var splits = rb.newScan().plan().splits();
            System.out.println("splits: " + splits.size());
            try (RecordReaderIterator<InternalRow> it = new RecordReaderIterator<>(rb.newRead().createReader(splits))) {
                while (it.hasNext()) {
                    InternalRow r = it.next();
                    long id = r.getLong(0);
                    List<TreeMap<String, Object>> row = new ArrayList<>();
                    for (int c = 1; c < names.size(); c++) {
                        TreeMap<String, Object> m = r.isNullAt(c) ? null : paimonMap(r.getMap(c), values[c]);
                        paimon.add(m);
                        row.add(m);
                    }
                    read++;
                    paimon.rows++;
                    if (!seen.add(id) || !digest(md, row).equals(expected.get(id))) {
                        if (wrong++ < maxShow) shown.put(id, row);
                    }
                }
            }
            long missing = 0;
            for (Long id : expected.keySet()) if (!seen.contains(id)) { missing++; if (shown.size() < maxShow) shown.put(id, null); }
            System.out.println("Paimon 2.0 read (" + (System.currentTimeMillis() - t0) + " ms): " + paimon);

            if (!shown.isEmpty()) {
                Map<Long, List<TreeMap<String, Object>>> oracleRows = new HashMap<>();
                for (Path f : jsonFiles) {
                    try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                        for (String line; (line = in.readLine()) != null; ) {
                            JsonNode o = json.readTree(line);
                            long id = o.get("id").asLong();
                            if (!shown.containsKey(id)) continue;
                            List<TreeMap<String, Object>> row = new ArrayList<>();
                            for (int c = 1; c < names.size(); c++) row.add(sparkMap(o.get(names.get(c)), values[c]));
                            oracleRows.put(id, row);
                        }
                    }
                }
                for (Map.Entry<Long, List<TreeMap<String, Object>>> e : shown.entrySet()) {
                    System.out.println("DIFFERS id " + e.getKey() + ": " + diff(names, e.getValue(), oracleRows.get(e.getKey())));
                    System.out.println("  Paimon 2.0 read: " + show(e.getValue()));
                    System.out.println("  oracle:          " + show(oracleRows.get(e.getKey())));
                }
            }
            System.out.println("db." + args[1] + ": Paimon 2.0 read " + read + " rows, oracle " + expected.size()
                    + " rows, " + wrong + " read rows differing or duplicated, " + missing + " oracle ids not read");
            if (wrong != 0 || missing != 0 || read != expected.size()) System.exit(1);
        }
    }
}
