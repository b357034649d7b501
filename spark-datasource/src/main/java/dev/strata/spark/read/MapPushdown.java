package dev.strata.spark.read;

import dev.strata.shredding.pushdown.MapPredicate;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the map pushdown rule (module spark-catalyst-rules) decided for one scan of a table with
 * shared-shredding MAP columns: the keys each map column is read with (only when every use of the
 * column in the query is a {@code m['key']} lookup) and the map-key predicates the reader may prune
 * with. The predicates are advisory: Spark keeps its Filter above the scan, so answers never depend
 * on them. A scan also returns any selected key as a column of its own when Spark asks for one by
 * its {@link #keyColumnName name}. Immutable and serializable.
 */
public final class MapPushdown implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final MapPushdown NONE = new MapPushdown(Map.of(), List.of());

    private final Map<String, List<String>> selectedKeys;
    private final List<MapPredicate> conjuncts;

    /**
     * @param selectedKeys map column → keys read (in first-use order, duplicates dropped)
     * @param conjuncts map-key predicates that all hold for every row the query keeps (AND-ed)
     */
    public MapPushdown(
            Map<String, ? extends Collection<String>> selectedKeys, List<MapPredicate> conjuncts) {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        selectedKeys.forEach(
                (column, ks) -> {
                    if (ks.isEmpty()) {
                        throw new IllegalArgumentException(
                                "Cannot select keys of map column "
                                        + column
                                        + ": the key list is empty. Leave the column out to read whole maps.");
                    }
                    keys.put(column, List.copyOf(new LinkedHashSet<>(ks)));
                });
        this.selectedKeys = java.util.Collections.unmodifiableMap(keys);
        this.conjuncts = List.copyOf(conjuncts);
    }

    public static MapPushdown none() {
        return NONE;
    }

    public Map<String, List<String>> selectedKeys() {
        return selectedKeys;
    }

    public List<MapPredicate> conjuncts() {
        return conjuncts;
    }

    /** The AND of all conjuncts, or null when there is none. */
    public MapPredicate predicate() {
        if (conjuncts.isEmpty()) {
            return null;
        }
        return conjuncts.size() == 1 ? conjuncts.get(0) : MapPredicate.and(conjuncts);
    }

    public boolean isEmpty() {
        return selectedKeys.isEmpty() && conjuncts.isEmpty();
    }

    /** The same pushdown with selected keys only for the columns a scan actually reads. */
    MapPushdown restrictedTo(Collection<String> readColumns) {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        selectedKeys.forEach(
                (column, ks) -> {
                    if (readColumns.contains(column)) {
                        keys.put(column, ks);
                    }
                });
        return keys.equals(selectedKeys) ? this : new MapPushdown(keys, conjuncts);
    }

    /**
     * The name of the scan column that holds the value of {@code key} in map column {@code column}
     * of each row, e.g. {@code ext_map['usage']}: the map pushdown rule lets Spark read a selected
     * key's values as a column of their own (NULL where the map is NULL, lacks the key or holds a
     * NULL for it), so a query filtering or aggregating {@code m['k']} evaluates no map lookup.
     */
    public static String keyColumnName(String column, String key) {
        return column + "['" + key.replace("\\", "\\\\").replace("'", "\\'") + "']";
    }

    /**
     * The map column and key whose {@link #keyColumnName key column} is named {@code name}, or null
     * when no selected key has that name.
     */
    String[] keyColumn(String name) {
        for (Map.Entry<String, List<String>> e : selectedKeys.entrySet()) {
            if (name.startsWith(e.getKey() + "['")) {
                for (String key : e.getValue()) {
                    if (keyColumnName(e.getKey(), key).equals(name)) {
                        return new String[] {e.getKey(), key};
                    }
                }
            }
        }
        return null;
    }

    /** EXPLAIN text of the predicates, e.g. {@code [ext_map['usage'] > 30.0]}. */
    String predicatesText() {
        return conjuncts.stream()
                .map(p -> text(p, true))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** EXPLAIN text of the selected keys, e.g. {@code [ext_map=[usage, cpu]]}. */
    String selectedKeysText() {
        return selectedKeys.entrySet().stream()
                .map(e -> e.getKey() + "=[" + String.join(", ", e.getValue()) + "]")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** Spark-SQL-like text of a predicate. */
    static String text(MapPredicate p, boolean top) {
        if (p instanceof MapPredicate.Leaf) {
            MapPredicate.Leaf l = (MapPredicate.Leaf) p;
            String v = l.column() + "['" + l.key().replace("'", "\\'") + "']";
            List<Object> lits = l.literals();
            switch (l.op()) {
                case EQ:
                    return v + " = " + literal(lits.get(0));
                case NOT_EQ:
                    return v + " <> " + literal(lits.get(0));
                case LT:
                    return v + " < " + literal(lits.get(0));
                case LT_EQ:
                    return v + " <= " + literal(lits.get(0));
                case GT:
                    return v + " > " + literal(lits.get(0));
                case GT_EQ:
                    return v + " >= " + literal(lits.get(0));
                case IN:
                    {
                        List<String> items = new ArrayList<>();
                        lits.forEach(x -> items.add(literal(x)));
                        return v + " IN (" + String.join(", ", items) + ")";
                    }
                case IS_NOT_NULL:
                    return v + " IS NOT NULL";
                case STARTS_WITH:
                    return "startswith(" + v + ", " + literal(lits.get(0)) + ")";
                default:
                    throw new IllegalStateException(
                            "Cannot describe map predicate operator " + l.op());
            }
        }
        List<MapPredicate> children = ((MapPredicate.Compound) p).children();
        String op = p instanceof MapPredicate.And ? " AND " : " OR ";
        String inner = children.stream().map(c -> text(c, false)).collect(Collectors.joining(op));
        return top ? inner : "(" + inner + ")";
    }

    private static String literal(Object v) {
        if (v instanceof String) {
            return "'" + ((String) v).replace("'", "\\'") + "'";
        }
        if (v instanceof BigDecimal) {
            return ((BigDecimal) v).toPlainString();
        }
        return String.valueOf(v);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MapPushdown
                && ((MapPushdown) o).selectedKeys.equals(selectedKeys)
                && ((MapPushdown) o).conjuncts.equals(conjuncts);
    }

    @Override
    public int hashCode() {
        return selectedKeys.hashCode() * 31 + conjuncts.hashCode();
    }

    @Override
    public String toString() {
        return "MapPushdown(SelectedKeys: "
                + selectedKeysText()
                + ", PushedMapPredicates: "
                + predicatesText()
                + ")";
    }
}
