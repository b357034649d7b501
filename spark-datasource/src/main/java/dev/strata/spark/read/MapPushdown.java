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
 * The map pushdown decided for one scan: the keys each shared-shredding map column is read with,
 * and advisory map-key predicates to prune with (Spark keeps its Filter). Selected keys can also be
 * read as columns of their own ({@link #keyColumnName}).
 */
public final class MapPushdown implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final MapPushdown NONE = new MapPushdown(Map.of(), List.of());

    private final Map<String, List<String>> selectedKeys;
    private final List<MapPredicate> conjuncts;

    /** {@code selectedKeys}: map column to keys read; {@code conjuncts} are AND-ed. */
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

    /** Null when there is none. */
    public MapPredicate predicate() {
        if (conjuncts.isEmpty()) {
            return null;
        }
        return conjuncts.size() == 1 ? conjuncts.get(0) : MapPredicate.and(conjuncts);
    }

    public boolean isEmpty() {
        return selectedKeys.isEmpty() && conjuncts.isEmpty();
    }

    /** Selected keys only for the columns a scan reads. */
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
     * E.g. {@code ext_map['usage']}: a column holding the key's value (NULL where absent), so a
     * query on {@code m['k']} evaluates no map lookup.
     */
    public static String keyColumnName(String column, String key) {
        return column + "['" + key.replace("\\", "\\\\").replace("'", "\\'") + "']";
    }

    /** The map column and key of a {@link #keyColumnName key column}, or null. */
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

    String predicatesText() {
        return conjuncts.stream()
                .map(p -> text(p, true))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    String selectedKeysText() {
        return selectedKeys.entrySet().stream()
                .map(e -> e.getKey() + "=[" + String.join(", ", e.getValue()) + "]")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** Spark-SQL-like. */
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
