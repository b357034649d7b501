package dev.strata.index.archive;

import dev.strata.index.options.FullTextDefinition;
import java.io.IOException;
import java.util.Collections;
import org.apache.paimon.KeyValue;
import org.apache.paimon.KeyValueFileStore;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.KeyValueFileReaderFactory;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;

/**
 * Reads the text column and the primary key of a primary-key data file through Paimon's own
 * key-value file reader: the key columns, only the text field as value, and no deletion vectors, so
 * every physical row is returned in file order and positions stay aligned with archive row ids.
 */
public final class DataFileTextReader implements TextReader {

    private final DataFileMeta file;
    private final RecordReader<KeyValue> reader;
    private final InternalRowSerializer keys;
    private final boolean padded;
    private RecordReader.RecordIterator<KeyValue> batch;
    private long read;
    private boolean exhausted;
    private BinaryRow key;

    private DataFileTextReader(
            DataFileMeta file,
            RecordReader<KeyValue> reader,
            InternalRowSerializer keys,
            boolean padded) {
        this.file = file;
        this.reader = reader;
        this.keys = keys;
        this.padded = padded;
    }

    /** A factory for the data files of one (partition, bucket) of a primary-key table. */
    public static TextReader.Factory factory(
            FileStoreTable table, BinaryRow partition, int bucket, DataField textField) {
        if (!(table.store() instanceof KeyValueFileStore)) {
            throw new IllegalArgumentException(
                    "Cannot read full-text sources of table "
                            + table.name()
                            + ": it is not a primary-key table.");
        }
        RowType keyType = table.schema().logicalTrimmedPrimaryKeysType();
        KeyValueFileReaderFactory readers =
                ((KeyValueFileStore) table.store())
                        .newReaderFactoryBuilder()
                        .copyWithoutProjection()
                        .withReadKeyType(keyType)
                        .withReadValueType(new RowType(Collections.singletonList(textField)))
                        .build(partition, bucket, DeletionVector.emptyFactory());
        boolean padded = FullTextDefinition.padded(textField.type());
        return file ->
                new DataFileTextReader(
                        file,
                        readers.createRecordReader(file),
                        new InternalRowSerializer(keyType),
                        padded);
    }

    @Override
    public long rowCount() {
        return file.rowCount();
    }

    @Override
    public String readNextText() throws IOException {
        if (read >= file.rowCount()) {
            throw new IOException(
                    "Read past data file "
                            + file.fileName()
                            + " row count "
                            + file.rowCount()
                            + ".");
        }
        KeyValue kv = next();
        if (kv == null) {
            throw new IOException(
                    "Data file "
                            + file.fileName()
                            + " ended before its declared row count "
                            + file.rowCount()
                            + " (read "
                            + read
                            + ").");
        }
        read++;
        key = keys.toBinaryRow(kv.key()).copy();
        InternalRow value = kv.value();
        String text =
                value.isNullAt(0)
                        ? null
                        : FullTextDefinition.indexedText(padded, value.getString(0).toString());
        if (read == file.rowCount() && next() != null) {
            throw new IOException(
                    "Data file "
                            + file.fileName()
                            + " contains more rows than declared ("
                            + file.rowCount()
                            + ").");
        }
        return text;
    }

    @Override
    public BinaryRow key() {
        return key;
    }

    private KeyValue next() throws IOException {
        while (!exhausted) {
            if (batch == null) {
                batch = reader.readBatch();
                if (batch == null) {
                    exhausted = true;
                    return null;
                }
            }
            KeyValue kv = batch.next();
            if (kv != null) {
                return kv;
            }
            batch.releaseBatch();
            batch = null;
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        try {
            if (batch != null) {
                batch.releaseBatch();
                batch = null;
            }
            reader.close();
        } catch (IOException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IOException("Cannot close reader of data file " + file.fileName(), e);
        }
    }
}
