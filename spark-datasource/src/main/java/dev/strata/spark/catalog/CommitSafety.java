package dev.strata.spark.catalog;

import org.apache.paimon.catalog.AbstractCatalog;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.DelegateCatalog;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.options.CatalogOptions;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.CatalogEnvironment;
import org.apache.paimon.table.FileStoreTable;

/**
 * Refuses commits that concurrent writers could silently lose. Paimon's filesystem catalog lands a
 * snapshot by renaming its file into place only if no file of that id exists; on an object store
 * (s3, s3a, oss, gs, abfs, ...) the check and the copy-based rename are two steps, so two writers
 * picking the same snapshot id can both "succeed" and one snapshot is overwritten. Paimon makes
 * this safe only with a catalog lock around the commit (its JDBC catalog with {@code lock.enabled},
 * or a Hive metastore) or a catalog that versions snapshots itself (REST). Paimon enables the lock
 * by default on object stores but its filesystem catalog has no lock to take, so without this check
 * commits there are unlocked without a word.
 *
 * <p>An explicit {@code lock.enabled = false} in the catalog options is the user's statement that
 * one writer commits at a time, and is accepted.
 */
public final class CommitSafety {

    private CommitSafety() {}

    /** Before CREATE TABLE (and CTAS) in {@code catalogName}: checks the catalog's commits. */
    public static void checkCatalog(String action, String catalogName, Catalog paimon) {
        Catalog root = DelegateCatalog.rootCatalog(paimon);
        if (!(root instanceof AbstractCatalog)) {
            return; // REST and other catalogs commit through their server.
        }
        AbstractCatalog catalog = (AbstractCatalog) root;
        String reason =
                unsafeReason(
                        catalog.fileIO(),
                        catalog.supportsVersionManagement(),
                        catalog.lockFactory().isPresent(),
                        Options.fromMap(catalog.options()));
        if (reason != null) {
            throw new IllegalStateException(
                    message(action, catalog.warehouse(), catalogName, reason));
        }
    }

    /** Before a commit of {@code table} ({@code what}: "the write (APPEND) to lake.db.t"). */
    public static void checkTable(FileStoreTable table, String what) {
        CatalogEnvironment env = table.catalogEnvironment();
        if (env == null) {
            return;
        }
        Options catalogOptions =
                env.lockContext() != null ? env.lockContext().options() : new Options();
        String reason =
                unsafeReason(
                        table.fileIO(),
                        env.supportsVersionManagement(),
                        env.lockFactory() != null,
                        catalogOptions);
        if (reason != null) {
            throw new IllegalStateException(
                    message("commit " + what, table.location().toString(), "<catalog>", reason));
        }
    }

    private static String unsafeReason(
            FileIO fileIO, boolean versionManaged, boolean locked, Options catalogOptions) {
        if (!fileIO.isObjectStore() || versionManaged || locked) {
            return null;
        }
        if (!catalogOptions.getOptional(CatalogOptions.LOCK_ENABLED).orElse(true)) {
            return null; // the user's statement: one writer at a time
        }
        return "it is on an object store, which has no atomic rename, and the catalog has no commit"
                + " lock, so two writers committing at once could overwrite each other's snapshot"
                + " and lose a commit without an error";
    }

    private static String message(String action, String location, String catalog, String reason) {
        return String.format(
                "Cannot %s at %s: %s. Give the catalog a lock: spark.sql.catalog.%s.metastore=jdbc,"
                        + " spark.sql.catalog.%s.uri=<JDBC URL of a MySQL, PostgreSQL or SQLite database>"
                        + " and spark.sql.catalog.%s.lock.enabled=true (with the JDBC driver on the driver's"
                        + " classpath), or, if only one writer ever commits to this warehouse at a time, set"
                        + " spark.sql.catalog.%s.lock.enabled=false.",
                action, location, reason, catalog, catalog, catalog, catalog);
    }
}
