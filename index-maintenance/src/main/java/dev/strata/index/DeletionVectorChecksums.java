package dev.strata.index;

import dev.strata.shredding.io.DamagedFileException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.deletionvectors.Bitmap64DeletionVector;
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.index.DeletionVectorMeta;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.utils.SnapshotManager;

/**
 * Checks the CRC32 of every entry of a Paimon deletion-vector file before its bitmaps are used.
 * Paimon 1.4.2 writes the checksum but skips it on read ({@code DeletionVector.read}: "skip crc"),
 * so a damaged bitmap silently brings deleted rows back.
 *
 * <p>Format (Paimon's {@code DeletionFileWriter}, {@code BitmapDeletionVector}, {@code
 * Bitmap64DeletionVector}), all integers big-endian:
 *
 * <pre>
 * DeletionVectorsFile --&gt; Version (byte, 1), Entry^N
 * Entry               --&gt; Length (int32, n), Bitmap (n bytes: magic, serialized bitmap),
 *                         Checksum (int32, CRC32 of Bitmap)
 * </pre>
 *
 * The index manifest records the file's size and, per data file, the entry's offset and length: n
 * for 32-bit bitmaps (magic 1581511376 big-endian), n + 8 for 64-bit ones (magic 1681511377
 * little-endian). A file is read whole (deletion-vector files are small) and every entry checked,
 * once per full path per JVM ({@link SnapshotBuckets}): the files are immutable and uniquely named.
 */
public final class DeletionVectorChecksums {

    private DeletionVectorChecksums() {}

    /** Checks the deletion-vector files a split's data files point into. */
    public static void verify(FileIO fileIO, Split split) throws IOException {
        if (!(split instanceof DataSplit)) {
            return;
        }
        DataSplit data = (DataSplit) split;
        List<DeletionFile> deletionFiles = data.deletionFiles().orElse(null);
        if (deletionFiles == null) {
            return;
        }
        Map<String, List<Range>> byFile = new LinkedHashMap<>();
        List<DataFileMeta> dataFiles = data.dataFiles();
        for (int i = 0; i < deletionFiles.size(); i++) {
            DeletionFile d = deletionFiles.get(i);
            if (d != null) {
                String dataFile = i < dataFiles.size() ? dataFiles.get(i).fileName() : "?";
                byFile.computeIfAbsent(d.path(), k -> new ArrayList<>())
                        .add(new Range(dataFile, d.offset(), d.length()));
            }
        }
        for (Map.Entry<String, List<Range>> e : byFile.entrySet()) {
            verify(fileIO, new Path(e.getKey()), null, e.getValue());
        }
    }

    /** Checks one deletion-vector index file against its manifest entry. */
    static void verify(FileIO fileIO, Path path, IndexFileMeta meta) throws IOException {
        List<Range> ranges = new ArrayList<>();
        LinkedHashMap<String, DeletionVectorMeta> dvRanges = meta.dvRanges();
        if (dvRanges != null) {
            for (DeletionVectorMeta m : dvRanges.values()) {
                ranges.add(new Range(m.dataFileName(), m.offset(), m.length()));
            }
        }
        verify(fileIO, path, meta.fileSize(), ranges);
    }

    /**
     * Checks the deletion-vector files the task's writers restored their buckets from (snapshots
     * {@code fromSnapshot} to latest), before its commit messages are handed on: the writer merges
     * them into what it writes, so a damaged bitmap would be re-written with a valid checksum.
     */
    public static void verifyRestored(
            FileStoreTable table, Long fromSnapshot, List<CommitMessage> messages)
            throws IOException {
        if (messages.isEmpty() || !table.coreOptions().deletionVectorsEnabled()) {
            return;
        }
        Set<List<Object>> buckets = new HashSet<>();
        for (CommitMessage m : messages) {
            buckets.add(List.of(m.partition(), m.bucket()));
        }
        SnapshotManager snapshots = table.snapshotManager();
        Long latest = snapshots.latestSnapshotId();
        if (latest == null) {
            return;
        }
        long first = fromSnapshot == null ? latest : fromSnapshot;
        IndexFileHandler handler = table.store().newIndexFileHandler();
        Set<String> seen = new HashSet<>();
        for (long id = first; id <= latest; id++) {
            if (!snapshots.snapshotExists(id)) {
                continue;
            }
            Snapshot snapshot = snapshots.snapshot(id);
            for (IndexManifestEntry entry :
                    handler.scan(snapshot, DeletionVectorsIndexFile.DELETION_VECTORS_INDEX)) {
                BinaryRow partition = entry.partition();
                if (buckets.contains(List.of(partition, entry.bucket()))
                        && seen.add(entry.indexFile().fileName())) {
                    verify(table.fileIO(), handler.filePath(entry), entry.indexFile());
                }
            }
        }
    }

