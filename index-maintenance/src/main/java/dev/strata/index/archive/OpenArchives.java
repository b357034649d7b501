package dev.strata.index.archive;

import dev.strata.shredding.io.DamagedFileException;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.index.IndexFileMeta;

/**
 * Opened, checksum-verified archives shared by the searches of one JVM (a driver or an executor),
 * so a repeated query neither re-reads a whole archive for its CRC nor re-opens its Lucene index.
 *
 * <p>An entry is keyed by what identifies the archive's bytes (full path, length, modification time
 * and the checksum stored in its footer, see {@link ArchiveHeaders}): a copied or restored table's
 * archive of the same name, or a file rewritten in place, is a different entry that is opened and
 * verified afresh. At most {@code capacity} archives stay open (least recently used first out,
 * system property {@code strata.fulltext.open-archives}, default 64); an evicted archive is closed
 * when its last {@link Lease} is returned. Failures are not cached.
 */
public final class OpenArchives {

    private static final OpenArchives SHARED =
            new OpenArchives(Integer.getInteger("strata.fulltext.open-archives", 64));

    private final int capacity;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

    OpenArchives(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException(
                    "Cannot keep full-text archives open: capacity must be >= 0, found "
                            + capacity
                            + ". Set strata.fulltext.open-archives to 0 (open per search) or more.");
        }
        this.capacity = capacity;
    }

    /** The cache of this JVM. */
    public static OpenArchives shared() {
        return SHARED;
    }

    /**
     * An open archive for a search; close the lease when done.
     *
     * @throws DamagedFileException when the file does not match its manifest entry or its
     *     checksum
     */
    public Lease acquire(ArchiveFiles files, IndexFileMeta meta, ArchiveHeaders headers)
            throws IOException {
        Path path = files.path(meta);
        String key;
        try (SeekableInputStream in = files.fileIO().newInputStream(path)) {
            key = ArchiveHeaders.identity(files, meta, path, in);
        }
        synchronized (this) {
            Entry entry = entries.get(key);
            if (entry != null) {
                entry.leases++;
                return new Lease(this, entry);
            }
        }
        Entry opened = new Entry(key, ArchiveReader.open(files, meta, headers));
        List<Entry> toClose = new ArrayList<>();
        Lease lease;
        synchronized (this) {
            Entry existing = entries.get(key);
            if (existing != null) {
                // Another search opened the same archive meanwhile: use that one.
                toClose.add(opened);
                existing.leases++;
                lease = new Lease(this, existing);
            } else {
                opened.leases = 1;
                lease = new Lease(this, opened);
                if (capacity > 0) {
                    entries.put(key, opened);
                    opened.cached = true;
                    evict(toClose);
                }
            }
        }
        closeAll(toClose);
        return lease;
    }

    private void evict(List<Entry> toClose) {
        Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
        while (entries.size() > capacity && it.hasNext()) {
            Entry oldest = it.next().getValue();
            it.remove();
            oldest.cached = false;
            if (oldest.leases == 0) {
                toClose.add(oldest);
            }
        }
    }

    private void release(Entry entry) throws IOException {
        boolean close;
        synchronized (this) {
            entry.leases--;
            close = entry.leases == 0 && !entry.cached;
        }
        if (close) {
            entry.reader.close();
        }
    }

    /** Closes every archive no search is using and forgets all (tests, shutdown). */
    public void clear() throws IOException {
        List<Entry> toClose = new ArrayList<>();
        synchronized (this) {
            for (Entry e : entries.values()) {
                e.cached = false;
                if (e.leases == 0) {
                    toClose.add(e);
                }
            }
            entries.clear();
        }
        closeAll(toClose);
    }

    synchronized int size() {
        return entries.size();
    }

    private static void closeAll(List<Entry> entries) throws IOException {
        IOException first = null;
        for (Entry e : entries) {
            try {
                e.reader.close();
            } catch (IOException ex) {
                if (first == null) {
                    first = ex;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static final class Entry {
        final String key;
        final ArchiveReader reader;
        int leases;
        boolean cached;

        Entry(String key, ArchiveReader reader) {
            this.key = key;
            this.reader = reader;
        }
    }

    /** One search's use of an open archive. */
    public static final class Lease implements Closeable {
        private final OpenArchives owner;
        private final Entry entry;
        private boolean closed;

        private Lease(OpenArchives owner, Entry entry) {
            this.owner = owner;
            this.entry = entry;
        }

        public ArchiveReader reader() {
            if (closed) {
                throw new IllegalStateException(
                        "Cannot use full-text archive " + entry.key + ": its lease was returned.");
            }
            return entry.reader;
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                owner.release(entry);
            }
        }
    }
}
