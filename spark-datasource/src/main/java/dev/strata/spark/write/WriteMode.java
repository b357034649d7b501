package dev.strata.spark.write;

import java.io.Serializable;
import java.util.Map;

/** Append, static overwrite of a partition spec (empty = whole table), or dynamic partition overwrite. */
final class WriteMode implements Serializable {

    private static final long serialVersionUID = 1L;

    private final boolean overwrite;
    private final boolean dynamic;
    private final Map<String, String> staticPartition;

    private WriteMode(boolean overwrite, boolean dynamic, Map<String, String> staticPartition) {
        this.overwrite = overwrite;
        this.dynamic = dynamic;
        this.staticPartition = staticPartition;
    }

    static WriteMode append() {
        return new WriteMode(false, false, Map.of());
    }

    static WriteMode staticOverwrite(Map<String, String> partition) {
        return new WriteMode(true, false, Map.copyOf(partition));
    }

    static WriteMode dynamicOverwrite() {
        return new WriteMode(true, true, Map.of());
    }

    boolean overwrite() {
        return overwrite;
    }

    boolean dynamic() {
        return dynamic;
    }

    Map<String, String> staticPartition() {
        return staticPartition;
    }

    @Override
    public String toString() {
        if (!overwrite) {
            return "append";
        }
        return dynamic ? "overwrite dynamic partitions" : "overwrite " + (staticPartition.isEmpty() ? "table" : staticPartition);
    }
}
