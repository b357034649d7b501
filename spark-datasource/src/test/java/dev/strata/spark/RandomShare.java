package dev.strata.spark;

import dev.strata.spark.compat.SparkVersionApi;

/**
 * A randomized series' share on the Spark minor under test. The build tests every Spark minor it
 * supports with the same suites; the random statements of a series test Strata's answers, not
 * Spark's, so each minor runs half of them with seeds of its own: together the minors test as many
 * distinct random statements as each did alone before, each in half the time, and every kind of
 * statement still runs on every minor.
 */
public final class RandomShare {

    private RandomShare() {}

    /** The name a randomized test's seed is derived from on this minor. */
    public static String seedName(String testName) {
        return testName + " on Spark " + SparkVersionApi.SPARK_MINOR;
    }

    /** This minor's share of {@code cases} random cases: half, at least one. */
    public static int of(int cases) {
        return Math.max(1, (cases + 1) / 2);
    }
}
