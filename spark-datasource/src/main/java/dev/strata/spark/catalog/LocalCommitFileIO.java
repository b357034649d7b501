package dev.strata.spark.catalog;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.FileIOLoader;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.CatalogOptions;
import org.apache.paimon.options.Options;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paimon's local {@link FileIO} with a rename that never replaces a file. Paimon commits a snapshot
 * (and a schema) by renaming a temporary file to its id only if no file of that id exists; {@link
 * LocalFileIO} checks and then moves, atomically only against other threads of its JVM, and a POSIX
 * rename replaces its target. Two processes committing to one table of a local warehouse (two
 * {@code bin/strata-sql} sessions, a shell and a notebook) then both claim the same snapshot id now
 * and then, and one snapshot silently replaces the other: its rows, or a DELETE, are gone although
 * the statement succeeded. A hard link fails if its name exists, in one step, so the rename here is
 * a link to the new name and an unlink of the old one. Where the file system cannot link, it
 * renames as Paimon does.
 */
public final class LocalCommitFileIO extends LocalFileIO {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(LocalCommitFileIO.class);

    /**
     * The catalog context for {@code options}: for a warehouse on the local file system (a {@code
     * file:} URI or a path, which becomes a {@code file:} URI because Paimon gives a path without
     * scheme its own local FileIO), one whose tables commit through this FileIO.
     */
    public static CatalogContext catalogContext(
            Options options, org.apache.hadoop.conf.Configuration hadoopConf) {
        String warehouse = options.get(CatalogOptions.WAREHOUSE);
        if (warehouse == null) {
            return CatalogContext.create(options, hadoopConf);
        }
        String scheme = new Path(warehouse).toUri().getScheme();
        if (scheme == null) {
            Options withUri = new Options(options.toMap());
            withUri.set(
                    CatalogOptions.WAREHOUSE,
                    fileUri(java.nio.file.Path.of(warehouse).toAbsolutePath()));
            return CatalogContext.create(withUri, hadoopConf, new Loader(), null);
        }
        if (scheme.equalsIgnoreCase(Loader.SCHEME)) {
            return CatalogContext.create(options, hadoopConf, new Loader(), null);
        }
        return CatalogContext.create(options, hadoopConf);
    }

    /**
     * The {@code file:} URI Paimon reads as the local directory {@code dir}. Not {@link
     * java.nio.file.Path#toUri()}: Paimon takes a URI's path literally, so its "%20" would name
     * another directory than the path's space.
     */
    public static String fileUri(java.nio.file.Path dir) {
        return Loader.SCHEME + ":" + dir;
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        File from = toFile(src);
        File to = toFile(dst);
        if (!from.isFile() || to.isDirectory()) {
            return super.rename(src, dst);
        }
        File parent = to.getParentFile();
        if (parent != null) {
            parent.mkdirs();
        }
        try {
            Files.createLink(to.toPath(), from.toPath());
        } catch (FileAlreadyExistsException | NoSuchFileException e) {
            return false;
        } catch (UnsupportedOperationException | FileSystemException e) {
            LOG.warn(
                    "Cannot link {} to {} ({}): renaming as Paimon does, which does not keep two "
                            + "processes committing to the same table from replacing each other's snapshot.",
                    src,
                    dst,
                    e.toString());
            return super.rename(src, dst);
        }
        try {
            Files.delete(from.toPath());
        } catch (IOException e) {
            // The new name is in place; a temporary file left behind is removed with orphan files.
            LOG.warn("Cannot delete {} after linking it to {}: {}", src, dst, e.toString());
        }
        return true;
    }

    /** Loads this FileIO for the catalog's {@code file:} warehouse. */
    private static final class Loader implements FileIOLoader {

        private static final long serialVersionUID = 1L;

        static final String SCHEME = "file";

        @Override
        public String getScheme() {
            return SCHEME;
        }

        @Override
        public FileIO load(Path path) {
            return new LocalCommitFileIO();
        }
    }
}
