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
 * Refuses commits concurrent writers could silently lose. On an object store the filesystem
 * catalog's "rename if absent" of a snapshot file is two steps, so two writers of the same id can
 * both succeed and one snapshot is overwritten. Only a catalog lock (JDBC with {@code
 * lock.enabled}, Hive) or a versioning catalog (REST) is safe; the filesystem catalog has no lock.
 * An explicit {@code lock.enabled = false} declares a single writer and is accepted.
 */
public final class CommitSafety {

    /**
     * Set by the Strata catalog among its Paimon catalog's options (never persisted; Paimon ignores
     * it): the Spark catalog's name, so a commit's refusal names the settings to write.
     */
    public static final String SPARK_CATALOG_OPTION = "strata.spark-catalog-name";

    private CommitSafety() {}

    /** Before CREATE TABLE and CTAS. */
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

    /** Before every commit. */
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
                    message(
                            "commit " + what,
                            table.location().toString(),
                            catalogOptions.getString(SPARK_CATALOG_OPTION, "<catalog>"),
                            reason));
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
