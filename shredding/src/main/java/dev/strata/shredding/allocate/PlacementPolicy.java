package dev.strata.shredding.allocate;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a row's keys are placed into the K shared value columns of a file. */
public enum PlacementPolicy {
    /** The first K keys in entry order take columns 0..K-1; the rest overflow. */
    PLAIN,
    /** Keys sorted by file-local id (first-seen order), then placed as {@link #PLAIN}. */
    SEQUENTIAL,
    /** Keys keep the column they last used; misses evict the least recently used column. */
    LRU,
    /**
     * Strata's own: each key keeps one home column for the whole file, hot keys win their home and
     * keep it to themselves, so a key's values stay in few columns ({@link StableAllocator}).
     */
    STABLE,
    /**
     * Strata's own and its default: keys that never share a row of the file's first rows share a
     * column, each key keeps that home; LRU when the sample shows no such structure ({@link
     * DisjointAllocator}).
     */
    DISJOINT;

    /** The option spelling, lower case. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses an option value case-insensitively; null when the value is not a policy. */
    public static PlacementPolicy parseOrNull(String value) {
        if (value == null) {
            return null;
        }
        for (PlacementPolicy p : values()) {
            if (p.optionValue().equalsIgnoreCase(value.trim())) {
                return p;
            }
        }
        return null;
    }

    /** The allowed spellings, for error messages. */
    public static String allowedValues() {
        return Arrays.stream(values())
                .map(PlacementPolicy::optionValue)
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** A fresh allocator of this policy for one file with {@code k} columns. */
    public ColumnAllocator newAllocator(int k) {
        switch (this) {
            case PLAIN:
                return new PlainAllocator(k);
            case SEQUENTIAL:
                return new SequentialAllocator(k);
            case LRU:
                return new LruAllocator(k);
            case STABLE:
                return new StableAllocator(k);
            case DISJOINT:
                return new DisjointAllocator(k);
            default:
                throw new IllegalStateException("Unknown placement policy " + this);
        }
    }
}
