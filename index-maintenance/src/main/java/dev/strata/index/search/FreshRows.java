package dev.strata.index.search;

import dev.strata.index.archive.ArchiveFormat;
import dev.strata.index.options.FullTextDefinition;
import dev.strata.index.source.ParkedFiles;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.paimon.KeyValue;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.SerializationUtils;

/**
 * The rows of one (partition, bucket) that no current archive covers, indexed in memory at query
 * time with the table's analyzer, so a search sees every live row of the snapshot.
 *
 * <p>Liveness follows the primary-key rules of a deletion-vector table with the {@code deduplicate}
 * merge engine: within level 0 a key's version with the highest sequence number is current, and a
 * key whose current version is a delete ({@code -D}, {@code -U}) has none; a row of a higher level
 * is live when its deletion vector keeps it, it is {@code +I} or {@code +U}, and its key has no
 * version in level 0 (level 0 always holds the newest versions). {@link #level0Keys()} are the keys
 * whose archived versions a search must not return. Rows parked in a postpone-bucket table's bucket
 * -2 ({@link #indexParked}) are newer still, so their keys are left out of the partition's buckets.
 */
public final class FreshRows implements Closeable {

    /** Reads a data file as key-values: key, sequence number, row kind, the text as value 0. */
    public interface KeyValueFiles {
        RecordReader<KeyValue> open(DataFileMeta file) throws IOException;
    }

    private final List<DataFileMeta> files;
    private final long[] offsets;
    private final ByteBuffersDirectory directory;
    private final DirectoryReader reader;
    private final Set<BinaryRow> level0Keys;
    private final long rows;
    private final long documents;

    private FreshRows(
            List<DataFileMeta> files,
            long[] offsets,
            ByteBuffersDirectory directory,
            DirectoryReader reader,
            Set<BinaryRow> level0Keys,
            long rows,
            long documents) {
        this.files = files;
        this.offsets = offsets;
        this.directory = directory;
        this.reader = reader;
        this.level0Keys = level0Keys;
        this.rows = rows;
        this.documents = documents;
    }

    /** Indexes {@code files}, the bucket's data files no current archive covers. */
    public static FreshRows index(
            List<DataFileMeta> files,
            KeyValueFiles readers,
            RowType keyType,
            Map<String, DeletionVector> deletionVectors,
            FullTextDefinition definition)
            throws IOException {
        return index(files, readers, keyType, deletionVectors, definition, Collections.emptySet());
    }

    /**
     * Like {@link #index(List, KeyValueFiles, RowType, Map, FullTextDefinition)}, leaving out keys
     * whose newest version is outside this bucket ({@code newerElsewhere}, e.g. parked rows); they
     * are also in {@link #level0Keys()}.
     */
    public static FreshRows index(
            List<DataFileMeta> files,
            KeyValueFiles readers,
            RowType keyType,
            Map<String, DeletionVector> deletionVectors,
            FullTextDefinition definition,
            Set<BinaryRow> newerElsewhere)
            throws IOException {
        return build(
                new ArrayList<>(files),
                false,
                readers,
                keyType,
                deletionVectors,
                definition,
                newerElsewhere);
    }

    /**
     * Indexes the files parked in a postpone-bucket table's bucket -2 of one partition. Versions
     * are ordered by {@link ParkedFiles#WRITE_ORDER} and row position, since sequence numbers are
     * not comparable across parked files. {@link #level0Keys()} are every parked key.
     */
    public static FreshRows indexParked(
            List<DataFileMeta> files,
            KeyValueFiles readers,
            RowType keyType,
            FullTextDefinition definition)
            throws IOException {
        List<DataFileMeta> ordered = new ArrayList<>(files);
        ordered.sort(ParkedFiles.WRITE_ORDER);
        return build(
                ordered,
                true,
                readers,
                keyType,
                Collections.emptyMap(),
                definition,
                Collections.emptySet());
    }

