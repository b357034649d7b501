package dev.strata.shredding;

/**
 * Counters of shredded-format reads done on one thread while a collector is installed. A caller
 * (e.g. Spark's partition reader) wraps its reads:
 *
 * <pre>
 * try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
 *     ... read through Paimon ...
 *     ShreddedReadMetrics.Snapshot s = scope.snapshot();
 * }
 * </pre>
 *
 * Reads on a thread without an installed collector are not counted. Scopes nest: an inner scope
 * counts only its own reads and adds them to the enclosing scope when it closes.
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

    /**
     * A shredded file was opened for reading: its {@code rowGroups} and the shredded leaf columns
     * read from it.
     */
    public static void fileRead(long rowGroups, long subColumns) {
        Scope s = CURRENT.get();
        if (s != null) {
            s.filesRead++;
            s.rowGroupsTotal += rowGroups;
            s.subColumnsRead += subColumns;
        }
    }

    /**
     * A file was skipped because the predicate cannot match it (its row groups are not counted).
     */
    public static void fileSkipped() {
        Scope s = CURRENT.get();
        if (s != null) {
            s.filesSkipped++;
        }
    }

    /**
     * A row group of an opened file was not read; {@code byZoneStatsOnly}: Parquet's own statistics
     * alone would have read it.
     */
    public static void rowGroupSkipped(boolean byZoneStatsOnly) {
        Scope s = CURRENT.get();
        if (s != null) {
            s.rowGroupsSkipped++;
            s.rowGroupsSkippedByZoneStatsOnly += byZoneStatsOnly ? 1 : 0;
        }
    }

    /** Rows of a row group that page-level filtering (the column index) dropped. */
    public static void rowsSkippedByPageIndex(long rows) {
        Scope s = CURRENT.get();
        if (s != null) {
            s.rowsSkippedByPageIndex += rows;
        }
    }

    /**
     * Pages of shredded value columns that a key lookup passed without decoding, because none of
     * their rows holds a looked-up key (the row group's {@code __field_mapping} says which rows
     * do).
     */
    public static void valuePagesSkipped(long pages) {
        Scope s = CURRENT.get();
        if (s != null) {
            s.valuePagesSkipped += pages;
        }
    }

    /** An installed collector; close it on the thread that opened it. */
    public static final class Scope implements AutoCloseable {
        private final Scope parent;
        private long filesRead;
        private long filesSkipped;
        private long rowGroupsTotal;
        private long rowGroupsSkipped;
        private long rowGroupsSkippedByZoneStatsOnly;
        private long subColumnsRead;
        private long rowsSkippedByPageIndex;
        private long valuePagesSkipped;
        private boolean closed;

        private Scope(Scope parent) {
            this.parent = parent;
        }

        private void add(
                long filesRead,
                long filesSkipped,
                long rowGroupsTotal,
                long rowGroupsSkipped,
                long rowGroupsSkippedByZoneStatsOnly,
                long subColumnsRead,
                long rowsSkippedByPageIndex,
                long valuePagesSkipped) {
            this.filesRead += filesRead;
            this.filesSkipped += filesSkipped;
            this.rowGroupsTotal += rowGroupsTotal;
            this.rowGroupsSkipped += rowGroupsSkipped;
            this.rowGroupsSkippedByZoneStatsOnly += rowGroupsSkippedByZoneStatsOnly;
            this.subColumnsRead += subColumnsRead;
            this.rowsSkippedByPageIndex += rowsSkippedByPageIndex;
            this.valuePagesSkipped += valuePagesSkipped;
        }

        /** The counts so far; after {@link #close()}, the final counts of the scope. */
        public Snapshot snapshot() {
            return new Snapshot(
                    filesRead,
                    filesSkipped,
                    rowGroupsTotal,
                    rowGroupsSkipped,
                    rowGroupsSkippedByZoneStatsOnly,
                    subColumnsRead,
                    rowsSkippedByPageIndex,
                    valuePagesSkipped);
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
                parent.add(
                        filesRead,
                        filesSkipped,
                        rowGroupsTotal,
                        rowGroupsSkipped,
                        rowGroupsSkippedByZoneStatsOnly,
                        subColumnsRead,
                        rowsSkippedByPageIndex,
                        valuePagesSkipped);
            }
        }
    }

    /**
     * Immutable counts. {@code filesRead}: shredded files opened; {@code filesSkipped}: files
     * skipped because the predicate cannot match (their row groups are not counted); {@code
     * rowGroupsTotal} / {@code rowGroupsSkipped}: row groups of opened files and those skipped by
     * statistics; {@code rowGroupsSkippedByZoneStatsOnly}: skipped ones that Parquet statistics
     * alone would have read; {@code subColumnsRead}: Parquet leaf columns of shredded map columns
     * read per file, summed; {@code rowsSkippedByPageIndex}: rows of read row groups dropped by
     * page-level filtering; {@code valuePagesSkipped}: pages of shredded value columns passed
     * undecoded because no row of them holds a looked-up key.
     */
    public static final class Snapshot {
        public final long filesRead;
        public final long filesSkipped;
        public final long rowGroupsTotal;
        public final long rowGroupsSkipped;
        public final long rowGroupsSkippedByZoneStatsOnly;
        public final long subColumnsRead;
        public final long rowsSkippedByPageIndex;
        public final long valuePagesSkipped;

        Snapshot(
                long filesRead,
                long filesSkipped,
                long rowGroupsTotal,
                long rowGroupsSkipped,
                long rowGroupsSkippedByZoneStatsOnly,
                long subColumnsRead,
                long rowsSkippedByPageIndex,
                long valuePagesSkipped) {
            this.filesRead = filesRead;
            this.filesSkipped = filesSkipped;
            this.rowGroupsTotal = rowGroupsTotal;
            this.rowGroupsSkipped = rowGroupsSkipped;
            this.rowGroupsSkippedByZoneStatsOnly = rowGroupsSkippedByZoneStatsOnly;
            this.subColumnsRead = subColumnsRead;
            this.rowsSkippedByPageIndex = rowsSkippedByPageIndex;
            this.valuePagesSkipped = valuePagesSkipped;
        }

        @Override
        public String toString() {
            return "filesRead="
                    + filesRead
                    + ", filesSkipped="
                    + filesSkipped
                    + ", rowGroupsTotal="
                    + rowGroupsTotal
                    + ", rowGroupsSkipped="
                    + rowGroupsSkipped
                    + ", rowGroupsSkippedByZoneStatsOnly="
                    + rowGroupsSkippedByZoneStatsOnly
                    + ", subColumnsRead="
                    + subColumnsRead
                    + ", rowsSkippedByPageIndex="
                    + rowsSkippedByPageIndex
                    + ", valuePagesSkipped="
                    + valuePagesSkipped;
        }
    }
}
