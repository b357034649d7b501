package dev.strata.index.archive;

import dev.strata.shredding.cache.BoundedCache;
import dev.strata.shredding.cache.CacheSettings;
import dev.strata.shredding.io.DamagedFileException;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.paimon.index.IndexFileMeta;

/**
 * Opened archives shared by the searches of one JVM, so a repeated query does not re-open an
 * archive's Lucene index. Entries are keyed by what identifies the archive's bytes (see {@link
 * ArchiveHeaders}), so a copied, restored or rewritten file is opened and checked afresh. An
 * evicted archive is closed when its last {@link Lease} is returned. Failures are not cached.
 */
public final class OpenArchives {

    /** Archives kept open when the engine does not say otherwise. */
    public static final int DEFAULT_CAPACITY = 64;

    private static final OpenArchives SHARED = new OpenArchives(sharedCapacity());

    private static int sharedCapacity() {
        Integer configured = CacheSettings.load().openArchives();
        return configured == null ? DEFAULT_CAPACITY : configured;
    }

    private final BoundedCache<String, Entry> entries;

    OpenArchives(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException(
                    "Cannot keep full-text archives open: capacity must be >= 0, found "
                            + capacity
                            + ".");
        }
        this.entries = BoundedCache.of(capacity, Entry::uncache);
    }

    public static OpenArchives shared() {
        return SHARED;
    }

    /**
     * An open archive for a search; close the lease when done. Throws {@link DamagedFileException}
     * when the file is not an intact archive matching its manifest entry.
     */
    public Lease acquire(ArchiveFiles files, IndexFileMeta meta) throws IOException {
        return acquire(files, meta, ArchiveHeaders.identity(files, meta));
    }

    /** As {@link #acquire(ArchiveFiles, IndexFileMeta)} for a statement that checked the file. */
    public Lease acquire(ArchiveHeaders.Statement statement, IndexFileMeta meta)
            throws IOException {
        return acquire(statement.files(), meta, statement.identity(meta));
    }

    private Lease acquire(ArchiveFiles files, IndexFileMeta meta, String key) throws IOException {
        Entry cached = entries.get(key);
        if (cached != null && cached.lease()) {
            return new Lease(cached);
        }
        Entry opened = new Entry(ArchiveReader.open(files, meta));
        // The opener's lease first: the entry may leave the cache as soon as it is put.
        opened.lease();
        Entry kept = entries.putIfAbsent(key, opened);
        if (kept != opened) {
            // Another search opened the same archive meanwhile: use that one if it is still open.
            if (kept.lease()) {
                opened.uncache();
                opened.release();
                return new Lease(kept);
            }
            // Closed meanwhile: this search keeps its own copy, uncached.
            opened.uncache();
        }
        return new Lease(opened);
    }

    /** Closes every archive no search is using and forgets all (tests, shutdown). */
    public void clear() {
        entries.clear();
    }

    long size() {
        return entries.size();
    }

    /** An open archive, closed once neither the cache nor any lease holds it. */
    private static final class Entry {
        final ArchiveReader reader;
        private int leases;
        private boolean cached = true;
        private boolean closed;

        Entry(ArchiveReader reader) {
            this.reader = reader;
        }

        /** Takes a lease; false when the archive was already closed. */
        synchronized boolean lease() {
            if (closed) {
                return false;
            }
            leases++;
            return true;
        }

        void release() throws IOException {
            boolean close;
            synchronized (this) {
                leases--;
                close = closeIfUnused();
            }
            if (close) {
                reader.close();
            }
        }

        /** The cache dropped the entry (evicted, cleared). */
        void uncache() {
            boolean close;
            synchronized (this) {
                cached = false;
                close = closeIfUnused();
            }
            if (close) {
                try {
                    reader.close();
                } catch (IOException e) {
                    // Nothing waits for this archive any more; a failed close loses nothing.
                    throw new UncheckedIOException(e);
                }
            }
        }

        private boolean closeIfUnused() {
            if (leases == 0 && !cached && !closed) {
                closed = true;
                return true;
            }
            return false;
        }
    }

    /** One search's use of an open archive. */
    public static final class Lease implements Closeable {
        private final Entry entry;
        private boolean closed;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        public ArchiveReader reader() {
            if (closed) {
                throw new IllegalStateException(
                        "Cannot use full-text archive "
                                + entry.reader.meta().fileName()
                                + ": its lease was returned.");
            }
            return entry.reader;
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                entry.release();
            }
        }
    }
}
