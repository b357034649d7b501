package dev.strata.index.archive;

import java.io.Closeable;
import java.io.IOException;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.DataFileMeta;

/**
 * The text column of one data file, one value per physical row (nulls included, deletions ignored).
 */
public interface TextReader extends Closeable {

    /** The data file's declared row count. */
    long rowCount();

    /** The next row's text, or null when the row's text is null. */
    String readNextText() throws IOException;

    /**
     * The primary key (the table's primary key without its partition fields) of the row {@link
     * #readNextText} returned last, valid until the next call. The archive stores it, so a hit's
     * key needs no data file read.
     */
    BinaryRow key();

    /** Opens text readers on data files of one (partition, bucket). */
    interface Factory {
        TextReader open(DataFileMeta file) throws IOException;
    }
}
