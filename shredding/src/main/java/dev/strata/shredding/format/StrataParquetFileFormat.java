package dev.strata.shredding.format;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.io.BufferedReads;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ParquetSchemas;
import dev.strata.shredding.parquet.ShreddedFooters;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FileFormatFactory;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatReaderFactory;
import org.apache.paimon.format.FormatWriterFactory;
import org.apache.paimon.format.SimpleStatsExtractor;
import org.apache.paimon.format.parquet.ParquetFileFormat;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.reader.FileRecordReader;
import org.apache.paimon.statistics.SimpleColStatsCollector;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.parquet.schema.Type;

/**
 * Paimon's {@code parquet} file format with Strata's shared-shredding layout ({@link
 * StrataParquetFileFormatFactory} registers it). Writes of a row type with shared-shredding MAP
 * columns (by the table options, whoever created the table) go to Strata's shredded writer, whose
 * files are Paimon's own shared-shredding Parquet files; every other write is Paimon's Parquet
 * writer. Reads that include a {@code MAP<STRING, V>} column look at each file's footer: a file
 * with a shredded column (written by Strata or by Paimon 2 / another engine) is read by Strata's
 * reader, any other file by Paimon's. Reads without such a column are Paimon's.
 */
final class StrataParquetFileFormat extends FileFormat {

    private final ParquetFileFormat paimon;
    private final ShreddedFileFormat shredded;
    private final Map<String, String> options;

    StrataParquetFileFormat(FileFormatFactory.FormatContext context) {
        super(CoreOptions.FILE_FORMAT_PARQUET);
        this.paimon = new ParquetFileFormat(context);
        this.shredded = new ShreddedFileFormat(context);
        this.options = context.options().toMap();
    }

    private boolean writesShredded(RowType type) {
        return !ShreddingOptions.shreddedColumns(type, options).isEmpty();
    }

    private static boolean mayReadShredded(RowType type) {
        for (DataField f : type.getFields()) {
            if (f.type() instanceof MapType
                    && ((MapType) f.type()).getKeyType().getTypeRoot() == DataTypeRoot.VARCHAR) {
                return true;
            }
        }
        return false;
    }

    @Override
    public FormatReaderFactory createReaderFactory(
            RowType dataSchemaRowType, RowType projectedRowType, List<Predicate> filters) {
        FormatReaderFactory plain =
                buffered(paimon.createReaderFactory(dataSchemaRowType, projectedRowType, filters));
        if (!mayReadShredded(projectedRowType)) {
            return plain;
        }
        FormatReaderFactory strata =
                shredded.createReaderFactory(dataSchemaRowType, projectedRowType, filters);
        return new FormatReaderFactory() {
            @Override
            public FileRecordReader<InternalRow> createReader(Context context) throws IOException {
                return hasShreddedColumn(context)
                        ? strata.createReader(context)
                        : plain.createReader(context);
            }

            @Override
            public FileRecordReader<InternalRow> createReader(
                    Context context, long offset, long length) throws IOException {
                return hasShreddedColumn(context)
                        ? strata.createReader(context, offset, length)
                        : plain.createReader(context, offset, length);
            }
        };
    }

    /** {@code factory} opening each file through {@link BufferedReads}. */
    private static FormatReaderFactory buffered(FormatReaderFactory factory) {
        return new FormatReaderFactory() {
            @Override
            public FileRecordReader<InternalRow> createReader(Context context) throws IOException {
                return factory.createReader(buffered(context));
            }

            @Override
            public FileRecordReader<InternalRow> createReader(
                    Context context, long offset, long length) throws IOException {
                return factory.createReader(buffered(context), offset, length);
            }
        };
    }

    private static FormatReaderFactory.Context buffered(FormatReaderFactory.Context context) {
        return new FormatReaderContext(
                BufferedReads.of(context.fileIO()),
                context.filePath(),
                context.fileSize(),
                context.selection());
    }

    /** Whether the file stores a shredded column (its footer is then kept in Strata's cache). */
    private static boolean hasShreddedColumn(FormatReaderFactory.Context context)
            throws IOException {
        String path = context.filePath().toString();
        ShreddedFooters.Opened opened =
                ShreddedFooters.open(
                        PaimonFiles.inputFile(
                                context.fileIO(), context.filePath(), context.fileSize()),
                        path,
                        false);
        try {
            for (Type t : opened.reader.getFooter().getFileMetaData().getSchema().getFields()) {
                if (ParquetSchemas.looksShredded(t)) {
                    return true;
                }
            }
            return false;
        } finally {
            opened.reader.close();
        }
    }

    @Override
    public FormatWriterFactory createWriterFactory(RowType type) {
        return writesShredded(type)
                ? shredded.createWriterFactory(type)
                : paimon.createWriterFactory(type);
    }

    @Override
    public void validateDataFields(RowType rowType) {
        if (writesShredded(rowType)) {
            shredded.validateDataFields(rowType);
        } else {
            paimon.validateDataFields(rowType);
        }
    }

    @Override
    public Optional<SimpleStatsExtractor> createStatsExtractor(
            RowType type, SimpleColStatsCollector.Factory[] statsCollectors) {
        return writesShredded(type)
                ? shredded.createStatsExtractor(type, statsCollectors)
                : paimon.createStatsExtractor(type, statsCollectors);
    }
}
