package dev.strata.testing.maps;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Deterministic generator of {@code MAP<STRING, T>} rows for layout and pushdown tests: same seed
 * and settings, same rows. Rows come in "device families" (keys that co-occur, as in
 * IoT/observability data), each key has its own value range (so per-key statistics are meaningful),
 * and the settings inject NULL maps, empty maps, NULL values, duplicate keys, unicode and
 * empty-string keys.
 */
public final class MapDataGenerator {

    /** The value type generated. */
    public enum ValueKind {
        DOUBLE,
        LONG,
        STRING
    }

    private final Random random;
    private final List<String> universe;
    private final int meanKeys;
    private final int maxKeys;
    private final double nullMapRate;
    private final double emptyMapRate;
    private final double nullValueRate;
    private final double duplicateKeyRate;
    private final double nanRate;
    private final ValueKind valueKind;
    private final int families;
    private final int rowsPerFamilyRun;
    private final double corePresence;
    private int runLeft;
    private int family;

    private MapDataGenerator(Builder b) {
        this.random = new Random(b.seed);
        this.universe = keyUniverse(b.keyUniverse, b.unicodeKeys, b.emptyStringKey, b.seed);
        this.meanKeys = b.meanKeys;
        this.maxKeys = b.maxKeys;
        this.nullMapRate = b.nullMapRate;
        this.emptyMapRate = b.emptyMapRate;
        this.nullValueRate = b.nullValueRate;
        this.duplicateKeyRate = b.duplicateKeyRate;
        this.nanRate = b.nanRate;
        this.valueKind = b.valueKind;
        this.families = Math.max(1, b.families);
        this.rowsPerFamilyRun = Math.max(1, b.rowsPerFamilyRun);
        this.corePresence = b.corePresence;
    }

    public static Builder builder(long seed) {
        return new Builder(seed);
    }

    /**
     * Builder; defaults: 1 000 keys, ~10 keys a row (max 40), 2% NULL maps, 2% empty, 3% NULL
     * values, DOUBLE.
     */
    public static final class Builder {
        private final long seed;
        private int keyUniverse = 1000;
        private int meanKeys = 10;
        private int maxKeys = 40;
        private double nullMapRate = 0.02;
        private double emptyMapRate = 0.02;
        private double nullValueRate = 0.03;
        private double duplicateKeyRate = 0.0;
        private double nanRate = 0.0;
        private boolean unicodeKeys = true;
        private boolean emptyStringKey = true;
        private ValueKind valueKind = ValueKind.DOUBLE;
        private int families = 20;
        private int rowsPerFamilyRun = 50;
        private double corePresence = 0.0;

        private Builder(long seed) {
            this.seed = seed;
        }

        public Builder keyUniverse(int n) {
            this.keyUniverse = n;
            return this;
        }

        public Builder keysPerRow(int mean, int max) {
            this.meanKeys = mean;
            this.maxKeys = max;
            return this;
        }

        public Builder nullMapRate(double r) {
            this.nullMapRate = r;
            return this;
        }

        public Builder emptyMapRate(double r) {
            this.emptyMapRate = r;
            return this;
        }

        public Builder nullValueRate(double r) {
            this.nullValueRate = r;
            return this;
        }

        public Builder duplicateKeyRate(double r) {
            this.duplicateKeyRate = r;
            return this;
        }

        public Builder nanRate(double r) {
            this.nanRate = r;
            return this;
        }

        public Builder unicodeKeys(boolean b) {
            this.unicodeKeys = b;
            return this;
        }

        public Builder emptyStringKey(boolean b) {
            this.emptyStringKey = b;
            return this;
        }

        public Builder valueKind(ValueKind k) {
            this.valueKind = k;
            return this;
        }

        /**
         * Device-like rows: each row carries its family's own slice of {@code keysPerRow} keys,
         * each present with probability {@code presence}, plus a few random keys (0 disables this
         * mode).
         */
        public Builder coreKeys(double presence) {
            this.corePresence = presence;
            return this;
        }

        /**
         * Rows come in runs of one family; a family draws its keys mostly from its own slice of the
         * universe.
         */
        public Builder families(int families, int rowsPerRun) {
            this.families = families;
            this.rowsPerFamilyRun = rowsPerRun;
            return this;
        }

