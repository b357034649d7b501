package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM's footer cache: a second open of a file reuses the decoded metadata and reads the same
 * rows; a file of another length under the same path is decoded afresh; a footer that fails to
 * decode is not remembered, so the repaired file opens.
 */
class ShreddedFootersTest {

    @TempDir java.nio.file.Path tmp;

    private List<GeneratedMap> write(java.nio.file.Path file, long seed, int rows)
            throws Exception {
        List<GeneratedMap> maps =
                MapDataGenerator.builder(seed)
                        .keyUniverse(40)
                        .keysPerRow(3, 7)
                        .build()
                        .generate(rows);
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            ids.add(i);
        }
        FileRoundTrip.write(
                new Path(file.toUri().toString()),
                TestMaps.idAndMap(),
                Map.of("m", 3),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(150),
                ids,
                i -> GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));
        return maps;
    }

    private static ShreddedColumnMeta open(java.nio.file.Path file) throws Exception {
        Path p = new Path(file.toUri().toString());
        ShreddedFooters.Opened opened =
                ShreddedFooters.open(
                        PaimonFiles.inputFile(FileRoundTrip.IO, p, Files.size(file)),
                        p.toString(),
                        true);
        try {
            assertThat(opened.reader.getRowGroups()).isNotEmpty();
            return opened.metas.get("m");
        } finally {
            opened.reader.close();
        }
    }

    private static List<String> rows(java.nio.file.Path file) throws Exception {
        List<String> out = new ArrayList<>();
        for (var row :
                FileRoundTrip.read(
                                new Path(file.toUri().toString()), TestMaps.idAndMap(), null, null)
                        .rows) {
            out.add(
                    row.getLong(0)
                            + "|"
                            + (row.isNullAt(1) ? "null" : sorted(TestMaps.entries(row.getMap(1)))));
        }
        return out;
    }

    private static List<String> sorted(List<String> entries) {
        List<String> out = new ArrayList<>(entries);
        out.sort(null);
        return out;
    }

    @Test
    void repeatedOpensShareTheDecodedFooterAndReadTheSameRows() throws Exception {
        java.nio.file.Path file = tmp.resolve("a.parquet");
        List<GeneratedMap> maps = write(file, 7, 500);
        List<String> first = rows(file);
        assertThat(first).hasSize(500);
        assertThat(open(file)).isSameAs(open(file));
        assertThat(rows(file)).as("rows through the cached footer").isEqualTo(first);
        for (int i = 0; i < maps.size(); i++) {
            String expected =
                    i
                            + "|"
                            + (maps.get(i).isNull()
                                    ? "null"
                                    : sorted(TestMaps.expectedEntries(maps.get(i))));
            assertThat(first.get(i)).isEqualTo(expected);
        }
    }

    @Test
    void anotherFileUnderTheSamePathIsDecodedAfresh() throws Exception {
        java.nio.file.Path file = tmp.resolve("b.parquet");
        write(file, 8, 500);
        ShreddedColumnMeta before = open(file);
        assertThat(before.zones()).hasSize(4);
        write(file, 9, 200);
        ShreddedColumnMeta after = open(file);
        assertThat(after).isNotSameAs(before);
        assertThat(after.zones()).hasSize(2);
        assertThat(rows(file)).hasSize(200);
    }

    @Test
    void aFooterThatFailsToDecodeIsNotRemembered() throws Exception {
        java.nio.file.Path file = tmp.resolve("c.parquet");
        write(file, 10, 300);
        byte[] good = Files.readAllBytes(file);
        String value = FileRoundTrip.footerValue(file);
        byte[] blob = Base64.getDecoder().decode(value);
        blob[blob.length / 2] ^= 0x01;
        FileRoundTrip.replaceOnce(
                file,
                value.getBytes(StandardCharsets.US_ASCII),
                Base64.getEncoder().encodeToString(blob).getBytes(StandardCharsets.US_ASCII));
        assertThat(Files.size(file)).isEqualTo(good.length);
        assertThatThrownBy(() -> open(file))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(DamagedFileException.class)
                .hasMessageContaining("checksum failed")
                .hasMessageContaining("c.parquet");
        Files.write(file, good);
        assertThat(open(file).zones()).hasSize(2);
    }
}
