package dev.strata.shredding.read;

import dev.strata.shredding.pushdown.MapPredicate;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;

/**
 * Drops, inside the columnar reader, the rows of a window in which the scan's pushed map predicate
 * is not true; Spark's own Filter stays above the scan and decides every row returned.
 *
 * <p>Sound as row-group skipping is: the predicate is implied by the Filter directly over the scan
 * and built from null-rejecting leaves under AND and OR only, so a row where it is not true (false,
 * or unknown because a key is absent or NULL) is one the Filter drops. It reaches the reader only
 * where a file's rows are final ({@code ShreddedReadHandover}), and rows keep their absolute
 * positions, by which deletion vectors apply. Comparisons follow Spark's: doubles are equal when
 * {@code ==} says so, else ordered by {@link Double#compare}; strings by unsigned UTF-8 bytes. A
 * leaf whose literal kind does not match the value type, or whose key is not decoded here, keeps
 * every row.
 */
final class RowFilter {

    private final Node root;

    private RowFilter(Node root) {
        this.root = root;
    }

    static RowFilter of(MapPredicate predicate, List<ShreddedColumns.MapKeys> maps) {
        return new RowFilter(compile(predicate, maps));
    }

    static int all(int rows, int[] out) {
        for (int r = 0; r < rows; r++) {
            out[r] = r;
        }
        return rows;
    }

    /** Writes the rows the predicate may keep into {@code out}, ascending; returns how many. */
    int select(int rows, int[] out) {
        boolean[] keep = new boolean[rows];
        root.eval(rows, keep);
        int n = 0;
        for (int r = 0; r < rows; r++) {
            if (keep[r]) {
                out[n++] = r;
            }
        }
        return n;
    }

    private static Node compile(MapPredicate p, List<ShreddedColumns.MapKeys> maps) {
        if (p instanceof MapPredicate.Leaf) {
            MapPredicate.Leaf leaf = (MapPredicate.Leaf) p;
            for (ShreddedColumns.MapKeys m : maps) {
                int j = m.name().equals(leaf.column()) ? m.keyIndex(leaf.key()) : -1;
                if (j >= 0) {
                    Test test = Test.of(leaf, m.valueType());
                    return test == null ? new Maybe() : new LeafNode(m, j, test);
                }
            }
            return new Maybe();
        }
        List<Node> children = new ArrayList<>();
        for (MapPredicate c : ((MapPredicate.Compound) p).children()) {
            children.add(compile(c, maps));
        }
        return new Junction(p instanceof MapPredicate.And, children.toArray(new Node[0]));
    }

    private interface Node {
        /** Sets {@code out[r]} for r &lt; rows to whether the node may be true in window row r. */
        void eval(int rows, boolean[] out);
    }

    private static final class Maybe implements Node {
        @Override
        public void eval(int rows, boolean[] out) {
            Arrays.fill(out, 0, rows, true);
        }
    }

    private static final class Junction implements Node {
        private final boolean and;
        private final Node[] children;

        Junction(boolean and, Node[] children) {
            this.and = and;
            this.children = children;
        }

        @Override
        public void eval(int rows, boolean[] out) {
            Arrays.fill(out, 0, rows, and);
            boolean[] child = new boolean[rows];
            for (Node c : children) {
                c.eval(rows, child);
                for (int r = 0; r < rows; r++) {
                    out[r] = and ? out[r] && child[r] : out[r] || child[r];
                }
            }
        }
    }

    private static final class LeafNode implements Node {
        private final ShreddedColumns.MapKeys map;
        private final int key;
        private final Test test;

        LeafNode(ShreddedColumns.MapKeys map, int key, Test test) {
            this.map = map;
            this.key = key;
            this.test = test;
        }

        @Override
        public void eval(int rows, boolean[] out) {
            for (int r = 0; r < rows; r++) {
                ColumnCursor chunk = map.valueChunk(key, r);
                out[r] = chunk != null && test.matches(chunk, map.valueOrdinal(key, r));
            }
        }
    }

    private abstract static class Test {
        final MapPredicate.Op op;

        Test(MapPredicate.Op op) {
            this.op = op;
        }

