package dev.strata.spark.table;

import dev.strata.spark.catalog.TableDefinitionChecks;
import dev.strata.spark.errors.StrataErrors;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.internal.SQLConf;

/**
 * Spark's per-statement options as Paimon dynamic options. Options that change how rows are stored
 * or merged (bucket count, deletion vectors, merge engine) would corrupt writes and mislead reads,
 * so they are refused in favour of ALTER TABLE.
 */
final class DynamicOptions {

    /** Exact keys, or prefixes ending in '.'. */
    private static final List<String> READ =
            List.of("scan.", "incremental-between", "source.split.", "read.batch-size");

    private static final List<String> WRITE =
            List.of(
                    "write-only",
                    "target-file-size",
                    "write-buffer-size",
                    "write-buffer-spillable",
                    "file.compression",
                    "file.compression.zstd-level",
                    "num-sorted-run.",
                    "compaction.",
                    "snapshot.num-retained.",
                    "snapshot.time-retained");

    private DynamicOptions() {}

    /** Paimon's options that choose the snapshot or snapshots a read answers from. */
    private static final List<String> SNAPSHOT_CHOICES =
            List.of(
                    CoreOptions.SCAN_SNAPSHOT_ID.key(),
                    CoreOptions.SCAN_TAG_NAME.key(),
                    CoreOptions.SCAN_VERSION.key(),
                    CoreOptions.SCAN_TIMESTAMP.key(),
                    CoreOptions.SCAN_TIMESTAMP_MILLIS.key(),
                    CoreOptions.SCAN_WATERMARK.key(),
                    CoreOptions.SCAN_MODE.key(),
                    CoreOptions.INCREMENTAL_BETWEEN.key(),
                    CoreOptions.INCREMENTAL_BETWEEN_TIMESTAMP.key(),
                    CoreOptions.INCREMENTAL_TO_AUTO_TAG.key());

    /** The options of {@code options} that choose which snapshot a read sees. */
    static Map<String, String> snapshotChoice(Map<String, String> options) {
        Map<String, String> choice = new TreeMap<>();
        for (String key : SNAPSHOT_CHOICES) {
            String value = options.get(key);
            if (value != null) {
                choice.put(key, value);
            }
        }
        return choice;
    }

    static FileStoreTable forRead(
            String name, FileStoreTable table, Map<String, String> sparkOptions) {
        Map<String, String> options = withoutSparkTimeTravel(name, sparkOptions);
        if (options.isEmpty()) {
            return table;
        }
        FileStoreTable read = copy("read " + name, table, options, READ);
        CoreOptions.StartupMode mode = read.coreOptions().startupMode();
        if (!read.primaryKeys().isEmpty()
                && (mode == CoreOptions.StartupMode.INCREMENTAL
                        || mode == CoreOptions.StartupMode.FROM_FILE_CREATION_TIME
                        || mode == CoreOptions.StartupMode.FROM_CREATION_TIMESTAMP)) {
            // These read some of a bucket's files, which Strata's primary-key reads merge whole.
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot read primary-key table %s with the options %s: Strata reads a "
                                    + "primary-key table as of one snapshot, not the changes between "
                                    + "snapshots or the files written since a time. Compare two "
                                    + "snapshots instead: SELECT * FROM %s VERSION AS OF <new> EXCEPT "
                                    + "SELECT * FROM %s VERSION AS OF <old>.",
                            name, new TreeMap<>(options), name, name));
        }
        return read;
    }

    /**
     * The options without Spark's own time-travel keys ({@code versionAsOf}, {@code timestampAsOf}
     * or what {@code spark.sql.timeTravelVersionKey} / {@code TimestampKey} name): Spark has loaded
     * the table at that version already, and passes the keys on to the scan as well.
     */
    private static Map<String, String> withoutSparkTimeTravel(
            String name, Map<String, String> options) {
        SQLConf conf = SQLConf.get();
        List<String> sparkKeys =
                List.of(
                        conf.getConfString("spark.sql.timeTravelVersionKey", "versionAsOf"),
                        conf.getConfString("spark.sql.timeTravelTimestampKey", "timestampAsOf"));
        Map<String, String> rest = new LinkedHashMap<>();
        String sparkKey = null;
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (sparkKeys.stream().anyMatch(k -> k.equalsIgnoreCase(e.getKey()))) {
                sparkKey = e.getKey();
            } else {
                rest.put(e.getKey(), e.getValue());
            }
        }
        if (sparkKey != null) {
            for (Map.Entry<String, String> e : rest.entrySet()) {
                if (SNAPSHOT_CHOICES.contains(e.getKey())) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Cannot read %s with the options '%s' = '%s' and '%s' = '%s':"
                                            + " both choose the snapshot to read. Keep one of them.",
                                    name,
                                    sparkKey,
                                    options.get(sparkKey),
                                    e.getKey(),
                                    e.getValue()));
                }
            }
        }
        return rest;
    }

    static FileStoreTable forWrite(String name, FileStoreTable table, Map<String, String> options) {
        if (options.isEmpty()) {
            return table;
        }
        FileStoreTable write = copy("write to " + name, table, options, WRITE);
        try {
            TableDefinitionChecks.checkAlter(name, write.schema(), table.schema());
        } catch (RuntimeException e) {
            throw refused("write to " + name, options, StrataErrors.rootMessage(e), e);
        }
        return write;
    }

    private static FileStoreTable copy(
            String doing, FileStoreTable table, Map<String, String> options, List<String> allowed) {
        for (String key : options.keySet()) {
            if (key.equals(CoreOptions.BRANCH.key())
                    && !options.get(key).equals(table.options().get(key))) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot %s with the option 'branch' = '%s': Strata reads and writes a"
                                        + " branch as a table of its own. Name it instead: `%s$branch_%s`"
                                        + " in the same namespace.",
                                doing, options.get(key), table.name(), options.get(key)));
            }
            if (allowed.stream().noneMatch(a -> a.endsWith(".") ? key.startsWith(a) : key.equals(a))
                    && !options.get(key).equals(table.options().get(key))) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot %s with the option '%s' = '%s': a statement may set only "
                                        + "options that choose what it reads or how it writes files "
                                        + "(%s); this one changes how the table stores or merges its "
                                        + "rows. Change it with ALTER TABLE ... SET TBLPROPERTIES if "
                                        + "Paimon allows.",
                                doing, key, options.get(key), String.join(", ", allowed)));
            }
        }
        try {
            // Spark resolved the current columns; Paimon maps older files into them by field id.
            return table.copyWithoutTimeTravel(new HashMap<>(options));
        } catch (RuntimeException e) {
            throw refused(doing, options, StrataErrors.rootMessage(e), e);
        }
    }

    private static IllegalArgumentException refused(
            String doing, Map<String, String> options, String why, RuntimeException cause) {
        return new IllegalArgumentException(
                String.format(
                        "Cannot %s with the options %s: %s. Check the options against Paimon's "
                                + "table options.",
                        doing, new TreeMap<>(options), why.replaceAll("\\.+$", "")),
                cause);
    }
}
