package dev.strata.spark.read;

import org.apache.paimon.table.source.Split;
import org.apache.spark.sql.connector.read.InputPartition;

/** One Paimon split, read by one Spark task. */
final class StrataInputPartition implements InputPartition {

    private static final long serialVersionUID = 1L;

    private final Split split;

    StrataInputPartition(Split split) {
        this.split = split;
    }

    Split split() {
        return split;
    }
}
