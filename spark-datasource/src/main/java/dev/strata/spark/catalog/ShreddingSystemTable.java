package dev.strata.spark.catalog;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.format.FieldNames;
import dev.strata.shredding.layout.ArrowSchemaFooter;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedFooters;
import dev.strata.spark.errors.StrataErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.types.RowType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code t$shredding}: one row per (data file of the latest snapshot, shredded MAP column), with
 * the file's layout of the column and its footer's shredding metadata and sizes. Reads only
 * footers, and none when the query uses only manifest columns.
 */
public final class ShreddingSystemTable {

    public static final String SUFFIX = "shredding";

    static final String SHARED = ShreddingOptions.LAYOUT_SHARED;

    /** Paimon's plain MAP (written before the option was set). */
    static final String DEFAULT = ShreddingOptions.LAYOUT_DEFAULT;

    static final StructType SCHEMA =
            new StructType()
                    .add("partition", DataTypes.StringType, false)
                    .add("bucket", DataTypes.IntegerType, false)
                    .add("level", DataTypes.IntegerType, false)
                    .add("file", DataTypes.StringType, false)
                    .add("column", DataTypes.StringType, false)
                    .add("layout", DataTypes.StringType, true)
                    .add("k", DataTypes.IntegerType, true)
                    .add("keys", DataTypes.IntegerType, true)
                    .add("overflow_keys", DataTypes.IntegerType, true)
                    .add("rows", DataTypes.LongType, false)
                    .add("file_bytes", DataTypes.LongType, false)
                    .add("footer_bytes", DataTypes.LongType, true)
                    .add("arrow_schema_bytes", DataTypes.LongType, true)
                    .add("strata_footer_bytes", DataTypes.LongType, true);

    private static final Set<String> FOOTER_COLUMNS =
            Set.of(
                    "layout",
                    "k",
                    "keys",
                    "overflow_keys",
                    "footer_bytes",
                    "arrow_schema_bytes",
                    "strata_footer_bytes");

    private ShreddingSystemTable() {}

