package dev.strata.shredding.parquet;

import dev.strata.shredding.io.DamagedFileException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Parquet page checksums of data files. Every page Strata and Paimon write carries the CRC32 of its
 * stored (compressed) bytes in its header, verified before decoding, so a damaged page is an error
 * naming the file, column and row group instead of a wrong answer. On unless the table sets {@link
 * #VERIFY_OPTION} to {@code false} (Paimon's reader reads it too); pages without a CRC are read
 * unverified. After a failed read, {@link #diagnose} names the first page whose CRC differs.
 */
public final class PageChecksums {

    /** The table option that switches page verification on Paimon's and Strata's readers. */
    public static final String VERIFY_OPTION = ParquetInputFormat.PAGE_VERIFY_CHECKSUM_ENABLED;

    private PageChecksums() {}

    /** Whether readers of a table with these options verify page checksums (default true). */
    public static boolean verifyEnabled(Map<String, String> tableOptions) {
        String v = tableOptions.get(VERIFY_OPTION);
        return v == null || !"false".equalsIgnoreCase(v.trim());
    }

    /** Checks every page of the file; throws {@link DamagedFileException} at the first bad one. */
    public static void verifyFile(InputFile input, String file) throws IOException {
        ParquetMetadata footer;
        try (ParquetFileReader reader =
                ParquetFileReader.open(input, PaimonFiles.readOptions(false))) {
            footer = reader.getFooter();
        } catch (IOException | RuntimeException e) {
            throw new DamagedFileException(
                    file,
                    "its Parquet footer is unreadable ("
                            + e.getClass().getSimpleName()
                            + ": "
                            + e.getMessage()
                            + ")",
                    e);
        }
        try (SeekableInputStream in = input.newStream()) {
            List<BlockMetaData> blocks = footer.getBlocks();
            for (int g = 0; g < blocks.size(); g++) {
                verifyRowGroup(in, file, blocks.get(g), g, null);
            }
        }
    }

    /**
     * The error for a failed read of row group {@code g}: the first page of the group whose
     * checksum differs (a {@link DamagedFileException}), else an error naming the file and row
     * group; {@code failure} is the cause either way.
     */
    public static IOException diagnose(
            InputFile input, String file, ParquetMetadata footer, int g, Exception failure) {
        try (SeekableInputStream in = input.newStream()) {
            verifyRowGroup(in, file, footer.getBlocks().get(g), g, failure);
        } catch (DamagedFileException e) {
            return e;
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
        return new DamagedFileException(
                file,
                "row group "
                        + g
                        + " cannot be decoded ("
                        + failure.getClass().getSimpleName()
                        + ": "
                        + failure.getMessage()
                        + ")",
                failure);
    }

    private static void verifyRowGroup(
            SeekableInputStream in, String file, BlockMetaData block, int g, Exception cause)
            throws IOException {
        CRC32 crc = new CRC32();
        for (ColumnChunkMetaData column : block.getColumns()) {
            long start = column.getStartingPos();
            long size = column.getTotalSize();
            if (size < 0 || size > Integer.MAX_VALUE - 8) {
                throw new DamagedFileException(
                        file,
                        "column "
                                + column.getPath().toDotString()
                                + ", row group "
                                + g
                                + " records a chunk of "
                                + size
                                + " bytes",
                        cause);
            }
            byte[] chunk = new byte[(int) size];
            in.seek(start);
            in.readFully(chunk);
            ByteArrayInputStream pages = new ByteArrayInputStream(chunk);
            long values = 0;
            while (values < column.getValueCount() && pages.available() > 0) {
                int headerAt = chunk.length - pages.available();
                PageHeader header;
                try {
                    header = Util.readPageHeader(pages);
                } catch (IOException | RuntimeException e) {
                    throw new DamagedFileException(
                            file,
                            "unreadable page header in column "
                                    + column.getPath().toDotString()
                                    + ", row group "
                                    + g
                                    + " at offset "
                                    + (start + headerAt)
                                    + " ("
                                    + e.getMessage()
                                    + ")",
                            cause == null ? e : cause);
                }
                int dataAt = chunk.length - pages.available();
                int length = header.getCompressed_page_size();
                if (length < 0 || length > pages.available()) {
                    throw new DamagedFileException(
                            file,
                            "a page of column "
                                    + column.getPath().toDotString()
                                    + ", row group "
                                    + g
                                    + " at offset "
                                    + (start + headerAt)
                                    + " records "
                                    + length
                                    + " bytes but its chunk holds "
                                    + pages.available(),
                            cause);
                }
                verifyPage(
                        file, column.getPath().toDotString(), g, header, chunk, dataAt, crc, cause);
                if (header.isSetData_page_header()) {
                    values += header.getData_page_header().getNum_values();
                } else if (header.isSetData_page_header_v2()) {
                    values += header.getData_page_header_v2().getNum_values();
                }
                pages.skip(length);
            }
        }
    }

    /**
     * Checks the stored bytes of one page, {@code bytes[dataAt, dataAt + compressed size)}, against
     * the CRC in its header (a page without one passes); {@code crc} is reset and reused.
     */
    public static void verifyPage(
            String file,
            String column,
            int rowGroup,
            PageHeader header,
            byte[] bytes,
            int dataAt,
            CRC32 crc,
            Throwable cause)
            throws DamagedFileException {
        if (!header.isSetCrc()) {
            return;
        }
        crc.reset();
        crc.update(bytes, dataAt, header.getCompressed_page_size());
        int actual = (int) crc.getValue();
        if (actual != header.getCrc()) {
            throw new DamagedFileException(
                    file,
                    "page checksum mismatch in column " + column + ", row group " + rowGroup,
                    String.format("0x%08x", header.getCrc()),
                    String.format("0x%08x", actual),
                    DamagedFileException.RESTORE,
                    cause);
        }
    }
}
