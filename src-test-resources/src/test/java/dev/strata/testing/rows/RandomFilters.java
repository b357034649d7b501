package dev.strata.testing.rows;

import java.util.Random;
import java.util.function.Function;

/**
 * Random SQL filters over the columns of {@link TypedRowGenerator}: comparisons on every atomic
 * type, IN, IS [NOT] NULL, LIKE prefix, NOT, and AND/OR trees up to a small depth. The text is
 * plain SQL any engine of the tests can evaluate, so the same filter runs against Strata and the
 * oracle.
 */
public final class RandomFilters {

    private static final String[] OPS = {"=", "<>", "<", "<=", ">", ">=", "<=>"};

    private final Random random;
    private final Function<Random, String> leaves;

    public RandomFilters(Random random) {
        this.random = random;
        this.leaves = r -> leaf();
    }

    /** AND/OR/NOT trees over the comparisons {@code leaves} draws (other tables' columns). */
    public RandomFilters(Random random, Function<Random, String> leaves) {
        this.random = random;
        this.leaves = leaves;
    }

    /** A filter of at most {@code depth} levels of AND/OR/NOT. */
    public String next(int depth) {
        if (depth > 0 && random.nextInt(3) > 0) {
            switch (random.nextInt(3)) {
                case 0:
                    return "(" + next(depth - 1) + " AND " + next(depth - 1) + ")";
                case 1:
                    return "(" + next(depth - 1) + " OR " + next(depth - 1) + ")";
                default:
                    return "NOT (" + next(depth - 1) + ")";
            }
        }
        return leaves.apply(random);
    }

    private String leaf() {
        String op = OPS[random.nextInt(OPS.length)];
        switch (random.nextInt(14)) {
            case 0:
                return "k " + op + " " + random.nextInt(22);
            case 1:
                return "s " + op + " '" + word() + "'";
            case 2:
                return "d " + op + " " + (random.nextInt(200) - 100) + ".5";
            case 3:
                return "dec " + op + " " + (random.nextInt(20000) - 10000) + ".25";
            case 4:
                return "dt "
                        + op
                        + " DATE'"
                        + TypedRowGenerator.BASE_DATE.plusDays(random.nextInt(62))
                        + "'";
            case 5:
                return "ts "
                        + op
                        + " TIMESTAMP'2024-01-"
                        + String.format("%02d", 1 + random.nextInt(30))
                        + " 12:00:00Z'";
            case 6:
                return "b " + (random.nextBoolean() ? "= true" : "= false");
            case 7:
                return "k IN ("
                        + random.nextInt(20)
                        + ", "
                        + random.nextInt(20)
                        + ", "
                        + random.nextInt(20)
                        + ")";
            case 8:
                String w = word();
                return "s LIKE '" + w.substring(0, Math.min(2, w.length())) + "%'";
            case 9:
                return new String[] {"s", "d", "k", "dt", "m", "st", "arr"}[random.nextInt(7)]
                        + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            case 10:
                return "p "
                        + (random.nextBoolean() ? "= " : op + " ")
                        + "'p"
                        + random.nextInt(4)
                        + "'";
            case 11:
                return "small " + op + " " + (random.nextInt(256) - 128);
            case 12:
                return "f " + op + " " + (random.nextInt(100) - 50);
            default:
                return "id " + op + " " + random.nextInt(2000);
        }
    }

    private String word() {
        return TypedRowGenerator.WORDS[random.nextInt(TypedRowGenerator.WORDS.length)];
    }
}
