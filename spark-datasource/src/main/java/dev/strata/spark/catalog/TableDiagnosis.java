package dev.strata.spark.catalog;

import dev.strata.index.archive.ArchiveFiles;
import dev.strata.index.archive.ArchiveHeaders;
import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.parquet.PageChecksums;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedFooters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.paimon.Snapshot;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.FileEntry;
import org.apache.paimon.manifest.FileKind;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.manifest.IndexManifestFile;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.manifest.ManifestFile;
import org.apache.paimon.manifest.ManifestFileMeta;
import org.apache.paimon.manifest.ManifestList;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.utils.FileStorePathFactory;
import org.apache.paimon.utils.SnapshotManager;

/**
 * Finds the damaged file after Paimon failed without naming it, by re-reading the table's metadata
 * chain one file at a time in dependency order (schemas, snapshot, manifest lists, manifests, index
 * manifest, data files, archives; pages only when they carry checksums and a page failed to
 * decode). The first failing file is reported; the original failure stays the cause.
 */
public final class TableDiagnosis {

    private TableDiagnosis() {}

    /** An error naming the damaged file if there is one, else {@code failure} itself. */
    public static RuntimeException explain(
            String qualified, FileStoreTable table, String action, Throwable failure) {
        Optional<DamagedFileException> damaged = find(table, failure);
        if (removedWhileRead(table, failure, damaged)) {
            return new UncheckedIOException(
                    String.format(
                            "Cannot %s table %s: a file it read is gone (%s), but the table's"
                                    + " latest snapshot has every file it needs: another writer"
                                    + " expired the snapshot this statement read, or removed its"
                                    + " files, while it ran. Run the statement again.",
                            action,
                            qualified,
                            damaged.map(DamagedFileException::file)
                                    .orElseGet(() -> notFound(failure).getMessage())),
                    asIo(failure));
        }
        if (damaged.isPresent()) {
            String own = failure.getMessage();
            // Strata's own errors say what happened to the operation: keep that.
            String message =
                    own != null && own.startsWith("Cannot ")
                            ? own + " The cause: " + damaged.get().getMessage()
                            : "Cannot "
                                    + action
                                    + " table "
                                    + qualified
                                    + ": "
                                    + damaged.get().getMessage();
            return new UncheckedIOException(message, damaged.get());
        }
        return failure instanceof RuntimeException
                ? (RuntimeException) failure
                : new UncheckedIOException(
                        "Cannot " + action + " table " + qualified + ": " + failure, asIo(failure));
    }

    /**
     * Whether a file the statement read is missing although the latest snapshot, checked once more,
     * is whole: snapshot expiry (or remove_orphan_files) under a running statement, which deletes
     * the files of the snapshot it read, not damage. Real damage is found again.
     */
    private static boolean removedWhileRead(
            FileStoreTable table, Throwable failure, Optional<DamagedFileException> damaged) {
        if ((damaged.isPresent() ? notFound(damaged.get()) : notFound(failure)) == null) {
            return false;
        }
        try {
            check(table, failure);
            return pinnedSnapshot(table) == null;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The file-not-found exception in {@code failure}'s cause chain, or null. */
    private static Throwable notFound(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.io.FileNotFoundException
                    || t instanceof java.nio.file.NoSuchFileException) {
                return t;
            }
        }
        return null;
    }

