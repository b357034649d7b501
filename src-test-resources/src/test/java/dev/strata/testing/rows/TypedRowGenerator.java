package dev.strata.testing.rows;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Deterministic rows covering every column type Strata stores, for tests that write the same data
 * through Strata and through an oracle and compare. Values are plain Java objects (no engine
 * types); structs are {@code Object[]}. The column layout is {@link #COLUMNS_DDL}:
 *
 * <pre>
 * id BIGINT NOT NULL (unique, ascending), k INT, s STRING, d DOUBLE, dec DECIMAL(12,2), dt DATE,
 * ts TIMESTAMP, ntz TIMESTAMP_NTZ, b BOOLEAN, bin BINARY, arr ARRAY&lt;INT&gt;, m MAP&lt;STRING,INT&gt;,
 * st STRUCT&lt;a: INT, b: STRING&gt;, small TINYINT, mid SMALLINT, f FLOAT, p STRING (partition-like, 4 values)
 * </pre>
 *
 * Every nullable column is null in about one row in eight; strings include unicode and the empty
 * string; doubles include negative zero, NaN and infinities rarely, so predicate pushdown meets the
 * awkward cases.
 */
public final class TypedRowGenerator {

    /** Column definitions in SQL, in row order. */
    public static final String COLUMNS_DDL =
            "id BIGINT NOT NULL, k INT, s STRING, d DOUBLE, dec DECIMAL(12,2), "
                    + "dt DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, b BOOLEAN, bin BINARY, arr ARRAY<INT>, "
                    + "m MAP<STRING,INT>, st STRUCT<a: INT, b: STRING>, small TINYINT, mid SMALLINT, f FLOAT, p STRING";

    /** Column names, in row order. */
    public static final List<String> COLUMNS =
            List.of(
                    "id", "k", "s", "d", "dec", "dt", "ts", "ntz", "b", "bin", "arr", "m", "st",
                    "small", "mid", "f", "p");

    static final String[] WORDS = {
        "alpha", "beta", "gamma", "delta", "", "Ünïcödé", "日本語", "a b", "alp", "zeta"
    };
    static final String[] PARTITIONS = {"p0", "p1", "p2", "p3"};
    static final LocalDate BASE_DATE = LocalDate.of(2024, 1, 1);
    static final Instant BASE_INSTANT = Instant.parse("2024-01-01T00:00:00Z");

    private final Random random;
    private long nextId;

    public TypedRowGenerator(Random random, long firstId) {
        this.random = random;
        this.nextId = firstId;
    }

    /** The next {@code n} rows, ids ascending. */
    public List<Object[]> rows(int n) {
        List<Object[]> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(row(nextId++));
        }
        return rows;
    }

    /** A row with the given id and random other columns. */
    public Object[] row(long id) {
        return new Object[] {
            id,
            maybe(() -> random.nextInt(20)),
            maybe(() -> WORDS[random.nextInt(WORDS.length)]),
            maybe(this::doubleValue),
            maybe(() -> BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2)),
            maybe(() -> BASE_DATE.plusDays(random.nextInt(60))),
            maybe(
                    () ->
                            BASE_INSTANT
                                    .plusSeconds(random.nextInt(86_400 * 30))
                                    .plusNanos(random.nextInt(1000) * 1000L)),
            maybe(
                    () ->
                            LocalDateTime.ofEpochSecond(
                                    1_700_000_000L + random.nextInt(86_400 * 30),
                                    random.nextInt(1000) * 1000,
                                    ZoneOffset.UTC)),
            maybe(random::nextBoolean),
            maybe(
                    () -> {
                        byte[] bytes = new byte[random.nextInt(6)];
                        random.nextBytes(bytes);
                        return bytes;
                    }),
            maybe(
                    () -> {
                        List<Integer> list = new ArrayList<>();
                        int size = random.nextInt(4);
                        for (int j = 0; j < size; j++) {
                            list.add(random.nextInt(8) == 0 ? null : random.nextInt(100));
                        }
                        return list;
                    }),
            maybe(
                    () -> {
                        Map<String, Integer> map = new LinkedHashMap<>();
                        int size = random.nextInt(4);
                        for (int j = 0; j < size; j++) {
                            map.put(
                                    WORDS[random.nextInt(WORDS.length)],
                                    random.nextInt(8) == 0 ? null : random.nextInt(100));
                        }
                        return map;
                    }),
            maybe(
                    () ->
                            new Object[] {
                                random.nextInt(8) == 0 ? null : random.nextInt(10),
                                random.nextInt(8) == 0 ? null : WORDS[random.nextInt(WORDS.length)]
                            }),
            maybe(() -> (byte) (random.nextInt(256) - 128)),
            maybe(() -> (short) (random.nextInt(2000) - 1000)),
            maybe(() -> random.nextFloat() * 100 - 50),
            PARTITIONS[random.nextInt(PARTITIONS.length)]
        };
    }

    private Double doubleValue() {
        int pick = random.nextInt(100);
        if (pick == 0) {
            return Double.NaN;
        } else if (pick == 1) {
            return -0.0;
        } else if (pick == 2) {
            return Double.POSITIVE_INFINITY;
        } else if (pick == 3) {
            return Double.NEGATIVE_INFINITY;
        }
        return Math.round((random.nextDouble() * 200 - 100) * 1000) / 1000.0;
    }

    private <T> T maybe(java.util.function.Supplier<T> value) {
        return random.nextInt(8) == 0 ? null : value.get();
    }
}
