package dev.strata.testing;

import java.util.Random;

/**
 * Seeds for randomized tests. A test asks for a seed by name; the seed is taken from the system
 * property {@code strata.test.seed} when set (to replay a failure) and otherwise derived from the
 * clock, and it is always printed so that a failing run can be repeated exactly.
 */
public final class TestSeeds {

    private TestSeeds() {}

    /** The seed to use for the named test, printed to stdout. */
    public static long seed(String testName) {
        String fixed = System.getProperty("strata.test.seed");
        long seed = fixed != null ? Long.parseLong(fixed.trim()) : System.nanoTime();
        System.out.printf(
                "[strata] %s seed=%d (replay with -Dstrata.test.seed=%d)%n", testName, seed, seed);
        return seed;
    }

    /** A {@link Random} seeded by {@link #seed(String)}. */
    public static Random random(String testName) {
        return new Random(seed(testName));
    }

    /** A message prefix that names the seed, for assertion descriptions. */
    public static String describe(String testName, long seed) {
        return testName + " (seed " + seed + ", replay with -Dstrata.test.seed=" + seed + ")";
    }
}
