package dev.strata.spark.read;

import java.util.List;
import java.util.stream.Collectors;

import dev.strata.spark.data.SparkTypes;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/** A configured Strata scan: what it reads, and how it describes itself in EXPLAIN. */
final class StrataScan implements Scan {

    private final String tableName;
    private final FileStoreTable table;
    private final int[] projection;
    private final List<Predicate> predicates;
    private final List<org.apache.spark.sql.connector.expressions.filter.Predicate> pushed;
    private final Integer limit;
    private final RowType readType;

    StrataScan(
            String tableName,
            FileStoreTable table,
            int[] projection,
            List<Predicate> predicates,
            List<org.apache.spark.sql.connector.expressions.filter.Predicate> pushed,
            Integer limit) {
        this.tableName = tableName;
        this.table = table;
        this.projection = projection;
        this.predicates = List.copyOf(predicates);
        this.pushed = List.copyOf(pushed);
        this.limit = limit;
        this.readType = table.rowType().project(projection);
    }

    @Override
    public StructType readSchema() {
        return SparkTypes.toSpark(readType);
    }

    @Override
    public String description() {
        StringBuilder sb = new StringBuilder(tableName);
        sb.append(" [PushedPredicates: [")
                .append(pushed.stream().map(Object::toString).collect(Collectors.joining(", ")))
                .append("]");
        if (limit != null) {
            sb.append(", PushedLimit: ").append(limit);
        }
        String snapshot = table.options().get("scan.snapshot-id");
        if (snapshot != null) {
            sb.append(", Snapshot: ").append(snapshot);
        }
        return sb.append("]").toString();
    }

    @Override
    public Batch toBatch() {
        ReadBuilder readBuilder = table.newReadBuilder();
        if (!predicates.isEmpty()) {
            readBuilder = readBuilder.withFilter(PredicateBuilder.and(predicates));
        }
        // Paimon cannot read zero columns; read the first one and emit rows with no fields.
        int[] physical = projection.length == 0 ? new int[] {0} : projection;
        readBuilder = readBuilder.withProjection(physical);
        if (limit != null) {
            readBuilder = readBuilder.withLimit(limit);
        }
        return new StrataBatch(tableName, readBuilder, readType);
    }
}
