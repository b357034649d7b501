import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;

/**
 * Apache Paimon 2.0 (paimon-bundle 2.0.0 only) reads table db.strata_disjoint as Strata wrote it
 * (placement disjoint, Strata's default), checks every row against the generator Strata's INSERT
 * used, appends ids 60..79 with its own writer, and writes what it reads back as JSON lines.
 * Usage: Paimon2ReadsStrataDisjoint <warehouse> <expected.jsonl>
 */
public class Paimon2ReadsStrataDisjoint {

    /** The map Strata's INSERT wrote for id (see the fixture README); null for a NULL map. */
    static Map<String, Double> strataRow(int id) {
        if (id == 5) return null;
        Map<String, Double> m = new LinkedHashMap<>();
        if (id == 8) return m;
        m.put("hot", id % 11 == 4 ? null : id / 2.0);
        switch (id % 3) {
            case 0 -> { m.put("a1", (double) id); m.put("a2", id == 9 ? Double.NaN : id * 10.0); m.put("a3", (double) -id); }
            case 1 -> { m.put("b1", id + 100.0); m.put("b2", (double) (id % 7)); }
            default -> { m.put("c1", (double) id); m.put("c2", (double) id * id); m.put("c3", 0.5); m.put("c4", (double) (id % 4)); }
        }
        if (id % 10 == 7) m.put("rare", (double) id);
        return m;
    }

    /** Paimon's own append: the keys of all three groups meet in one row, and a new key. */
    static Map<String, Double> paimonRow(int id) {
        if (id == 61) return null;
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("hot", id * 1.0);
        m.put(id % 2 == 0 ? "a1" : "b2", id + 0.25);
        m.put("c3", id % 5 == 0 ? null : -1.0 * id);
        if (id % 4 == 0) m.put("paimon_only", 1000.0 + id);
        return m;
    }

    static Map<String, Double> toJava(InternalMap map) {
        if (map == null) return null;
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < map.size(); i++) {
            m.put(map.keyArray().getString(i).toString(), map.valueArray().isNullAt(i) ? null : map.valueArray().getDouble(i));
        }
        return m;
    }

    static TreeMap<Integer, Map<String, Double>> read(Table table) throws Exception {
        ReadBuilder rb = table.newReadBuilder();
        TreeMap<Integer, Map<String, Double>> rows = new TreeMap<>();
        try (RecordReaderIterator<InternalRow> it = new RecordReaderIterator<>(rb.newRead().createReader(rb.newScan().plan()))) {
            while (it.hasNext()) {
                InternalRow r = it.next();
                rows.put(r.getInt(0), r.isNullAt(1) ? null : toJava(r.getMap(1)));
            }
        }
        return rows;
    }

    static boolean same(Map<String, Double> a, Map<String, Double> b) {
        if (a == null || b == null) return a == b;
        if (!a.keySet().equals(b.keySet())) return false;
        for (String k : a.keySet()) {
            Double x = a.get(k), y = b.get(k);
            if (x == null ? y != null : !x.equals(y)) return false; // Double.equals: NaN equals NaN
        }
        return true;
    }

    static String json(int id, Map<String, Double> m) {
        StringBuilder b = new StringBuilder("{\"id\":" + id + ",\"m\":");
        if (m == null) { b.append("null"); }
        else {
            b.append('{');
            boolean first = true;
            for (Map.Entry<String, Double> e : m.entrySet()) {
                if (!first) b.append(',');
                first = false;
                b.append('"').append(e.getKey()).append("\":");
                b.append(e.getValue() == null ? "null" : e.getValue().isNaN() ? "NaN" : e.getValue().toString());
            }
            b.append('}');
        }
        return b.append('}').toString();
    }

    public static void main(String[] args) throws Exception {
        Options options = new Options();
        options.set("warehouse", args[0]);
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            Identifier id = Identifier.create("db", "strata_disjoint");
            Table table = catalog.getTable(id);
            TreeMap<Integer, Map<String, Double>> strata = read(table);
            int wrong = 0;
            for (int i = 0; i < 60; i++) {
                if (!strata.containsKey(i) || !same(strata.get(i), strataRow(i))) {
                    wrong++;
                    System.out.println("DIFFERS id " + i + ": paimon read " + strata.get(i) + ", Strata wrote " + strataRow(i));
                }
            }
            System.out.println("Paimon 2.0 read " + strata.size() + " rows Strata wrote; rows differing from the generator: " + wrong);
            if (wrong != 0 || strata.size() != 60) System.exit(1);

            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (int i = 60; i < 80; i++) {
                    Map<String, Double> m = paimonRow(i);
                    GenericMap map = null;
                    if (m != null) {
                        Map<Object, Object> pm = new LinkedHashMap<>();
                        m.forEach((k, v) -> pm.put(BinaryString.fromString(k), v));
                        map = new GenericMap(pm);
                    }
                    write.write(GenericRow.of(i, map));
                }
                commit.commit(write.prepareCommit());
            }
            TreeMap<Integer, Map<String, Double>> all = read(catalog.getTable(id));
            for (int i = 60; i < 80; i++) {
                if (!same(all.get(i), paimonRow(i))) { System.out.println("DIFFERS own id " + i); System.exit(1); }
            }
            for (int i = 0; i < 60; i++) {
                if (!same(all.get(i), strataRow(i))) { System.out.println("DIFFERS after append id " + i); System.exit(1); }
            }
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8))) {
                all.forEach((k, v) -> out.println(json(k, v)));
            }
            System.out.println("Paimon 2.0 appended 20 rows; read back " + all.size() + " rows, written to " + args[1]);
        }
    }
}
