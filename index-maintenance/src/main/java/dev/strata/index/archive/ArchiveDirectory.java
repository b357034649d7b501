package dev.strata.index.archive;

import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.store.BaseDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.NoLockFactory;

/**
 * A read-only Lucene directory over the files packed in one archive (as Lucene's compound reader is
 * over a {@code .cfs}): each file is a slice of the archive's input, read in place.
 */
final class ArchiveDirectory extends BaseDirectory {

    private final String file;
    private final IndexInput archive;
    private final Map<String, long[]> files;

    /** {@code files}: name to {offset, length} in {@code archive}. */
    ArchiveDirectory(String file, IndexInput archive, Map<String, long[]> files) {
        super(NoLockFactory.INSTANCE);
        this.file = file;
        this.archive = archive;
        this.files = files;
    }

    @Override
    public String[] listAll() {
        ensureOpen();
        return files.keySet().stream().sorted().toArray(String[]::new);
    }

    @Override
    public long fileLength(String name) throws IOException {
        return entry(name)[1];
    }

    @Override
    public IndexInput openInput(String name, IOContext context) throws IOException {
        long[] e = entry(name);
        return archive.slice(name, e[0], e[1]);
    }

    private long[] entry(String name) throws IOException {
        ensureOpen();
        long[] e = files.get(name);
        if (e == null) {
            throw new java.nio.file.NoSuchFileException(name + " in archive " + file);
        }
        return e;
    }

    @Override
    public void deleteFile(String name) {
        throw readOnly();
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) {
        throw readOnly();
    }

    @Override
    public IndexOutput createTempOutput(String prefix, String suffix, IOContext context) {
        throw readOnly();
    }

    @Override
    public void sync(Collection<String> names) {}

    @Override
    public void syncMetaData() {}

    @Override
    public void rename(String source, String dest) {
        throw readOnly();
    }

    @Override
    public Set<String> getPendingDeletions() {
        return Collections.emptySet();
    }

    @Override
    public void close() {
        isOpen = false;
    }

    private UnsupportedOperationException readOnly() {
        return new UnsupportedOperationException("Full-text archive " + file + " is read-only.");
    }
}
