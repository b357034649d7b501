package dev.strata.spark.read;

import dev.strata.index.DeletionVectorChecksums;
import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.parquet.PaimonFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.RawFile;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Opens a Paimon reader for a split on an executor, configured for the split's {@link
 * SplitReadMode}.
 */
final class StrataReaderFactory implements PartitionReaderFactory {

    private static final long serialVersionUID = 1L;
    private static final int BATCH_ROWS = 4096;

    private final String tableName;
    private final SplitReaders readers;
    private final RowType readType;
    private final KeyColumns keyColumns;
    private final ColumnarPlan columnar;
    private final ExactTextMatch exact;

    StrataReaderFactory(
            String tableName,
            SplitReaders readers,
            RowType readType,
            KeyColumns keyColumns,
            ColumnarPlan columnar,
            ExactTextMatch exact) {
        this.tableName = tableName;
        this.readers = readers;
        this.readType = readType;
        this.keyColumns = keyColumns;
        this.columnar = columnar;
        this.exact = exact;
    }

    /**
     * Matches rows an exact scan reads other than by position; {@code readType} has the text column
     * appended when the scan does not return it.
     */
    static final class ExactTextMatch implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        final RowType readType;
        final int textOrdinal;
        final List<dev.strata.index.search.TextMatcher> matchers;

        ExactTextMatch(
                RowType readType,
                int textOrdinal,
                List<dev.strata.index.search.TextMatcher> matchers) {
            this.readType = readType;
            this.textOrdinal = textOrdinal;
            this.matchers = List.copyOf(matchers);
        }
    }

    /** Null when the scan reads rows. */
    static final class ColumnarPlan implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        final FileIO fileIO;
        final long schemaId;
        final MapPushdown pushdown;
        final boolean verifyPages;

        ColumnarPlan(FileIO fileIO, long schemaId, MapPushdown pushdown, boolean verifyPages) {
            this.fileIO = fileIO;
            this.schemaId = schemaId;
            this.pushdown = pushdown;
            this.verifyPages = verifyPages;
        }
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return columnar != null;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        StrataInputPartition input = (StrataInputPartition) partition;
        Split split = input.split();
        return open(
                split,
                metrics -> {
                    if (split instanceof DataSplit
                            && input.mode() == SplitReadMode.PRUNING
                            && ((DataSplit) split)
                                    .deletionFiles()
                                    .map(l -> l.stream().allMatch(java.util.Objects::isNull))
                                    .orElse(true)) {
                        Optional<List<RawFile>> raw = ((DataSplit) split).convertToRawFiles();
                        if (raw.isPresent()
                                && raw.get().stream()
                                        .allMatch(
                                                f ->
                                                        PaimonFiles.isParquet(f.format())
                                                                && f.schemaId()
                                                                        == columnar.schemaId)) {
                            PartitionReader<ColumnarBatch> vectorized =
                                    ShreddedColumnarReader.open(
                                            columnar.fileIO,
                                            raw.get(),
                                            keyColumns,
                                            columnar.pushdown.selectedKeys(),
                                            columnar.pushdown.predicate(),
                                            columnar.verifyPages,
                                            BATCH_ROWS,
                                            metrics);
                            if (vectorized != null) {
                                return diagnosed(split, vectorized);
                            }
                        }
                    }
                    return diagnosed(
                            split,
                            new RowsToColumns(
                                    builder(input.mode()).newRead().createReader(split),
                                    keyColumns,
                                    BATCH_ROWS,
                                    metrics));
                });
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        if (partition instanceof TextMatchInputPartition) {
            TextMatchInputPartition matched = (TextMatchInputPartition) partition;
            PartitionReader<InternalRow> rest =
                    matched.rest == null
                            ? null
                            : createReader(
                                    new StrataInputPartition(matched.rest, matched.restMode));
            return new TextMatchReader(tableName, readers::table, matched, readType, rest);
        }
        StrataInputPartition input = (StrataInputPartition) partition;
        if (exact != null) {
            return new TextMatchFilter(
                    open(
                            input.split(),
                            metrics ->
                                    diagnosed(
                                            input.split(),
                                            new StrataRowReader(
                                                    builder(input.mode())
                                                            .newRead()
                                                            .createReader(input.split()),
                                                    KeyColumns.none(exact.readType),
                                                    metrics))),
                    exact.textOrdinal,
                    exact.matchers,
                    readType.getFieldCount());
        }
        return open(
                input.split(),
                metrics ->
                        diagnosed(
                                input.split(),
                                new StrataRowReader(
                                        builder(input.mode()).newRead().createReader(input.split()),
                                        keyColumns,
                                        metrics)));
    }

    /** Failures name the damaged data file ({@link SplitFailures}). */
    private <T> PartitionReader<T> diagnosed(Split split, PartitionReader<T> reader) {
        return new PartitionReader<T>() {
            @Override
            public boolean next() throws IOException {
                try {
                    return reader.next();
                } catch (IOException | RuntimeException e) {
                    throw SplitFailures.explain(tableName, readers.fileIO(), split, e);
                }
            }

            @Override
            public T get() {
                return reader.get();
            }

            @Override
            public org.apache.spark.sql.connector.metric.CustomTaskMetric[] currentMetricsValues() {
                return reader.currentMetricsValues();
            }

            @Override
            public void close() throws IOException {
                reader.close();
            }
        };
    }

    private ReadBuilder builder(SplitReadMode mode) {
        ReadBuilder builder = readers.get(mode);
        if (builder == null) {
            throw new IllegalStateException(
                    "Cannot open split of "
                            + tableName
                            + ": no reader was prepared for mode "
                            + mode
                            + " (prepared: "
                            + readers.modes()
                            + "). This is a bug in the Strata scan.");
        }
        return builder;
    }

    /** The reader owns the metrics scope, closed here if opening fails. */
    private <T> PartitionReader<T> open(Split split, Opener<T> opener) {
        // The shredded reader's counters are thread-local to the task thread.
        ShreddedReadMetrics.Scope metrics = ShreddedReadMetrics.collect();
        try {
            // Paimon's reader skips the deletion vectors' checksums: check them first.
            DeletionVectorChecksums.verify(readers.fileIO(), split);
            return opener.open(metrics);
        } catch (IOException | RuntimeException e) {
            metrics.close();
            throw new UncheckedIOException(
                    SplitFailures.explain(tableName, readers.fileIO(), split, e));
        }
    }

    private interface Opener<T> {
        PartitionReader<T> open(ShreddedReadMetrics.Scope metrics) throws IOException;
    }
}