    private static void verify(FileIO fileIO, Path path, Long recordedSize, List<Range> ranges)
            throws IOException {
        String file = path.toString();
        SnapshotBuckets cache = SnapshotBuckets.shared();
        if (cache.deletionFileVerified(file)) {
            return;
        }
        byte[] bytes;
        try (InputStream in = fileIO.newInputStream(path)) {
            bytes = in.readAllBytes();
        }
        check(file, bytes, recordedSize, ranges);
        cache.rememberDeletionFileVerified(file);
    }

    /** Checks the bytes of deletion-vector file {@code file}; package-private for tests. */
    static void check(String file, byte[] bytes, Long recordedSize, List<Range> ranges)
            throws DamagedFileException {
        if (recordedSize != null && bytes.length != recordedSize) {
            throw damaged(
                    file,
                    "the file has "
                            + bytes.length
                            + " bytes, the index manifest records "
                            + recordedSize);
        }
        if (bytes.length == 0 || bytes[0] != DeletionVectorsIndexFile.VERSION_ID_V1) {
            throw damaged(
                    file,
                    "version byte "
                            + (bytes.length == 0 ? "missing" : String.valueOf(bytes[0]))
                            + ", expected "
                            + DeletionVectorsIndexFile.VERSION_ID_V1);
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        // Entry start -> expected manifest length, for the ranges below.
        Map<Long, long[]> entries = new HashMap<>();
        int pos = 1;
        while (pos < bytes.length) {
            if (bytes.length - pos < 8) {
                throw damaged(
                        file,
                        "a truncated entry at byte "
                                + pos
                                + " ("
                                + (bytes.length - pos)
                                + " bytes left)");
            }
            int n = buf.getInt(pos);
            if (n < 4 || n > bytes.length - pos - 8) {
                throw damaged(
                        file,
                        "the entry at byte "
                                + pos
                                + " has length "
                                + n
                                + ", which does not fit the file's "
                                + bytes.length
                                + " bytes");
            }
            CRC32 crc = new CRC32();
            crc.update(bytes, pos + 4, n);
            int actual = (int) crc.getValue();
            int expected = buf.getInt(pos + 4 + n);
            if (actual != expected) {
                throw damaged(
                        file,
                        "checksum mismatch in the entry at byte "
                                + pos
                                + rangeName(ranges, pos)
                                + " (expected=0x"
                                + Integer.toHexString(expected)
                                + " actual=0x"
                                + Integer.toHexString(actual)
                                + ")");
            }
            int magic = buf.getInt(pos + 4);
            int magicLe =
                    ByteBuffer.wrap(bytes, pos + 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
            long recorded =
                    magic == BitmapDeletionVector.MAGIC_NUMBER
                            ? n
                            : magicLe == Bitmap64DeletionVector.MAGIC_NUMBER ? n + 8L : -1;
            entries.put((long) pos, new long[] {recorded});
            pos += n + 8;
        }
        for (Range r : ranges) {
            long[] recorded = entries.get(r.offset);
            if (recorded == null || recorded[0] != r.length) {
                throw damaged(
                        file,
                        "the manifest records the deletion vector of data file "
                                + r.dataFile
                                + " at byte "
                                + r.offset
                                + " with length "
                                + r.length
                                + ", but "
                                + (recorded == null
                                        ? "no entry starts there"
                                        : "the entry there has length " + recorded[0]));
            }
        }
    }

    private static String rangeName(List<Range> ranges, long pos) {
        for (Range r : ranges) {
            if (r.offset == pos) {
                return " (deletion vector of data file " + r.dataFile + ")";
            }
        }
        return "";
    }

    private static DamagedFileException damaged(String file, String why) {
        return new DamagedFileException(file, "deletion vectors: " + why, null);
    }

    /** Where the manifest says a data file's deletion vector is. */
    static final class Range {
        final String dataFile;
        final long offset;
        final long length;

        Range(String dataFile, long offset, long length) {
            this.dataFile = dataFile;
            this.offset = offset;
            this.length = length;
        }
    }
}
