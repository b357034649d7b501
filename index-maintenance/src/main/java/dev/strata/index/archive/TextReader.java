package dev.strata.index.archive;

import java.io.Closeable;
import java.io.IOException;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.DataFileMeta;

/** The text column of one data file, one value per physical row (nulls kept, deletions ignored). */
public interface TextReader extends Closeable {

    /** The data file's declared row count. */
    long rowCount();

    /** The next row's text, or null when the row's text is null. */
    String readNextText() throws IOException;

    /** The primary key (no partition fields) of the row last read; valid until the next call. */
    BinaryRow key();

    /** Opens text readers on data files of one (partition, bucket). */
    interface Factory {
        TextReader open(DataFileMeta file) throws IOException;
    }
}
