package dev.strata.spark.read;

import org.apache.paimon.table.source.Split;
import org.apache.spark.sql.connector.read.InputPartition;

/** One Paimon split, read by one Spark task, with how much of the map pushdown it may use. */
final class StrataInputPartition implements InputPartition {

    private static final long serialVersionUID = 1L;

    private final Split split;
    private final SplitReadMode mode;

    StrataInputPartition(Split split, SplitReadMode mode) {
        this.split = split;
        this.mode = mode;
    }

    Split split() {
        return split;
    }

    SplitReadMode mode() {
        return mode;
    }
}