        public MapDataGenerator build() {
            return new MapDataGenerator(this);
        }
    }

    /** The keys rows draw from, in a fixed order. */
    public List<String> keyUniverse() {
        return universe;
    }

    private static List<String> keyUniverse(int n, boolean unicode, boolean emptyKey, long seed) {
        List<String> keys = new ArrayList<>(n);
        String[] unicodeStems = {
            "température", "湿度", "давление", "ключ", "😀emoji", "naïve", "Ωmega", "𝔘nicode"
        };
        for (int i = 0; i < n; i++) {
            if (emptyKey && i == 0) {
                keys.add("");
            } else if (unicode && i % 17 == 5) {
                keys.add(unicodeStems[(i / 17) % unicodeStems.length] + "_" + i);
            } else {
                keys.add("metric_" + i);
            }
        }
        return keys;
    }

    /** Base of the value range of key {@code i}: keys have disjoint-ish value ranges. */
    public static double valueBase(int keyIndex) {
        return keyIndex * 10.0;
    }

    public List<GeneratedMap> generate(int rows) {
        List<GeneratedMap> out = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            out.add(next());
        }
        return out;
    }

    public GeneratedMap next() {
        if (runLeft == 0) {
            family = random.nextInt(families);
            runLeft = rowsPerFamilyRun;
        }
        runLeft--;
        double r = random.nextDouble();
        if (r < nullMapRate) {
            return GeneratedMap.nullMap();
        }
        if (r < nullMapRate + emptyMapRate) {
            return GeneratedMap.of(List.of(), List.of());
        }
        if (corePresence > 0) {
            return coreRow();
        }
        int n =
                Math.max(
                        1,
                        Math.min(
                                maxKeys,
                                (int)
                                        Math.round(
                                                meanKeys
                                                        + random.nextGaussian()
                                                                * Math.max(1, meanKeys / 3.0))));
        int u = universe.size();
        int slice = Math.max(n * 2, u / families);
        int sliceStart = (int) ((long) family * u / families);
        List<String> keys = new ArrayList<>(n);
        List<Object> values = new ArrayList<>(n);
        java.util.Set<Integer> used = new java.util.HashSet<>();
        int guard = 0;
        while (keys.size() < n && guard++ < n * 20) {
            int idx =
                    random.nextDouble() < 0.9
                            ? (sliceStart + random.nextInt(slice)) % u
                            : random.nextInt(u);
            if (!used.add(idx)) {
                continue;
            }
            keys.add(universe.get(idx));
            values.add(value(idx));
        }
        if (duplicateKeyRate > 0 && !keys.isEmpty() && random.nextDouble() < duplicateKeyRate) {
            int j = random.nextInt(keys.size());
            int at = random.nextInt(keys.size() + 1);
            keys.add(at, keys.get(j));
            values.add(at, value(universe.indexOf(keys.get(j))));
        }
        return GeneratedMap.of(keys, values);
    }

    private GeneratedMap coreRow() {
        int u = universe.size();
        int start = (int) ((long) family * u / families);
        List<String> keys = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < meanKeys && keys.size() < maxKeys; i++) {
            if (random.nextDouble() < corePresence) {
                int idx = (start + i) % u;
                keys.add(universe.get(idx));
                values.add(value(idx));
            }
        }
        int extras = random.nextInt(3);
        for (int e = 0; e < extras && keys.size() < maxKeys; e++) {
            int idx = random.nextInt(u);
            String k = universe.get(idx);
            if (!keys.contains(k)) {
                keys.add(k);
                values.add(value(idx));
            }
        }
        return GeneratedMap.of(keys, values);
    }

    private Object value(int keyIndex) {
        if (random.nextDouble() < nullValueRate) {
            return null;
        }
        switch (valueKind) {
            case LONG:
                return (long) (valueBase(keyIndex) + random.nextInt(10));
            case STRING:
                return "v" + keyIndex + "_" + random.nextInt(100);
            default:
                if (nanRate > 0 && random.nextDouble() < nanRate) {
                    return Double.NaN;
                }
                return valueBase(keyIndex) + random.nextDouble() * 10.0;
        }
    }
}
