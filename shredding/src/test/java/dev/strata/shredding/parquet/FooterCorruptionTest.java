package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.layout.FooterBlobs;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.testing.maps.MapDataGenerator;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The footer metadata format: grammar round trip, magic, checksum, and errors that name the file.
 */
class FooterCorruptionTest {

    @TempDir java.nio.file.Path tmp;

    private java.nio.file.Path writeSmallFile() throws Exception {
        java.nio.file.Path file = tmp.resolve("small.parquet");
        var maps =
                MapDataGenerator.builder(42).keyUniverse(50).keysPerRow(4, 8).build().generate(500);
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        FileRoundTrip.write(
                new Path(file.toUri().toString()),
                TestMaps.idAndMap(),
                Map.of("m", 3),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(200),
                ids,
                i -> GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));
        return file;
    }

    @Test
    void metadataRoundTripsAndRecordsOneZoneGroupPerRowGroup() throws Exception {
        java.nio.file.Path file = writeSmallFile();
        ShreddedColumnMeta meta =
                ShreddingFooter.decode(FileRoundTrip.footer(file), "m", file.toString());
        assertThat(meta.numColumns()).isEqualTo(3);
        assertThat(meta.zones()).hasSize(3);
        assertThat(meta.zones().stream().mapToLong(z -> z.rowCount()).sum()).isEqualTo(500);
        ShreddedColumnMeta again =
                ShreddingFooter.decode(ShreddingFooter.encode(meta), () -> meta, "m", "copy");
        assertThat(again.keys()).isEqualTo(meta.keys());
        assertThat(again.overflowSet()).isEqualTo(meta.overflowSet());
        assertThat(again.maxRowWidth()).isEqualTo(meta.maxRowWidth());
    }

    @Test
    void flippedByteInTheFooterBlobFailsTheChecksumNamingTheFile() throws Exception {
        java.nio.file.Path file = writeSmallFile();
        String value = FileRoundTrip.footerValue(file);
        byte[] blob = Base64.getDecoder().decode(value);
        blob[blob.length / 2] ^= 0x01;
        String corrupted = Base64.getEncoder().encodeToString(blob);
        assertThat(corrupted).hasSameSizeAs(value);
        FileRoundTrip.replaceOnce(
                file,
                value.getBytes(StandardCharsets.US_ASCII),
                corrupted.getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(
                        () ->
                                FileRoundTrip.read(
                                        new Path(file.toUri().toString()),
                                        TestMaps.idAndMap(),
                                        null,
                                        null))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(DamagedFileException.class)
                .hasMessageContaining("checksum failed: expected ")
                .hasMessageContaining(file.toUri().toString().replace("file:///", "file:/"))
                .hasMessageContaining("column 'm'");
    }

    @Test
    void missingFooterMetadataIsAClearErrorNamingTheFile() throws Exception {
        java.nio.file.Path file = writeSmallFile();
        FileRoundTrip.replaceOnce(
                file,
                ShreddingFooter.footerKey("m").getBytes(StandardCharsets.US_ASCII),
                ShreddingFooter.footerKey("x").getBytes(StandardCharsets.US_ASCII));
        // Without Strata's entry the reader falls back to Paimon's layout keys; hide those too.
        FileRoundTrip.replaceOnce(
                file,
                "ARROW:schema".getBytes(StandardCharsets.US_ASCII),
                "ARROW:schemX".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(
                        () ->
                                FileRoundTrip.read(
                                        new Path(file.toUri().toString()),
                                        TestMaps.idAndMap(),
                                        null,
                                        null))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(DamagedFileException.class)
                .hasMessageContaining(
                        "the footer has neither Paimon's shared-shredding keys for it in"
                                + " ARROW:schema nor Strata's entry strata.shredding.m of version 3")
                .hasMessageContaining("small.parquet");
    }

    @Test
    void magicChecksumAndTruncationAreCheckedBeforeTheContent() {
        ShreddedColumnMeta meta =
                new ShreddedColumnMeta(
                        2,
                        1,
                        dev.strata.shredding.layout.ValueKind.LONG,
                        List.of("a"),
                        new int[][] {{0}},
                        new java.util.BitSet(),
                        List.of());
        byte[] blob = Base64.getDecoder().decode(ShreddingFooter.encode(meta));
        byte[] magic = blob.clone();
        magic[0] = 'X';
        assertThatThrownBy(
                        () ->
                                ShreddingFooter.decode(
                                        Base64.getEncoder().encodeToString(magic),
                                        () -> meta,
                                        "m",
                                        "f2"))
                .hasMessageContaining("expected magic SSMF, found XSMF")
                .hasMessageContaining("f2");
        assertThatThrownBy(() -> ShreddingFooter.decode("not base64 !!", () -> meta, "m", "f3"))
                .hasMessageContaining("not Base64")
                .hasMessageContaining("f3");
        byte[] cut = java.util.Arrays.copyOf(blob, blob.length - 6);
        FooterBlobs.rechecksum(cut);
        assertThatThrownBy(
                        () ->
                                ShreddingFooter.decode(
                                        Base64.getEncoder().encodeToString(cut),
                                        () -> meta,
                                        "m",
                                        "f4"))
                .hasMessageContaining("f4");
    }
}
