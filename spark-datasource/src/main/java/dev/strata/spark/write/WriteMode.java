package dev.strata.spark.write;

import java.io.Serializable;
import java.util.Map;

/**
 * Append, static overwrite of a partition spec (empty = whole table), dynamic partition overwrite,
 * or the changes of a row-level DELETE, UPDATE or MERGE statement (inserts, updates and deletes by
 * primary key).
 */
final class WriteMode implements Serializable {

    private static final long serialVersionUID = 1L;

    private final boolean overwrite;
    private final boolean dynamic;
    private final Map<String, String> staticPartition;
    private final String statement;

    private WriteMode(
            boolean overwrite,
            boolean dynamic,
            Map<String, String> staticPartition,
            String statement) {
        this.overwrite = overwrite;
        this.dynamic = dynamic;
        this.staticPartition = staticPartition;
        this.statement = statement;
    }

    static WriteMode append() {
        return new WriteMode(false, false, Map.of(), null);
    }

    static WriteMode staticOverwrite(Map<String, String> partition) {
        return new WriteMode(true, false, Map.copyOf(partition), null);
    }

    static WriteMode dynamicOverwrite() {
        return new WriteMode(true, true, Map.of(), null);
    }

    static WriteMode rowLevel(String statement) {
        return new WriteMode(false, false, Map.of(), statement);
    }

    boolean overwrite() {
        return overwrite;
    }

    boolean dynamic() {
        return dynamic;
    }

    boolean rowLevel() {
        return statement != null;
    }

    Map<String, String> staticPartition() {
        return staticPartition;
    }

    @Override
    public String toString() {
        if (statement != null) {
            return statement;
        }
        if (!overwrite) {
            return "append";
        }
        return dynamic
                ? "overwrite dynamic partitions"
                : "overwrite " + (staticPartition.isEmpty() ? "table" : staticPartition);
    }
}
