package dev.strata.shredding.allocate;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a row's keys are placed in a file's K value columns; readers only follow the mapping. */
public enum PlacementPolicy {
    /** The first K keys in entry order take columns 0..K-1; the rest overflow. */
    PLAIN,
    /** Keys sorted by file-local id (first-seen order), then placed as {@link #PLAIN}. */
    SEQUENTIAL,
    /** Keys keep the column they last used; misses evict the least recently used column. */
    LRU,
    /** Strata's own: one home column per key for the file; hot keys keep theirs alone. */
    STABLE,
    /**
     * Strata's default: keys never sharing a row of the sample share a column; keys meeting at
     * random each stay in a few candidate columns.
     */
    DISJOINT;

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

    public static String allowedValues() {
        return Arrays.stream(values())
                .map(PlacementPolicy::optionValue)
                .collect(Collectors.joining(", ", "[", "]"));
    }

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
