package dev.strata.shredding.format;

import dev.strata.shredding.ShreddedReadHandover;
import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.parquet.PageChecksums;
import dev.strata.shredding.parquet.ParquetSchemas;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FileFormatFactory;
import org.apache.paimon.format.FormatReaderFactory;
import org.apache.paimon.format.FormatWriterFactory;
import org.apache.paimon.format.SimpleStatsExtractor;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.statistics.SimpleColStatsCollector;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;

/**
 * The shredded part of {@link StrataParquetFileFormat}: writes Parquet with the shared-shredding
 * layout for the table's shared-shredding MAP columns and plain Parquet for every other column.
 * Reads honour the {@link ShreddedReadHandover} dynamic options. Paimon's own value filters are not
 * applied here (Paimon filters by file statistics, and readers above re-check rows).
 */
final class ShreddedFileFormat extends FileFormat {

    private final Map<String, String> options;
    private final long rowGroupBytes;
    private final int readBatchSize;
    private final int zstdLevel;

    ShreddedFileFormat(FileFormatFactory.FormatContext context) {
        super(CoreOptions.FILE_FORMAT_PARQUET);
        this.options = context.options().toMap();
        this.rowGroupBytes =
                context.blockSize() != null ? context.blockSize().getBytes() : 128L * 1024 * 1024;
        this.readBatchSize = Math.max(1, context.readBatchSize());
        this.zstdLevel = context.zstdLevel();
    }

    @Override
    public FormatReaderFactory createReaderFactory(
            RowType dataSchemaRowType, RowType projectedRowType, List<Predicate> filters) {
        return new ShreddedReaderFactory(
                dataSchemaRowType,
                projectedRowType,
                ShreddedReadHandover.decode(options),
                readBatchSize,
                PageChecksums.verifyEnabled(options));
    }

    @Override
    public FormatWriterFactory createWriterFactory(RowType type) {
        String table = options.getOrDefault(CoreOptions.PATH.key(), "table");
        return new ShreddedWriterFactory(
                type,
                ShreddingOptions.shreddedColumns(type, options),
                rowGroupBytes,
                options.get(CoreOptions.PATH.key()),
                zstdLevel,
                ShreddingOptions.byteStreamSplit(table, options),
                ShreddingOptions.maxSegments(table, options));
    }

    @Override
    public void validateDataFields(RowType rowType) {
        for (DataField f : rowType.getFields()) {
            ParquetSchemas.checkSupported(f.name(), f.type());
        }
    }

    @Override
    public Optional<SimpleStatsExtractor> createStatsExtractor(
            RowType type, SimpleColStatsCollector.Factory[] statsCollectors) {
        return Optional.of(new ShreddedStatsExtractor(type, statsCollectors));
    }
}
