package dev.strata.shredding.parquet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageWriteStore;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Flat Parquet files written and read with parquet-column's own column writers and readers (zstd
 * pages), for the tests of Strata's dictionary writers: the same rows written once with and once
 * without Strata's values-writer factory, then compared through parquet-mr.
 */
final class ColumnFiles {

    /** Writes row {@code row}'s values through {@code writers} (the schema's columns in order). */
    interface Rows {
        void write(int row, ColumnWriter[] writers);
    }

    private ColumnFiles() {}

    /** Writes {@code rowCount} rows to {@code file} in row groups of {@code rowsPerGroup} rows. */
    static Path write(
            Path file,
            MessageType schema,
            ParquetProperties props,
            int rowCount,
            int rowsPerGroup,
            Rows rows)
            throws Exception {
        return write(file, schema, props, rowCount, rowsPerGroup, rows, (pages, codec) -> pages);
    }

    /** The page store the column writers write to, given parquet-hadoop's and its compressor. */
    interface PageStores {
        PageWriteStore wrap(
                PageWriteStore pages, CompressionCodecFactory.BytesInputCompressor compressor);
    }

    /**
     * As {@link #write(Path, MessageType, ParquetProperties, int, int, Rows)}, the column writers
     * writing to {@code pageStores.wrap(...)} in front of parquet-hadoop's page store.
     */
    static Path write(
            Path file,
            MessageType schema,
            ParquetProperties props,
            int rowCount,
            int rowsPerGroup,
            Rows rows,
            PageStores pageStores)
            throws Exception {
        ParquetFileWriter out =
                new ParquetFileWriter(
                        new LocalOutputFile(file),
                        schema,
                        ParquetFileWriter.Mode.CREATE,
                        128L << 20,
                        ParquetWriter.MAX_PADDING_SIZE_DEFAULT,
                        null,
                        props);
        out.start();
        CodecFactory codecs =
                new CodecFactory(new Configuration(false), props.getPageSizeThreshold());
        List<ColumnDescriptor> descriptors = schema.getColumns();
        int row = 0;
        int group = 0;
        while (row < rowCount) {
            CompressionCodecFactory.BytesInputCompressor compressor =
                    codecs.getCompressor(CompressionCodecName.ZSTD);
            ColumnChunkPageWriteStore pages =
                    new ColumnChunkPageWriteStore(
                            compressor,
                            schema,
                            props.getAllocator(),
                            props.getColumnIndexTruncateLength(),
                            props.getPageWriteChecksumEnabled(),
                            null,
                            group++);
            ColumnWriteStore columns =
                    props.newColumnWriteStore(schema, pageStores.wrap(pages, compressor), pages);
            ColumnWriter[] writers = new ColumnWriter[descriptors.size()];
            for (int c = 0; c < writers.length; c++) {
                writers[c] = columns.getColumnWriter(descriptors.get(c));
            }
            int end = Math.min(rowCount, row + rowsPerGroup);
            long n = end - row;
            for (; row < end; row++) {
                rows.write(row, writers);
                columns.endRecord();
            }
            out.startBlock(n);
            columns.flush();
            pages.flushToFileWriter(out);
            out.endBlock();
            columns.close();
            pages.close();
        }
        out.end(Map.of());
        codecs.release();
        return file;
    }

    static ParquetFileReader open(Path file) throws Exception {
        return ParquetFileReader.open(
                HadoopInputFile.fromPath(
                        new org.apache.hadoop.fs.Path(file.toString()), new Configuration(false)));
    }

    /**
     * Column {@code column}'s values in file order as parquet-mr's column reader returns them, each
     * mapped by {@code value} (null for NULL).
     */
    static <T> List<T> read(
            Path file, MessageType schema, String column, Function<ColumnReader, T> value)
            throws Exception {
        List<T> out = new ArrayList<>();
        try (ParquetFileReader r = open(file)) {
            ColumnDescriptor d = schema.getColumnDescription(new String[] {column});
            PageReadStore group;
            while ((group = r.readNextRowGroup()) != null) {
                ColumnReader reader =
                        new ColumnReadStoreImpl(
                                        group,
                                        new GroupRecordConverter(schema).getRootConverter(),
                                        schema,
                                        r.getFooter().getFileMetaData().getCreatedBy())
                                .getColumnReader(d);
                for (long i = 0; i < reader.getTotalValueCount(); i++) {
                    out.add(
                            reader.getCurrentDefinitionLevel() == d.getMaxDefinitionLevel()
                                    ? value.apply(reader)
                                    : null);
                    reader.consume();
                }
            }
        }
        return out;
    }

    /** Per row group, each chunk's path, value count and encodings. */
    static List<String> chunks(Path file) throws Exception {
        List<String> out = new ArrayList<>();
        try (ParquetFileReader r = open(file)) {
            for (BlockMetaData block : r.getFooter().getBlocks()) {
                for (ColumnChunkMetaData c : block.getColumns()) {
                    out.add(
                            c.getPath()
                                    + " "
                                    + c.getValueCount()
                                    + " "
                                    + new TreeSet<>(c.getEncodings()));
                }
            }
        }
        return out;
    }
}
