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
 * The Paimon read builders of one scan, one per {@link SplitReadMode}, built on first use: Spark
 * deserializes the reader factory per task, and serialized table copies are costly. The table
 * travels as location, file system and schema and is recreated by {@link FileStoreTableFactory}.
 * The schema is the scan's without the options that chose the snapshot: splits are planned, and
 * Paimon would otherwise travel again and check current options against old fields.
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

    /** Recreated on first use in an executor. */
    synchronized FileStoreTable table() {
        if (table == null) {
            table = FileStoreTableFactory.create(fileIO, new Path(location), schema);
        }
        return table;
    }

    FileIO fileIO() {
        return fileIO;
    }

    Set<SplitReadMode> modes() {
        return options.keySet();
    }

    /** Null when the scan prepared none for the mode. */
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
                    // The scan chose the schema: the mode's options must not travel again.
                    ReadBuilder builder =
                            (o == null ? table : table.copyWithoutTimeTravel(o)).newReadBuilder();
                    if (!predicates.isEmpty()) {
                        builder = builder.withFilter(PredicateBuilder.and(predicates));
                    }
                    // Paimon cannot read zero columns: read one, emit rows with no fields.
                    builder =
                            builder.withProjection(
                                    projection.length == 0 ? new int[] {0} : projection);
                    return limit == null ? builder : builder.withLimit(limit);
                });
    }
}
