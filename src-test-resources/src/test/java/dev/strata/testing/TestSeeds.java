package dev.strata.testing;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Seeds for randomized tests. A test asks for a seed by name; by default the seed is fixed, derived
 * from the name, so every run tests the same data. The system property {@code strata.test.seed}
 * replays a failure ({@code -Dstrata.test.seed=<n>}) or explores new data ({@code random}: from the
 * clock). The seed is always printed, and {@link #describe} puts it in assertion messages, so a
 * failure names the seed that reproduces it.
 */
public final class TestSeeds {

    /** The system property that overrides every test's seed. */
    public static final String PROPERTY = "strata.test.seed";

    private TestSeeds() {}

    /**
     * Whether {@link #PROPERTY} overrides the seeds. The build forwards the property even when
     * unset: ScalaTest's plugin then passes "null".
     */
    public static boolean overridden() {
        String override = System.getProperty(PROPERTY);
        return override != null && !override.isBlank() && !override.trim().equals("null");
    }

    /** The seed to use for the named test, printed to stdout. */
    public static long seed(String testName) {
        String override = System.getProperty(PROPERTY);
        long seed;
        if (!overridden()) {
            seed = fixedSeed(testName);
        } else if ("random".equalsIgnoreCase(override.trim())) {
            seed = System.nanoTime();
        } else {
            seed = Long.parseLong(override.trim());
        }
        System.out.printf(
                "[strata] %s seed=%d (replay with -D%s=%d)%n", testName, seed, PROPERTY, seed);
        return seed;
    }

    /** The default seed of a test: a 64-bit FNV-1a hash of its name, the same on every JVM. */
    static long fixedSeed(String testName) {
        long h = 0xcbf29ce484222325L;
        for (byte b : testName.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** A {@link Random} seeded by {@link #seed(String)}. */
    public static Random random(String testName) {
        return new Random(seed(testName));
    }

    /** A message prefix that names the seed, for assertion descriptions. */
    public static String describe(String testName, long seed) {
        return testName + " (seed " + seed + ", replay with -D" + PROPERTY + "=" + seed + ")";
    }
}
