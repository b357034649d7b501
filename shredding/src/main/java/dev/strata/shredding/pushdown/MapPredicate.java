package dev.strata.shredding.pushdown;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A predicate over values of shredded map columns, {@code v := column[key]}, handed from a scan to
 * the reader. Leaves are null-rejecting: {@code v op literal} for =, &lt;&gt;, &lt;, &lt;=, &gt;,
 * &gt;=, {@code v IN (...)}, {@code v IS NOT NULL} and {@code StartsWith(v, prefix)}; inner nodes
 * are AND and OR. NOT is not represented: callers normalise it away first (e.g. NOT(v &gt; c)
 * becomes v &lt;= c) and leave out what cannot be normalised. {@code and()} with no children means
 * "no constraint".
 *
 * <p>Literals are {@code Long} (integral values, DATE as epoch days, TIME as millis of day,
 * TIMESTAMP as epoch micros), {@code Double}, {@code String}, {@code BigDecimal} or {@code
 * Boolean}; Integer, Short and Byte are widened to Long and Float to Double. A literal whose kind
 * does not match the column's value type makes the leaf "may match". Immutable and serializable.
 */
public abstract class MapPredicate implements Serializable {

    private static final long serialVersionUID = 1L;

    public enum Op {
        EQ,
        NOT_EQ,
        LT,
        LT_EQ,
        GT,
        GT_EQ,
        IN,
        IS_NOT_NULL,
        STARTS_WITH
    }

    MapPredicate() {}

    public static Leaf leaf(String column, String key, Op op, Object... literals) {
        return new Leaf(column, key, op, Arrays.asList(literals));
    }

    public static MapPredicate and(MapPredicate... children) {
        return new And(Arrays.asList(children));
    }

    public static MapPredicate and(List<? extends MapPredicate> children) {
        return new And(children);
    }

    public static MapPredicate or(MapPredicate... children) {
        return new Or(Arrays.asList(children));
    }

    public static MapPredicate or(List<? extends MapPredicate> children) {
        return new Or(children);
    }

    public abstract List<Leaf> leaves();

    /** {@code column[key] op literals}. */
    public static final class Leaf extends MapPredicate {
        private static final long serialVersionUID = 1L;
        private final String column;
        private final String key;
        private final Op op;
        private final List<Object> literals;

        Leaf(String column, String key, Op op, List<Object> literals) {
            this.column = Objects.requireNonNull(column, "column");
            this.key = Objects.requireNonNull(key, "key");
            this.op = Objects.requireNonNull(op, "op");
            List<Object> lits = new ArrayList<>();
            for (Object l : literals) {
                lits.add(normalise(l));
            }
            int n = lits.size();
            boolean ok = op == Op.IS_NOT_NULL ? n == 0 : op == Op.IN ? n >= 1 : n == 1;
            if (!ok) {
                throw new IllegalArgumentException(
                        "Cannot build map predicate on "
                                + column
                                + "['"
                                + key
                                + "']: operator "
                                + op
                                + " takes "
                                + (op == Op.IS_NOT_NULL
                                        ? "no literal"
                                        : op == Op.IN
                                                ? "at least one literal"
                                                : "exactly one literal")
                                + " but got "
                                + n
                                + ".");
            }
            if (op == Op.STARTS_WITH && !(lits.get(0) instanceof String)) {
                throw new IllegalArgumentException(
                        "Cannot build map predicate on "
                                + column
                                + "['"
                                + key
                                + "']: STARTS_WITH needs a String literal but got "
                                + lits.get(0).getClass().getSimpleName()
                                + ".");
            }
            this.literals = List.copyOf(lits);
        }

        private static Object normalise(Object l) {
            if (l == null) {
                throw new IllegalArgumentException(
                        "Cannot build map predicate: literals must not be null (a comparison"
                                + " with NULL is never true; drop the leaf or the IN item instead).");
            }
            if (l instanceof Integer || l instanceof Short || l instanceof Byte) {
                return ((Number) l).longValue();
            }
            if (l instanceof Float) {
                return ((Float) l).doubleValue();
            }
            if (l instanceof Long
                    || l instanceof Double
                    || l instanceof String
                    || l instanceof BigDecimal
                    || l instanceof Boolean) {
                return l;
            }
            throw new IllegalArgumentException(
                    "Cannot build map predicate: literal type "
                            + l.getClass().getName()
                            + " is not supported. Use Long, Double, String, BigDecimal or Boolean.");
        }

        public String column() {
            return column;
        }

        public String key() {
            return key;
        }

        public Op op() {
            return op;
        }

        public List<Object> literals() {
            return literals;
        }

        @Override
        public List<Leaf> leaves() {
            return List.of(this);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Leaf)) {
                return false;
            }
            Leaf l = (Leaf) o;
            return column.equals(l.column)
                    && key.equals(l.key)
                    && op == l.op
                    && literals.equals(l.literals);
        }

        @Override
        public int hashCode() {
            return Objects.hash(column, key, op, literals);
        }

        @Override
        public String toString() {
            return column + "['" + key + "'] " + op + (literals.isEmpty() ? "" : " " + literals);
        }
    }

    public abstract static class Compound extends MapPredicate {
        private static final long serialVersionUID = 1L;
        private final List<MapPredicate> children;

        Compound(List<? extends MapPredicate> children) {
            for (MapPredicate c : children) {
                Objects.requireNonNull(c, "child");
            }
            this.children = List.copyOf(children);
        }

        public List<MapPredicate> children() {
            return children;
        }

        @Override
        public List<Leaf> leaves() {
            List<Leaf> out = new ArrayList<>();
            for (MapPredicate c : children) {
                out.addAll(c.leaves());
            }
            return out;
        }

        @Override
        public boolean equals(Object o) {
            return o != null
                    && o.getClass() == getClass()
                    && children.equals(((Compound) o).children);
        }

        @Override
        public int hashCode() {
            return Objects.hash(getClass().getSimpleName(), children);
        }
    }

    /** Conjunction; with no children it is TRUE. */
    public static final class And extends Compound {
        private static final long serialVersionUID = 1L;

        And(List<? extends MapPredicate> children) {
            super(children);
        }

        @Override
        public String toString() {
            return children().stream()
                    .map(Object::toString)
                    .collect(Collectors.joining(" AND ", "(", ")"));
        }
    }

    /** Disjunction; with no children it is FALSE. */
    public static final class Or extends Compound {
        private static final long serialVersionUID = 1L;

        Or(List<? extends MapPredicate> children) {
            super(children);
        }

        @Override
        public String toString() {
            return children().stream()
                    .map(Object::toString)
                    .collect(Collectors.joining(" OR ", "(", ")"));
        }
    }
}
