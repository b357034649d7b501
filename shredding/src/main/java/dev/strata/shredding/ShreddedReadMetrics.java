package dev.strata.shredding;

/**
 * Counters of shredded-format reads done on one thread while a collector is installed: a caller
 * (e.g. Spark's partition reader) wraps its reads in {@code try (Scope scope = collect())} and
 * takes {@link Scope#snapshot()}. Reads on a thread without a collector are not counted. Scopes
 * nest: an inner scope counts only its own reads and adds them to the enclosing scope when it
 * closes.
 */
public final class ShreddedReadMetrics {

    private static final ThreadLocal<Scope> CURRENT = new ThreadLocal<>();

    private ShreddedReadMetrics() {}

    /** Installs a collector on the current thread. */
    public static Scope collect() {
        Scope scope = new Scope(CURRENT.get());
        CURRENT.set(scope);
        return scope;
    }

    /** The collector of the current thread, or null. Used by the reader. */
    static Scope current() {
        return CURRENT.get();
    }

    /** The counters, each summed over a scope's reads (see the method that counts each). */
    public enum Counter {
        FILES_READ("filesRead"),
        FILES_SKIPPED("filesSkipped"),
        ROW_GROUPS_TOTAL("rowGroupsTotal"),
        ROW_GROUPS_SKIPPED("rowGroupsSkipped"),
        ROW_GROUPS_SKIPPED_BY_ZONE_STATS_ONLY("rowGroupsSkippedByZoneStatsOnly"),
        SUB_COLUMNS_READ("subColumnsRead"),
        ROWS_SKIPPED_BY_PAGE_INDEX("rowsSkippedByPageIndex"),
        VALUE_PAGES_SKIPPED("valuePagesSkipped");

        private static final Counter[] ALL = values();

        public final String label;

        Counter(String label) {
            this.label = label;
        }
    }

    /** A shredded file was opened: its row groups and the shredded leaf columns read from it. */
    public static void fileRead(long rowGroups, long subColumns) {
        Scope s = CURRENT.get();
        if (s != null) {
            s.add(Counter.FILES_READ, 1);
            s.add(Counter.ROW_GROUPS_TOTAL, rowGroups);
            s.add(Counter.SUB_COLUMNS_READ, subColumns);
        }
    }

    public static void fileSkipped() {
        count(Counter.FILES_SKIPPED, 1);
    }

    /** A row group was skipped; {@code byZoneStatsOnly}: Parquet statistics alone would read it. */
    public static void rowGroupSkipped(boolean byZoneStatsOnly) {
        Scope s = CURRENT.get();
        if (s != null) {
            s.add(Counter.ROW_GROUPS_SKIPPED, 1);
            s.add(Counter.ROW_GROUPS_SKIPPED_BY_ZONE_STATS_ONLY, byZoneStatsOnly ? 1 : 0);
        }
    }

    /** Rows of a row group that page-level filtering (the column index) dropped. */
    public static void rowsSkippedByPageIndex(long rows) {
        count(Counter.ROWS_SKIPPED_BY_PAGE_INDEX, rows);
    }

    /** Value pages a key lookup passed undecoded: none of their rows holds a looked-up key. */
    public static void valuePagesSkipped(long pages) {
        count(Counter.VALUE_PAGES_SKIPPED, pages);
    }

    private static void count(Counter counter, long n) {
        Scope s = CURRENT.get();
        if (s != null) {
            s.add(counter, n);
        }
    }

    /** An installed collector; close it on the thread that opened it. */
    public static final class Scope implements AutoCloseable {
        private final Scope parent;
        private final long[] counts = new long[Counter.ALL.length];
        private boolean closed;

        private Scope(Scope parent) {
            this.parent = parent;
        }

        private void add(Counter counter, long n) {
            counts[counter.ordinal()] += n;
        }

        /** The counts so far; after {@link #close()}, the final counts of the scope. */
        public Snapshot snapshot() {
            return new Snapshot(counts.clone());
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (CURRENT.get() == this) {
                if (parent == null) {
                    CURRENT.remove();
                } else {
                    CURRENT.set(parent);
                }
            }
            if (parent != null) {
                for (int i = 0; i < counts.length; i++) {
                    parent.counts[i] += counts[i];
                }
            }
        }
    }

    /** Immutable counts of a scope, one per {@link Counter}. */
    public static final class Snapshot {
        private final long[] counts;

        private Snapshot(long[] counts) {
            this.counts = counts;
        }

        public long get(Counter counter) {
            return counts[counter.ordinal()];
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            for (Counter c : Counter.ALL) {
                if (b.length() > 0) {
                    b.append(", ");
                }
                b.append(c.label).append('=').append(counts[c.ordinal()]);
            }
            return b.toString();
        }
    }
}
