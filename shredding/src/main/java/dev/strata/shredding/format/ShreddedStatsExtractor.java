package dev.strata.shredding.format;

import dev.strata.shredding.parquet.PaimonFiles;
import java.io.IOException;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.format.SimpleColStats;
import org.apache.paimon.format.SimpleStatsExtractor;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.statistics.SimpleColStatsCollector;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.Pair;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;

/**
 * Per logical column statistics for Paimon's file skipping, taken from the Parquet footer: min, max
 * and null count for top-level primitive columns; nothing for MAP (shredded or not), ARRAY and ROW
 * columns and for BINARY values. The table's stats mode is applied through Paimon's collectors.
 */
final class ShreddedStatsExtractor implements SimpleStatsExtractor {

    private final RowType rowType;
    private final SimpleColStatsCollector.Factory[] collectors;

    ShreddedStatsExtractor(RowType rowType, SimpleColStatsCollector.Factory[] collectors) {
        this.rowType = rowType;
        this.collectors = collectors;
    }

    @Override
    public SimpleColStats[] extract(FileIO fileIO, Path path, long length) throws IOException {
        return extractWithFileInfo(fileIO, path, length).getLeft();
    }

    @Override
    public Pair<SimpleColStats[], FileInfo> extractWithFileInfo(
            FileIO fileIO, Path path, long length) throws IOException {
        ParquetMetadata footer;
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(fileIO, path, length), PaimonFiles.readOptions())) {
            footer = reader.getFooter();
        }
        List<BlockMetaData> blocks = footer.getBlocks();
        long rows = 0;
        for (BlockMetaData b : blocks) {
            rows += b.getRowCount();
        }
        SimpleColStatsCollector[] cs = SimpleColStatsCollector.create(collectors);
        SimpleColStats[] out = new SimpleColStats[rowType.getFieldCount()];
        for (int i = 0; i < out.length; i++) {
            DataField f = rowType.getFields().get(i);
            SimpleColStats s = columnStats(f, blocks, rows);
            out[i] = cs[i].convert(s);
        }
        return Pair.of(out, new FileInfo(rows));
    }

    private static SimpleColStats columnStats(DataField f, List<BlockMetaData> blocks, long rows) {
        switch (f.type().getTypeRoot()) {
            case MAP:
            case ARRAY:
            case ROW:
            case MULTISET:
                return new SimpleColStats(null, null, null);
            default:
                break;
        }
        ColumnPath path = ColumnPath.get(f.name());
        Statistics<?> merged = null;
        long nulls = 0;
        boolean nullsKnown = true;
        for (BlockMetaData b : blocks) {
            ColumnChunkMetaData chunk = null;
            for (ColumnChunkMetaData c : b.getColumns()) {
                if (c.getPath().equals(path)) {
                    chunk = c;
                    break;
                }
            }
            if (chunk == null || chunk.getStatistics() == null) {
                return new SimpleColStats(null, null, null);
            }
            Statistics<?> st = chunk.getStatistics();
            if (st.isNumNullsSet()) {
                nulls += st.getNumNulls();
            } else {
                nullsKnown = false;
            }
            if (merged == null) {
                merged = st.copy();
            } else {
                merged.mergeStatistics(st);
            }
        }
        Long nullCount = nullsKnown ? nulls : null;
        if (merged == null || !merged.hasNonNullValue()) {
            return new SimpleColStats(null, null, blocks.isEmpty() ? Long.valueOf(0) : nullCount);
        }
        LogicalTypeAnnotation a = merged.type().getLogicalTypeAnnotation();
        Object min = convert(f.type(), merged.genericGetMin(), a);
        Object max = convert(f.type(), merged.genericGetMax(), a);
        if (min == null || max == null) {
            return new SimpleColStats(null, null, nullCount);
        }
        return new SimpleColStats(min, max, nullCount);
    }

    private static Object convert(DataType type, Object v, LogicalTypeAnnotation a) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return v;
            case TINYINT:
                return (byte) (int) (Integer) v;
            case SMALLINT:
                return (short) (int) (Integer) v;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return v;
            case BIGINT:
                return v;
            case FLOAT:
            case DOUBLE:
                {
                    double d = ((Number) v).doubleValue();
                    if (Double.isNaN(d)) {
                        return null;
                    }
                    return v;
                }
            case CHAR:
            case VARCHAR:
                return BinaryString.fromBytes(((Binary) v).getBytes());
            case DECIMAL:
                {
                    DecimalType d = (DecimalType) type;
                    if (v instanceof Binary) {
                        return Decimal.fromUnscaledBytes(
                                ((Binary) v).getBytes(), d.getPrecision(), d.getScale());
                    }
                    return Decimal.fromUnscaledLong(
                            ((Number) v).longValue(), d.getPrecision(), d.getScale());
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                {
                    long x = (Long) v;
                    LogicalTypeAnnotation.TimeUnit unit =
                            ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) a).getUnit();
                    switch (unit) {
                        case MILLIS:
                            return Timestamp.fromEpochMillis(x);
                        case MICROS:
                            return Timestamp.fromMicros(x);
                        default:
                            return Timestamp.fromEpochMillis(
                                    Math.floorDiv(x, 1_000_000L),
                                    (int) Math.floorMod(x, 1_000_000L));
                    }
                }
            default:
                return null;
        }
    }
}
