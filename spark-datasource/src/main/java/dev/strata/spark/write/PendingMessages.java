package dev.strata.spark.write;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.fs.Path;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageSerializer;

/**
 * The pending directory of one {@link PaimonCommits.Commit}: {@code <table
 * path>/_strata-pending/<commit user>/}. Each task attempt records its messages here before
 * returning them, so files of a task whose message never reached the driver are found by the
 * driver's abort or, after a crashed driver, by {@code remove_orphan_files}. Paimon's readers never
 * list the table directory and its orphan clean skips names starting with {@code _}.
 *
 * <p>Marker format (big-endian, written to a temporary file {@code .<name>.tmp} and renamed to
 * {@code <name>}, so a marker is either complete or absent):
 *
 * <pre>
 *   int   magic 0x5354504D ("STPM")
 *   int   format version (1)
 *   int   Paimon CommitMessageSerializer version of the messages
 *   int   number of messages n
 *   n x   (int length, length bytes of CommitMessageSerializer output)
 *   long  CRC32 of all bytes before it
 * </pre>
 */
public final class PendingMessages implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final String DIRECTORY = "_strata-pending";

    private static final int MAGIC = 0x5354504D;
    private static final int FORMAT_VERSION = 1;
    private static final String MARKER_SUFFIX = ".msgs";

    private final FileIO fileIO;
    private final Path dir;

    PendingMessages(FileIO fileIO, Path dir) {
        this.fileIO = fileIO;
        this.dir = dir;
    }

    static PendingMessages of(FileStoreTable table, String commitUser) {
        return new PendingMessages(table.fileIO(), new Path(root(table), commitUser));
    }

    public static Path root(FileStoreTable table) {
        return new Path(table.location(), DIRECTORY);
    }

    /** Of running commits, or of drivers that crashed. */
    public static List<PendingMessages> all(FileStoreTable table) throws IOException {
        Path root = root(table);
        List<PendingMessages> out = new ArrayList<>();
        if (!table.fileIO().exists(root)) {
            return out;
        }
        for (FileStatus status : table.fileIO().listStatus(root)) {
            if (status.isDir()) {
                out.add(new PendingMessages(table.fileIO(), status.getPath()));
            }
        }
        return out;
    }

    public Path dir() {
        return dir;
    }

    /** Atomically; {@code attempt} is unique within the job, e.g. {@code 3-1042}. */
    public void record(String attempt, List<CommitMessage> messages) throws IOException {
        CommitMessageSerializer serializer = new CommitMessageSerializer();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(MAGIC);
        out.writeInt(FORMAT_VERSION);
        out.writeInt(serializer.getVersion());
        out.writeInt(messages.size());
        for (CommitMessage m : messages) {
            byte[] b = serializer.serialize(m);
            out.writeInt(b.length);
            out.write(b);
        }
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        out.writeLong(crc.getValue());
        out.flush();
        String name = attempt + MARKER_SUFFIX;
        Path tmp = new Path(dir, "." + name + ".tmp");
        Path marker = new Path(dir, name);
        fileIO.mkdirs(dir);
        try (OutputStream stream = fileIO.newOutputStream(tmp, true)) {
            stream.write(bytes.toByteArray());
        }
        if (!fileIO.rename(tmp, marker)) {
            fileIO.deleteQuietly(tmp);
            throw new IOException(
                    String.format(
                            "Cannot record the commit messages of task attempt %s in %s: renaming %s to %s failed. The task "
                                    + "fails so that its files are cleaned up.",
                            attempt, dir, tmp.getName(), marker.getName()));
        }
    }

    /** The messages of every complete marker, in no particular order. */
    public List<CommitMessage> read() throws IOException {
        List<CommitMessage> messages = new ArrayList<>();
        if (!fileIO.exists(dir)) {
            return messages;
        }
        for (FileStatus status : fileIO.listStatus(dir)) {
            if (!status.isDir() && status.getPath().getName().endsWith(MARKER_SUFFIX)) {
                messages.addAll(readMarker(status.getPath()));
            }
        }
        return messages;
    }

    /** File count and total size. */
    public long[] filesAndBytes() throws IOException {
        long files = 0;
        long bytes = 0;
        if (fileIO.exists(dir)) {
            for (FileStatus status : fileIO.listStatus(dir)) {
                if (!status.isDir()) {
                    files++;
                    bytes += status.getLen();
                }
            }
        }
        return new long[] {files, bytes};
    }

    /** Newest modification time of the directory and its files, epoch millis. */
    public long lastModified() throws IOException {
        long newest = fileIO.getFileStatus(dir).getModificationTime();
        for (FileStatus status : fileIO.listStatus(dir)) {
            newest = Math.max(newest, status.getModificationTime());
        }
        return newest;
    }

    private List<CommitMessage> readMarker(Path marker) throws IOException {
        byte[] bytes;
        try (InputStream in = fileIO.newInputStream(marker)) {
            bytes = in.readAllBytes();
        }
        String bad = null;
        if (bytes.length < 4 * 4 + 8) {
            bad = "it has " + bytes.length + " bytes, fewer than a marker's header";
        } else {
            CRC32 crc = new CRC32();
            crc.update(bytes, 0, bytes.length - 8);
            long stored =
                    new DataInputStream(new ByteArrayInputStream(bytes, bytes.length - 8, 8))
                            .readLong();
            if (stored != crc.getValue()) {
                bad =
                        String.format(
                                "its checksum is %016x, the bytes give %016x",
                                stored, crc.getValue());
            }
        }
        DataInputStream in =
                new DataInputStream(
                        new ByteArrayInputStream(bytes, 0, Math.max(0, bytes.length - 8)));
        if (bad == null && in.readInt() != MAGIC) {
            bad = "it does not start with the marker magic number";
        }
        int format = bad == null ? in.readInt() : -1;
        if (bad == null && format != FORMAT_VERSION) {
            bad =
                    "its format version is "
                            + format
                            + ", this Strata reads version "
                            + FORMAT_VERSION;
        }
        if (bad != null) {
            throw new IOException(
                    String.format(
                            "Cannot read the pending commit messages in %s: %s. Delete the file once no job writes the table; "
                                    + "remove_orphan_files then removes the files it named.",
                            marker, bad));
        }
        int version = in.readInt();
        int n = in.readInt();
        CommitMessageSerializer serializer = new CommitMessageSerializer();
        List<CommitMessage> messages = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[in.readInt()];
            in.readFully(b);
            messages.add(serializer.deserialize(version, b));
        }
        return messages;
    }

    /** Deletes the directory, and the root pending directory when no other commit uses it. */
    public void delete() {
        fileIO.deleteDirectoryQuietly(dir);
        Path root = dir.getParent();
        try {
            FileStatus[] left = fileIO.listStatus(root);
            if (left.length == 0) {
                fileIO.delete(root, false);
            }
        } catch (IOException | RuntimeException e) {
            // Another commit is using it, or it is gone already.
        }
    }
}
