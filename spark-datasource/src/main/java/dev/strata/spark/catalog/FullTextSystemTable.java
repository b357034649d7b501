package dev.strata.spark.catalog;

import dev.strata.index.ArchiveLevelState;
import dev.strata.index.PkFullTextIndex;
import dev.strata.index.PkFullTextSearcher;
import dev.strata.spark.errors.StrataErrors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code t$fulltext}: the archive state of every (partition, bucket, level) of the latest snapshot,
 * classified as {@code full_text_search} does; {@code rows_not_covered} is what a search indexes at
 * query time.
 */
public final class FullTextSystemTable {

    public static final String SUFFIX = "fulltext";

    static final StructType SCHEMA =
            new StructType()
                    .add("partition", DataTypes.StringType, false)
                    .add("bucket", DataTypes.IntegerType, false)
                    .add("level", DataTypes.IntegerType, false)
                    .add("archive", DataTypes.StringType, true)
                    .add("state", DataTypes.StringType, false)
                    .add("source_files", DataTypes.IntegerType, false)
                    .add("rows", DataTypes.LongType, false)
                    .add("archive_bytes", DataTypes.LongType, true)
                    .add("rows_not_covered", DataTypes.LongType, false);

    private FullTextSystemTable() {}

    /** Refused without a full-text index. */
    public static Table of(String systemTableName, String tableName, FileStoreTable table) {
        if (!PkFullTextIndex.isEnabled(table)) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot read %s: table %s has no primary-key full-text index (option '%s' is not set). Set it "
                                    + "with ALTER TABLE %s SET TBLPROPERTIES ('%s' = '<text column>'), or query another table.",
                            systemTableName,
                            tableName,
                            PkFullTextIndex.COLUMNS_OPTION,
                            tableName,
                            PkFullTextIndex.COLUMNS_OPTION));
        }
        return new DriverSystemTable(
                systemTableName,
                SCHEMA,
                required -> {
                    try {
                        return rows(table);
                    } catch (RuntimeException e) {
                        throw TableDiagnosis.explain(
                                tableName, table, "read " + systemTableName + " of", e);
                    }
                });
    }

    private static List<Object[]> rows(FileStoreTable table) {
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        if (snapshot == null) {
            return List.of();
        }
        RowType partitionType = table.rowType().project(table.partitionKeys());
        Map<String, Map.Entry<BinaryRow, Integer>> buckets = new LinkedHashMap<>();
        for (DataSplit split :
                table.newSnapshotReader().withSnapshot(snapshot.id()).read().dataSplits()) {
            BinaryRow partition = split.partition().copy();
            buckets.putIfAbsent(
                    PartitionSelector.describe(partitionType, partition)
                            + "\u0000"
                            + split.bucket(),
                    Map.entry(partition, split.bucket()));
        }
        List<Map.Entry<BinaryRow, Integer>> ordered = new ArrayList<>(buckets.values());
        ordered.sort(
                Comparator.comparing(
                                (Map.Entry<BinaryRow, Integer> b) ->
                                        PartitionSelector.describe(partitionType, b.getKey()))
                        .thenComparingInt(Map.Entry::getValue));
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        List<Object[]> rows = new ArrayList<>();
        for (Map.Entry<BinaryRow, Integer> bucket : ordered) {
            UTF8String partition =
                    UTF8String.fromString(
                            PartitionSelector.describe(partitionType, bucket.getKey()));
            for (ArchiveLevelState level :
                    searcher.levelStates(snapshot.id(), bucket.getKey(), bucket.getValue())) {
                rows.add(
                        new Object[] {
                            partition,
                            bucket.getValue(),
                            level.level(),
                            level.archive() == null ? null : UTF8String.fromString(level.archive()),
                            UTF8String.fromString(level.state()),
                            level.sourceFiles(),
                            level.rows(),
                            level.archiveBytes(),
                            level.rowsNotCovered()
                        });
            }
        }
        return rows;
    }
}
