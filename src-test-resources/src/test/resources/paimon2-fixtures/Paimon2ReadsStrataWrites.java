import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
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
 * Apache Paimon 2.0 (paimon-bundle 2.0.0 only) reads table db.<table>, which Strata wrote, with its
 * own reader and compares every row with the rows Spark wrote as JSON from the statements' source
 * (strata-writes.sql): same ids, and per map column the same keys with the same values (NULL,
 * NaN and infinities included; entry order is not compared). Columns: a BIGINT id, then maps of
 * STRING to DOUBLE, FLOAT, INT or BIGINT.
 * Usage: Paimon2ReadsStrataWrites <warehouse> <table> <directory of Spark's JSON files>
 */
public class Paimon2ReadsStrataWrites {

    /** One map as key -> value, values as doubles (exact for the fixtures' FLOAT, INT, BIGINT values). */
    static TreeMap<String, Double> paimonMap(InternalMap m, DataTypeRoot value) {
        TreeMap<String, Double> out = new TreeMap<>();
        InternalArray keys = m.keyArray(), values = m.valueArray();
        for (int e = 0; e < m.size(); e++) {
            Double v;
            if (values.isNullAt(e)) v = null;
            else if (value == DataTypeRoot.DOUBLE) v = values.getDouble(e);
            else if (value == DataTypeRoot.FLOAT) v = (double) values.getFloat(e);
            else if (value == DataTypeRoot.INTEGER) v = (double) values.getInt(e);
            else if (value == DataTypeRoot.BIGINT) v = (double) values.getLong(e);
            else throw new IllegalArgumentException("value type " + value);
            if (out.put(keys.getString(e).toString(), v) != null) throw new IllegalStateException("duplicate key");
        }
        return out;
    }

    /** Spark's JSON: NaN and infinities as strings, NULL columns left out. */
    static TreeMap<String, Double> sparkMap(JsonNode m, DataTypeRoot value) {
        if (m == null || m.isNull()) return null;
        TreeMap<String, Double> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            Double d = v.isNull() ? null : v.isTextual() ? Double.valueOf(v.asText()) : v.asDouble();
            if (d != null && value == DataTypeRoot.FLOAT) d = (double) d.floatValue();
            out.put(e.getKey(), d);
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        Options options = new Options();
        options.set("warehouse", args[0]);
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            Table table = catalog.getTable(Identifier.create("db", args[1]));
            RowType rt = table.rowType();
            List<String> names = rt.getFieldNames();
            DataTypeRoot[] values = new DataTypeRoot[names.size()];
            for (int c = 1; c < names.size(); c++) values[c] = ((MapType) rt.getTypeAt(c)).getValueType().getTypeRoot();

            Map<Long, List<TreeMap<String, Double>>> expected = new HashMap<>();
            ObjectMapper json = new ObjectMapper();
            try (DirectoryStream<Path> files = Files.newDirectoryStream(Path.of(args[2]), "*.json")) {
                for (Path f : files) {
                    for (String line : Files.readAllLines(f)) {
                        JsonNode o = json.readTree(line);
                        List<TreeMap<String, Double>> row = new java.util.ArrayList<>();
                        for (int c = 1; c < names.size(); c++) row.add(sparkMap(o.get(names.get(c)), values[c]));
                        if (expected.put(o.get("id").asLong(), row) != null) throw new IllegalStateException("duplicate id");
                    }
                }
            }

            ReadBuilder rb = table.newReadBuilder();
            long read = 0, wrong = 0;
            Set<Long> seen = new java.util.HashSet<>();
            try (RecordReaderIterator<InternalRow> it = new RecordReaderIterator<>(rb.newRead().createReader(rb.newScan().plan()))) {
                while (it.hasNext()) {
                    InternalRow r = it.next();
                    long id = r.getLong(0);
                    List<TreeMap<String, Double>> row = new java.util.ArrayList<>();
                    for (int c = 1; c < names.size(); c++) row.add(r.isNullAt(c) ? null : paimonMap(r.getMap(c), values[c]));
                    read++;
                    // Double.equals: NaN equals NaN, and -0.0 differs from 0.0
                    if (!seen.add(id) || !row.equals(expected.get(id))) {
                        if (wrong++ < 3) System.out.println("DIFFERS id " + id + ": Paimon 2.0 read " + row + ", written " + expected.get(id));
                    }
                }
            }
            System.out.println("db." + args[1] + ": Paimon 2.0 read " + read + " rows, " + expected.size() + " written, " + wrong + " differing");
            if (wrong != 0 || read != expected.size()) System.exit(1);
        }
    }
}
