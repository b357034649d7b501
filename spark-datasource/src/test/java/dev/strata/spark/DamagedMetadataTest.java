package dev.strata.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.spark.catalog.TableDiagnosis;
import dev.strata.testing.DefaultSparkOnly;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.paimon.Snapshot;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.table.FileStoreTable;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A damaged metadata file of a real table (latest snapshot, manifest list, manifest, index
 * manifest, schema, a shredded file's Parquet footer or its shredding metadata, a truncated data
 * file): reads, {@code CALL compact} and {@code CALL rebuild_pk_fulltext} fail with an error that
 * names the damaged file and says what was expected, not with Paimon's "Retry fail after 10 times",
 * a NullPointerException or an EOFException.
 */
@DefaultSparkOnly
class DamagedMetadataTest extends StrataSparkTestBase {

    /**
     * Paimon's catalog caches snapshots and manifests; a fresh JVM reading the damaged table has no
     * cache.
     */
    @Override
    protected java.util.Map<String, String> extraConf() {
        return java.util.Map.of("spark.sql.catalog.lake.cache-enabled", "false");
    }

    @BeforeAll
    void namespace() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.dm");
    }

    /**
     * A primary-key table with a full-text index (so its archives are recorded in an index
     * manifest), compacted once, then written again.
     */
    private FileStoreTable pkTable(String name) throws Exception {
        sql(
                "CREATE TABLE lake.dm.%s (id BIGINT, body STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1', "
                        + "'deletion-vectors.enabled' = 'true', 'strata-full-text.index.columns' = 'body')",
                name);
        sql("INSERT INTO lake.dm.%s SELECT id, concat('row ', id) FROM range(0, 200)", name);
        sql("CALL lake.sys.compact(table => 'dm.%s')", name);
        sql("INSERT INTO lake.dm.%s SELECT id, concat('new ', id) FROM range(100, 300)", name);
        assertThat(sql("SELECT count(*) FROM lake.dm.%s", name).get(0).getLong(0)).isEqualTo(300L);
        return paimonTable("dm", name);
    }

    private Path tableDir(String name) {
        return warehouse.resolve("dm.db").resolve(name);
    }

    private static Path local(org.apache.paimon.fs.Path p) {
        return Path.of(p.toUri().getPath());
    }

    /** Every message of the failure's cause chain. */
    private static List<String> messages(Throwable t) {
        List<String> out = new ArrayList<>();
        for (int i = 0; t != null && i < 20; t = t.getCause(), i++) {
            out.add(String.valueOf(t.getMessage()));
        }
        return out;
    }

    /**
     * Runs each statement and expects an error naming {@code file} and containing {@code expected}.
     */
    private void assertEachFailsNaming(Path file, String expected, String... statements) {
        for (String statement : statements) {
            Throwable thrown = catchThrowable(() -> sql(statement));
            assertThat(thrown).as("%s must fail", statement).isNotNull();
            assertThat(messages(thrown))
                    .as("%s: an error naming %s and '%s'", statement, file, expected)
                    .anyMatch(m -> m.contains(file.toString()) && m.contains(expected));
            assertThat(DamagedFileException.in(thrown))
                    .as("%s: a DamagedFileException in the cause chain", statement)
                    .hasValueSatisfying(d -> assertThat(d.file()).endsWith(file.toString()));
        }
    }

    private static void overwriteMiddle(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        for (int i = bytes.length / 3;
                i < bytes.length / 3 + Math.max(8, bytes.length / 10) && i < bytes.length;
                i++) {
            bytes[i] = (byte) 0xA5;
        }
        Files.write(file, bytes);
    }

    private static void truncate(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
    }

    @Test
    void damagedLatestSnapshotIsNamed() throws Exception {
        FileStoreTable t = pkTable("snap");
        Path file = local(t.snapshotManager().snapshotPath(t.snapshotManager().latestSnapshotId()));
        Files.writeString(file, "{\"version\" : 3, \"id\" : ");
        assertEachFailsNaming(
                file,
                "not a valid snapshot JSON",
                "SELECT count(*) FROM lake.dm.snap",
                "SELECT * FROM lake.dm.snap",
                "CALL lake.sys.compact(table => 'dm.snap')",
                "CALL lake.sys.rebuild_pk_fulltext(table => 'dm.snap')");
    }

    /**
     * Another writer expiring the snapshot a statement reads deletes files under it: a missing file
     * that the latest snapshot does not need is not damage (the statement said "restore it from a
     * good copy"), while a file the latest snapshot needs is.
     */
    @Test
    void aFileGoneUnderAStatementIsDamageOnlyIfTheLatestSnapshotNeedsIt() throws Exception {
        FileStoreTable t = pkTable("expired");
        Path expired =
                tableDir("expired").resolve("manifest").resolve("manifest-list-of-an-expired-0");
        RuntimeException gone =
                TableDiagnosis.explain(
                        "lake.dm.expired",
                        t,
                        "scan",
                        new RuntimeException(
                                "Failed to read manifest list",
                                new java.io.FileNotFoundException(
                                        "File " + expired + " does not exist")));
        assertThat(gone.getMessage())
                .startsWith("Cannot scan table lake.dm.expired: a file it read is gone")
                .contains("manifest-list-of-an-expired-0")
                .contains("Run the statement again")
                .doesNotContain("restore");

        Snapshot s = t.snapshotManager().latestSnapshot();
        Path file = local(t.store().pathFactory().toManifestListPath(s.deltaManifestList()));
        Files.delete(file);
        assertEachFailsNaming(
                file,
                "manifest list is missing",
                "SELECT count(*) FROM lake.dm.expired",
                "CALL lake.sys.compact(table => 'dm.expired')");
    }

    @Test
    void damagedManifestListIsNamed() throws Exception {
        FileStoreTable t = pkTable("mlist");
        Snapshot s = t.snapshotManager().latestSnapshot();
        Path file = local(t.store().pathFactory().toManifestListPath(s.deltaManifestList()));
        truncate(file);
        assertEachFailsNaming(
                file,
                "manifest list has the wrong length: expected ",
                "SELECT count(*) FROM lake.dm.mlist",
                "SELECT * FROM lake.dm.mlist",
                "CALL lake.sys.compact(table => 'dm.mlist')",
                "CALL lake.sys.rebuild_pk_fulltext(table => 'dm.mlist')");
    }

    @Test
    void damagedManifestIsNamed() throws Exception {
        FileStoreTable t = pkTable("manifest");
        Snapshot s = t.snapshotManager().latestSnapshot();
        String name =
                t.store().manifestListFactory().create().readDeltaManifests(s).get(0).fileName();
        Path file = local(t.store().pathFactory().toManifestFilePath(name));
        overwriteMiddle(file);
        assertEachFailsNaming(
                file,
                "not a readable manifest",
                "SELECT count(*) FROM lake.dm.manifest",
                "SELECT * FROM lake.dm.manifest",
                "CALL lake.sys.compact(table => 'dm.manifest')",
                "CALL lake.sys.rebuild_pk_fulltext(table => 'dm.manifest')");
    }

    @Test
    void damagedIndexManifestIsNamed() throws Exception {
        FileStoreTable t = pkTable("imanifest");
        Snapshot s = t.snapshotManager().latestSnapshot();
        assertThat(s.indexManifest()).as("archives are recorded in an index manifest").isNotNull();
        Path file =
                local(
                        t.store()
                                .indexManifestFileFactory()
                                .create()
                                .indexManifestFilePath(s.indexManifest()));
        truncate(file);
        assertEachFailsNaming(
                file,
                "not a readable index manifest",
                "SELECT count(*) FROM lake.dm.imanifest",
                "SELECT * FROM lake.dm.imanifest",
                "CALL lake.sys.compact(table => 'dm.imanifest')",
                "CALL lake.sys.rebuild_pk_fulltext(table => 'dm.imanifest')");
    }

    @Test
    void damagedSchemaFileIsNamed() throws Exception {
        FileStoreTable t = pkTable("schema");
        Path file = local(t.schemaManager().toSchemaPath(t.schema().id()));
        Files.writeString(
                file, "{\"version\" : 3, \"id\" : 0, \"fields\" : [ {\"id\" : 0, \"name\" : ");
        assertEachFailsNaming(
                file,
                "not a valid table schema JSON",
                "SELECT count(*) FROM lake.dm.schema",
                "SELECT * FROM lake.dm.schema",
                "CALL lake.sys.compact(table => 'dm.schema')");
    }

    @Test
    void truncatedDataFileIsNamedWithItsExpectedLength() throws Exception {
        sql(
                "CREATE TABLE lake.dm.trunc (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
        sql("INSERT INTO lake.dm.trunc SELECT id, concat('v', id) FROM range(0, 500, 1, 1)");
        sql("INSERT INTO lake.dm.trunc SELECT id, concat('w', id) FROM range(400, 600, 1, 1)");
        Path file;
        try (Stream<Path> files = Files.walk(tableDir("trunc"))) {
            file =
                    files.filter(p -> p.getFileName().toString().startsWith("data-"))
                            .sorted()
                            .findFirst()
                            .orElseThrow();
        }
        long length = Files.size(file);
        truncate(file);
        assertEachFailsNaming(
                file,
                "data file has the wrong length: expected "
                        + length
                        + " bytes, found "
                        + (length / 2),
                "SELECT count(*) FROM lake.dm.trunc",
                "SELECT * FROM lake.dm.trunc",
                "CALL lake.sys.compact(table => 'dm.trunc')");
    }

    /**
     * The first of the two data files of a shredded primary-key table (so compaction reads both).
     */
    private Path shreddedFile(String name) throws Exception {
        sql(
                "CREATE TABLE lake.dm.%s (id BIGINT, m MAP<STRING, BIGINT>) TBLPROPERTIES ('primary-key' = 'id', "
                        + "'bucket' = '1', 'fields.m.map.storage-layout' = 'shared-shredding')",
                name);
        sql(
                "INSERT INTO lake.dm.%s SELECT id, map('a', id, 'b', id + 1) FROM range(0, 500, 1, 1)",
                name);
        sql("INSERT INTO lake.dm.%s SELECT id, map('c', id) FROM range(500, 600, 1, 1)", name);
        try (Stream<Path> files = Files.walk(tableDir(name))) {
            return files.filter(p -> p.getFileName().toString().startsWith("data-"))
                    .sorted()
                    .findFirst()
                    .orElseThrow();
        }
    }

    @Test
    void damagedParquetFooterOfAShreddedFileIsNamed() throws Exception {
        Path file = shreddedFile("shr_footer");
        byte[] bytes = Files.readAllBytes(file);
        int footerLength =
                java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 4)
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .getInt();
        int start = bytes.length - 8 - footerLength;
        for (int i = start + footerLength / 4; i < start + footerLength / 2; i++) {
            bytes[i] = (byte) 0xFF;
        }
        Files.write(file, bytes);
        assertEachFailsNaming(
                file,
                "is damaged",
                "SELECT count(*) FROM lake.dm.shr_footer",
                "SELECT * FROM lake.dm.shr_footer",
                "CALL lake.sys.compact(table => 'dm.shr_footer')");
    }

    @Test
    void damagedShreddingMetadataIsNamed() throws Exception {
        Path file = shreddedFile("shr_blob");
        String blob;
        try (ParquetFileReader r =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(
                                LocalFileIO.create(),
                                new org.apache.paimon.fs.Path(file.toUri()),
                                Files.size(file)),
                        PaimonFiles.readOptions())) {
            blob =
                    r.getFooter()
                            .getFileMetaData()
                            .getKeyValueMetaData()
                            .get(ShreddingFooter.footerKey("m"));
        }
        byte[] bytes = Files.readAllBytes(file);
        byte[] needle = blob.getBytes(StandardCharsets.UTF_8);
        int at = indexOf(bytes, needle);
        assertThat(at).as("the shredding metadata is stored verbatim in the footer").isPositive();
        int flip = at + needle.length / 2;
        bytes[flip] = (byte) (bytes[flip] == 'A' ? 'B' : 'A');
        Files.write(file, bytes);
        assertEachFailsNaming(
                file,
                "shredding metadata of column 'm'",
                "SELECT * FROM lake.dm.shr_blob",
                "CALL lake.sys.compact(table => 'dm.shr_blob')");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