        /** Null when the literals' kind does not match the value type: the leaf keeps every row. */
        static Test of(MapPredicate.Leaf leaf, DataType valueType) {
            if (leaf.op() == MapPredicate.Op.IS_NOT_NULL) {
                return new Present();
            }
            List<Object> lits = leaf.literals();
            switch (valueType.getTypeRoot()) {
                case DOUBLE:
                    if (!allOf(lits, Double.class)) {
                        return null;
                    }
                    double[] d = new double[lits.size()];
                    for (int i = 0; i < d.length; i++) {
                        d[i] = (Double) lits.get(i);
                    }
                    return new DoubleTest(leaf.op(), d);
                case INTEGER:
                case BIGINT:
                    if (!allOf(lits, Long.class)) {
                        return null;
                    }
                    long[] l = new long[lits.size()];
                    for (int i = 0; i < l.length; i++) {
                        l[i] = (Long) lits.get(i);
                    }
                    return new LongTest(
                            leaf.op(), l, valueType.getTypeRoot() == DataTypeRoot.INTEGER);
                case VARCHAR:
                    if (!allOf(lits, String.class)) {
                        return null;
                    }
                    byte[][] b = new byte[lits.size()][];
                    for (int i = 0; i < b.length; i++) {
                        b[i] = ((String) lits.get(i)).getBytes(StandardCharsets.UTF_8);
                    }
                    return new BytesTest(leaf.op(), b);
                default:
                    return null;
            }
        }

        private static boolean allOf(List<Object> lits, Class<?> kind) {
            for (Object l : lits) {
                if (!kind.isInstance(l)) {
                    return false;
                }
            }
            return true;
        }

        abstract boolean matches(ColumnCursor chunk, int ordinal);

        /** Whether {@code cmp} (value vs. a literal) satisfies the op; IN: "any literal equal". */
        final boolean holds(int cmp) {
            switch (op) {
                case EQ:
                case IN:
                    return cmp == 0;
                case NOT_EQ:
                    return cmp != 0;
                case LT:
                    return cmp < 0;
                case LT_EQ:
                    return cmp <= 0;
                case GT:
                    return cmp > 0;
                case GT_EQ:
                    return cmp >= 0;
                default:
                    return true;
            }
        }
    }

    /** IS NOT NULL: the leaf node only calls a test for rows where the key has a non-NULL value. */
    private static final class Present extends Test {
        Present() {
            super(MapPredicate.Op.IS_NOT_NULL);
        }

        @Override
        boolean matches(ColumnCursor chunk, int ordinal) {
            return true;
        }
    }

    /** Comparisons and IN on DOUBLE values (STARTS_WITH's literal is a String). */
    private static final class DoubleTest extends Test {
        private final double[] literals;

        DoubleTest(MapPredicate.Op op, double[] literals) {
            super(op);
            this.literals = literals;
        }

        @Override
        boolean matches(ColumnCursor chunk, int ordinal) {
            double v = chunk.getDouble(ordinal);
            for (double l : literals) {
                if (holds(v == l ? 0 : Double.compare(v, l))) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final class LongTest extends Test {
        private final long[] literals;
        private final boolean ints;

        LongTest(MapPredicate.Op op, long[] literals, boolean ints) {
            super(op);
            this.literals = literals;
            this.ints = ints;
        }

        @Override
        boolean matches(ColumnCursor chunk, int ordinal) {
            long v = ints ? chunk.getInt(ordinal) : chunk.getLong(ordinal);
            for (long l : literals) {
                if (holds(Long.compare(v, l))) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Comparisons, IN and STARTS_WITH on STRING values, by unsigned UTF-8 bytes. */
    private static final class BytesTest extends Test {
        private final byte[][] literals;

        BytesTest(MapPredicate.Op op, byte[][] literals) {
            super(op);
            this.literals = literals;
        }

        @Override
        boolean matches(ColumnCursor chunk, int ordinal) {
            byte[] v = chunk.getBytes(ordinal);
            for (byte[] l : literals) {
                boolean hit =
                        op == MapPredicate.Op.STARTS_WITH
                                ? v.length >= l.length
                                        && Arrays.equals(v, 0, l.length, l, 0, l.length)
                                : holds(Arrays.compareUnsigned(v, l));
                if (hit) {
                    return true;
                }
            }
            return false;
        }
    }
}
