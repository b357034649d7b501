package dev.strata.shredding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.shredding.pushdown.MapPredicate;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The hand-over from a scan to the shredded reader, as per-read dynamic table options (pass {@link
 * #encode} to {@code FileStoreTable.copy(Map)}; writes and the stored schema are unaffected):
 *
 * <ul>
 *   <li>{@value #SELECTED_KEYS}: JSON object column → array of keys; the reader then returns only
 *       the requested keys present in the row, in request order, so {@code m['k']} is unchanged for
 *       them: use it only when every use of the column is such a lookup. Default-layout files
 *       return whole maps, which give the same lookups.
 *   <li>{@value #MAP_PREDICATE}: JSON of a {@link MapPredicate} tree.
 *   <li>{@value #VALUE_PREDICATES_SAFE}: {@code true} lets the reader skip data that cannot match
 *       the predicate; set it only where a file's rows are final (append or deletion-vector tables,
 *       splits of non-overlapping files). Skipping is advisory: keep the filter above the scan.
 * </ul>
 *
 * Predicate JSON grammar: {@code {"and":[P...]}} | {@code {"or":[P...]}} | {@code
 * {"column":C,"key":K,"op":OP,"literals":[L...]}} with L = {@code {"long":"12"}} | {@code
 * {"double":"1.5"}} (also "NaN", "Infinity") | {@code {"string":"x"}} | {@code {"decimal":"1.20"}}
 * | {@code {"boolean":true}}.
 */
public final class ShreddedReadHandover {

    public static final String SELECTED_KEYS =
            ShreddingOptions.OPTION_PREFIX + "read.selected-keys";
    public static final String MAP_PREDICATE =
            ShreddingOptions.OPTION_PREFIX + "read.map-predicate";
    public static final String VALUE_PREDICATES_SAFE =
            ShreddingOptions.OPTION_PREFIX + "read.value-predicates-safe";
    public static final String FIELD_IDS = ShreddingOptions.OPTION_PREFIX + "read.field-ids";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ShreddedReadHandover() {}

    /** The dynamic options for one read; {@code selectedKeys} and {@code predicate} may be null. */
    public static Map<String, String> encode(
            Map<String, ? extends List<String>> selectedKeys,
            MapPredicate predicate,
            boolean valuePredicatesSafe) {
        return encode(null, selectedKeys, predicate, valuePredicatesSafe);
    }

    /**
     * As {@link #encode(Map, MapPredicate, boolean)}, also recording the Paimon field id of every
     * column named (from {@code tableRowType}, the table's current schema), so files written before
     * a column rename still get the selected keys and the predicate ({@value #FIELD_IDS}).
     */
    public static Map<String, String> encode(
            org.apache.paimon.types.RowType tableRowType,
            Map<String, ? extends List<String>> selectedKeys,
            MapPredicate predicate,
            boolean valuePredicatesSafe) {
        Map<String, String> out = new LinkedHashMap<>();
        if (tableRowType != null) {
            java.util.Set<String> columns = new java.util.LinkedHashSet<>();
            if (selectedKeys != null) {
                columns.addAll(selectedKeys.keySet());
            }
            if (predicate != null) {
                predicate.leaves().forEach(l -> columns.add(l.column()));
            }
            ObjectNode ids = JSON.createObjectNode();
            for (String c : columns) {
                if (tableRowType.containsField(c)) {
                    ids.put(c, tableRowType.getField(c).id());
                }
            }
            if (ids.size() > 0) {
                out.put(FIELD_IDS, ids.toString());
            }
        }
        if (selectedKeys != null && !selectedKeys.isEmpty()) {
            ObjectNode n = JSON.createObjectNode();
            selectedKeys.forEach(
                    (column, keys) -> {
                        ArrayNode a = n.putArray(column);
                        new LinkedHashSet<>(keys).forEach(a::add);
                    });
            out.put(SELECTED_KEYS, n.toString());
        }
        if (predicate != null) {
            out.put(MAP_PREDICATE, toJson(predicate).toString());
        }
        out.put(VALUE_PREDICATES_SAFE, Boolean.toString(valuePredicatesSafe));
        return out;
    }

    /** Options that reset a hand-over on a table copy (empty values mean "none"). */
    public static Map<String, String> cleared() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(SELECTED_KEYS, "");
        out.put(FIELD_IDS, "");
        out.put(MAP_PREDICATE, "");
        out.put(VALUE_PREDICATES_SAFE, "false");
        return out;
    }

    public static final class ReadRequest implements Serializable {
        private static final long serialVersionUID = 1L;
        private final Map<String, List<String>> selectedKeys;
        private final MapPredicate predicate;
        private final boolean valuePredicatesSafe;

        private final Map<String, Integer> fieldIds;

        ReadRequest(
                Map<String, List<String>> selectedKeys,
                MapPredicate predicate,
                boolean valuePredicatesSafe,
                Map<String, Integer> fieldIds) {
            this.selectedKeys = selectedKeys;
            this.predicate = predicate;
            this.valuePredicatesSafe = valuePredicatesSafe;
            this.fieldIds = fieldIds;
        }

        /** Column name as the caller named it → Paimon field id, if the caller gave the schema. */
        public Map<String, Integer> fieldIds() {
            return fieldIds;
        }

        public Map<String, List<String>> selectedKeys() {
            return selectedKeys;
        }

        /** The predicate to prune with, or null (also null when pruning is not declared safe). */
        public MapPredicate pruningPredicate() {
            return valuePredicatesSafe ? predicate : null;
        }

        public MapPredicate predicate() {
            return predicate;
        }

        public boolean valuePredicatesSafe() {
            return valuePredicatesSafe;
        }
    }

    /** Decodes the hand-over; throws IllegalArgumentException naming a malformed option. */
    public static ReadRequest decode(Map<String, String> options) {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        String sk = options.get(SELECTED_KEYS);
        if (sk != null && !sk.isBlank()) {
            try {
                JsonNode n = JSON.readTree(sk);
                Iterator<Map.Entry<String, JsonNode>> it = n.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    List<String> ks = new ArrayList<>();
                    for (JsonNode k : e.getValue()) {
                        if (!k.isTextual()) {
                            throw new IllegalArgumentException("key " + k + " is not a string");
                        }
                        ks.add(k.asText());
                    }
                    keys.put(e.getKey(), List.copyOf(new LinkedHashSet<>(ks)));
                }
            } catch (Exception e) {
                throw malformed(SELECTED_KEYS, sk, e);
            }
        }
        MapPredicate predicate = null;
        String mp = options.get(MAP_PREDICATE);
        if (mp != null && !mp.isBlank()) {
            try {
                predicate = fromJson(JSON.readTree(mp));
            } catch (Exception e) {
                throw malformed(MAP_PREDICATE, mp, e);
            }
        }
        String safe = options.get(VALUE_PREDICATES_SAFE);
        boolean valueSafe = false;
        if (safe != null && !safe.isBlank()) {
            if (!safe.trim().equalsIgnoreCase("true") && !safe.trim().equalsIgnoreCase("false")) {
                throw new IllegalArgumentException(
                        "Cannot read with option "
                                + VALUE_PREDICATES_SAFE
                                + ": value '"
                                + safe
                                + "' is not a boolean. Use true or false.");
            }
            valueSafe = Boolean.parseBoolean(safe.trim());
        }
        Map<String, Integer> ids = new LinkedHashMap<>();
        String fi = options.get(FIELD_IDS);
        if (fi != null && !fi.isBlank()) {
            try {
                Iterator<Map.Entry<String, JsonNode>> it = JSON.readTree(fi).fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!e.getValue().isInt()) {
                        throw new IllegalArgumentException(
                                "field id of " + e.getKey() + " is not an int");
                    }
                    ids.put(e.getKey(), e.getValue().asInt());
                }
            } catch (Exception e) {
                throw malformed(FIELD_IDS, fi, e);
            }
        }
        return new ReadRequest(keys, predicate, valueSafe, ids);
    }

    private static IllegalArgumentException malformed(String option, String value, Exception e) {
        return new IllegalArgumentException(
                "Cannot read with option "
                        + option
                        + ": value '"
                        + value
                        + "' is malformed ("
                        + e.getMessage()
                        + "). Produce it with ShreddedReadHandover.encode.",
                e);
    }

    private static JsonNode toJson(MapPredicate p) {
        ObjectNode n = JSON.createObjectNode();
        if (p instanceof MapPredicate.Leaf) {
            MapPredicate.Leaf l = (MapPredicate.Leaf) p;
            n.put("column", l.column());
            n.put("key", l.key());
            n.put("op", l.op().name());
            ArrayNode lits = n.putArray("literals");
            for (Object v : l.literals()) {
                ObjectNode lit = lits.addObject();
                if (v instanceof Long) {
                    lit.put("long", v.toString());
                } else if (v instanceof Double) {
                    lit.put("double", v.toString());
                } else if (v instanceof String) {
                    lit.put("string", (String) v);
                } else if (v instanceof BigDecimal) {
                    lit.put("decimal", ((BigDecimal) v).toString());
                } else {
                    lit.put("boolean", (Boolean) v);
                }
            }
            return n;
        }
        ArrayNode a = n.putArray(p instanceof MapPredicate.And ? "and" : "or");
        for (MapPredicate c : ((MapPredicate.Compound) p).children()) {
            a.add(toJson(c));
        }
        return n;
    }

    private static MapPredicate fromJson(JsonNode n) {
        if (n.has("and") || n.has("or")) {
            List<MapPredicate> children = new ArrayList<>();
            for (JsonNode c : n.has("and") ? n.get("and") : n.get("or")) {
                children.add(fromJson(c));
            }
            return n.has("and") ? MapPredicate.and(children) : MapPredicate.or(children);
        }
        String column = required(n, "column").asText();
        String key = required(n, "key").asText();
        MapPredicate.Op op = MapPredicate.Op.valueOf(required(n, "op").asText());
        List<Object> lits = new ArrayList<>();
        JsonNode ls = n.get("literals");
        if (ls != null) {
            for (JsonNode l : ls) {
                if (l.has("long")) {
                    lits.add(Long.parseLong(l.get("long").asText()));
                } else if (l.has("double")) {
                    lits.add(Double.parseDouble(l.get("double").asText()));
                } else if (l.has("string")) {
                    lits.add(l.get("string").asText());
                } else if (l.has("decimal")) {
                    lits.add(new BigDecimal(l.get("decimal").asText()));
                } else if (l.has("boolean")) {
                    lits.add(l.get("boolean").asBoolean());
                } else {
                    throw new IllegalArgumentException("unknown literal " + l);
                }
            }
        }
        return MapPredicate.leaf(column, key, op, lits.toArray());
    }

    private static JsonNode required(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null) {
            throw new IllegalArgumentException("missing field '" + field + "' in " + n);
        }
        return v;
    }
}
