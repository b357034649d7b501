package dev.strata.spark.read;

import java.io.Serializable;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.source.ReadBuilder;

/**
 * The Paimon read builders of one scan, one per {@link SplitReadMode}, built where first needed.
 *
 * <p>Why not ready-made builders: each mode reads a copy of the table with its own reader options,
 * and Spark deserializes the reader factory once per task; three serialized table copies made a
 * task's deserialization 3-14 ms in the map-pushdown benchmark, as long as its actual reading. This
 * holds the table once with each mode's option overrides (null: the table as it is) and builds on
 * first use, and a task on the columnar path never builds one. The table itself travels as its
 * location, file system and schema (1.6 KB instead of 38 KB for the benchmark's table; the schema
 * carries the scan's options) and is recreated by Paimon's {@link FileStoreTableFactory} on first
 * use. The schema is the one the scan reads (an older snapshot's for VERSION AS OF) without the
 * options that chose the snapshot: the splits are planned already, and Paimon would travel again
 * from the recreated table, checking the current schema's options against the old fields.
 */
final class SplitReaders implements Serializable {

    private static final long serialVersionUID = 1L;

    private transient FileStoreTable table;
    private final FileIO fileIO;
    private final String location;
    private final TableSchema schema;
    private final EnumMap<SplitReadMode, Map<String, String>> options;
    private final List<Predicate> predicates;
    private final int[] projection;
    private final Integer limit;
    private transient EnumMap<SplitReadMode, ReadBuilder> built;

    SplitReaders(
            FileStoreTable table,
            Map<SplitReadMode, Map<String, String>> options,
            List<Predicate> predicates,
            int[] projection,
            Integer limit) {
        this.table = table;
        this.fileIO = table.fileIO();
        this.location = table.location().toString();
        this.schema = withoutTimeTravel(table.schema());
        this.options = new EnumMap<>(options);
        this.predicates = List.copyOf(predicates);
        this.projection = projection.clone();
        this.limit = limit;
    }

    private static final List<String> TIME_TRAVEL =
            List.of(
                    CoreOptions.SCAN_MODE.key(),
                    CoreOptions.SCAN_SNAPSHOT_ID.key(),
                    CoreOptions.SCAN_TAG_NAME.key(),
                    CoreOptions.SCAN_VERSION.key(),
                    CoreOptions.SCAN_TIMESTAMP_MILLIS.key(),
                    CoreOptions.SCAN_TIMESTAMP.key(),
                    CoreOptions.SCAN_WATERMARK.key());

    private static TableSchema withoutTimeTravel(TableSchema schema) {
        Map<String, String> options = new HashMap<>(schema.options());
        if (!options.keySet().removeAll(TIME_TRAVEL)) {
            return schema;
        }
        return schema.copy(options);
    }

    /** The table (recreated from its location and schema on first use in an executor). */
    synchronized FileStoreTable table() {
        if (table == null) {
            table = FileStoreTableFactory.create(fileIO, new Path(location), schema);
        }
        return table;
    }

    /** The table's file system. */
    FileIO fileIO() {
        return fileIO;
    }

    Set<SplitReadMode> modes() {
        return options.keySet();
    }

    /** The builder of a mode; null when the scan prepared none for it. */
    synchronized ReadBuilder get(SplitReadMode mode) {
        if (!options.containsKey(mode)) {
            return null;
        }
        if (built == null) {
            built = new EnumMap<>(SplitReadMode.class);
        }
        return built.computeIfAbsent(
                mode,
                m -> {
                    Map<String, String> o = options.get(m);
                    FileStoreTable table = table();
                    // The scan chose the schema (the table's, or a VERSION AS OF's): the mode's
                    // options must not travel again.
                    ReadBuilder builder =
                            (o == null ? table : table.copyWithoutTimeTravel(o)).newReadBuilder();
                    if (!predicates.isEmpty()) {
                        builder = builder.withFilter(PredicateBuilder.and(predicates));
                    }
                    // Paimon cannot read zero columns; read the first one and emit rows with no
                    // fields.
                    builder =
                            builder.withProjection(
                                    projection.length == 0 ? new int[] {0} : projection);
                    return limit == null ? builder : builder.withLimit(limit);
                });
    }
}