    /**
     * Refused when no column is shredded. A column set back to {@code default} is still listed: its
     * files stay shredded until compaction rewrites them, which this table shows.
     */
    public static Table of(String systemTableName, String tableName, FileStoreTable table) {
        // The option takes 'shared-shredding' or 'default' only (checked when set).
        List<String> columns = new ArrayList<>();
        for (org.apache.paimon.types.DataField field : table.rowType().getFields()) {
            if (field.type() instanceof org.apache.paimon.types.MapType
                    && table.options().containsKey(ShreddingOptions.layoutKey(field.name()))) {
                columns.add(field.name());
            }
        }
        if (columns.isEmpty()) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot read %s: no column of table %s is a shredded MAP (no option 'fields.<column>.%s' = '%s'). "
                                    + "Set it with ALTER TABLE %s SET TBLPROPERTIES ('fields.<column>.%s' = '%s'), or query "
                                    + "another table.",
                            systemTableName,
                            tableName,
                            ShreddingOptions.LAYOUT_SUFFIX,
                            SHARED,
                            tableName,
                            ShreddingOptions.LAYOUT_SUFFIX,
                            SHARED));
        }
        return new DriverSystemTable(
                systemTableName,
                SCHEMA,
                required -> {
                    try {
                        return rows(
                                table,
                                columns,
                                required.stream().anyMatch(FOOTER_COLUMNS::contains));
                    } catch (RuntimeException e) {
                        throw TableDiagnosis.explain(
                                tableName, table, "read " + systemTableName + " of", e);
                    }
                });
    }

    private static List<Object[]> rows(
            FileStoreTable table, List<String> columns, boolean readFooters) {
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        if (snapshot == null) {
            return List.of();
        }
        RowType partitionType = table.rowType().project(table.partitionKeys());
        FileIO fileIO = table.fileIO();
        List<Object[]> rows = new ArrayList<>();
        // Files written before a rename keep the column under its old name.
        Map<Long, Map<String, String>> storedNames = new HashMap<>();
        List<DataSplit> splits =
                new ArrayList<>(
                        table.newSnapshotReader().withSnapshot(snapshot.id()).read().dataSplits());
        splits.sort(
                Comparator.comparing(
                                (DataSplit s) ->
                                        PartitionSelector.describe(partitionType, s.partition()))
                        .thenComparingInt(DataSplit::bucket));
        for (DataSplit split : splits) {
            BinaryRow partitionRow = split.partition();
            UTF8String partition =
                    UTF8String.fromString(PartitionSelector.describe(partitionType, partitionRow));
            List<DataFileMeta> files = new ArrayList<>(split.dataFiles());
            files.sort(
                    Comparator.comparingInt(DataFileMeta::level)
                            .reversed()
                            .thenComparing(DataFileMeta::fileName));
            for (DataFileMeta file : files) {
                Path path =
                        table.store()
                                .pathFactory()
                                .createDataFilePathFactory(partitionRow, split.bucket())
                                .toPath(file);
                Footer footer =
                        readFooters && PaimonFiles.isParquet(file.fileFormat())
                                ? Footer.read(
                                        PaimonFiles.inputFile(fileIO, path, file.fileSize()),
                                        path.toString())
                                : null;
                for (String column : columns) {
                    Object[] row =
                            new Object[] {
                                partition,
                                split.bucket(),
                                file.level(),
                                UTF8String.fromString(file.fileName()),
                                UTF8String.fromString(column),
                                null,
                                null,
                                null,
                                null,
                                file.rowCount(),
                                file.fileSize(),
                                null,
                                null,
                                null
                            };
                    if (footer != null) {
                        String stored =
                                storedNames
                                        .computeIfAbsent(
                                                file.schemaId(),
                                                id ->
                                                        FieldNames.in(
                                                                table.schema().fields(),
                                                                table.schemaManager()
                                                                        .schema(id)
                                                                        .fields()))
                                        .get(column);
                        ShreddedColumnMeta meta = stored == null ? null : footer.metas.get(stored);
                        // NULL: written before the column was added.
                        row[5] =
                                stored == null
                                        ? null
                                        : UTF8String.fromString(meta == null ? DEFAULT : SHARED);
                        if (meta != null) {
                            row[6] = meta.numColumns();
                            row[7] = meta.keys().size();
                            row[8] = meta.overflowSet().cardinality();
                        }
                        row[11] = footer.footerBytes;
                        row[12] = footer.arrowSchemaBytes;
                        String strata =
                                stored == null
                                        ? null
                                        : footer.keyValues.get(ShreddingFooter.footerKey(stored));
                        row[13] =
                                strata == null
                                        ? null
                                        : (long) strata.getBytes(StandardCharsets.UTF_8).length;
                    } else if (readFooters) {
                        // Not a Parquet file: plain MAPs.
                        row[5] = UTF8String.fromString(DEFAULT);
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    private static final class Footer {
        final Map<String, ShreddedColumnMeta> metas;
        final Map<String, String> keyValues;
        final long footerBytes;
        final Long arrowSchemaBytes;

        private Footer(
                Map<String, ShreddedColumnMeta> metas,
                Map<String, String> keyValues,
                long footerBytes) {
            this.metas = metas;
            this.keyValues = keyValues;
            this.footerBytes = footerBytes;
            String arrow = keyValues.get(ArrowSchemaFooter.KEY);
            this.arrowSchemaBytes =
                    arrow == null ? null : (long) arrow.getBytes(StandardCharsets.UTF_8).length;
        }

        /**
         * The footer length comes from the file's last 8 bytes: a 4-byte little-endian length, then
         * the magic {@code PAR1}.
         */
        static Footer read(InputFile input, String file) {
            try {
                long footerBytes;
                try (SeekableInputStream in = input.newStream()) {
                    byte[] tail = new byte[8];
                    in.seek(input.getLength() - 8);
                    in.readFully(tail);
                    footerBytes =
                            (tail[0] & 0xffL)
                                    | (tail[1] & 0xffL) << 8
                                    | (tail[2] & 0xffL) << 16
                                    | (tail[3] & 0xffL) << 24;
                }
                ParquetMetadata footer;
                try (ParquetFileReader reader =
                        ParquetFileReader.open(input, PaimonFiles.readOptions(false))) {
                    footer = reader.getFooter();
                }
                return new Footer(
                        ShreddedFooters.decode(footer, file),
                        footer.getFileMetaData().getKeyValueMetaData(),
                        footerBytes);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot read the Parquet footer of "
                                + file
                                + ": "
                                + e.getMessage()
                                + ". The file is damaged or missing; restore it or rewrite the table from a good copy.",
                        e);
            }
        }
    }
}