    /** For a table that cannot be loaded. */
    public static Optional<DamagedFileException> findInSchemas(
            FileIO fileIO, Path location, Throwable cause) {
        try {
            checkSchemas(new SchemaManager(fileIO, location), fileIO, cause);
            return Optional.empty();
        } catch (DamagedFileException e) {
            return Optional.of(e);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** In the current snapshot, or the one the table is pinned to. */
    public static Optional<DamagedFileException> find(FileStoreTable table, Throwable cause) {
        Optional<DamagedFileException> reported = DamagedFileException.in(cause);
        if (reported.isPresent()) {
            return reported;
        }
        try {
            check(table, cause);
            return Optional.empty();
        } catch (DamagedFileException e) {
            return Optional.of(e);
        } catch (IOException | RuntimeException e) {
            // The diagnosis itself failed: report the original failure.
            if (cause != null) {
                cause.addSuppressed(e);
            }
            return Optional.empty();
        }
    }

    private static void check(FileStoreTable table, Throwable cause) throws IOException {
        FileIO fileIO = table.fileIO();
        checkSchemas(table.schemaManager(), fileIO, cause);
        SnapshotManager snapshots = table.snapshotManager();
        Long id = pinnedSnapshot(table);
        if (id == null) {
            id = snapshots.latestSnapshotIdFromFileSystem();
        }
        if (id == null) {
            return;
        }
        Path snapshotPath = snapshots.snapshotPath(id);
        Snapshot snapshot;
        try {
            snapshot = Snapshot.fromJson(fileIO.readFileUtf8(snapshotPath));
        } catch (IOException | RuntimeException e) {
            throw damaged(
                    snapshotPath, "not a valid snapshot JSON (" + describe(e) + ")", cause, e);
        }
        FileStorePathFactory paths = table.store().pathFactory();
        ManifestList manifestList = table.store().manifestListFactory().create();
        List<ManifestFileMeta> manifests = new ArrayList<>();
        manifests.addAll(
                readManifestList(
                        fileIO,
                        manifestList,
                        paths,
                        snapshot.baseManifestList(),
                        snapshot.baseManifestListSize(),
                        cause));
        manifests.addAll(
                readManifestList(
                        fileIO,
                        manifestList,
                        paths,
                        snapshot.deltaManifestList(),
                        snapshot.deltaManifestListSize(),
                        cause));
        ManifestFile manifestFile = table.store().manifestFileFactory().create();
        Map<FileEntry.Identifier, ManifestEntry> live = new LinkedHashMap<>();
        for (ManifestFileMeta m : manifests) {
            Path path = paths.toManifestFilePath(m.fileName());
            checkLength(fileIO, path, m.fileSize(), "manifest", cause);
            List<ManifestEntry> entries;
            try {
                entries = manifestFile.readWithIOException(m.fileName(), m.fileSize());
            } catch (IOException | RuntimeException e) {
                throw damaged(path, "not a readable manifest (" + describe(e) + ")", cause, e);
            }
            for (ManifestEntry e : entries) {
                if (e.kind() == FileKind.ADD) {
                    live.put(e.identifier(), e);
                } else {
                    live.remove(e.identifier());
                }
            }
        }
        List<IndexManifestEntry> indexEntries = new ArrayList<>();
        if (snapshot.indexManifest() != null) {
            IndexManifestFile indexManifest = table.store().indexManifestFileFactory().create();
            Path path = indexManifest.indexManifestFilePath(snapshot.indexManifest());
            try {
                indexEntries = indexManifest.readWithIOException(snapshot.indexManifest());
            } catch (IOException | RuntimeException e) {
                throw damaged(
                        path, "not a readable index manifest (" + describe(e) + ")", cause, e);
            }
        }
        // Reading every page is a full scan: only when a page failed to decode.
        boolean pages = PageChecksums.verifyEnabled(table.options()) && pageDecodingFailed(cause);
        try {
            for (ManifestEntry e : live.values()) {
                Path path =
                        paths.createDataFilePathFactory(e.partition(), e.bucket()).toPath(e.file());
                checkDataFile(fileIO, path, e.file(), cause);
                if (pages && PaimonFiles.isParquet(e.file().fileFormat())) {
                    PageChecksums.verifyFile(
                            PaimonFiles.inputFile(fileIO, path, e.file().fileSize()),
                            path.toString());
                }
            }
            for (IndexManifestEntry e : indexEntries) {
                IndexFileMeta meta = e.indexFile();
                if (e.kind() == FileKind.ADD && ArchiveFiles.INDEX_TYPE.equals(meta.indexType())) {
                    new ArchiveHeaders(true)
                            .verify(ArchiveFiles.of(table, e.partition(), e.bucket()), meta);
                }
            }
        } catch (DamagedFileException d) {
            throw cause == null || d.getCause() == cause ? d : new DamagedFileException(d, cause);
        }
    }

    /** Parquet-mr's decoding error, shaded or not, in the cause chain. */
    private static boolean pageDecodingFailed(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof org.apache.parquet.io.ParquetDecodingException
                    || t.getClass().getName().endsWith(".parquet.io.ParquetDecodingException")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static Long pinnedSnapshot(FileStoreTable table) {
        String id = table.options().get("scan.snapshot-id");
        try {
            return id == null ? null : Long.parseLong(id.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static void checkSchemas(SchemaManager schemas, FileIO fileIO, Throwable cause)
            throws IOException {
        for (long id : schemas.listAllIds()) {
            Path path = schemas.toSchemaPath(id);
            try {
                TableSchema.fromJson(fileIO.readFileUtf8(path));
            } catch (IOException | RuntimeException e) {
                throw damaged(
                        path, "not a valid table schema JSON (" + describe(e) + ")", cause, e);
            }
        }
    }

    private static List<ManifestFileMeta> readManifestList(
            FileIO fileIO,
            ManifestList manifestList,
            FileStorePathFactory paths,
            String name,
            Long size,
            Throwable cause)
            throws IOException {
        if (name == null) {
            return List.of();
        }
        Path path = paths.toManifestListPath(name);
        if (size != null) {
            checkLength(fileIO, path, size, "manifest list", cause);
        }
        try {
            return manifestList.readWithIOException(name, size);
        } catch (IOException | RuntimeException e) {
            throw damaged(path, "not a readable manifest list (" + describe(e) + ")", cause, e);
        }
    }

    private static void checkDataFile(FileIO fileIO, Path path, DataFileMeta file, Throwable cause)
            throws IOException {
        checkLength(fileIO, path, file.fileSize(), "data file", cause);
        if (PaimonFiles.isParquet(file.fileFormat())) {
            // Any Parquet file may hold shredded maps.
            try {
                ShreddedFooters.open(
                                PaimonFiles.inputFile(fileIO, path, file.fileSize()),
                                path.toString(),
                                false)
                        .reader
                        .close();
            } catch (IOException | RuntimeException e) {
                Optional<DamagedFileException> reported = DamagedFileException.in(e);
                if (reported.isPresent()) {
                    throw cause == null
                            ? reported.get()
                            : new DamagedFileException(reported.get(), cause);
                }
                throw damaged(
                        path,
                        "its Parquet footer or shredding metadata is unreadable ("
                                + describe(e)
                                + ")",
                        cause,
                        e);
            }
        }
    }

    private static void checkLength(
            FileIO fileIO, Path path, long expected, String kind, Throwable cause)
            throws IOException {
        long actual;
        try {
            actual = fileIO.getFileSize(path);
        } catch (java.io.FileNotFoundException e) {
            throw damaged(path, kind + " is missing (expected " + expected + " bytes)", cause, e);
        }
        if (actual != expected) {
            throw damaged(
                    path,
                    kind
                            + " has the wrong length: expected "
                            + expected
                            + " bytes, found "
                            + actual,
                    cause,
                    null);
        }
    }

    private static DamagedFileException damaged(
            Path path, String what, Throwable cause, Throwable found) {
        DamagedFileException e =
                new DamagedFileException(path.toString(), what, cause != null ? cause : found);
        if (cause != null && found != null && found != cause) {
            e.addSuppressed(found);
        }
        return e;
    }

    private static String describe(Throwable e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static IOException asIo(Throwable t) {
        return t instanceof IOException ? (IOException) t : new IOException(t);
    }
}