    private static FreshRows build(
            List<DataFileMeta> ordered,
            boolean parked,
            KeyValueFiles readers,
            RowType keyType,
            Map<String, DeletionVector> deletionVectors,
            FullTextDefinition definition,
            Set<BinaryRow> newerElsewhere)
            throws IOException {
        long[] offsets = new long[ordered.size()];
        long offset = 0;
        for (int i = 0; i < ordered.size(); i++) {
            offsets[i] = offset;
            offset += ordered.get(i).rowCount();
        }
        InternalRowSerializer keys = new InternalRowSerializer(keyType);
        // Level 0: each key's newest version; higher levels: rows their deletion vectors keep.
        Map<BinaryRow, Version> newest = new HashMap<>();
        List<Long> upperRows = new ArrayList<>();
        List<String> upperTexts = new ArrayList<>();
        List<BinaryRow> upperKeys = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            DataFileMeta file = ordered.get(i);
            DeletionVector dv = deletionVectors.get(file.fileName());
            boolean level0 = parked || file.level() == 0;
            long position = 0;
            try (RecordReader<KeyValue> reader = readers.open(file)) {
                RecordReader.RecordIterator<KeyValue> batch;
                while ((batch = reader.readBatch()) != null) {
                    try {
                        KeyValue kv;
                        while ((kv = batch.next()) != null) {
                            long p = position++;
                            if (dv != null && dv.isDeleted(p)) {
                                continue;
                            }
                            BinaryRow key = keys.toBinaryRow(kv.key()).copy();
                            String text =
                                    kv.value().isNullAt(0)
                                            ? null
                                            : FullTextDefinition.indexedText(
                                                    definition.padded(),
                                                    kv.value().getString(0).toString());
                            if (newerElsewhere.contains(key)) {
                                continue;
                            }
                            if (level0) {
                                long sequence = parked ? offsets[i] + p : kv.sequenceNumber();
                                Version old = newest.get(key);
                                if (old == null || sequence >= old.sequence) {
                                    newest.put(
                                            key,
                                            new Version(
                                                    sequence,
                                                    offsets[i] + p,
                                                    kv.valueKind(),
                                                    text));
                                }
                            } else if (isAdd(kv.valueKind()) && text != null) {
                                upperRows.add(offsets[i] + p);
                                upperTexts.add(text);
                                upperKeys.add(key);
                            }
                        }
                    } finally {
                        batch.releaseBatch();
                    }
                }
            }
            if (position != file.rowCount()) {
                throw new IOException(
                        "Cannot index data file "
                                + file.fileName()
                                + " at query time: it holds "
                                + position
                                + " rows, its metadata says "
                                + file.rowCount()
                                + ".");
            }
        }
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        long documents = 0;
        try (Analyzer a = definition.analyzer().newAnalyzer();
                IndexWriter writer =
                        new IndexWriter(
                                directory,
                                new IndexWriterConfig(a)
                                        .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
                                        .setCommitOnClose(true))) {
            Document doc = new Document();
            Field text = new TextField(ArchiveFormat.TEXT_FIELD, "", Field.Store.NO);
            NumericDocValuesField rowId = new NumericDocValuesField(ArchiveFormat.ROW_ID_FIELD, 0L);
            // The row's key too, as archives store it, so hits need no data file read for it.
            BinaryDocValuesField key =
                    new BinaryDocValuesField(ArchiveFormat.KEY_FIELD, new BytesRef());
            doc.add(text);
            doc.add(rowId);
            doc.add(key);
            for (Map.Entry<BinaryRow, Version> e : newest.entrySet()) {
                Version v = e.getValue();
                if (isAdd(v.kind) && v.text != null) {
                    text.setStringValue(v.text);
                    rowId.setLongValue(v.rowId);
                    key.setBytesValue(SerializationUtils.serializeBinaryRow(e.getKey()));
                    writer.addDocument(doc);
                    documents++;
                }
            }
            for (int j = 0; j < upperRows.size(); j++) {
                if (!newest.containsKey(upperKeys.get(j))) {
                    text.setStringValue(upperTexts.get(j));
                    rowId.setLongValue(upperRows.get(j));
                    key.setBytesValue(SerializationUtils.serializeBinaryRow(upperKeys.get(j)));
                    writer.addDocument(doc);
                    documents++;
                }
            }
        }
        DirectoryReader reader = DirectoryReader.open(directory);
        Set<BinaryRow> hidden = new HashSet<>(newest.keySet());
        hidden.addAll(newerElsewhere);
        return new FreshRows(
                Collections.unmodifiableList(ordered),
                offsets,
                directory,
                reader,
                Collections.unmodifiableSet(hidden),
                offset,
                documents);
    }

    private static boolean isAdd(RowKind kind) {
        return kind == RowKind.INSERT || kind == RowKind.UPDATE_AFTER;
    }

    private static final class Version {
        final long sequence;
        final long rowId;
        final RowKind kind;
        final String text;

        Version(long sequence, long rowId, RowKind kind, String text) {
            this.sequence = sequence;
            this.rowId = rowId;
            this.kind = kind;
            this.text = text;
        }
    }

    /** The indexed files; a row id is its file's offset in this order plus its position. */
    public List<DataFileMeta> files() {
        return files;
    }

    /** Physical rows of the indexed files (live or not). */
    public long rows() {
        return rows;
    }

    /** Live rows with a non-null text (the documents). */
    public long documents() {
        return documents;
    }

    /** Keys with a version in level 0 or newer elsewhere; their archived versions are not live. */
    public Set<BinaryRow> level0Keys() {
        return level0Keys;
    }

    DirectoryReader reader() {
        return reader;
    }

    /** The file index and position of a row id. */
    int fileOf(long rowId) {
        int i = java.util.Arrays.binarySearch(offsets, rowId);
        if (i < 0) {
            i = -i - 2;
        }
        while (i + 1 < offsets.length && offsets[i + 1] == rowId && files.get(i).rowCount() == 0) {
            i++;
        }
        return i;
    }

    long positionOf(long rowId, int file) {
        return rowId - offsets[file];
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            directory.close();
        }
    }
}
